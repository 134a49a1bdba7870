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

"AEC floor" runs the AEC loop around an env that does nothing but the raw engine's move: a constant
observation, a mask of one entry, ``step`` plays a random legal move (``Floor``).  It is what the loop
itself costs, PettingZoo's calls and numpy's for the mask and the agent's choice: no AEC env, however
fast, comes above it, so "floor/raw" bounds "AEC/raw".
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from pettingzoo import AECEnv

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
    return _random_aec(env.aec(variant, players=players, seed=0), seconds)


def floor(variant: str, players: int, seconds: float) -> Run:
    """The AEC loop of ``aec`` around ``Floor``: the raw engine inside PettingZoo's API, nothing more."""
    return _random_aec(Floor(variant, players), seconds)


def _random_aec(e: Any, seconds: float) -> Run:
    """Random masked play of the AEC env ``e`` (``last()``, a random legal action, ``step``) for about
    ``seconds``: decisions and seconds; a finished agent's ``step(None)`` is not counted."""
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


class Floor(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """An AEC env that adds nothing to the raw engine but PettingZoo's API: it observes a constant
    (copied, as an env must hand out new arrays) and plays a random legal move whatever the action."""

    metadata = {"name": "floor"}

    def __init__(self, variant: str, players: int) -> None:
        super().__init__()
        self.variant, self.players = variant, players
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.rng, self.games = random.Random(0), 0
        actions = env.actions(variant)
        mask = np.zeros(len(actions), dtype=np.int8)
        mask[0] = 1
        size = env.Observer(actions.variant, players).size  # arrays the size of the env's own
        self.obs = {"observation": np.zeros(size, dtype=np.float32), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        self.state = mm.deal(self.variant, players=self.players, seed=self.games)
        self.games += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.state.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self.obs["observation"].copy(), "action_mask": self.obs["action_mask"].copy()}

    def step(self, action: object) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self.state = self.state.apply(self.rng.choice(self.state.legal_moves()))
        if self.state.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.state.to_move]


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
    """The best rate of each loop (raw, AEC, Gym steps, Gym decisions, AEC floor), the loops taking turns
    round by round, so that a shared machine's swings hit them all alike."""
    rates: list[list[float]] = [[], [], [], [], []]
    for _ in range(repeat):
        n, t = raw(variant, players, seconds)
        rates[0].append(n / t)
        n, t = aec(variant, players, seconds)
        rates[1].append(n / t)
        n, d, t = gym(variant, players, seconds)
        rates[2].append(n / t)
        rates[3].append(d / t)
        n, t = floor(variant, players, seconds)
        rates[4].append(n / t)
    return [max(r) for r in rates]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=mm.variant_names())
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"engine: {'compiled' if mm.compiled else 'pure Python'}, environments: "
          f"{'compiled' if env._COMPILED else 'pure Python'}; random legal moves; "
          f"best of {args.repeat} rounds of {args.seconds:g} s, the loops taking turns")
    print(f"{'variant':<15}{'seats':>6}{'raw engine':>12}{'AEC env':>10}{'Gym steps':>11}{'Gym dec/s':>11}"
          f"{'AEC floor':>11}{'AEC/raw':>9}{'Gym dec/raw':>12}{'floor/raw':>10}")
    for players in args.players:
        for variant in args.variant or mm.variant_names():
            r, a, g, d, f = best_rounds(variant, players, args.seconds, args.repeat)
            print(f"{variant:<15}{players:>6}{r:>12,.0f}{a:>10,.0f}{g:>11,.0f}{d:>11,.0f}{f:>11,.0f}"
                  f"{a / r:>9.2f}{d / r:>12.2f}{f / r:>10.2f}")
    print("(decisions/s; Gym steps: seat 0's decisions/s; Gym dec/s: every decision of its hands, the computers' too;")
    print(" AEC floor: the AEC loop around the raw engine alone, the most any AEC env can make)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
