"""One random-play loop for every PettingZoo AEC environment, ours and PettingZoo's own.

``benchmarks/peers.py`` runs it in fresh processes, so that our makao AEC env is measured in the
same run and by the same loop as PettingZoo's classic ``leduc_holdem_v4`` (RLCard's Leduc hold'em
under PettingZoo's wrappers) and ``connect_four_v3``: ``last()`` builds the seat's observation and
action mask, a uniformly random masked action is chosen, ``step`` plays it.  A step of a finished
agent (``step(None)``) is bookkeeping, not a decision, and is not counted.  The batched engine
(``maumau.env.Batch``, where this checkout has it) is measured the way a trainer uses it: one
random legal action for every game, one ``step`` for all of them.

    python benchmarks/aec_loop.py maumau          # one loop of 2 seconds, printed (also: gym, batch)
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Run = tuple[int, int, float]  # games, decisions, seconds

#: our env and PettingZoo's classic envs, by the name the benchmark gives them
PETTINGZOO = {"leduc_holdem_v4": "pettingzoo.classic.leduc_holdem_v4",
              "connect_four_v3": "pettingzoo.classic.connect_four_v3"}


def make(name: str, seed: int) -> Any | None:
    """The AEC env called ``name`` ("maumau": our makao, 2 seats), None if it is not installed."""
    try:
        if name == "maumau":
            from maumau import env

            return env.aec("makao", players=2, seed=seed)
        module = __import__(PETTINGZOO[name], fromlist=["env"])
        return module.env()
    except ImportError:
        return None


def aec_games(name: str, seconds: float, seed: int = 0,
              clock: Callable[[], float] = time.perf_counter) -> Run | None:
    """Random legal play of AEC env ``name`` for about ``seconds`` of ``clock``."""
    e = make(name, seed)
    if e is None:
        return None
    choice = random.Random(seed).choice
    games = decisions = 0
    start = clock()
    while clock() < start + seconds:
        e.reset(seed=seed + games)
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(choice(np.flatnonzero(obs["action_mask"]).tolist()))
            decisions += 1
        games += 1
    return games, decisions, clock() - start


def gym_games(seconds: float, seed: int = 0, clock: Callable[[], float] = time.perf_counter) -> Run:
    """Random masked play of our Gymnasium env (makao, seat 0 against a Random computer); the decisions
    column counts every decision of the hands, the computer's too (a Gym step holds both seats')."""
    from maumau import env

    g = env.gym("makao", opponents=["random"], seed=seed)
    choice = random.Random(seed).choice
    games = decisions = 0
    start = clock()
    while clock() < start + seconds:
        obs, _ = g.reset(seed=seed + games)
        done = False
        while not done:
            obs, _, term, trunc, _ = g.step(choice(np.flatnonzero(obs["action_mask"]).tolist()))
            done = term or trunc
        decisions += g.hand.steps
        games += 1
    return games, decisions, clock() - start


def batch_games(seconds: float, seed: int = 0, games: int = 4096,
                clock: Callable[[], float] = time.perf_counter) -> Run | None:
    """Random legal play of ``games`` makao games at once (``maumau.env.Batch``, 2 seats), None where
    this checkout has no Batch; the games column counts finished games."""
    try:
        from maumau.env import Batch
    except ImportError:
        return None
    b = Batch("makao", games=games, players=2, seed=seed, record=False)
    rng = np.random.default_rng(seed)
    start = clock()
    while clock() < start + seconds:
        b.step(b.sample(rng))
    return int(b.finished.sum()), b.decisions, clock() - start


if __name__ == "__main__":
    found = (batch_games(2.0) if sys.argv[1] == "batch" else gym_games(2.0) if sys.argv[1] == "gym"
             else aec_games(sys.argv[1], 2.0))
    print(found)
