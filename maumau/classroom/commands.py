"""``maumau serve`` and ``maumau table``: the class table server and a teacher's tables from the
command line."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from ..extras import need
from ..text.i18n import LANGUAGES, language

if TYPE_CHECKING:  # pragma: no cover
    from .messages import TeacherRequest

__all__ = ["add_commands"]


def add_commands(commands: Any) -> None:
    _add_serve(commands)
    _add_table(commands)


def _add_serve(commands: Any) -> None:
    serve = commands.add_parser(
        "serve", help="serve class tables: learners play each other (docs: Run a class table)",
        description="Serve class tables: the lobby page, the table pages and the websocket for "
                    "classroom.join(...). Every table is kept in the SQLite database; started again on "
                    "the same database, the server resumes every table at the move it had reached.")
    serve.add_argument("--db", default="class.sqlite", help="the SQLite database (default class.sqlite)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; "
                                                            "0.0.0.0 for a class on the same network)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 for any free port)")
    serve.add_argument("--teacher-token-file", metavar="FILE",
                       help="a file holding the teacher's secret (else $MAUMAU_TEACHER_TOKEN, else a new one is "
                            "printed); never the secret itself on a command line, where `ps` shows it")
    serve.add_argument("--hold", type=float, default=60.0,
                       help="seconds a dropped learner's seat waits before a computer plays it (default 60)")
    serve.add_argument("--computer-delay", type=float, default=0.6, help="seconds before each computer move")
    serve.add_argument("--pause", type=float, default=5.0, help="seconds between a hand's end and the next deal")
    serve.add_argument("--hub", action="store_true",
                       help="run as a JupyterHub service: learners are the hub's users, the pages log in "
                            "through the hub's OAuth (docs: Run maumau on a JupyterHub)")
    serve.add_argument("--hub-teachers", default="teachers", metavar="GROUP",
                       help="with --hub: the hub group whose members (and the hub's admins) are teachers "
                            "(default teachers)")
    serve.add_argument("--roster", metavar="CSV",
                       help="the course's learners (the roster maumau export reads: learner,name,id,...): each gets "
                            "a personal code (maumau table codes) that makes their seat and hand-ins theirs "
                            "(docs: Run a class table, Who a learner is)")
    serve.add_argument("--exercises", metavar="DIR",
                       help="the course's instructor notebooks: learners hand in at /handin, the teacher's "
                            "course page is /course (docs: Deadlines, the gradebook and export)")
    serve.add_argument("--variants", metavar="KEYFILE",
                       help="with --exercises: the course key; a learner fetching an exercise gets their own "
                            "positions (classroom.fetch_exercise; docs: Variants)")
    serve.add_argument("--close", action="append", default=[], metavar="EXERCISE=TIME",
                       help="no hand-in of EXERCISE after TIME (with its zone; TIME alone: every exercise)")
    serve.add_argument("--feedback-delay", metavar="DELAY",
                       help="release each exercise's feedback to its learners this long after its --close time "
                            "(2h, 30m, 1d, 0); without it feedback waits for maumau feedback release "
                            "(docs: Feedback)")
    serve.add_argument("--per-address", type=int, default=None, metavar="N",
                       help="connections one client address may hold at once (default 512, at most a quarter "
                            "of the open files; a school behind one router may need more)")
    serve.add_argument("--lti", metavar="JSON",
                       help="the LMSes that launch maumau as an LTI 1.3 tool (their issuer, client id, deployment "
                            "ids and URLs): a launch signs the learner in (docs: Launch maumau from Moodle or Canvas)")
    serve.add_argument("--lti-port", type=int, default=None, metavar="PORT",
                       help="with --lti: the port of the LTI endpoints (default: --port + 1)")
    serve.set_defaults(func=cmd_serve)


def _add_table(commands: Any) -> None:
    table = commands.add_parser("table", help="create, list, start or close class tables on a running server",
                                description="A teacher's tables on a running `maumau serve`.")
    table.add_argument("action", choices=["create", "list", "start", "restart", "close", "codes"],
                       help="codes: the roster's personal codes (a server started with --roster)")
    table.add_argument("variant", nargs="?", default="makao", help="for create: the variant (default makao)")
    table.add_argument("--url", default="http://127.0.0.1:8765", help="the server (default http://127.0.0.1:8765)")
    table.add_argument("--teacher-token-file", metavar="FILE",
                       help="a file holding the teacher's secret (default $MAUMAU_TEACHER_TOKEN)")
    table.add_argument("--code", help="for start, restart and close: the table's code")
    table.add_argument("--seats", type=int, default=4)
    table.add_argument("--computers", type=int, default=0, help="seats computers hold from the start")
    table.add_argument("--strength", default="medium", help="easy, medium or hard")
    table.add_argument("--seed", type=int, default=None,
                       help="a reproducible deal (default: a secret random one)")
    table.add_argument("--clock", type=float, default=None,
                       help="seconds a learner may think before a computer moves for them (default: no clock)")
    table.add_argument("--without", nargs="*", default=[], metavar="RULE", help="house rules: rules to leave out")
    table.add_argument("--lang", default=language(), choices=LANGUAGES,
                       help="the table's language (default: the course's, MAUMAU_LANG, else en)")
    table.add_argument("--renew", metavar="LEARNER",
                       help="for codes: a new personal code for LEARNER (* for everyone); the old one stops working")
    table.set_defaults(func=cmd_table)


def teacher_token(args: argparse.Namespace) -> str | None:
    """The teacher's secret from ``--teacher-token-file`` or ``$MAUMAU_TEACHER_TOKEN`` (or None)."""
    if args.teacher_token_file:
        with open(args.teacher_token_file, encoding="utf-8") as file:
            token = file.read().strip()
        if not token:
            raise ValueError(f"{args.teacher_token_file} is empty: it should hold the teacher token")
        return token
    return os.environ.get("MAUMAU_TEACHER_TOKEN") or None


