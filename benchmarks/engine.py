"""Engine benchmark: random self-play through the public API (deal, legal_moves, apply).

    python benchmarks/engine.py                # every variant, 2 players
    python benchmarks/engine.py --variant makao --players 3 --seconds 5

Prints games/s and decisions/s per variant (best of ``--repeat`` runs, since a shared
machine is noisy), the memory of a GameState and the cost of Game.undo().
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import maumau as mm  # noqa: E402


def random_games(variant: str, players: int, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play random games for about ``seconds``; return (games, decisions, elapsed)."""
    games = decisions = 0
    rng = random.Random(seed)
    choice = rng.choice
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = mm.deal(variant, players=players, seed=seed + games)
        while not state.is_over:
            state = state.apply(choice(state.legal_moves()))
            decisions += 1
        games += 1
    return games, decisions, time.perf_counter() - start


def state_memory(variant: str, count: int = 20_000) -> float:
    """Bytes per GameState kept alive along random games (tracemalloc)."""
    rng = random.Random(1)
    states = []
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    seed = 0
    while len(states) < count:
        state = mm.deal(variant, players=2, seed=seed)
        seed += 1
        while not state.is_over and len(states) < count:
            state = state.apply(rng.choice(state.legal_moves()))
            states.append(state)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / len(states)


def undo_cost(variant: str) -> tuple[float, float]:
    """Seconds per Game.undo() on a game of 100 and of 10,000 moves (O(1): about equal)."""
    rng = random.Random(2)
    results = []
    for length in (100, 10_000):
        game = mm.Game(mm.deal(variant, players=2, seed=3))
        moves = 0
        while moves < length:  # one long history: later hands are chained on by position
            if game.state.is_over:
                game = mm.Game(mm.deal(variant, players=2, seed=moves)) if moves < 100 else game
                if game.state.is_over:
                    break
            game.apply(rng.choice(game.state.legal_moves()))
            moves += 1
        count = min(len(game), 100)
        start = time.perf_counter()
        for _ in range(count):
            game.undo()
        results.append((time.perf_counter() - start) / max(count, 1))
    return results[0], results[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=mm.variant_names(),
                        help="variant to measure (repeatable; default: all)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per variant; the best counts")
    args = parser.parse_args(argv)
    variants = args.variant or mm.variant_names()

    print(f"maumau {mm.__version__}, Python {sys.version.split()[0]}, {args.players} players, random play")
    print(f"{'variant':<15} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}")
    for name in variants:
        best = max((random_games(name, args.players, args.seconds, seed=1000 * r) for r in range(args.repeat)),
                   key=lambda r: r[1] / r[2])
        games, decisions, elapsed = best
        print(f"{name:<15} {games / elapsed:>9.0f} {decisions / elapsed:>12.0f} {decisions / max(games, 1):>15.1f}")
    print()
    for name in variants:
        mem = state_memory(name)
        short, long = undo_cost(name)
        print(f"{name:<15} {mem:>7.0f} bytes per GameState; Game.undo(): "
              f"{short * 1e9:.0f} ns in a short game, {long * 1e9:.0f} ns in a long one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
