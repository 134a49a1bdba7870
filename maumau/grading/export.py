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

The roster may also be the LMS's own export, recognised by its header row: Canvas's gradebook
export, Moodle's participants download or grade export (``lms_roster``: which row is whose).  Then
the Canvas file uses the IDs the export holds and an exercise's column is the Canvas assignment of
that title, as ``Title (id)`` with the export's points possible; the Moodle file the e-mail address
and ID number Moodle's import maps a learner by.

A learner with grades but no roster line is never dropped silently: ``ExportResult.unmatched``
lists them (the command prints them and exits 3).  A roster learner without a grade gets empty
cells in the Canvas and plain files and no row in the Moodle file: Moodle's import empties a grade
for an empty cell (``grade/import/csv``), and leaves a learner who is not in the file as they are.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .lms_roster import LmsExport, LmsExportError, LmsRow, by_key, read_lms_export, read_text, sniff
from .report import cell_text, csv_table, csv_text, fmt

__all__ = [
    "FORMATS", "RosterEntry", "RosterFile", "ExportError", "ExportResult", "read_roster", "read_roster_file",
    "read_grades", "export", "canvas_columns", "CANVAS_COLUMNS", "MOODLE_COLUMNS"
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
    first: str = ""   # as the LMS keeps them apart (Moodle, Canvas's LastName/FirstName export)
    last: str = ""

    def first_last(self) -> tuple[str, str]:
        """First and last name as the LMS keeps them, else from ``name`` ("Last, First" or "First Last")."""
        if self.first or self.last:
            return self.first, self.last
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
    notes: list[str] = field(default_factory=list)       # what the teacher should know before importing


@dataclass
class RosterFile:
    """A roster file as read: a hand-written roster's entries, or an LMS's export."""

    path: str
    entries: dict[str, RosterEntry] = field(default_factory=dict)
    lms: LmsExport | None = None

    @property
    def label(self) -> str:
        return self.lms.label if self.lms else "a roster"

    def by_learner(self) -> dict[str, RosterEntry]:
        """Every learner under their one name (a class server's roster, before any grading): an LMS
        export's rows by ``LmsExport.primary`` (the name a folder of theirs is then matched by)."""
        if self.lms is None:
            return self.entries
        try:
            return {key: _entry(key, row) for key, row in by_key(self.lms).items()}
        except LmsExportError as err:
            raise ExportError(str(err)) from None

    def held(self, roster: Mapping[str, RosterEntry], columns: Mapping[str, str]) -> dict[str, dict[str, str]]:
        """What the LMS's export holds in each exercise's column (``columns``: exercise -> the
        export's column of it), by roster learner: written back where maumau has no grade."""
        if self.lms is None:
            return {}
        rows = {(row.id, row.sis_user_id, row.login, row.email): dict(row.held) for row in self.lms.rows}
        held: dict[str, dict[str, str]] = {}
        for learner, entry in roster.items():
            cells = rows.get((entry.id, entry.sis_user_id, entry.sis_login_id, entry.email), {})
            held[learner] = {e: cells[title] for e, title in columns.items() if title in cells}
        return held

    def roster(self, learners: Iterable[str]) -> dict[str, RosterEntry]:
        """The roster for these graded learners: a hand-written one as it is; of an LMS export each
        learner's matched row under their name and every other row under its own (``LmsExport``);
        ExportError when a learner answers to two rows or two learners to one."""
        if self.lms is None:
            return self.entries
        try:
            found, _missing = self.lms.match(learners)
        except LmsExportError as err:
            raise ExportError(str(err)) from None
        roster = {learner: _entry(learner, row) for learner, row in found.items()}
        taken = {id(row) for row in found.values()}
        for row in self.lms.rows:
            if id(row) not in taken:
                key = self.lms.primary(row)
                roster[key if key not in roster else f"{key} (line {row.line})"] = _entry(key, row)
        return roster


def _entry(learner: str, row: LmsRow) -> RosterEntry:
    return RosterEntry(learner, row.name, row.id, row.sis_user_id, row.login, row.email, row.section,
                       row.first, row.last)


def read_roster_file(path: str | Path) -> RosterFile:
    """The roster at ``path``: Canvas's or Moodle's export (recognised by its header row) or a
    hand-written roster (``read_roster``); ExportError in one sentence for a file neither can be."""
    try:
        text = read_text(path, "roster")
        lms = read_lms_export(path, text)
    except LmsExportError as err:
        raise ExportError(str(err)) from None
    if lms is not None:
        if not lms.rows:
            raise ExportError(f"{path} ({lms.label}) names no learner: export it again with the learners in it")
        return RosterFile(str(path), lms=lms)
    return RosterFile(str(path), entries=_hand_roster(path, text))


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
    """The hand-written roster by learner name; ExportError naming the line of a duplicate or
    nameless learner.  (``read_roster_file`` reads an LMS's export too.)"""
    try:
        text = read_text(path, "roster")
    except LmsExportError as err:
        raise ExportError(str(err)) from None
    return _hand_roster(path, text)


def _hand_roster(path: str | Path, text: str) -> dict[str, RosterEntry]:
    separator, _kind = sniff(text)
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=separator)
    try:
        columns = [c.strip() for c in reader.fieldnames or ()]
        rows = [{(k or "").strip().lower(): (v or "").strip() for k, v in r.items() if k is not None}
                for r in reader]
    except csv.Error as err:
        raise ExportError(f"{path} is not a CSV file that can be read ({err})") from None
    lower = {c.lower() for c in columns}
    pick = {key: next((a for a in names if a in lower), "") for key, names in _ALIASES.items()}
    if not pick["learner"]:
        raise ExportError(f"{path} is neither a roster (no learner column: one of "
                          f"{', '.join(_ALIASES['learner'])}) nor an export of Canvas's gradebook or of "
                          "Moodle's participants or grades")
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
           roster: Mapping[str, RosterEntry], columns: Mapping[str, str] | None = None,
           possible: Mapping[str, str] | None = None, held: Mapping[str, Mapping[str, str]] | None = None
           ) -> ExportResult:
    """The LMS file in ``fmt_name`` (FORMATS); ``columns`` renames exercises to the LMS's
    assignment names (e.g. ``{"02_skip_on_eight": "Skip on eight (1234)"}``); ``possible`` is
    Canvas's own points possible of an existing assignment (written back unchanged: an import
    that changed it would change the assignment); ``held`` is what the LMS's export holds for a
    learner (by roster learner, then exercise), written where maumau has no grade, so that an
    import changes no grade maumau did not give."""
    if fmt_name not in FORMATS:
        raise ExportError(f"unknown format {fmt_name!r}: choose one of {', '.join(FORMATS)}")
    exercises = sorted(points)
    titles = [(columns or {}).get(e, e) for e in exercises]
    table: list[list[str]] = []
    entries = sorted(roster.values(), key=lambda e: (e.name.lower(), e.learner))
    if fmt_name == "moodle":
        _moodle_finds_everyone(entries)
    if fmt_name == "canvas":
        table.append([*CANVAS_COLUMNS, *map(csv_text, titles)])
        table.append(["Points Possible", "", "", "", "",
                      *((possible or {}).get(e) or fmt(points[e]) for e in exercises)])
    elif fmt_name == "moodle":
        table.append([*MOODLE_COLUMNS, *map(csv_text, titles)])
    else:
        table.append(["learner", "lms_id", "email", *map(csv_text, titles), "total"])
    keys = _graded_as((entry.learner for entry in entries), scores)
    heading = len(table)
    cleared: list[str] = []
    for entry in entries:
        got = scores.get(keys[entry.learner], {})
        if fmt_name == "moodle" and not got:
            continue  # Moodle's import empties a grade for an empty cell: a row not there is left as it is
        kept = (held or {}).get(entry.learner, {})
        cells = [_score(got.get(e)) if e in got else _held(kept.get(e, "")) for e in exercises]
        cleared += [f"{entry.learner} ({e})" for e, cell in zip(exercises, cells, strict=True)
                    if fmt_name == "moodle" and not cell]
        table.append([csv_text(v) for v in _identity(fmt_name, entry)] + cells
                     + ([_score(sum(got.values()) if got else None)] if fmt_name == "csv" else []))
    unmatched = sorted(set(scores) - set(keys.values()))
    ungraded = sorted(e.learner for e in entries if keys[e.learner] not in scores)
    notes = []
    if fmt_name == "moodle" and ungraded:
        notes.append("Learners without a grade are left out of the Moodle file, so Moodle keeps their grades.")
    if cleared:
        notes.append("An empty cell empties that grade in Moodle on import: " + ", ".join(cleared[:20])
                     + (" …" if len(cleared) > 20 else "") + " (give Moodle's grade export as the roster "
                     "to keep what Moodle has, or map only the columns you mean to change)")
    return ExportResult(csv_table(table), len(table) - heading, unmatched, ungraded, notes)