def _course(args: argparse.Namespace) -> Any:
    """The course of ``--exercises``, ``--close`` and ``--variants`` (None without them)."""
    if not args.exercises:
        if getattr(args, "variants", None):
            from ..grading.exercise import NotebookError

            raise NotebookError("--variants gives learners their own copies of the course's exercises: "
                                "give the exercises too (--exercises DIR)")
        return None
    from ..grading.deadlines import parse_due_options
    from ..grading.exercise import load_exercises
    from ..grading.feedback_release import FeedbackReleaseError, parse_delay
    from ..grading.learner_variants import read_key
    from .course import Course

    if args.feedback_delay is not None and not args.close:
        raise FeedbackReleaseError("--feedback-delay counts from an exercise's --close time: give --close too "
                                   "(or release feedback by hand: maumau feedback release)")
    names = [e.name for e in load_exercises(args.exercises)]
    delay = parse_delay(args.feedback_delay) if args.feedback_delay is not None else None
    return Course(args.exercises, parse_due_options(args.close, names), feedback_delay=delay,
                  variants=read_key(args.variants) if args.variants else None)


def cmd_serve(args: argparse.Namespace, con: Any) -> int:
    from ..grading.exercise import NotebookError
    from ..lti import LtiError
    from .server import Server, ServerError

    if args.hub:  # before the hub's settings: the first thing to fix is the install
        need("jupyterhub", "maumau serve --hub")
    try:
        token = teacher_token(args)
        server = Server(db=args.db, host=args.host, port=args.port, teacher_token=token,
                        hold=args.hold, computer_delay=args.computer_delay, pause=args.pause, hub=args.hub,
                        hub_teachers=args.hub_teachers, course=_course(args), per_address=args.per_address,
                        roster=args.roster, lti=args.lti, lti_port=args.lti_port)
    except ModuleNotFoundError:
        raise  # the command line says which extra to install (maumau.extras)
    except ServerError as err:
        con.error(str(err))
        return 1
    except LtiError as err:  # the LTI registrations: which entry is wrong, and what to copy from the LMS
        con.error(str(err))
        return 1
    except NotebookError as err:  # the exercises or the course key: which, and why
        con.error(str(err))
        return 1
    except Exception as err:  # noqa: BLE001  a database that cannot be opened or resumed: say why
        con.error(f"cannot serve from {args.db}: {err}")
        return 1

    def ready() -> None:
        con.say(f"Serving class tables at {server.url} (database {args.db})")
        if server.roster is not None:
            con.say(f"Roster: {len(server.roster.entries)} learners; their personal codes: maumau table codes "
                    f"(or the lobby page, logged in as the teacher)")
        if server.live is not None:
            con.say(f"The class's checks, live: {server.url}/live (the teacher's, logged in; "
                    f"{server.url}/live/projector without names)")
        if server.lti is not None:
            tool = server.lti.url
            con.say(f"LTI 1.3 tool for {len(server.lti.registrations.platforms)} LMS registration(s): login URL "
                    f"{tool}/lti/login, launch (redirect) URL {tool}/lti/launch, key set URL {tool}/lti/jwks, "
                    f"target link and content selection (deep linking) URL {tool}/")
        if not token:
            con.say(f"Teacher token: {server.teacher_token}")
        con.out.flush()
    server.on_ready = ready
    try:
        server.run()
    except ServerError as err:  # the port in use, an address not this machine's: one sentence
        con.error(str(err))
        return 1
    finally:
        server.stop()
    return 0


