"""The LMS's own exports as the roster of ``maumau export`` (and of ``maumau serve --roster``).

Three files an LMS gives a teacher are read as they come, recognised by their header row:

- Canvas's gradebook export (Grades → Export → Export Entire Gradebook): ``Student`` (or
  ``LastName, FirstName``), ``ID``, ``SIS User ID``, ``SIS Login ID``, optional ``Integration ID``
  and ``Root Account``, ``Section``, the course's own columns, then a column per assignment named
  ``Title (id)``, the totals, and a ``Points Possible`` row (a ``Manual Posting`` row before it
  when an assignment is posted by hand), comma or semicolon separated (Canvas's
  ``lib/gradebook_exporter.rb``; its importer reads the same file back).
- Moodle's participants download (Participants → select all → "Download table data as" CSV):
  ``First name, Last name`` and the site's identity fields (``Email address``, ``ID number``,
  ``Username`` …), UTF-8 with a BOM.
- Moodle's grade export (Grades → Export → Plain text file): an optional ``Group``, the profile
  fields (``First name, Last name, ID number, Institution, Department, Email address``), the grade
  items (``Assignment: NAME (Real)``), ``Last downloaded from this course``; comma, tab,
  semicolon or colon separated.

Moodle writes its headers in the teacher's language: English and German headers are known.

A learner's folder (seat or hub name) is matched to a row, without regard to case and in Unicode's
NFC form, by the row's ``maumau`` column where the file has one (a column the teacher adds: in
Canvas a custom gradebook column, which the export carries), else by any of its login (Canvas's
SIS Login ID, Moodle's Username), e-mail address, the part of either before the ``@``, its SIS
User ID / ID number and its Canvas ID.  A folder two rows answer to, or two folders one row
answers to, stops the export with a sentence naming them: nothing is guessed.
"""

from __future__ import annotations

import csv
import io
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

__all__ = ["MAX_ROSTER_BYTES", "LmsExportError", "LmsRow", "LmsExport", "read_text", "read_lms_export", "by_key",
           "sniff", "norm"]

#: A class of 3000 with 200 assignments exports about 5 MB; a file this large is not a roster.
MAX_ROSTER_BYTES = 20 * 1024 * 1024
#: Moodle's txt export offers these separators; Canvas writes "," or ";" (its locale setting).
_SEPARATORS = (",", ";", "\t", ":")

# Moodle's header words, by the teacher's language (Moodle's language packs: en, de).
_FIRST = {"first name", "firstname", "vorname"}
_LAST = {"last name", "surname", "lastname", "nachname"}
_EMAIL = {"email address", "e-mail-adresse", "email"}
_IDNUMBER = {"id number", "id-nummer", "idnumber"}
_USERNAME = {"username", "anmeldename"}
_LAST_DOWNLOADED = {"last downloaded from this course", "zuletzt aus diesem kurs geladen"}
_GROUP = {"group", "groups", "gruppe", "gruppen"}
#: What a hand-written roster names its learner column (``export._ALIASES``; "student" and
#: "username" too, but those are also Canvas's and Moodle's words, so they are asked last).
_LEARNER = {"learner", "folder", "seat", "hub", "hub user"}


class LmsExportError(ValueError):
    """A roster file that cannot be read, or learners that cannot be told apart: one sentence."""


def norm(text: str) -> str:
    """A name as it is compared: NFC, stripped, without regard to case."""
    return unicodedata.normalize("NFC", text).strip().casefold()


def _local(value: str) -> str:
    return value.split("@", 1)[0] if "@" in value else ""


@dataclass(frozen=True)
class LmsRow:
    """One learner's row of an LMS export: the LMS's own keys and the names it shows."""

    line: int
    name: str = ""          # as the LMS shows it: Canvas's "Last, First"
    first: str = ""
    last: str = ""
    id: str = ""            # Canvas's user ID
    sis_user_id: str = ""   # Canvas's SIS User ID, Moodle's ID number
    login: str = ""         # Canvas's SIS Login ID, Moodle's Username
    email: str = ""
    section: str = ""
    maumau: str | None = None   # the teacher's "maumau" column, where the file has one
    #: What the export holds in each assignment's column (Canvas: "Title (id)" -> "4.00", "EX",
    #: "N/A"; Moodle's grade export: "Assignment: NAME (Real)" -> "4,00", "-").
    held: tuple[tuple[str, str], ...] = ()

    def keys(self) -> list[str]:
        """The values a learner's folder is matched by (see the module docstring)."""
        if self.maumau is not None:
            return [self.maumau] if self.maumau else []
        values = [self.login, self.email, _local(self.login), _local(self.email), self.sis_user_id, self.id]
        return list(dict.fromkeys(v for v in values if v))


