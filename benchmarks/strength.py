"""Strength table: are the computer strengths measurably stronger?  (issue: computer opponents)

    python benchmarks/strength.py                                  # every variant, 2,000 games a pairing
    python benchmarks/strength.py --variant makao --games 500 --pair search:heuristic
    python benchmarks/strength.py --search-samples 24              # a smaller Search budget

Two-player hands with alternating seats (``mm.simulate`` with ``rotate=True``), the first
player's win rate with its 95 % Wilson interval, and whether the interval's lower bound
clears the bar (60 % for Heuristic over Random, 50 % for Search over Heuristic).  Runs
in a process pool over ``--workers`` processes; the results do not depend on it.  Also
prints the Search player's time per decision (mean, 95th percentile, largest).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import maumau as mm  # noqa: E402
from maumau.players import Heuristic, Search, for_strength  # noqa: E402

#: The bar a pairing must clear (lower bound of the 95 % interval), from the issue.
BARS = {("heuristic", "random"): 0.60, ("search", "heuristic"): 0.50}


def make(name: str, samples: int | None) -> object:
    if name == "search" and samples is not None:
        return Search(samples=samples)
    return for_strength(name)


def search_move_times(variant: str, moves: int, seed: int = 0) -> list[float]:
    """Seconds per Search decision (default budget) over ``moves`` decisions against Heuristic,
    counting only decisions with more than one legal move (the others take no search)."""
    rng = random.Random(seed)
    times: list[float] = []
    search = Search(seed=seed)
    while len(times) < moves:
        state = mm.deal(variant, players=2, seed=rng.getrandbits(32))
        players = [search, Heuristic()]
        while not state.is_over and len(times) < moves:
            player = players[state.to_move]
            if player is search and len(state.legal_moves()) > 1:
                start = time.perf_counter()
                move = player.choose(state)
                times.append(time.perf_counter() - start)
            else:
                move = player.choose(state)
            state = state.apply(move)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=mm.variant_names(), help="repeatable; default all")
    parser.add_argument("--pair", action="append", help="A:B, the first player is measured (repeatable; "
                        "default heuristic:random and search:heuristic)")
    parser.add_argument("--games", type=int, default=2000, help="games per pairing and variant (default 2000)")
    parser.add_argument("--search-games", type=int, default=None, help="games for pairings with Search "
                        "(default: --games)")
    parser.add_argument("--search-samples", type=int, default=None, help="Search budget (default: its own)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--timing-moves", type=int, default=200, help="Search decisions timed per variant")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    variants = args.variant or mm.variant_names()
    pairs = [tuple(p.lower().split(":")) for p in (args.pair or ["heuristic:random", "search:heuristic"])]

    print(f"maumau {mm.__version__}, Python {sys.version.split()[0]}, 2 players, seats alternate, "
          f"{args.workers} worker processes, seed {args.seed}")
    print("| variant | pairing | games | first wins | win rate | 95% CI | bar | cleared | s/game |")
    print("|---|---|---:|---:|---:|---|---:|---|---:|")
    with ProcessPoolExecutor(args.workers) as pool:
        for name in variants:
            for first, second in pairs:
                games = args.search_games if "search" in (first, second) and args.search_games else args.games
                players = [make(first, args.search_samples), make(second, args.search_samples)]
                start = time.perf_counter()
                result = mm.simulate(name, players=players, games=games, seed=args.seed, executor=pool,
                                     progress=not args.no_progress)
                elapsed = time.perf_counter() - start
                row = result.by_player()[0]
                bar = BARS.get((first, second), 0.5)
                ok = "yes" if row["ci_low"] > bar else "no"
                print(f"| {name} | {players[0]!r} vs {players[1]!r} | {games} | {row['wins']} | "
                      f"{row['win_rate']:.1%} | [{row['ci_low']:.1%}, {row['ci_high']:.1%}] | {bar:.0%} | {ok} | "
                      f"{elapsed / games:.3f} |", flush=True)
    if args.timing_moves:
        print()
        print("Search() time per decision (default budget, decisions with a choice, one process):")
        for name in variants:
            times = sorted(search_move_times(name, args.timing_moves))
            p95 = times[int(0.95 * (len(times) - 1))]
            print(f"  {name:<15} mean {statistics.fmean(times) * 1000:6.1f} ms, 95th percentile "
                  f"{p95 * 1000:6.1f} ms, largest {times[-1] * 1000:6.1f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
