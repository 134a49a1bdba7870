"""The class league's speed: games per second for a class of 30 bots, and what the sandbox
costs per move.

    python benchmarks/league.py                  # 30 bots, 3 players, 2 deals (60 games)
    python benchmarks/league.py --bots 30 --deals 4 --players 3 --moves 300

Two figures:

- *games/s*: ``League.play`` for ``--bots`` bots (a third each Random, Heuristic and a
  learner-style bot), random tables of ``--players``, every game in its bots' bubblewrap
  sandboxes (started per game), spread over this machine's cores;
- *sandbox cost per move*: the same seat asked ``--moves`` times through its sandboxed
  process (View pickled in, Move as JSON out, CPU clock read from /proc) against the same
  player called in this process; and the time to start one bot's sandbox and load it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import maumau as mm  # noqa: E402
from maumau import league  # noqa: E402
from maumau.league.process import BotProcess  # noqa: E402
from maumau.league.sandbox import Sandbox  # noqa: E402
from maumau.league.wire import move_from_message, view_message  # noqa: E402

LEARNER = '''
import maumau as mm

class Greedy:
    """A learner's player: the longest play, attacks first, else draw."""

    def choose(self, view):
        plays = [m for m in view.legal_moves if isinstance(m, mm.Play)]
        if not plays:
            return view.legal_moves[0]
        return max(plays, key=lambda m: (len(m.cards), m.card.rank.value in ("7", "8")))
'''


def sources(n: int) -> dict[str, str]:
    kinds = [("random", "from maumau.players import Random\nPLAYER = Random\n"),
             ("heuristic", "from maumau.players import Heuristic\nPLAYER = Heuristic\n"),
             ("learner", LEARNER)]
    return {f"{kinds[i % 3][0]}{i:02d}": kinds[i % 3][1] for i in range(n)}


def games_per_second(bots: int, players: int, deals: int, unsandboxed: bool, workers: int | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        lg = league.League("makao", players=players, db=Path(folder) / "bench.sqlite", seed=1,
                           unsandboxed=unsandboxed)
        start = time.perf_counter()
        for name, source in sources(bots).items():
            lg.enter(name, source)
        entered = time.perf_counter() - start
        start = time.perf_counter()
        ids = lg.play(deals=deals, workers=workers)
        took = time.perf_counter() - start
        moves = sum(len(lg.game(i)) for i in ids)
        mode = "unsandboxed" if unsandboxed else "bubblewrap"
        print(f"{bots} bots entered in {entered:.1f} s ({entered / bots:.2f} s per bot: check and trial)")
        print(f"{len(ids)} games ({moves} moves) of {players} players in {took:.1f} s on {os.cpu_count()} cores "
              f"({workers or 'default'} workers), "
              f"{mode}: {len(ids) / took:.2f} games/s, {moves / took:.0f} moves/s")


def sandbox_cost(moves: int, unsandboxed: bool) -> None:
    sandbox = Sandbox.find([], unsandboxed)
    source = "from maumau.players import Heuristic\nPLAYER = Heuristic\n"
    starts = []
    for _ in range(5):
        t = time.perf_counter()
        bot = BotProcess(source, 1, sandbox, league.Limits())
        bot.ready()
        starts.append(time.perf_counter() - t)
        bot.close()
    states, state = [], mm.deal("makao", players=3, seed=2)
    player = mm.players.Heuristic(seed=1)
    while len(states) < moves:
        if state.is_over:
            state = mm.deal("makao", players=3, seed=len(states))
        states.append(state)
        state = state.apply(player.choose(state))
    bot = BotProcess(source, 1, sandbox, league.Limits())
    bot.ready()
    t = time.perf_counter()
    for i, s in enumerate(states):
        move_from_message(bot.ask(view_message(s, s.to_move, i, first=i == 0)))
    remote = (time.perf_counter() - t) / len(states)
    bot.close()
    t = time.perf_counter()
    for s in states:
        player.choose(mm.players.View(s))
    local = (time.perf_counter() - t) / len(states)
    print(f"starting a bot's sandbox and loading it: median {statistics.median(starts) * 1000:.0f} ms")
    print(f"a move through the sandbox: {remote * 1e6:.0f} µs; the same player in this process: "
          f"{local * 1e6:.0f} µs; the sandbox and its wire cost {(remote - local) * 1e6:.0f} µs per move")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=30)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--unsandboxed", action="store_true", help="without bubblewrap (to compare)")
    parser.add_argument("--workers", type=int, default=None, help="games at once (default: League.play's)")
    parser.add_argument("--skip-cost", action="store_true", help="only games/s")
    args = parser.parse_args(argv)
    if not args.skip_cost:
        sandbox_cost(args.moves, args.unsandboxed)
    games_per_second(args.bots, args.players, args.deals, args.unsandboxed, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