@dataclass
class LmsExport:
    """An LMS's export read as a roster."""

    kind: str                 # "canvas" or "moodle"
    label: str                # what was read, as the teacher knows it
    path: str
    rows: list[LmsRow]
    #: Each assignment's title (``norm``) -> its column (Canvas: "Title (id)", Moodle: "Module: Title
    #: (Real)") and its points possible (Canvas's; Moodle's export has none).
    assignments: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def matched_by(self) -> str:
        """The columns a folder is matched by, for the teacher."""
        if any(r.maumau is not None for r in self.rows):
            return "the maumau column"
        if self.kind == "canvas":
            return "SIS Login ID, its part before the @, SIS User ID or ID"
        return "Username, e-mail address, its part before the @ or ID number"

    def primary(self, row: LmsRow) -> str:
        """The one name a row's learner goes by where no folder names them (the class server's
        learner key): the maumau column, else the login's or e-mail's part before the @ where no
        other row shares it, else the login, e-mail or an id."""
        if row.maumau is not None:
            return row.maumau
        for value in (row.login, row.email):
            if _local(value) and norm(_local(value)) not in self._shared_locals:
                return _local(value)
            if value:
                return value
        return row.sis_user_id or row.id or f"line {row.line}"

    @cached_property
    def _shared_locals(self) -> set[str]:
        """The parts before the @ that two rows share: no learner's one name."""
        seen: dict[str, int] = {}
        for row in self.rows:
            for local in {norm(_local(v)) for v in (row.login, row.email) if _local(v)}:
                seen[local] = seen.get(local, 0) + 1
        return {local for local, n in seen.items() if n > 1}

    def match(self, learners: Iterable[str]) -> tuple[dict[str, LmsRow], list[str]]:
        """Each graded learner's row and the learners no row answers to; LmsExportError naming every
        learner two rows answer to and every row two learners would share."""
        from .submissions import safe_folder_name

        index: dict[str, set[int]] = {}
        for i, row in enumerate(self.rows):
            for key in row.keys():
                nfc = unicodedata.normalize("NFC", key.strip())
                for form in {norm(nfc), safe_folder_name(nfc)}:
                    index.setdefault(form, set()).add(i)
        found: dict[str, LmsRow] = {}
        missing: list[str] = []
        problems: list[str] = []
        owner: dict[int, str] = {}
        for learner in sorted(learners):
            rows = index.get(learner, set()) | index.get(norm(learner), set())
            if not rows:
                missing.append(learner)
            elif len(rows) > 1:
                lines = ", ".join(str(self.rows[i].line) for i in sorted(rows))
                problems.append(f"{learner!r} answers to {len(rows)} learners (lines {lines})")
            else:
                i = next(iter(rows))
                if i in owner:
                    problems.append(f"{owner[i]!r} and {learner!r} are both the learner of line {self.rows[i].line}")
                owner[i] = learner
                found[learner] = self.rows[i]
        if problems:
            more = f"; and {len(problems) - 10} more" if len(problems) > 10 else ""
            raise LmsExportError(f"{self.path} ({self.label}): " + "; ".join(problems[:10]) + more
                                 + f": a folder is matched by {self.matched_by}; name the folders apart "
                                   "or add a maumau column to the file. Nothing was written.")
        return found, missing

    def column(self, exercise: str, title: str) -> tuple[str, str | None]:
        """The Canvas column an exercise's scores go to: ``Title (id)`` of the assignment the export
        has by that title (and its points possible), else the title (Canvas makes a new assignment)."""
        if re.search(r"\(\d+\)\s*$", title):
            return title, None
        hit = self.assignments.get(norm(title)) or self.assignments.get(norm(exercise))
        return hit if hit else (title, None)


# --- reading ----------------------------------------------------------------------------------------------

