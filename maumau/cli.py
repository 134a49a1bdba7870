"""The ``maumau`` command line: ``maumau rules [VARIANT]`` and ``maumau play VARIANT``.

Every command is one subparser, added in ``build_parser`` by an ``_add_<command>``
function that sets ``func=cmd_<command>``; ``cmd_<command>(args, con) -> int`` runs it.
``con`` is the Console: the input function and the output streams, injectable for tests
(``main(argv, input_fn=..., out=..., err=...)``).  More commands (simulate, grade,
release) plug in the same way.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, TextIO

from ._version import __version__
from .core.variants import Variant, VariantError, variant, variant_names
from .extras import missing
from .terminal.play import STRENGTHS, Console, Quit, TerminalPlayer, group_moves, play, run_hand
from .text.i18n import LANGUAGES, language, t, use_language

__all__ = ["main", "build_parser", "Console", "TerminalPlayer", "run_hand", "Quit", "group_moves"]

EXAMPLES = """examples:
  maumau rules                          list the variants
  maumau rules makao                    the rules of Makaó
  maumau play makao --players 3 --seed 7 --match
                                        a match of Makaó against two computer players"""


# --- the parser --------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="maumau", description="Mau-Mau, Macau and Makaó: rules and play from the command line.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES)
    parser.add_argument("--version", action="version", version=f"maumau {__version__}")
    commands = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    _add_rules(commands)
    _add_play(commands)
    _add_simulate(commands)
    _add_release(commands)
    _add_grade(commands)
    from .classroom.commands import add_commands  # the class table: maumau serve, maumau table

    add_commands(commands)
    from .grading.commands import add_commands as add_course_commands  # maumau export, maumau gradebook

    add_course_commands(commands)
    from .grading.feedback_commands import add_commands as add_feedback  # maumau feedback release|hold|status

    add_feedback(commands)
    from .league.commands import add_commands as add_league  # the class league: maumau league ...

    add_league(commands)
    from .lti.commands import add_commands as add_lti  # the LTI tool's keys: maumau lti keys|rotate

    add_lti(commands)
    from .course.commands import add_commands as add_course  # the course as a folder: maumau course, maumau lab

    add_course(commands)
    return parser


def _add_option_flag(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                     help="a variant option, e.g. -o jokers=0 (joker_mau_mau) or -o limit=50 (makao)")


def _add_rules(commands: Any) -> None:
    sub = commands.add_parser("rules", help="list the variants, or show the rules of one",
                              description="Without VARIANT, list the variants; with it, show its rules.")
    sub.add_argument("variant", nargs="?", metavar="VARIANT", help=", ".join(variant_names()))
    _add_option_flag(sub)
    sub.add_argument("--lang", choices=LANGUAGES, default=language(),
                     help="language of the sentences (default: the course's, MAUMAU_LANG, else en)")
    sub.add_argument("--formal", action="store_true", help="also the formal one-liners (next(X), rule ids)")
    sub.add_argument("--markdown", action="store_true", help="every variant in en, de and hu, as RULES.md")
    sub.set_defaults(func=cmd_rules)


def _add_play(commands: Any) -> None:
    sub = commands.add_parser("play", help="play a hand (or a match) against computer players",
                              description="Play in the terminal against computer players: the legal moves "
                                          "are numbered; type a number, or a card like 7H.")
    sub.add_argument("variant", metavar="VARIANT", help=", ".join(variant_names()))
    sub.add_argument("-n", "--players", type=int, default=2, help="players at the table (default 2)")
    sub.add_argument("-s", "--seed", type=int, default=None, help="seed of the deal and of the computer players "
                     "(default: a random one, printed so the game can be replayed)")
    sub.add_argument("--seat", type=int, default=0, help="your seat, 0 to players-1 (default 0)")
    sub.add_argument("--match", action="store_true", help="play hands until the match is over, with the "
                     "variant's scoring")
    sub.add_argument("--strength", choices=tuple(STRENGTHS), default="medium",
                     help="computer strength (default medium); a strength whose player class is not "
                          "in maumau.players yet plays Random")
    sub.add_argument("--no-color", action="store_true", help="no colours (also when NO_COLOR is set)")
    sub.add_argument("--lang", choices=LANGUAGES, default=language(),
                     help="the language of the game: en, de (Deutsch) or hu (magyar); default: the "
                          "course's (MAUMAU_LANG), else en")
    _add_option_flag(sub)
    sub.set_defaults(func=cmd_play)


def main(argv: Sequence[str] | None = None, *, input_fn: Callable[[str], str] | None = None,
         out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (0 fine, 2 usage error or a module to install,
    130 interrupted)."""
    con = Console(input_fn, out, err)
    parser = build_parser()
    try:
        with redirect_stdout(con.out), redirect_stderr(con.err):
            args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version, usage errors
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    if args.command is None:
        con.out.write(parser.format_help())
        return 2
    try:
        code: int = args.func(args, con)
        return code
    except ModuleNotFoundError as err:  # an extra not installed: say which, without a traceback
        said = missing(err, f"maumau {args.command}", getattr(args, "lang", None))
        if said is None:
            raise
        con.error(str(said))
        return 2
    except KeyboardInterrupt:
        con.say("\nInterrupted.")
        return 130


