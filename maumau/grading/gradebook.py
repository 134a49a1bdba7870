"""A learner's row (one notebook scored from its cells' runs) and the gradebook that keeps every
run's rows in SQLite.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .._version import __version__
from .exercise import LOCKED, SOLUTION, TEST, Exercise, GradedCell, secret_lines
from .kernel import DIED, ERROR, NOT_RUN, OK, TIMEOUT, CellRun
from .run import NotebookRun
from .verdict import judge

__all__ = [
    "STATUSES", "MESSAGE_CHARS", "TestResult", "Row", "Grades", "run_message", "fmt_points", "score_row",
    "Gradebook", "Change", "exercise_hash", "notebook_hash", "GradebookError"
]


# --- a learner's row ----------------------------------------------------------------------------------------
#
# A learner's row: one notebook scored from its cells' runs, with the statuses, notes and
# messages that grades.csv and the feedback show (``report``).  Messages are redacted (no
# line of a solution or hidden test) and short; after the first hidden test no learner text
# reaches them.

#: Row statuses, worst first: the first that applies is the row's status.
STATUSES = ("grader error", "invalid notebook", "missing", "unknown exercise", "duplicate",
            "timeout", "kernel died", "memory limit", "error", "needs manual grading", "ok")
MESSAGE_CHARS = 300
#: What a row says of any failure of a cell at or after the first hidden test: which cell, its
#: text and how it failed are the learner's code's choice, and could carry the hidden test back.
QUIET_PROBLEM = "a cell at or after the hidden tests did not run cleanly (which one and how is not said)"


@dataclass
class TestResult:
    """One test cell's result as grades.csv and the feedback show it (its message redacted)."""

    key: str
    title: str
    points: float
    max_points: float
    passed: bool
    hidden: bool
    message: str = ""
    #: A hidden (quiet) test's own explanation (``verdict.explanation``): learners see it only once
    #: the feedback is released (``feedback_release``), the teacher always.
    explanation: str = ""


@dataclass
class Row:
    """One learner and exercise: the line of grades.csv, with the details for feedback."""

    student: str
    exercise: str
    score: float = 0.0
    max_score: float = 0.0
    status: str = OK
    message: str = ""
    seconds: float = 0.0
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    manual_pending: float = 0.0    # points of answers a teacher still has to grade by hand
    submitted: str = ""            # when it was handed in (ISO 8601 with its zone), "" when not known
    late_days: int = 0             # started days after the learner's due time (``deadlines``)
    penalty: float = 0.0           # share of the score lost to lateness, 0 to 1
    extended: bool = False         # the learner's due time is an extension

    @property
    def final(self) -> float:
        """The score after the late penalty."""
        return round(self.score * (1.0 - self.penalty), 6)

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tests)

    @property
    def failed(self) -> int:
        return sum(not t.passed for t in self.tests)


class Grades(list[Row]):
    """The rows of a batch, and whether its kernels ran isolated (``Sandbox.isolation``)."""

    isolated: bool = True
    isolation: str = "no notebook was run"
    run: int = 0                      # the gradebook's number of this run (0: no gradebook)
    changes: tuple[Change, ...] = ()  # whose grade moved since the gradebook's last run


def _redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret line replaced, its whitespace folded, cut to MESSAGE_CHARS."""
    for line in sorted(secrets, key=len, reverse=True):
        if line in text:
            text = text.replace(line, "[hidden]")
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"


def _describe(cell: GradedCell, n: int) -> str:
    """A cell as the learner knows it: a test by its title, their own cell by its first line."""
    if cell.role == TEST:
        return f"test {cell.title!r}"
    if cell.role == SOLUTION:
        return "your solution cell"
    if cell.role == LOCKED:
        return f"setup cell {cell.key!r}"
    first = next((line.strip() for line in cell.source.split("\n") if line.strip()), "")
    return f"your cell {first[:40]!r}" if first else f"your cell {n}"


def run_message(run: CellRun) -> str:
    """What a cell raised, as the learner reads it (a failed check says only its own words)."""
    if run.ename in ("CheckFailed", "AssertionError") and run.evalue:
        return run.evalue
    return f"{run.ename}: {run.evalue}" if run.evalue else run.ename


def fmt_points(x: float) -> str:
    """Points as the learner reads them: 6, or 1.5."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _quiet_from(cells: list[GradedCell]) -> int:
    """The index of the first hidden test: from there on, feedback holds no learner text."""
    return next((i for i, c in enumerate(cells) if c.role == TEST and c.hidden), len(cells))