def read_text(path: str | Path, what: str) -> str:
    """The text of a file a teacher gives: at most MAX_ROSTER_BYTES, UTF-8 (a BOM is dropped) or
    UTF-16 with its BOM (Excel's "Unicode text"); ValueError in one sentence for anything else.
    Other 8-bit encodings are refused, never guessed: cp1252 and cp1250 read the same bytes as
    different letters (ő or õ), and a name read wrong is a name changed."""
    try:
        size = os.stat(path).st_size
        if size > MAX_ROSTER_BYTES:
            raise LmsExportError(f"{path} is {size / 2**20:.0f} MB: a {what} is far smaller "
                         f"(at most {MAX_ROSTER_BYTES // 2**20} MB are read)")
        with open(path, "rb") as f:
            data = f.read(MAX_ROSTER_BYTES + 1)
    except OSError as err:
        raise LmsExportError(f"cannot read the {what} {path}: {err.strerror or err}") from None
    if len(data) > MAX_ROSTER_BYTES:
        raise LmsExportError(f"{path} is larger than {MAX_ROSTER_BYTES // 2**20} MB: a {what} is far smaller")
    if data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise LmsExportError(f"{path} is a spreadsheet workbook, not CSV text: save it as \"CSV UTF-8\" "
                             "and give that file")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            line = data[:err.start].count(b"\n") + 1
            raise LmsExportError(f"{path} is not UTF-8 text (byte 0x{data[err.start]:02X} on line {line}): save it as "
                         "\"CSV UTF-8\" in Excel, or choose UTF-8 as the encoding when exporting from Moodle"
                         ) from None
    if "\x00" in text:
        raise LmsExportError(f"{path} is not a text file (it holds NUL characters): give the CSV file the LMS exported")
    if not text.strip():
        raise LmsExportError(f"{path} is empty: export the roster from the LMS again")
    return text


def _rows(text: str, separator: str, path: str | Path) -> list[list[str]]:
    try:
        return [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator)]
    except csv.Error as err:  # a cell over csv's field limit, a stray quote in strict places
        raise LmsExportError(f"{path} is not a CSV file that can be read ({err})") from None


def _header(text: str, separator: str) -> list[str]:
    try:
        return [norm(c) for c in next(csv.reader(io.StringIO(text, newline=""), delimiter=separator), [])]
    except csv.Error:
        return []


def _kind(header: list[str], text: str, separator: str) -> str | None:
    """"canvas", "moodle", "roster" (a hand-written one) or None, by the header row."""
    if len(header) < 2:
        return None
    start = 2 if header[:2] == ["lastname", "firstname"] else 1
    if (len(header) > start + 2 and header[0] in ("student", "lastname") and header[start] == "id"
            and "sis login id" in header and "section" in header
            and (_points_row(text, separator) is not None or any(re.search(r"\S \(\d+\)$", c) for c in header))):
        return "canvas"
    if _LEARNER & set(header):
        return "roster"
    if _FIRST & set(header) and _LAST & set(header) and (_EMAIL | _IDNUMBER | _USERNAME) & set(header):
        return "moodle"
    return "roster" if {"student", "username"} & set(header) else None


def _points_row(text: str, separator: str) -> int | None:
    """Where Canvas's "Points Possible" row is (within the first rows), or None."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    try:
        for n, row in zip(range(4), reader, strict=False):
            if n and row and "points possible" in norm(row[0]):
                return n
    except csv.Error:
        return None
    return None


def sniff(text: str) -> tuple[str, str | None]:
    """The separator and kind of a roster's text (the kind None: none that is known)."""
    for separator in _SEPARATORS:
        kind = _kind(_header(text, separator), text, separator)
        if kind:
            return separator, kind
    return ",", None


def read_lms_export(path: str | Path, text: str | None = None) -> LmsExport | None:
    """The LMS export at ``path``, or None when the file is not one (a hand-written roster);
    ValueError in one sentence for a file that cannot be read or a duplicate learner."""
    text = read_text(path, "roster") if text is None else text
    separator, kind = sniff(text)
    if kind == "canvas":
        return _canvas(path, _rows(text, separator, path))
    if kind == "moodle":
        return _moodle(path, _rows(text, separator, path))
    return None


def _cells(row: list[str], width: int) -> list[str]:
    return [c.strip() for c in row] + [""] * (width - len(row))


