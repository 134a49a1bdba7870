"""``maumau league enter|play|standings|games|replay --db league.sqlite ...``.

``enter`` creates the league in ``--db`` when the file does not exist yet (``--game``,
``--players``, ``--seed``, ``-o KEY=VALUE``); the other commands open it.  Exit codes: 0
fine, 1 the league refused (a bot that does not work, no sandbox, ...), 2 a usage error.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from ..text.i18n import language
from .errors import LeagueError
from .words import LANGS

__all__ = ["add_commands"]


def add_commands(commands: Any) -> None:
    """Add ``maumau league ...`` to the command line's subparsers."""
    top = commands.add_parser("league", help="a class league of learners' computer players (sandboxed)",
                              description="Run a class league: enter bots, play duplicate deals in sandboxes, "
                                          "show the standings, replay a game.")
    sub = top.add_subparsers(dest="league_command", title="league commands", metavar="LEAGUE_COMMAND")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default="league.sqlite", help="the league's database (default league.sqlite)")
    common.add_argument("--unsandboxed", action="store_true", help="run the bots without bubblewrap (only for "
                        "bots you trust: their code then has only resource limits and an audit hook)")
    enter = sub.add_parser("enter", parents=[common], help="check a bot in the sandbox and enter it")
    enter.add_argument("name", help="the bot's name in the standings")
    enter.add_argument("source", help="a .py file or an exercise-13 notebook (.ipynb)")
    enter.add_argument("--game", default="makao", help="a new league's variant (default makao)")
    enter.add_argument("-n", "--players", type=int, default=3, help="a new league's seats per game (default 3)")
    enter.add_argument("-s", "--seed", type=int, default=0, help="a new league's seed (default 0)")
    enter.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="a variant option")
    play = sub.add_parser("play", parents=[common], help="play more deals, each once per seat rotation")
    play.add_argument("-d", "--deals", type=int, default=1, help="deals to play (default 1)")
    play.add_argument("--pairing", default="auto", choices=("auto", "round-robin", "random", "swiss"),
                      help="who meets whom (default: round robin for a few bots, random tables for many)")
    play.add_argument("--workers", type=int, default=None, help="games at once (default: twice this machine's cores)")
    standings = sub.add_parser("standings", parents=[common], help="the standings, best first")
    standings.add_argument("--lang", choices=LANGS, default=language(),
                           help="the language of the standings (default: the course's, MAUMAU_LANG, else en)")
    games = sub.add_parser("games", parents=[common], help="the games played (of one bot)")
    games.add_argument("--name", default=None, help="only this bot's games")
    replay = sub.add_parser("replay", parents=[common], help="a game move by move, every hand open")
    replay.add_argument("game_id", type=int, help="the game's id (maumau league games)")
    replay.add_argument("--out", default=None, help="also save the game as JSON (mm.Game.from_json, mm.replay)")
    for parser in (enter, play, standings, games, replay):
        parser.set_defaults(func=run)
    top.set_defaults(func=lambda args, con: (con.out.write(top.format_help()), 2)[1])


def run(args: argparse.Namespace, con: Any) -> int:
    try:
        return _COMMANDS[args.league_command](args, con)
    except LeagueError as err:
        con.error(str(err))
        return 1


def _open(args: argparse.Namespace) -> Any:
    from .league import League

    return League.open(args.db, unsandboxed=args.unsandboxed)


def _enter(args: argparse.Namespace, con: Any) -> int:
    from .league import League

    if Path(args.db).exists():
        lg = League.open(args.db, unsandboxed=args.unsandboxed)
    else:
        lg = League(args.game, args.players, args.db, args.seed, args.unsandboxed, **_options(args.option))
    bot = lg.enter(args.name, args.source)
    con.say(f"entered {bot.name} (version {bot.version}, player class {bot.player}) in {args.db}")
    return 0


def _options(items: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise LeagueError(f"an option is KEY=VALUE, not {item!r}")
        low = value.strip().lower()
        options[key.strip()] = (int(low) if re.fullmatch(r"-?\d+", low) else
                                {"true": True, "false": False}.get(low, value.strip()))
    return options


def _play(args: argparse.Namespace, con: Any) -> int:
    lg = _open(args)
    if not lg.sandbox.isolated:
        con.say("warning: the bots run unsandboxed (--unsandboxed)")
    ids = lg.play(deals=args.deals, pairing=args.pairing, workers=args.workers)
    con.say(f"played {len(ids)} games" + (f" (ids {ids[0]}–{ids[-1]})" if ids else ""))
    return 0


def _standings(args: argparse.Namespace, con: Any) -> int:
    rows = _open(args).standings()
    if not rows:
        con.say("no bots have entered yet")
        return 0
    width = max(len(r.name) for r in rows)
    con.say(f"{'#':>3}  {'bot':<{width}}  {'rating':>7}  {'mu':>6}  {'sigma':>5}  {'games':>5}  {'wins':>5}  "
            f"{'95% win rate':>12}  {'points':>7}  {'faults':>6}  {'forfeits':>8}  cannot be told apart from")
    for place, r in enumerate(rows, start=1):
        con.say(f"{place:>3}  {r.name:<{width}}  {r.ordinal:>7.2f}  {r.mu:>6.2f}  {r.sigma:>5.2f}  {r.games:>5}  "
                f"{r.wins:>5}  {f'{r.win_low:.0%}-{r.win_high:.0%}':>12}  {r.points:>7}  {r.faults:>6}  "
                f"{r.forfeits:>8}  {', '.join(r.tied_with) or '-'}")
    return 0


def _games(args: argparse.Namespace, con: Any) -> int:
    lg = _open(args)
    for g in lg.games(args.name):
        winner = g.names[g.winner] if g.winner is not None else "none (blocked)"
        faults = sum(len(f) for f in g.faults)
        forfeits = ", ".join(f"{n} ({why})" for n, why in zip(g.names, g.forfeits, strict=True) if why)
        con.say(f"{g.id:>5}  deal {g.deal} rotation {g.rotation}  {' / '.join(g.names)}  winner {winner}  "
                f"points {list(g.points)}  faults {faults}" + (f"  forfeit: {forfeits}" if forfeits else ""))
    return 0


def _replay(args: argparse.Namespace, con: Any) -> int:
    from .replay import seat_names

    lg = _open(args)
    row = lg.store.game(args.game_id)
    game = lg.game(args.game_id)
    names = seat_names(row.names)
    con.say(f"game {row.id}: deal {row.deal}, rotation {row.rotation}")
    for seat, name in enumerate(names):
        con.say(f"  {name} (seat {seat}) was dealt {' '.join(c.text for c in game.start.hands[seat])}")
    con.say(f"  top card {game.start.discard[-1].text}")
    for number, ((state, _), sentence) in enumerate(zip(game.history, game.explanations(), strict=True), start=1):
        con.say(f"{number:>4}. {names[state.to_move]}: {sentence}")
    for seat, name in enumerate(names):
        for fault in row.faults[seat]:
            con.say(f"  fault of {name}: {fault}")
        if row.forfeits[seat]:
            con.say(f"  {name} forfeited: {row.forfeits[seat]}")
    con.say(f"points: {', '.join(f'{n} {p}' for n, p in zip(names, row.points, strict=True))}")
    if args.out:
        Path(args.out).write_text(game.to_json(indent=1), encoding="utf-8")
        con.say(f"saved to {args.out}")
    return 0


_COMMANDS = {"enter": _enter, "play": _play, "standings": _standings, "games": _games, "replay": _replay}