def _load_variant(args: argparse.Namespace, con: Console) -> Variant | None:
    options: dict[str, Any] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            con.error(f"an option is KEY=VALUE, not {item!r}")
            return None
        low = value.strip().lower()
        options[key.strip()] = (int(low) if re.fullmatch(r"-?\d+", low) else
                                {"true": True, "false": False}.get(low, value.strip()))
    try:
        return variant(args.variant, **options)
    except (VariantError, ValueError) as exc:
        con.error(str(exc))
        return None


# --- maumau rules ------------------------------------------------------------------------------------

def cmd_rules(args: argparse.Namespace, con: Console) -> int:
    v: Variant | None
    if args.markdown:
        from .text.rules_table import rules_markdown

        con.out.write(rules_markdown())
        return 0
    if args.variant is None:
        con.say("Variants (maumau rules NAME shows the rules of one):")
        for name in variant_names():
            v = variant(name)
            lo, hi = v.players
            con.say(f"  {name:<14} {v.title:<19} {len(v.deck):>3} cards, {v.hand_size} each, {lo}-{hi} players")
        return 0
    v = _load_variant(args, con)
    if v is None:
        return 2
    from .text.rules_table import RulesSheet

    con.say(str(RulesSheet(v, args.lang, args.formal)))
    if v.changes:
        con.say("\n" + t("rules.house", args.lang, changes=v.house_rules()))
    return 0


def cmd_play(args: argparse.Namespace, con: Console) -> int:
    if args.no_color:
        con.color = False
    v = _load_variant(args, con)
    if v is None:
        return 2
    lo, hi = v.players
    if not lo <= args.players <= hi:
        con.error(f"{v.name} is played by {lo} to {hi} players, not {args.players} (use --players {lo}..{hi})")
        return 2
    if not 0 <= args.seat < args.players:
        con.error(f"--seat must be a seat from 0 to {args.players - 1}, not {args.seat}")
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    with use_language(args.lang):
        play(con, v, args.players, seed, args.seat, args.strength, match=args.match)
    return 0


# --- maumau release / maumau grade (the exercises: maumau/grading) ------------------------------------