def _canvas(path: str | Path, table: list[list[str]]) -> LmsExport:
    header = [c.strip() for c in table[0]]
    low = [norm(c) for c in header]
    split = low[:2] == ["lastname", "firstname"]
    at = {name: low.index(name) for name in ("id", "sis user id", "sis login id", "section", "maumau") if name in low}
    assignment_at = [i for i, title in enumerate(header)
                     if i > at["section"] and re.fullmatch(r".*\S\s*\(\d+\)", title)]
    rows: list[LmsRow] = []
    points: list[str] = []
    for n, raw in enumerate(table[1:], 2):
        cells = _cells(raw, len(header))
        if not any(cells):
            continue
        if "points possible" in norm(cells[0]):
            points = cells
            continue
        if all(re.fullmatch(r"(?i)(muted|manual posting.*)?", c) for c in cells):
            continue  # the row that marks assignments posted by hand
        name = f"{cells[0]}, {cells[1]}" if split and cells[1] else cells[0]
        rows.append(LmsRow(n, name=name, first=cells[1] if split else "", last=cells[0] if split else "",
                           id=cells[at["id"]], sis_user_id=cells[at["sis user id"]] if "sis user id" in at else "",
                           login=cells[at["sis login id"]], section=cells[at["section"]],
                           email=cells[at["sis login id"]] if "@" in cells[at["sis login id"]] else "",
                           maumau=cells[at["maumau"]] if "maumau" in at else None,
                           held=tuple((header[i], cells[i]) for i in assignment_at)))
    assignments: dict[str, tuple[str, str]] = {}
    for i in assignment_at:
        title = re.sub(r"\s*\(\d+\)$", "", header[i])
        assignments.setdefault(norm(title), (header[i], points[i] if i < len(points) else ""))
    _no_twice(path, rows, ("id", "sis_user_id", "login"))
    return LmsExport("canvas", "Canvas's gradebook export", str(path), rows, assignments)


def _moodle(path: str | Path, table: list[list[str]]) -> LmsExport:
    low = [norm(c) for c in table[0]]

    def col(words: set[str]) -> int | None:
        return next((i for i, c in enumerate(low) if c in words), None)

    at = {"first": col(_FIRST), "last": col(_LAST), "email": col(_EMAIL), "sis_user_id": col(_IDNUMBER),
          "login": col(_USERNAME), "section": col(_GROUP), "maumau": col({"maumau"})}
    # a grade item's points: "Assignment: NAME (Real)" (German: "Aufgabe: NAME (Punkte)")
    items = [i for i, c in enumerate(low) if re.search(r"\S \((real|punkte)\)$", c)]
    grades = col(_LAST_DOWNLOADED) is not None or bool(items)
    header = [c.strip() for c in table[0]]
    assignments: dict[str, tuple[str, str]] = {}
    for i in items:
        title = re.sub(r"\s*\([^()]*\)$", "", header[i])
        for name in (title, title.split(": ", 1)[-1]):   # with and without the module's name
            assignments.setdefault(norm(name), (header[i], ""))
    rows: list[LmsRow] = []
    for n, raw in enumerate(table[1:], 2):
        cells = _cells(raw, len(low))
        if not any(cells):
            continue
        value = {key: cells[i] if i is not None else "" for key, i in at.items()}
        first, last = value["first"], value["last"]
        rows.append(LmsRow(n, name=f"{last}, {first}" if last and first else last or first, first=first,
                           last=last, email=value["email"], sis_user_id=value["sis_user_id"],
                           login=value["login"], section=value["section"],
                           maumau=value["maumau"] if at["maumau"] is not None else None,
                           held=tuple((header[i], cells[i]) for i in items)))
    _no_twice(path, rows, ("sis_user_id", "login", "email"))
    label = "Moodle's grade export" if grades else "Moodle's participants download"
    return LmsExport("moodle", label, str(path), rows, assignments)


def _no_twice(path: str | Path, rows: list[LmsRow], keys: tuple[str, ...]) -> None:
    """LmsExportError naming the lines of a learner the file has twice (the same id, login or e-mail)."""
    for key in keys:
        seen: dict[str, int] = {}
        for row in rows:
            value = norm(getattr(row, key))
            if value and value in seen:
                raise LmsExportError(f"{path}, lines {seen[value]} and {row.line}: the same learner twice "
                             f"({key.replace('_', ' ')} {getattr(row, key)!r}); remove one of the rows")
            seen.setdefault(value, row.line)


def by_key(export: LmsExport) -> dict[str, LmsRow]:
    """Every row by its learner's one name (``LmsExport.primary``), for a class server's roster."""
    out: dict[str, LmsRow] = {}
    seen: set[str] = set()
    for row in export.rows:
        key = export.primary(row)
        if not key:
            raise LmsExportError(f"{export.path}, line {row.line}: the maumau column is empty")
        if norm(key) in seen:
            raise LmsExportError(f"{export.path}, line {row.line}: {key!r} is a second learner's name too")
        seen.add(norm(key))
        out[key] = row
    return out
