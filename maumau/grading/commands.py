"""The course's commands: ``maumau grade``'s deadline and gradebook options, ``maumau export``
(grades into Canvas, Moodle or a plain CSV) and ``maumau gradebook`` (a learner's history).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

__all__ = ['add_course_options', 'course_options', 'add_commands', 'report_changes']


def add_course_options(sub: argparse.ArgumentParser) -> None:
    """``maumau grade``'s options for deadlines and the gradebook."""
    sub.add_argument("--due", action="append", default=[], metavar="EXERCISE=TIME",
                     help="when an exercise is due, with its time zone, e.g. "
                          "02_skip_on_eight=2026-12-10T23:59+01:00 (TIME alone: every exercise)")
    sub.add_argument("--late", default="none", metavar="POLICY",
                     help="what lateness costs, e.g. '10%%/day, 0 after 7 days' (default none)")
    sub.add_argument("--extensions", metavar="CSV", help="extensions: student, exercise (or *), due or days")
    sub.add_argument("--gradebook", metavar="SQLITE", help="keep every run here and grade only what changed")
    sub.add_argument("--handins", metavar="SQLITE",
                     help="also grade the notebooks handed in through the class server (this database), "
                          "each learner's last version, stamped with the server's receipt time")
    sub.add_argument("--force", action="store_true", help="with --gradebook: grade everything again")
    sub.add_argument("--dask", metavar="ADDRESS",
                     help="grade on the workers of a dask scheduler (tcp://host:8786), or 'local' for a "
                          "LocalCluster of this machine; this process writes the reports and the gradebook")
    sub.add_argument("--no-similarity", action="store_true",
                     help="do not flag the pairs of learners whose code or wrong answers are alike (by default "
                          "course.html lists them with the evidence; nothing is penalised)")
    sub.add_argument("--lang", choices=("en", "de", "hu"), default="en",
                     help="the language of the reports: summary.md, the summary printed, course.html, and "
                          "feedback/ of learners whose notebooks name no language (a learner's feedback "
                          "is in the language of their notebooks) (default en)")


def course_options(args: argparse.Namespace, source: str) -> dict[str, Any]:
    """The keyword arguments of ``grade()`` for these options; DeadlineError or GradebookError
    (each a clear sentence) for a bad value."""
    from .deadlines import Deadlines, LatePolicy, parse_due_options, read_extensions
    from .exercise import load_exercises
    from .gradebook import Gradebook

    names = [e.name for e in load_exercises(source)] if args.due or args.extensions else []
    deadlines = Deadlines(parse_due_options(args.due, names), LatePolicy.parse(args.late),
                          read_extensions(args.extensions, names) if args.extensions else {})
    options: dict[str, Any] = {"deadlines": deadlines, "force": args.force, "lang": args.lang,
                               "similarity": not getattr(args, "no_similarity", False),
                               "gradebook": Gradebook(args.gradebook) if args.gradebook else None}
    if args.handins:
        from .exercise import NotebookError
        from .submissions import HandInError, HandIns

        folder = Path(args.out) / "handed-in"
        shutil.rmtree(folder, ignore_errors=True)
        try:
            options["received"] = HandIns(args.handins).write_folders(folder)
        except HandInError as err:  # two learners' folders would be one: said, nothing overwritten
            raise NotebookError(str(err)) from None
        args.submissions = [*args.submissions, str(folder)]
    if args.dask:
        from .grader import dask_executor

        options["executor"], options["workers"], close = dask_executor(args.dask)
        args.close_executor = close
    return options


def report_changes(rows: Any, say: Any) -> None:
    """After a gradebook run: which learners' grades moved, in a line each."""
    changes = getattr(rows, "changes", ())
    if getattr(rows, "run", 0):
        say(f"Gradebook run {rows.run}: " + (f"{len(changes)} grades changed" if changes else "no grade changed")
            + ("" if not changes else ":"))
    for c in changes:
        say(f"  {c.student}/{c.exercise}: {c.before:g} -> {c.after:g}"
            + (f" ({c.status_before} -> {c.status_after})" if c.status_before != c.status_after else ""))


