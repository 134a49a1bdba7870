"""Learning environments benchmark: steps/s of maumau.env against the raw engine, same run.

    python benchmarks/env.py                      # every variant, 2 players
    python benchmarks/env.py --variant makao --players 3 --seconds 5

Three loops play uniformly random legal moves for about ``--seconds`` each (best of ``--repeat``):
the raw engine (``legal_moves`` + ``apply``), the PettingZoo AEC env (``last()`` builds the
observation and the mask of the seat to move, a random masked action, ``step``) and the
Gymnasium env (seat 0 random against a Random computer; its steps count seat 0's decisions
and the computer's moves count as engine decisions inside them).  A ratio env/raw near 1 would
mean the env adds nothing; what it adds is building the seat's View, the observation vector
and the mask at every decision.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import maumau as mm  # noqa: E402
from maumau import env  # noqa: E402

Run = tuple[int, float]  # decisions, seconds


def raw(variant: str, players: int, seconds: float) -> Run:
    rng = random.Random(0)
    decisions, games = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = mm.deal(variant, players=players, seed=games)
        games += 1
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
            decisions += 1
    return decisions, time.perf_counter() - start


def aec(variant: str, players: int, seconds: float) -> Run:
    e = env.aec(variant, players=players, seed=0)
    rng = random.Random(0)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset()
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            decisions += 1
    return decisions, time.perf_counter() - start


def gym(variant: str, players: int, seconds: float) -> Run:
    g = env.gym(variant, opponents=["random"] * (players - 1), seed=0)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _ = g.reset()
        done = False
        while not done:
            obs, _, term, trunc, _ = g.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            done = term or trunc
            steps += 1
    return steps, time.perf_counter() - start


def best_rounds(variant: str, players: int, seconds: float, repeat: int) -> list[float]:
    """The best rate of each loop (raw, AEC, Gym), the loops taking turns round by round, so that a
    shared machine's swings hit all three alike."""
    rates: list[list[float]] = [[], [], []]
    for _ in range(repeat):
        for i, loop in enumerate((raw, aec, gym)):
            n, t = loop(variant, players, seconds)
            rates[i].append(n / t)
    return [max(r) for r in rates]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=mm.variant_names())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"engine: {'compiled' if mm.compiled else 'pure Python'}; {args.players} players; random legal moves; "
          f"best of {args.repeat} rounds of {args.seconds:g} s, the loops taking turns")
    print(f"{'variant':<15}{'raw engine':>14}{'AEC env':>14}{'Gym env':>14}{'AEC/raw':>9}{'Gym/raw':>9}")
    for variant in args.variant or mm.variant_names():
        r, a, g = best_rounds(variant, args.players, args.seconds, args.repeat)
        print(f"{variant:<15}{r:>14,.0f}{a:>14,.0f}{g:>14,.0f}{a / r:>9.2f}{g / r:>9.2f}")
    print("(decisions/s; the Gym env's steps are seat 0's decisions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
