"""Batched-engine benchmark: decisions/s of ``maumau.env.Batch`` in random legal play of Makaó, beside
the scalar engine's in the same run (issue 39 item 4; the goal is 3,000,000 decisions/s for 2 players).

    nice -n 10 python benchmarks/batch.py                  # games=1024 and 4096, 2 players
    python benchmarks/batch.py --games 4096 --players 3 --seconds 5

Two ways to play: ``sample+step`` (``Batch.sample``: a uniformly random legal action per hand, without
the mask; ``step`` knows sample's own read-only array legal) and ``mask+step`` (``Batch.legal_mask()``
made at every step, as an agent reads it, and ``step`` checking every action in full, as it does an
agent's own array; the actions are a copy of ``sample``'s, so that how an agent chooses from the mask,
its own cost, is left out).  Each figure is the best of ``--repeat`` rounds (a shared
machine is noisy); the scalar engine is ``benchmarks/engine.py``'s random self-play (deal,
``legal_moves``, ``apply``), compiled where it was built.  ``record=False``: no record is kept.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine import random_games  # noqa: E402
from maumau.core.compiled import COMPILED  # noqa: E402
from maumau.env import Batch  # noqa: E402


def batch_rate(games: int, players: int, seconds: float, how: str, seed: int = 0) -> float:
    """Decisions/s of a Batch of ``games`` hands in random legal play for about ``seconds``."""
    b = Batch("makao", games=games, players=players, seed=seed, record=False)
    rng = np.random.default_rng(seed)
    for _ in range(20):  # past the first deals: the hands grow, the stock runs out (C-6)
        b.step(b.sample(rng))
    start, before = time.perf_counter(), b.decisions
    while time.perf_counter() - start < seconds:
        if how == "sample":
            b.step(b.sample(rng))
        else:
            b.legal_mask()
            b.step(b.sample(rng).copy())
    return (b.decisions - before) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1024, 4096, 16384])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"makao, {args.players} players, random legal play; load {os.getloadavg()[0]:.2f}, "
          f"best of {args.repeat} rounds of {args.seconds:g} s")
    scalar = max(d / t for _, d, t in (random_games("makao", args.players, args.seconds, seed=r)
                                       for r in range(args.repeat)))
    engine = "compiled" if COMPILED else "pure Python"
    print(f"{'scalar engine (' + engine + ')':<32}{scalar:>14,.0f} decisions/s")
    for games in args.games:
        for how in ("sample", "mask"):
            rate = max(batch_rate(games, args.players, args.seconds, how, seed=r) for r in range(args.repeat))
            label = f"Batch games={games} {how}+step"
            print(f"{label:<32}{rate:>14,.0f} decisions/s  {rate / scalar:6.1f}x the scalar engine")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
