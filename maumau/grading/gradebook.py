"""The gradebook: every grading run and every grade, kept in SQLite (beside the class tables).

Each ``maumau grade --gradebook class.sqlite`` is a run; each notebook it grades is a grade of
that run, with the SHA-256 of the learner's notebook and of the instructor's exercise (its
notebook, its data files and the maumau version that ran it).  A later run grades again only
what changed: a notebook whose two hashes equal those of the learner's last grade keeps that
grade (its row is taken from the book, lateness worked out anew, since a deadline or an
extension may have moved); ``force`` grades everything again.  After a run, ``changes`` lists
the learners whose score moved, e.g. after a hidden test was fixed.

The book is written only by the process that grades (the coordinator when grading is spread
over a cluster), in one transaction per run: a run that fails half-way leaves no half run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .._version import __version__
from .exercise_model import Exercise
from .rows import Row, TestResult

__all__ = ["Gradebook", "Change", "exercise_hash", "notebook_hash", "GradebookError"]

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
