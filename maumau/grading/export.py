"""Grades into the school's LMS: ``maumau export canvas|moodle|csv``.

The grades come from a ``grades.csv`` that ``maumau grade`` wrote (the ``final`` column: the
score after any late penalty) or from the gradebook (each learner's last grade).  A roster maps
the name the grader knows a learner by (their folder, seat or hub name) to the LMS's own keys:

    learner,name,id,sis_user_id,sis_login_id,email,section
    alice,"Liddell, Alice",1001,S-17,alice@school.example,alice@school.example,A

Column names are read without regard to case; ``student``, ``folder``, ``seat`` and ``hub`` are
taken for ``learner``, ``id number`` for ``sis_user_id``, ``login`` for ``sis_login_id``.

- canvas: Canvas's gradebook import: ``Student, ID, SIS User ID, SIS Login ID, Section`` and a
  column per assignment, then a ``Points Possible`` row (Canvas matches learners by ID or SIS id).
- moodle: Moodle's grade import (CSV): ``First name, Last name, ID number, Email address`` and a
  column per grade item; map "Email address" (or "ID number") to the user on import.
- csv: one plain table: learner, LMS id, e-mail, each exercise, total.

A learner with grades but no roster line is never dropped silently: ``ExportResult.unmatched``
lists them (the command prints them and exits 3), and a roster learner without a grade gets an
empty cell (the LMS leaves that grade as it was).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .report import cell_text, csv_table, csv_text, fmt

__all__ = [
    "FORMATS", "RosterEntry", "ExportError", "ExportResult", "read_roster", "read_grades", "export",
    "CANVAS_COLUMNS", "MOODLE_COLUMNS"
]


FORMATS = ("canvas", "moodle", "csv")
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_COLUMNS = ("First name", "Last name", "ID number", "Email address")
_ALIASES = {"learner": ("learner", "student", "folder", "seat", "hub", "hub user", "username"),
            "name": ("name", "full name", "display name"),
            "id": ("id", "lms id", "canvas id", "lms_id", "canvas_id"),
            "sis_user_id": ("sis_user_id", "sis user id", "id number", "id_number", "idnumber"),
            "sis_login_id": ("sis_login_id", "sis login id", "login", "login id"),
            "email": ("email", "e-mail", "email address", "mail"),
            "section": ("section", "group")}


class ExportError(ValueError):
    """A roster or grades file that cannot be read, said in one sentence."""


@dataclass(frozen=True)
class RosterEntry:
    learner: str
    name: str = ""
    id: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    email: str = ""
    section: str = ""

    def first_last(self) -> tuple[str, str]:
        """First and last name from ``name`` ("Last, First" or "First Last")."""
        if "," in self.name:
            last, first = (p.strip() for p in self.name.split(",", 1))
            return first, last
        parts = self.name.split()
        return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (self.name or self.learner, "")


@dataclass
class ExportResult:
    text: str
    rows: int
    unmatched: list[str] = field(default_factory=list)   # graded learners the roster does not name
    ungraded: list[str] = field(default_factory=list)    # roster learners without any grade


def _read_table(path: str | Path, what: str) -> tuple[list[str], list[dict[str, str]]]:
    try:
        # newline="": a \r inside a quoted cell stays a character of the cell, never a line's end
        with open(path, encoding="utf-8-sig", newline="") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise ExportError(f"cannot read the {what} {path}: {err}") from None
    reader = csv.DictReader(io.StringIO(text))
    columns = [c.strip() for c in reader.fieldnames or ()]
    rows = [{(k or "").strip().lower(): (v or "").strip() for k, v in r.items() if k is not None} for r in reader]
    return columns, rows


def read_roster(path: str | Path) -> dict[str, RosterEntry]:
    """The roster by learner name; ExportError naming the line of a duplicate or nameless learner."""
    columns, rows = _read_table(path, "roster")
    lower = {c.lower() for c in columns}
    pick = {key: next((a for a in names if a in lower), "") for key, names in _ALIASES.items()}
    if not pick["learner"]:
        raise ExportError(f"{path}: no learner column (one of: {', '.join(_ALIASES['learner'])})")
    if not (pick["id"] or pick["sis_user_id"] or pick["email"] or pick["sis_login_id"]):
        raise ExportError(f"{path}: no column the LMS knows a learner by (id, sis_user_id, sis_login_id or email)")
    roster: dict[str, RosterEntry] = {}
    for n, row in enumerate(rows, 2):
        values = {key: row.get(column, "") if column else "" for key, column in pick.items()}
        if not values["learner"]:
            raise ExportError(f"{path}, line {n}: the learner is empty")
        if values["learner"] in roster:
            raise ExportError(f"{path}, line {n}: {values['learner']!r} is on the roster twice")
        roster[values["learner"]] = RosterEntry(**values)
    return roster


def read_grades(path: str | Path) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """From ``grades.csv``: each learner's final score by exercise, and each exercise's points."""
    columns, rows = _read_table(path, "grades file")
    if not {"student", "exercise", "score", "max_score"} <= {c.lower() for c in columns}:
        raise ExportError(f"{path} is not a grades.csv of maumau grade (no student, exercise, score columns)")
    scores: dict[str, dict[str, float]] = defaultdict(dict)
    points: dict[str, float] = {}
    for n, row in enumerate(rows, 2):
        if not row["exercise"] or row.get("status") in ("unknown exercise", "duplicate"):
            continue
        try:
            final = float(row.get("final") or row["score"])
            exercise = cell_text(row["exercise"])
            points[exercise] = max(points.get(exercise, 0.0), float(row["max_score"]))
        except ValueError:
            raise ExportError(f"{path}, line {n}: the score is not a number") from None
        scores[cell_text(row["student"])][cell_text(row["exercise"])] = final
    return dict(scores), points


def export(fmt_name: str, scores: Mapping[str, Mapping[str, float]], points: Mapping[str, float],
           roster: Mapping[str, RosterEntry], columns: Mapping[str, str] | None = None) -> ExportResult:
    """The LMS file in ``fmt_name`` (FORMATS); ``columns`` renames exercises to the LMS's
    assignment names (e.g. ``{"02_skip_on_eight": "Skip on eight (1234)"}``)."""
    if fmt_name not in FORMATS:
        raise ExportError(f"unknown format {fmt_name!r}: choose one of {', '.join(FORMATS)}")
    exercises = sorted(points)
    titles = [(columns or {}).get(e, e) for e in exercises]
    table: list[list[str]] = []
    entries = sorted(roster.values(), key=lambda e: (e.name.lower(), e.learner))
    if fmt_name == "canvas":
        table.append([*CANVAS_COLUMNS, *map(csv_text, titles)])
        table.append(["Points Possible", "", "", "", "", *(fmt(points[e]) for e in exercises)])
    elif fmt_name == "moodle":
        table.append([*MOODLE_COLUMNS, *map(csv_text, titles)])
    else:
        table.append(["learner", "lms_id", "email", *map(csv_text, titles), "total"])
    keys = _graded_as((entry.learner for entry in entries), scores)
    for entry in entries:
        got = scores.get(keys[entry.learner], {})
        cells = [_score(got.get(e)) for e in exercises]
        table.append([csv_text(v) for v in _identity(fmt_name, entry)] + cells
                     + ([_score(sum(got.values()) if got else None)] if fmt_name == "csv" else []))
    unmatched = sorted(set(scores) - set(keys.values()))
    ungraded = sorted(e.learner for e in entries if keys[e.learner] not in scores)
    return ExportResult(csv_table(table), len(entries), unmatched, ungraded)


def _graded_as(roster: Iterable[str], scores: Mapping[str, object]) -> dict[str, str]:
    """The name each roster learner's grades go by: the grading folder made from their name where it
    was graded (a learner who handed in through the class server, "José", is graded in
    ``Jos-24c2ab65``), else their name as written (a folder the teacher named).  A name that is
    another roster learner's folder is that learner's, never the name's: a learner called
    ``Jos-24c2ab65`` does not get José's grades (``submissions.safe_folder_name`` is one-to-one)."""
    from .submissions import safe_folder_name

    folders = {learner: safe_folder_name(learner) for learner in roster}
    taken = {folder for learner, folder in folders.items() if folder != learner}
    return {learner: folder if folder in scores or learner in taken else learner
            for learner, folder in folders.items()}


def _identity(fmt_name: str, e: RosterEntry) -> Iterable[str]:
    if fmt_name == "canvas":
        return [e.name or e.learner, e.id, e.sis_user_id, e.sis_login_id, e.section]
    if fmt_name == "moodle":
        return [*e.first_last(), e.sis_user_id or e.id, e.email]
    return [e.learner, e.id or e.sis_user_id, e.email]


def _score(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".")