def _moodle_finds_everyone(entries: Iterable[RosterEntry]) -> None:
    """ExportError naming the learners Moodle's import could not find: it maps a row to a user by
    e-mail address or ID number (this file's), and a row with neither stops the whole import."""
    lost = [e.learner for e in entries if not (e.email or e.sis_user_id or e.id)]
    if lost:
        raise ExportError(f"no e-mail address or ID number, which Moodle's import finds a learner by, for: "
                          f"{', '.join(lost[:20])}{' …' if len(lost) > 20 else ''}; add them to the roster "
                          "(in Moodle: show the e-mail address in the export)")


def canvas_columns(lms: LmsExport, points: Mapping[str, float], columns: Mapping[str, str]
                   ) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """Each exercise's column in the teacher's Canvas export: the assignment of the exercise's
    title (``--column``, else its name) as ``Title (id)``, so that Canvas's import fills that
    assignment, with Canvas's points possible; and what the teacher should know about it."""
    named: dict[str, str] = {}
    possible: dict[str, str] = {}
    new: list[str] = []
    notes: list[str] = []
    for exercise in sorted(points):
        title, canvas_points = lms.column(exercise, columns.get(exercise, exercise))
        named[exercise] = title
        if canvas_points is None and not re.search(r"\(\d+\)\s*$", title):
            new.append(title)
        if canvas_points:
            possible[exercise] = canvas_points
            if _number(canvas_points) not in (None, points[exercise]):
                notes.append(f"{title}: Canvas gives {canvas_points} points, maumau {fmt(points[exercise])}: "
                             "the scores are maumau's points (Canvas's points possible is left as it is)")
    if new:
        notes.append(f"Not in the Canvas export, so Canvas's import makes a new assignment of each: {', '.join(new)} "
                     "(or name an existing one: --column EXERCISE='Canvas title')")
    return named, possible, notes


def _number(text: str) -> float | None:
    """A number as Canvas writes it in the teacher's locale (``10.5``, ``10,5``, ``1.234,5``)."""
    parts = text.strip().split(",")
    try:
        return float(parts[0].replace(".", "") + "." + parts[1] if len(parts) == 2 else text)
    except ValueError:
        return None


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


def _held(value: str) -> str:
    """A cell of the LMS's own export written back as it was: a number as a number, else as text."""
    return value if re.fullmatch(r"-?[0-9.,]+", value) else csv_text(value)


def _score(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".")