def _add_release(commands: Any) -> None:
    sub = commands.add_parser("release", help="write the student versions of the exercise notebooks",
                              description="Solutions become stubs that raise NotImplementedError, hidden "
                                          "tests are removed, outputs are cleared.")
    sub.add_argument("source", metavar="SOURCE", help="folder of instructor notebooks (e.g. exercises/)")
    sub.add_argument("--out", required=True, metavar="DIR", help="where the student versions go (e.g. student/)")
    sub.add_argument("--variants", metavar="KEYFILE",
                     help="the course key of the learners' own positions (made here if it does not exist yet)")
    sub.add_argument("--roster", metavar="CSV",
                     help="with --variants: each learner of this roster gets their own copies in DIR/learners/")
    sub.set_defaults(func=cmd_release)


def cmd_release(args: argparse.Namespace, con: Console) -> int:
    from .grading.exercise import NotebookError
    from .grading.export import ExportError, read_roster_file
    from .grading.learner_variants import new_key, read_key
    from .grading.releaser import release

    try:
        key, learners = None, []
        if args.roster and not args.variants:
            raise NotebookError("--roster gives each learner their own positions: give the course key with --variants")
        if args.roster:
            learners = list(read_roster_file(args.roster).by_learner())
        if args.variants and not Path(args.variants).exists():
            key = new_key(args.variants)
            con.say(f"Made a new course key in {args.variants}: keep it secret and keep it, grading needs it")
        elif args.variants:
            key = read_key(args.variants)
        written = release(args.source, args.out, variants=key, learners=learners)
    except (NotebookError, ExportError) as exc:
        con.error(str(exc))
        return 1
    out = Path(args.out)
    names = ", ".join(p.relative_to(out).as_posix() if p.is_relative_to(out) else p.name for p in written)
    con.say(f"Released {len(written)} notebooks into {args.out}: {names}")  # de/01_matching.ipynb, ...
    return 0


def _add_grade(commands: Any) -> None:
    sub = commands.add_parser(
        "grade", help="grade submitted exercise notebooks", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run each submitted notebook in its own sandboxed kernel with the instructor's test cells "
                    "(hidden tests included) put back, and write grades.csv, summary.md and feedback/.",
        epilog="layout: SUBMISSION_DIR/<student>/<exercise>.ipynb, named as released (e.g. "
               "submissions/alice/01_matching.ipynb);\na SUBMISSION_DIR holding notebooks itself is one student.")
    sub.add_argument("submissions", nargs="*", metavar="SUBMISSION_DIR")
    sub.add_argument("--source", required=True, metavar="DIR", help="folder of instructor notebooks")
    sub.add_argument("--out", default="grades", metavar="DIR", help="where the reports go (default grades/)")
    sub.add_argument("-j", "--jobs", type=int, default=None,
                     help="kernels in parallel (default: twice the CPUs, at most 4 more)")
    sub.add_argument("--exercise", action="append", default=[], metavar="NAME",
                     help="grade this exercise (repeatable; default: the exercises handed in)")
    sub.add_argument("--all", action="store_true", dest="every",
                     help="a row for every exercise of SOURCE, 'missing' where a learner handed none in")
    sub.add_argument("--cell-timeout", type=float, default=10.0,
                     help="CPU seconds per cell, of the kernel and its processes (default 10)")
    sub.add_argument("--timeout", type=float, default=90.0, help="CPU seconds per notebook (default 90)")
    sub.add_argument("--memory", type=int, default=1024,
                     help="memory of a kernel and its processes together, in MB (default 1024)")
    sub.add_argument("--disk", type=int, default=100, help="what a kernel may write, in MB (default 100)")
    sub.add_argument("--require-isolation", action="store_true",
                     help="refuse to grade where the kernels cannot run in a bubblewrap sandbox")
    sub.add_argument("--variants", metavar="KEYFILE",
                     help="the course key: each learner is graded on their own positions (as released with it)")
    from .grading.commands import add_course_options  # --due, --late, --extensions, --gradebook, --force

    add_course_options(sub)
    sub.set_defaults(func=cmd_grade)


