"""Learning environments benchmark: steps/s of maumau.env against the raw engine, same run.

    python benchmarks/env.py                      # every variant, 2 players
    python benchmarks/env.py --players 2 3        # every variant, 2 and then 3 players, one run
    python benchmarks/env.py --variant makao --players 3 --seconds 5

Three loops play uniformly random legal moves for about ``--seconds`` each (best of ``--repeat``):
the raw engine (``legal_moves`` + ``apply``), the PettingZoo AEC env (``last()`` builds the
observation and the mask of the seat to move, a random masked action, ``step``) and the
Gymnasium env (seat 0 random against Random computers; its steps count seat 0's decisions
and the computers' moves count as engine decisions inside them, so a Gym step holds about
``players`` decisions: "Gym dec/s" counts them all, the figure to set beside the raw engine's).
A ratio env/raw near 1 would mean the env adds nothing; what it adds at every decision is the
seat's observation vector (kept up to date move by move, ``maumau.env.seen``), the mask, the
check of the action and the bookkeeping of PettingZoo's or Gymnasium's API.
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


def gym(variant: str, players: int, seconds: float) -> tuple[int, int, float]:
    """Seat 0's steps, every decision of the hands (the computers' too), seconds."""
    g = env.gym(variant, opponents=["random"] * (players - 1), seed=0)
    rng = random.Random(0)
    steps = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _ = g.reset()
        done = False
        while not done:
            obs, _, term, trunc, _ = g.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            done = term or trunc
            steps += 1
        decisions += g.hand.steps
    return steps, decisions, time.perf_counter() - start


def best_rounds(variant: str, players: int, seconds: float, repeat: int) -> list[float]:
    """The best rate of each loop (raw, AEC, Gym steps, Gym decisions), the loops taking turns round
    by round, so that a shared machine's swings hit all three alike."""
    rates: list[list[float]] = [[], [], [], []]
    for _ in range(repeat):
        n, t = raw(variant, players, seconds)
        rates[0].append(n / t)
        n, t = aec(variant, players, seconds)
        rates[1].append(n / t)
        n, d, t = gym(variant, players, seconds)
        rates[2].append(n / t)
        rates[3].append(d / t)
    return [max(r) for r in rates]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=mm.variant_names())
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"engine: {'compiled' if mm.compiled else 'pure Python'}; random legal moves; "
          f"best of {args.repeat} rounds of {args.seconds:g} s, the loops taking turns")
    print(f"{'variant':<15}{'seats':>6}{'raw engine':>12}{'AEC env':>10}{'Gym steps':>11}{'Gym dec/s':>11}"
          f"{'AEC/raw':>9}{'Gym dec/raw':>12}")
    for players in args.players:
        for variant in args.variant or mm.variant_names():
            r, a, g, d = best_rounds(variant, players, args.seconds, args.repeat)
            print(f"{variant:<15}{players:>6}{r:>12,.0f}{a:>10,.0f}{g:>11,.0f}{d:>11,.0f}{a / r:>9.2f}{d / r:>12.2f}")
    print("(decisions/s; Gym steps: seat 0's decisions/s; Gym dec/s: every decision of its hands, the computers' too)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
