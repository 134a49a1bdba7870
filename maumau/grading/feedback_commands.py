"""``maumau feedback release|hold|status``: the teacher releases each exercise's feedback to its learners.

They work on the class database itself (``--db``, the file ``maumau serve`` and ``maumau grade
--gradebook`` use), so a running server shows the change to the next learner who asks; the
course page's buttons do the same from the browser.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path
from typing import Any

from ..text.i18n import LANGUAGES, language

__all__ = ["add_commands"]


def add_commands(commands: Any) -> None:
    sub = commands.add_parser(
        "feedback", help="release each exercise's feedback to its learners, or hold it back (docs: Feedback)",
        description="Learners see their feedback on an exercise (their score, each test, the hidden tests' "
                    "explanations) only once it is released: here, on the course page, or at the exercise's "
                    "--close time plus maumau serve's --feedback-delay.")
    sub.add_argument("action", choices=("release", "hold", "status"),
                     help="release: learners see it now; hold: only once you release it; status: each exercise")
    sub.add_argument("exercises", nargs="*", metavar="EXERCISE", help="for release and hold: the exercises")
    sub.add_argument("--db", default="class.sqlite", help="the class database (default class.sqlite)")
    sub.add_argument("--lang", choices=LANGUAGES, default=language(),
                     help="the language of the sentences (default: the course's, MAUMAU_LANG, else en)")
    sub.set_defaults(func=cmd_feedback)


def cmd_feedback(args: argparse.Namespace, con: Any) -> int:
    from ..text.locale.feedback import said
    from .feedback_release import DEADLINE, EXERCISE_NAME, HAND, FeedbackRelease, utc_now, when
    from .gradebook import Gradebook

    if not Path(args.db).is_file():
        con.error(said("no_db", args.lang, db=args.db))
        return 1
    if args.action != "status" and not args.exercises:
        con.error(said("needs_exercises", args.lang, action=args.action))
        return 2
    bad = [name for name in args.exercises if not EXERCISE_NAME.fullmatch(name)]
    if bad:  # every name first: a bad one changes nothing at all
        con.error(said("bad_name", args.lang, exercise=bad[0]))
        return 2
    try:
        releases = FeedbackRelease(args.db)
    except sqlite3.Error as err:  # a file that is no SQLite database: say which
        con.error(said("bad_db", args.lang, db=args.db, error=err))
        return 1
    now = utc_now()
    if args.action == "status":
        known = releases.all()
        if not known:
            con.say(said("cli_none", args.lang, db=args.db))
        for name, release in known.items():
            state = ("state_held" if release.at is None or release.how not in (HAND, DEADLINE) else
                     "state_hand" if release.how == HAND else
                     "state_deadline" if release.visible(now) else "state_due")
            con.say(f"{name}: " + said(state, args.lang, when=when(release.at) if release.at else ""))
        return 0
    graded = {row.exercise for row in Gradebook(args.db).latest()}
    for name in args.exercises:
        if args.action == "release":
            releases.release(name, now)
            con.say(said("cli_released", args.lang, exercise=name))
            if name not in graded:
                con.say(said("cli_no_grade", args.lang, exercise=name))
        else:
            releases.hold(name, now)
            con.say(said("cli_held", args.lang, exercise=name))
    return 0
