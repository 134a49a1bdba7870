"""Engine benchmark: random self-play through the public API (deal, legal_moves, apply).

    python benchmarks/engine.py                # every variant, 2 players
    python benchmarks/engine.py --variant makao --players 3 --seconds 5
    python benchmarks/engine.py --peers        # side by side with OpenSpiel and RLCard

Prints games/s and decisions/s per variant (best of ``--repeat`` runs, since a shared
machine is noisy), with the compiled engine beside the pure-Python one (MAUMAU_PURE_PYTHON=1,
run in a subprocess turn about with the compiled runs), the memory of a GameState and the cost of Game.undo().  With
``--peers`` (``pip install .[bench]``) it also plays, in the same process and run,
OpenSpiel's ``crazy_eights`` (2 players, special cards on, reshuffling and no turn cap,
so that hands are played out as ours are) and RLCard's UNO (its plain reset/step loop),
both by uniformly random legal moves, and prints the ratios ours/peer.  Only player
decisions count (not OpenSpiel's chance steps: dealing and drawing).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import maumau as mm  # noqa: E402


def random_games(variant: str, players: int, seconds: float, seed: int = 0,
                 clock: "Callable[[], float]" = time.perf_counter) -> "tuple[int, int, float]":  # noqa: UP037
    """Play random games for about ``seconds`` of ``clock``; return (games, decisions, elapsed).
    ``clock=time.process_time`` counts this process's CPU time only (fair on a busy machine).
    Its source runs on its own in the browser (tests/browser/drive_site.py, benchmarks/browser.py),
    where ``Callable`` is not imported: hence the annotations in quotes."""
    games = decisions = 0
    rng = random.Random(seed)
    choice = rng.choice
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = mm.deal(variant, players=players, seed=seed + games)
        while not state.is_over:
            state = state.apply(choice(state.legal_moves()))
            decisions += 1
        games += 1
    return games, decisions, clock() - start


#: OpenSpiel's crazy_eights as we measure it: 2 players, special cards on, reshuffling and
#: no turn cap, so that hands are played out as ours are.
OPENSPIEL_PARAMS = {"players": 2, "use_special_cards": True, "reshuffle": True, "max_turns": 1_000_000}


def openspiel_games(seconds: float, seed: int = 0,
                    clock: Callable[[], float] = time.perf_counter) -> tuple[int, int, float] | None:
    """Random play of OpenSpiel's crazy_eights; None if open_spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", OPENSPIEL_PARAMS)
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices
    games = decisions = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():  # dealing and drawing: not a decision
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(outcomes, probs)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        games += 1
    return games, decisions, clock() - start


def rlcard_games(seconds: float, seed: int = 0,
                 clock: Callable[[], float] = time.perf_counter) -> tuple[int, int, float] | None:
    """Random play of RLCard's UNO through env.reset/env.step; None if rlcard is not installed."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": seed})
    choice = random.Random(seed).choice
    games = decisions = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(choice(list(state["legal_actions"])))
            decisions += 1
        games += 1
    return games, decisions, clock() - start


def best_of(runs: list[tuple[int, int, float] | None]) -> tuple[int, int, float] | None:
    """The run with the most decisions per second (None if the engine is not installed)."""
    found = [r for r in runs if r is not None]
    return max(found, key=lambda r: r[1] / r[2]) if found else None


def peers(seconds: float, repeat: int) -> None:
    """Our makao (2 players) beside OpenSpiel crazy_eights and RLCard UNO, random play.

    The engines take turns, round after round, so that a busy spell of a shared machine
    falls on all of them; each engine's best round counts, and the per-round ratios are
    printed too, to show how much the machine wandered.
    """
    engines = [("maumau", "makao", lambda seed: random_games("makao", 2, seconds, seed=seed)),
               ("OpenSpiel", "crazy_eights", lambda seed: openspiel_games(seconds, seed=seed)),
               ("RLCard", "uno", lambda seed: rlcard_games(seconds, seed=seed))]
    rounds = [[run(1000 * r) for _, _, run in engines] for r in range(repeat)]
    rows = [(engine, game, best_of([rnd[i] for rnd in rounds])) for i, (engine, game, _) in enumerate(engines)]
    ours = rows[0][2]
    print()
    print("Side by side, 2 players, uniformly random legal moves, player decisions only:")
    print(f"{'engine':<10} {'game':<13} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15} {'ours/peer':>10}"
          f"  {'ours/peer by round':<20}")
    for i, (engine, game, found) in enumerate(rows):
        if found is None:
            print(f"{engine:<10} {game:<13} {'not installed (pip install .[bench])':>48}")
            continue
        games, decisions, elapsed = found
        ratio = (ours[1] / ours[2]) / (decisions / elapsed)
        by_round = " ".join(f"{(rnd[0][1] / rnd[0][2]) / (rnd[i][1] / rnd[i][2]):.2f}" for rnd in rounds)
        print(f"{engine:<10} {game:<13} {games / elapsed:>9.0f} {decisions / elapsed:>12.0f} "
              f"{decisions / max(games, 1):>15.1f} {ratio:>9.2f}x  {by_round}")


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


def pure_rate(variant: str, players: int, seconds: float) -> float:
    """Decisions/s of the pure-Python engine (MAUMAU_PURE_PYTHON=1) in a subprocess: one run."""
    env = {**os.environ, "MAUMAU_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, __file__, "--rate-only", variant, "--players", str(players),
                           "--seconds", str(seconds), "--repeat", "1"],
                          capture_output=True, text=True, env=env, check=True)
    return float(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=mm.variant_names(),
                        help="variant to measure (repeatable; default: all)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per variant; the best counts")
    parser.add_argument("--peers", action="store_true", help="also OpenSpiel crazy_eights and RLCard UNO")
    parser.add_argument("--rate-only", metavar="VARIANT", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    variants = args.variant or mm.variant_names()

    if args.rate_only:  # the other engine's figure, for the side-by-side table (a subprocess)
        best = max((random_games(args.rate_only, args.players, args.seconds, seed=1000 * r)
                    for r in range(args.repeat)), key=lambda r: r[1] / r[2])
        print(best[1] / best[2])
        return 0
    engine = "compiled engine" if mm.compiled else "pure-Python engine (MAUMAU_PURE_PYTHON or not built)"
    print(f"maumau {mm.__version__}, {engine}, Python {sys.version.split()[0]}, {args.players} players, random play")
    side = mm.compiled  # the pure-Python engine beside it, in the same run (a subprocess, turn about)
    print(f"{'variant':<15} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15}"
          + (f" {'pure decisions/s':>17} {'compiled/pure':>14}" if side else ""))
    for name in variants:
        runs, pure = [], []
        for r in range(args.repeat):
            runs.append(random_games(name, args.players, args.seconds, seed=1000 * r))
            if side:
                pure.append(pure_rate(name, args.players, args.seconds))
        games, decisions, elapsed = max(runs, key=lambda r: r[1] / r[2])
        line = f"{name:<15} {games / elapsed:>9.0f} {decisions / elapsed:>12.0f} {decisions / max(games, 1):>15.1f}"
        if side:
            line += f" {max(pure):>17.0f} {decisions / elapsed / max(pure):>13.2f}x"
        print(line)
    print()
    for name in variants:
        mem = state_memory(name)
        short, long = undo_cost(name)
        print(f"{name:<15} {mem:>7.0f} bytes per GameState; Game.undo(): "
              f"{short * 1e9:.0f} ns in a short game, {long * 1e9:.0f} ns in a long one")
    if args.peers:
        peers(args.seconds, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