def add_commands(commands: Any) -> None:
    sub = commands.add_parser("export", help="write grades in the import format of Canvas, Moodle or a plain CSV",
                              description="Write the grades (the final scores, after late penalties) as the "
                                          "gradebook import of an LMS, keyed by the roster's ids and e-mails.")
    sub.add_argument("format", choices=("canvas", "moodle", "csv"))
    source = sub.add_mutually_exclusive_group(required=True)
    source.add_argument("--grades", metavar="CSV", help="a grades.csv written by maumau grade")
    source.add_argument("--gradebook", metavar="SQLITE", help="the gradebook: each learner's last grade")
    sub.add_argument("--roster", required=True, metavar="CSV",
                     help="Canvas's gradebook export, Moodle's participants or grades export (as the LMS "
                          "gives them), or a roster: learner (folder, seat or hub name), name, id, sis_user_id, "
                          "sis_login_id, email, section")
    sub.add_argument("--out", required=True, metavar="CSV", help="the file to write")
    sub.add_argument("--column", action="append", default=[], metavar="EXERCISE=NAME",
                     help="the LMS's name of an exercise's column, e.g. '02_skip_on_eight=Skip on eight (1234)'")
    sub.set_defaults(func=cmd_export)
    book = commands.add_parser("gradebook", help="a learner's grades over every run of the gradebook")
    book.add_argument("db", metavar="SQLITE")
    book.add_argument("student")
    book.add_argument("--exercise", metavar="NAME")
    book.set_defaults(func=cmd_gradebook)


def cmd_export(args: argparse.Namespace, con: Any) -> int:
    from .export import ExportError, canvas_columns, export, read_grades, read_roster_file
    from .gradebook import Gradebook, GradebookError

    try:
        roster_file = read_roster_file(args.roster)
        if args.grades:
            scores, points = read_grades(args.grades)
        else:
            scores, points = {}, {}
            for row in Gradebook(args.gradebook).latest():
                scores.setdefault(row.student, {})[row.exercise] = row.final
                points[row.exercise] = max(points.get(row.exercise, 0.0), row.max_score)
        columns = dict(c.split("=", 1) for c in args.column if "=" in c)
        roster = roster_file.roster(scores)
        possible: dict[str, str] = {}
        held: dict[str, dict[str, str]] = {}
        notes: list[str] = []
        lms = roster_file.lms
        if args.format == "canvas" and lms is not None and lms.kind == "canvas":
            columns, possible, notes = canvas_columns(lms, points, columns)
            held = roster_file.held(roster, columns)
        elif args.format == "moodle" and lms is not None and lms.kind == "moodle":
            held = roster_file.held(roster, {e: lms.column(e, columns.get(e, e))[0] for e in points})
        result = export(args.format, scores, points, roster, columns, possible, held)
    except (ExportError, GradebookError) as err:
        con.error(str(err))
        return 1
    lms = roster_file.lms
    if lms is not None:
        con.say(f"Read {args.roster} as {lms.label}: {len(lms.rows)} learners, a folder matched by {lms.matched_by}.")
    Path(args.out).write_text(result.text, encoding="utf-8")
    con.say(f"Wrote {result.rows} learners and {len(points)} exercises to {args.out} ({args.format}).")
    for note in [*notes, *result.notes]:
        con.say(note)
    if result.ungraded:
        kept = {"moodle": "not in the file", "canvas": "as Canvas has it" if held else "left empty"}
        con.say(f"On the roster without a grade ({kept.get(args.format, 'left empty')}): "
                f"{', '.join(result.ungraded)}")
    if result.unmatched:
        where = f"in {lms.label} (matched by {lms.matched_by})" if lms else "on the roster"
        con.err.write(f"maumau: not {where}, so not exported: {', '.join(result.unmatched)}\n")
        return 3
    return 0


def cmd_gradebook(args: argparse.Namespace, con: Any) -> int:
    from .gradebook import Gradebook, GradebookError

    if not Path(args.db).is_file():
        con.error(f"no gradebook at {args.db}")
        return 1
    try:
        history = Gradebook(args.db).history(args.student, args.exercise)
    except GradebookError as err:
        con.error(str(err))
        return 1
    if not history:
        con.say(f"No grade of {args.student} in {args.db}.")
        return 0
    for h in history:
        late = f", {h['late_days']} days late (-{h['penalty']:.0%})" if h["late_days"] else ""
        kept = " (unchanged, not run again)" if h["kept"] else ""
        con.say(f"run {h['run']} {h['at']}  {h['exercise']}: {h['final']:g}/{h['max_score']:g} {h['status']}"
                f"{late}{kept}")
    return 0