def _padded(at: list[int], count: int) -> list[int]:
    """The cell of each note (-1, before any cell, where a run did not say)."""
    return (at + [-1] * count)[:count]


def _run_problems(cells: list[GradedCell], result: NotebookRun, quiet_from: int) -> list[tuple[str, str]]:
    """The (status, message) of what happened between cells: the run stopped, the kernel was gone
    before a cell began (named after the cell before it, unless that is at or after a hidden test)."""
    problems: list[tuple[str, str]] = []
    if result.stopped:
        if "did not start" in result.stopped:
            problems.append(("grader error", f"grading stopped: {result.stopped}"))
        elif result.stopped_at >= quiet_from:
            problems.append((ERROR, QUIET_PROBLEM))
        else:
            problems.append((TIMEOUT, f"grading stopped: {result.stopped}"))
    for i in result.died_after:
        if i >= quiet_from:
            problems.append((ERROR, QUIET_PROBLEM))
        elif 0 <= i < len(cells):
            problems.append(("kernel died", f"the kernel stopped after {_describe(cells[i], i + 1)} "
                                            f"(it was restarted, earlier cells rerun)"))
    return problems


def score_row(row: Row, exercise: Exercise, cells: list[GradedCell], result: NotebookRun,
              reference: dict[str, list[Any]] | None = None) -> None:
    """Fill ``row`` from the cells' results; ``reference`` holds, by test key, what the
    instructor's run recorded (``verdict``): a test passes when the learner's records match."""
    secrets = secret_lines(exercise)
    reference = reference or {}
    quiet_from = _quiet_from(cells)
    problems = _run_problems(cells, result, quiet_from)
    unchecked = []
    for n, (cell, run) in enumerate(zip(cells, result.cells, strict=True), 1):
        what = _describe(cell, n)
        quiet = n - 1 >= quiet_from
        if quiet and (run.status in (TIMEOUT, DIED) or run.ename == "MemoryError"
                      or (run.status == ERROR and cell.role != TEST)):
            problems.append((ERROR, QUIET_PROBLEM))
        elif run.status == TIMEOUT:
            problems.append((TIMEOUT, f"{what} ran longer than the limit and was interrupted"))
        elif run.status == DIED:
            problems.append(("kernel died", f"{what} stopped the kernel (it was restarted, earlier cells rerun)"))
        elif run.ename == "MemoryError":
            problems.append(("memory limit", f"{what} ran out of memory (the grader's limit)"))
        elif run.status == ERROR and cell.role != TEST:
            problems.append((ERROR, f"{what} raised " + ("an error" if quiet else run_message(run))))
        if cell.role == TEST:
            if run.status in ("", NOT_RUN):
                found = judge([], run, quiet)
                message = "not run"
            else:
                found = judge(reference.get(cell.key or "", []), run, quiet)
                message = found.message
            if not found.checked:
                unchecked.append(cell.title)
            row.tests.append(TestResult(cell.key or f"cell{n}", cell.title, cell.points if found.passed else 0.0,
                                        cell.points, found.passed, cell.hidden,
                                        "" if cell.hidden else _redact(message, secrets),
                                        _redact(found.explanation, secrets) if found.explanation else ""))
    row.max_score = exercise.max_score
    row.score = sum(t.points for t in row.tests)
    row.notes += [note for note, at in zip(result.notes, _padded(result.noted_at, len(result.notes)), strict=True)
                  if at < quiet_from]
    if unchecked:
        many = len(unchecked) > 1
        row.notes.append(("tests " if many else "test ") + ", ".join(repr(t) for t in unchecked)
                         + (" have" if many else " has") + " no check(): judged only by running without an error")
    if row.manual_pending > 0:
        problems.append(("needs manual grading", f"{fmt_points(row.manual_pending)} points wait for a teacher"))
    if problems:
        order = {s: i for i, s in enumerate(STATUSES)}
        problems.sort(key=lambda p: order[p[0]])
        row.status = problems[0][0]
    failed = next((t for t in row.tests if not t.passed), None)
    parts = [p[1] for p in problems[:1]]
    if failed is not None and not any(repr(failed.title) in p for p in parts):
        kind = "hidden test" if failed.hidden else "test"
        parts.append(f"{kind} {failed.title!r}" + (f": {failed.message}" if failed.message else " failed"))
    row.message = _redact("; ".join(parts), secrets)