def cmd_table(args: argparse.Namespace, con: Any) -> int:
    from websockets.sync.client import connect

    from .client import ws_url
    from .messages import decode_server, encode_request

    try:
        token = teacher_token(args)
    except (OSError, ValueError) as err:
        con.error(f"cannot read the teacher token: {err}")
        return 2
    if not token:
        con.error("the teacher token is needed: --teacher-token-file or $MAUMAU_TEACHER_TOKEN")
        return 2
    request = teachers_request(args, token)
    if request is None:
        con.error(f"table {args.action} needs --code")
        return 2
    try:
        with connect(ws_url(args.url), open_timeout=10) as ws:
            ws.send(encode_request(request))
            while (answer := decode_server(ws.recv(timeout=10))).get("id") != 1:
                pass
    except (OSError, TimeoutError) as err:
        con.error(f"cannot reach the server at {args.url}: {err}")
        return 1
    if answer["type"] == "error":
        con.error(answer["message"])
        return 1
    if args.action == "create":
        con.say(f"Table {answer['code']}: learners open {args.url.rstrip('/')}/t/{answer['code']} "
                f"or join with the code {answer['code']}")
    elif args.action == "codes":
        say_codes(answer["codes"], con)
    elif args.action == "list":
        for t in answer["tables"]:
            people = ", ".join(s["name"] or "(open)" for s in t["seats"])
            con.say(f"{t['code']}  {t['variant']:<14} hands {t['hands']:<3} {people}")
    else:
        con.say(f"Table {args.action}{'ed' if args.action != 'close' else 'd'}: {answer['code']}")
    return 0


def teachers_request(args: argparse.Namespace, token: str) -> TeacherRequest | None:
    """The request ``maumau table ACTION`` sends (None: a request about one table without its --code)."""
    from .messages import Close, Codes, Create, Restart, Start, TableRequest, Tables

    if args.action == "create":
        return Create(id=1, teacher=token, table={
            "variant": args.variant, "seats": args.seats, "computers": args.computers, "strength": args.strength,
            "without": args.without, "lang": args.lang, **({} if args.seed is None else {"seed": args.seed}),
            **({} if args.clock is None else {"clock": args.clock})})
    if args.action == "list":
        return Tables(id=1, teacher=token)
    if args.action == "codes":
        return Codes(id=1, teacher=token, renew=args.renew)
    about_table: dict[str, type[TableRequest]] = {"start": Start, "restart": Restart, "close": Close}
    return about_table[args.action](id=1, teacher=token, code=args.code) if args.code else None


def say_codes(lines: list[dict[str, Any]], con: Any) -> None:
    """The roster's personal codes, a line each: learner, display name, code (or why it is not shown)."""
    width = max((len(line["learner"]) for line in lines), default=0)
    for line in lines:
        code = line["code"] or (f"(issued {line['issued']}, not kept in plain: --renew {line['learner']} "
                                f"gives a new one)")
        con.say(f"{line['learner']:<{width}}  {code}  {line['name']}")