def cmd_grade(args: argparse.Namespace, con: Console) -> int:
    began = time.monotonic()  # before the grader's imports: the wall time is what the teacher waited

    from .grading.commands import course_options, report_changes
    from .grading.deadlines import DeadlineError
    from .grading.exercise import NotebookError
    from .grading.gradebook import GradebookError
    from .grading.grader import grade
    from .grading.report import points, say, summary_markdown
    from .sandbox.limits import Limits

    limits = Limits(cell_timeout=args.cell_timeout, total_timeout=args.timeout, memory_mb=args.memory,
                    disk_mb=args.disk)

    def progress(row: Any) -> None:
        con.say(f"  {row.student}/{row.exercise}: {row.score:g}/{row.max_score:g} {row.status} ({row.seconds:.1f} s)")

    from .grading.learner_variants import read_key

    try:
        options = course_options(args, args.source)  # --handins adds the handed-in notebooks' folder
        if args.variants:
            read_key(args.variants)  # a missing or broken key stops here, before anything is graded
            options["variants"] = Path(args.variants)  # the grader reads it, and keeps it from the kernels
        if not args.submissions:
            con.error("nothing to grade: give a SUBMISSION_DIR or --handins")
            return 2
        rows = grade(args.source, args.submissions, args.out, limits, args.jobs, args.exercise, progress,
                     isolate=True if args.require_isolation else None, every=args.every, **options)
    # ReportError is a NotebookError too: a grades.csv rewritten while it was written
    except (NotebookError, DeadlineError, GradebookError) as exc:
        con.error(str(exc))
        return 1
    finally:
        getattr(args, "close_executor", lambda: None)()
    isolation = "" if getattr(rows, "isolated", True) else rows.isolation
    con.say(summary_markdown(rows, isolation=isolation, lang=args.lang))
    con.say(say("graded", args.lang, rows=len(rows), seconds=points(round(time.monotonic() - began, 1), args.lang),
                out=args.out))
    report_changes(rows, con.say)
    if getattr(rows, "similar", ()):
        from .grading.similarity_page import similar_sentence

        con.say(similar_sentence(len(rows.similar), args.lang))
    if isolation:  # also on stderr, where a script that keeps only the errors still sees it
        con.err.write(f"maumau: warning: {isolation}\n")
    return 0


# --- maumau simulate (maumau.simulation) --------------------------------------------------------------

def _add_simulate(commands: Any) -> None:
    sub = commands.add_parser("simulate", help="play many hands between computer players and show the statistics",
                              description="Play many hands between computer players (seats rotate after each "
                                          "hand) and print win rates with 95% intervals, hand lengths and how "
                                          "often each rule acted.")
    sub.add_argument("variant", metavar="VARIANT", help=", ".join(variant_names()))
    sub.add_argument("-g", "--games", type=int, default=1000, help="hands to play (default 1000)")
    sub.add_argument("-p", "--players", nargs="+", default=["random", "heuristic"], metavar="PLAYER",
                     help="one per seat: random, heuristic, search (or easy, medium, hard); default random heuristic")
    sub.add_argument("-s", "--seed", type=int, default=0, help="seed of the whole run (default 0)")
    sub.add_argument("--fixed-seats", action="store_true", help="do not rotate the seats after each hand")
    sub.add_argument("--serial", action="store_true", help="play in this process (default: a process pool)")
    sub.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_option_flag(sub)
    sub.set_defaults(func=cmd_simulate)


def cmd_simulate(args: argparse.Namespace, con: Console) -> int:
    from .simulation.run import SimulationError, simulate

    v = _load_variant(args, con)
    if v is None:
        return 2
    try:
        result = simulate(v, players=args.players, games=args.games, seed=args.seed, rotate=not args.fixed_seats,
                          executor="serial" if args.serial else None, progress=False if args.no_progress else None)
    except SimulationError as exc:
        con.error(str(exc))
        return 1
    except (ValueError, TypeError) as exc:
        con.error(str(exc))
        return 2
    con.say(result.summary())
    return 0