# --- the gradebook ------------------------------------------------------------------------------------------
#
# The gradebook: every grading run and every grade, kept in SQLite (beside the class tables).
#
# Each ``maumau grade --gradebook class.sqlite`` is a run; each notebook it grades is a grade of
# that run, with the SHA-256 of the learner's notebook and of the instructor's exercise (its
# notebook, its data files and the maumau version that ran it).  A later run grades again only
# what changed: a notebook whose two hashes equal those of the learner's last grade keeps that
# grade (its row is taken from the book, lateness worked out anew, since a deadline or an
# extension may have moved); ``force`` grades everything again.  After a run, ``changes`` lists
# the learners whose score moved, e.g. after a hidden test was fixed.
#
# The book is written only by the process that grades (the coordinator when grading is spread
# over a cluster), in one transaction per run: a run that fails half-way leaves no half run.

_SCHEMA = """
CREATE TABLE IF NOT EXISTS grading_runs (
    id INTEGER PRIMARY KEY, at TEXT NOT NULL, forced INTEGER NOT NULL, graded INTEGER NOT NULL,
    kept INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS grades (
    id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES grading_runs(id), student TEXT NOT NULL,
    exercise TEXT NOT NULL, submission_sha TEXT NOT NULL, source_sha TEXT NOT NULL, kept INTEGER NOT NULL,
    score REAL NOT NULL, max_score REAL NOT NULL, status TEXT NOT NULL, submitted TEXT NOT NULL,
    late_days INTEGER NOT NULL, penalty REAL NOT NULL, final REAL NOT NULL, row TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS grades_by_learner ON grades (student, exercise, id);
"""


class GradebookError(RuntimeError):
    """The gradebook file cannot be opened or is not a gradebook."""


def notebook_hash(notebook: Any) -> str:
    """SHA-256 of a submitted notebook's content (its JSON with sorted keys)."""
    return hashlib.sha256(json.dumps(notebook, sort_keys=True, ensure_ascii=False).encode("utf-8",
                                                                                      "surrogatepass")).hexdigest()


def exercise_hash(exercise: Exercise) -> str:
    """SHA-256 of what the grader runs for ``exercise``: the instructor's notebook, its data files
    (by name) and the maumau version (a new engine may judge differently)."""
    digest = hashlib.sha256(f"maumau {__version__}\n".encode())
    digest.update(Path(exercise.path).read_bytes())
    for name, path in sorted(exercise.files.items()):
        digest.update(f"\n{name}\n".encode())
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class Change:
    """A learner whose grade of an exercise moved in the last run."""

    student: str
    exercise: str
    before: float
    after: float
    status_before: str
    status_after: str


def _row_json(row: Row) -> str:
    return json.dumps(dataclasses.asdict(row), ensure_ascii=False)


def _row_from_json(text: str) -> Row:
    data = json.loads(text)
    tests = [TestResult(**t) for t in data.pop("tests", [])]
    known = {f.name for f in dataclasses.fields(Row)}
    return Row(**{k: v for k, v in data.items() if k in known}, tests=tests)


