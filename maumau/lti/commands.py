"""``maumau lti keys|rotate|scores|roster``: the tool's key pair, and the LMS's grade and roster
services, from the class server's database.

``scores`` is a command of its own, not a part of ``maumau grade``: grading works without a
network and without an LMS, the teacher reads ``grades.csv`` (and may regrade) before anything
leaves the school's machine, and a send that stopped half-way (the LMS was down) is completed by
running this one command again, without grading again.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

__all__ = ["add_commands"]


def add_commands(commands: Any) -> None:
    lti = commands.add_parser("lti", help="the LTI 1.3 tool: its keys, grades to the LMS, the LMS's roster "
                                          "(docs: Launch maumau from Moodle or Canvas)",
                              description="The LTI tool's RSA key pair, kept in the class server's database; the "
                                          "LMS courses' grade columns and rosters.")
    lti.add_argument("action", choices=["keys", "rotate", "scores", "roster"],
                     help="keys: print the public key set (JSON) an LMS may ask to be pasted; rotate: a new key "
                          "signs from now on (the old one stays published for a day); scores: send each learner's "
                          "final score of --grades to the LMS courses they launched from; roster: read the LMS "
                          "courses' members into the database and print them")
    lti.add_argument("--db", default="class.sqlite", help="the class server's database (default class.sqlite)")
    lti.add_argument("--lti", default="lti.json", metavar="JSON",
                     help="scores, roster: the LTI registrations (default lti.json)")
    lti.add_argument("--grades", metavar="CSV", help="scores: the grades.csv maumau grade wrote")
    lti.add_argument("--gradebook", metavar="SQLITE", help="scores: instead of --grades, the gradebook (maumau grade "
                                                           "--gradebook): each learner's last grade")
    lti.add_argument("--course", metavar="CONTEXT_ID", help="scores, roster: only this LMS course (its context id)")
    lti.add_argument("--out", metavar="CSV", help="roster: also write the active learners as a roster for maumau "
                                                  "export --roster (learner, name, email, sis_user_id)")
    lti.set_defaults(func=cmd_lti)


def cmd_lti(args: argparse.Namespace, con: Any) -> int:
    from ..extras import need

    modules = ("jwt", "cryptography") + (("requests",) if args.action in ("scores", "roster") else ())
    for module in modules:  # MissingModule: the command line says what to install
        need(module, f"maumau lti {args.action}")
    if args.action in ("scores", "roster"):
        return _services(args, con)
    from .keys import ToolKeys

    try:
        keys = ToolKeys(args.db)
        if args.action == "rotate":
            kid, _ = keys.rotate()
            con.say(f"a new key ({kid}) signs from now on; the one before stays published for a day")
            return 0
        con.say(json.dumps(keys.jwks(), indent=2))
    except Exception as err:  # noqa: BLE001  a database that cannot be opened: say why, once
        con.error(f"cannot use the keys in {args.db}: {err}")
        return 1
    return 0


def _services(args: argparse.Namespace, con: Any) -> int:
    """``scores`` and ``roster``: what each learner's scores became, or the courses' members."""
    from ..grading.export import ExportError, read_grades
    from ..grading.gradebook import GradebookError
    from . import LtiError
    from .keys import ToolKeys
    from .platforms import load_registrations
    from .services import Services

    if not Path(args.db).is_file():
        con.error(f"there is no class server database {args.db}: give the one maumau serve --lti uses (--db)")
        return 1
    try:
        registrations = load_registrations(args.lti)
        services = Services(ToolKeys(args.db))
        if args.action == "roster":
            return _roster(args, con, registrations, services)
        if bool(args.grades) == bool(args.gradebook):
            con.error("maumau lti scores needs either --grades OUT/grades.csv (maumau grade wrote it) or "
                      "--gradebook SQLITE")
            return 2
        scores, points = read_grades(args.grades) if args.grades else _gradebook(args.gradebook)
        from .scores import send_scores

        outcomes = send_scores(args.db, registrations, scores, points, services, args.course)
    except (LtiError, ExportError, GradebookError) as err:
        con.error(str(err))
        return 1
    for outcome in outcomes:
        (con.error if outcome.state == "failed" else con.say)(outcome.sentence)
    failed = sum(o.state == "failed" for o in outcomes)
    con.say(f"{sum(o.state == 'sent' for o in outcomes)} learner(s) sent, "
            f"{sum(o.state == 'unchanged' for o in outcomes)} unchanged, {failed} failed, "
            f"{sum(o.state == 'not sent' for o in outcomes)} not sent"
            + ("; run the command again to send what failed" if failed else ""))
    return 1 if failed else 0


def _gradebook(path: str) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Each learner's final score by exercise and each exercise's points, from the gradebook's
    last grades (as ``maumau export --gradebook`` reads them)."""
    from ..grading.gradebook import Gradebook, GradebookError

    if not Path(path).is_file():
        raise GradebookError(f"there is no gradebook {path}")
    scores: dict[str, dict[str, float]] = {}
    points: dict[str, float] = {}
    for row in Gradebook(path).latest():
        scores.setdefault(row.student, {})[row.exercise] = row.final
        points[row.exercise] = max(points.get(row.exercise, 0.0), row.max_score)
    return scores, points


def _roster(args: argparse.Namespace, con: Any, registrations: Any, services: Any) -> int:
    from .roster import read_rosters, roster_csv

    everyone: list[Any] = []
    for course, members in read_rosters(args.db, registrations, services, args.course):
        con.say(f"{course.label}: {len(members)} member(s)")
        for m in members:
            role = "teacher" if m.teacher else "learner"
            con.say(f"  {m.learner}  {m.name or '-'}  {m.email or '-'}  {role}" +
                    ("" if m.status == "Active" else f"  ({m.status.lower()})"))
        everyone += [m for m in members if m.learner not in {e.learner for e in everyone}]
    if args.out:
        try:
            Path(args.out).write_text(roster_csv(everyone), encoding="utf-8")
        except OSError as err:
            con.error(f"cannot write {args.out}: {err.strerror or err}")
            return 1
        con.say(f"wrote the active learners to {args.out} (for maumau export --roster)")
    return 0