class Gradebook:
    """The grades of a course in the SQLite file ``path`` (created when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            with closing(self._connect()) as db, db:
                db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as err:
            raise GradebookError(f"{self.path} is not a gradebook (SQLite: {err})") from None

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
        return db

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with closing(self._connect()) as db, db:
            yield db

    def last(self, student: str, exercise: str) -> tuple[Row, str, str] | None:
        """The learner's last grade of ``exercise``: its row and its two hashes."""
        with self._db() as db:
            found = db.execute("SELECT row, submission_sha, source_sha FROM grades WHERE student=? AND exercise=? "
                               "ORDER BY id DESC LIMIT 1", (student, exercise)).fetchone()
        return None if found is None else (_row_from_json(found[0]), found[1], found[2])

    def kept(self, row: Row, submission_sha: str, source_sha: str) -> Row | None:
        """The stored result for this very notebook and exercise (both hashes equal), or None."""
        last = self.last(row.student, row.exercise)
        if last is None or (last[1], last[2]) != (submission_sha, source_sha):
            return None
        stored = last[0]
        if stored.status in ("grader error",):  # the grader's own failure is always tried again
            return None
        return stored

    def record(self, rows: Iterable[tuple[Row, str, str, bool]], forced: bool) -> tuple[int, tuple[Change, ...]]:
        """Store a run: ``(row, submission_sha, source_sha, kept)`` for each graded notebook.
        Returns the run's number and the learners whose score or status moved."""
        rows = list(rows)
        before = {(r.student, r.exercise): self.last(r.student, r.exercise) for r, _, _, _ in rows}
        at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._db() as db:
            run = db.execute("INSERT INTO grading_runs (at, forced, graded, kept) VALUES (?, ?, ?, ?)",
                             (at, int(forced), sum(not k for *_, k in rows), sum(k for *_, k in rows))).lastrowid
            db.executemany(
                "INSERT INTO grades (run, student, exercise, submission_sha, source_sha, kept, score, max_score, "
                "status, submitted, late_days, penalty, final, row) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(run, r.student, r.exercise, sub, src, int(k), r.score, r.max_score, r.status, r.submitted,
                  r.late_days, r.penalty, r.final, _row_json(r)) for r, sub, src, k in rows])
        changes = []
        for r, _, _, _ in rows:
            old = before[(r.student, r.exercise)]
            if old is not None and (old[0].final, old[0].status) != (r.final, r.status):
                changes.append(Change(r.student, r.exercise, old[0].final, r.final, old[0].status, r.status))
        return int(run or 0), tuple(changes)

    def history(self, student: str, exercise: str | None = None) -> list[dict[str, Any]]:
        """Every grade of ``student`` (of one exercise, or all), oldest first."""
        query = ("SELECT g.run, r.at, g.exercise, g.score, g.max_score, g.status, g.submitted, g.late_days, "
                 "g.penalty, g.final, g.kept FROM grades g JOIN grading_runs r ON r.id = g.run WHERE g.student=?")
        args: tuple[str, ...] = (student,)
        if exercise is not None:
            query, args = query + " AND g.exercise=?", (student, exercise)
        names = ("run", "at", "exercise", "score", "max_score", "status", "submitted", "late_days", "penalty",
                 "final", "kept")
        with self._db() as db:
            return [dict(zip(names, found, strict=True)) for found in db.execute(query + " ORDER BY g.id", args)]

    def latest(self) -> list[Row]:
        """The last grade of every learner and exercise: the course as it stands."""
        with self._db() as db:
            found = db.execute("SELECT row FROM grades WHERE id IN (SELECT MAX(id) FROM grades "
                               "GROUP BY student, exercise) ORDER BY student, exercise").fetchall()
        return [_row_from_json(text) for (text,) in found]

    def runs(self) -> int:
        with self._db() as db:
            return int(db.execute("SELECT COUNT(*) FROM grading_runs").fetchone()[0])
