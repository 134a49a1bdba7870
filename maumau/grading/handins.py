"""Hand-ins: the notebooks learners hand in through the class server, every version kept.

The server is the only clock: a hand-in is stamped with the server's receipt time, never a time
the client sends, and with the learner's identity as the server established it (their seat's
token, or their hub user with ``--hub``), never a name the client sends.  The receipt (time,
SHA-256, version) goes back to the learner.  Every version is kept; grading takes each learner's
last one (``write_folders``), with its receipt time as the hand-in time for deadlines.

Refused with a clear sentence, nothing stored: a file that is not a notebook, one larger than the
limit, a notebook of another exercise (none of the exercise's cell ids in it), an exercise the
course does not have, a hand-in after the course closed for that exercise, and a hand-in beyond a
learner's caps: ``MAX_VERSIONS`` versions of one exercise, ``MAX_LEARNER_BYTES`` in all (so one
learner cannot fill the teacher's disk; their earlier versions are all kept).
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

__all__ = ["HandIns", "HandInError", "Receipt", "Stamp", "MAX_HANDIN_BYTES", "MAX_VERSIONS", "MAX_LEARNER_BYTES",
           "safe_folder_name"]

#: The largest notebook the server takes (exercise notebooks are far under 1 MB even with outputs).
MAX_HANDIN_BYTES = 5 * 1024 * 1024
#: Versions of one exercise one learner may hand in (a hand-in after every cell of a lab is far fewer).
MAX_VERSIONS = 50
#: Bytes one learner may hand in over the whole course, every version counted (about 40 MB: a
#: hundred versions of a notebook with plots; a class of 40 at most 1.6 GB on the teacher's disk).
MAX_LEARNER_BYTES = 40 * 1024 * 1024

_SCHEMA = """
CREATE TABLE IF NOT EXISTS handins (
    id INTEGER PRIMARY KEY, learner TEXT NOT NULL, exercise TEXT NOT NULL, version INTEGER NOT NULL,
    received TEXT NOT NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL, notebook BLOB NOT NULL,
    UNIQUE (learner, exercise, version));
"""
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
#: What ``safe_folder_name`` makes of a name that is not plain: a stem, a dash and eight hex digits.
_SUFFIXED = re.compile(r".*-[0-9a-f]{8}")


class HandInError(ValueError):
    """A hand-in that is refused; the sentence says why, and nothing was stored."""


@dataclass(frozen=True)
class Receipt:
    learner: str
    exercise: str
    version: int
    received: str      # ISO 8601, UTC, the server's clock
    sha256: str
    size: int

    def as_dict(self) -> dict[str, object]:
        return {"learner": self.learner, "exercise": self.exercise, "version": self.version,
                "received": self.received, "sha256": self.sha256, "size": self.size}


@dataclass(frozen=True)
class Stamp:
    """The class server's receipt of the notebook graded from a folder: when, and which bytes."""

    received: datetime
    sha256: str


def safe_folder_name(learner: str) -> str:
    """A folder name for ``learner`` that is never a path and never another learner's: the name
    itself when it is plain, else a readable stem and a hash (``../x`` -> ``x-1a2b3c4d``).  A plain
    name that looks like such a folder (``Jos-24c2ab65``, José's) gets a hash of its own too, so
    two names never share a folder (but by a collision of the hash, which ``write_folders`` refuses)."""
    if _PLAIN.fullmatch(learner) and learner not in (".", "..") and not _SUFFIXED.fullmatch(learner):
        return learner
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", learner).strip("._-")[:40] or "_"
    return f"{stem}-{hashlib.sha256(learner.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def _check_notebook(data: bytes, exercise: str, ids: Iterable[str]) -> None:
    """HandInError unless ``data`` is a notebook (read as the grader reads one: ``notebook_from_bytes``)
    of ``exercise``: one of its cell ids in it."""
    from .notebook import NotebookError, cell_key, notebook_from_bytes

    try:
        nb = notebook_from_bytes(data, f"{exercise}.ipynb")
    except NotebookError as err:
        raise HandInError(f"this is not a notebook ({err}): nothing was stored") from None
    wanted = set(ids)
    found = {key for cell in nb.cells for key in (cell_key(cell), cell.get("id")) if isinstance(key, str)}
    if wanted and not wanted & found:
        raise HandInError(f"this notebook is not the exercise {exercise} (none of its cells are in it): "
                          f"nothing was stored")


class HandIns:
    """The hand-ins of a course in a SQLite file (the class server's own)."""

    def __init__(self, path: str | Path, max_bytes: int = MAX_HANDIN_BYTES, max_versions: int = MAX_VERSIONS,
                 max_learner_bytes: int = MAX_LEARNER_BYTES) -> None:
        self.path, self.max_bytes = Path(path), max_bytes
        self.max_versions, self.max_learner_bytes = max_versions, max_learner_bytes
        self._lock = threading.Lock()
        with self._lock, sqlite3.connect(self.path) as db:
            db.executescript(_SCHEMA)

    def receive(self, learner: str, exercise: str, data: bytes, exercises: Mapping[str, Iterable[str]],
                closes: Mapping[str, datetime] | None = None, now: datetime | None = None) -> Receipt:
        """Store ``data`` as the next version of ``learner``'s ``exercise``; ``exercises`` maps each
        exercise of the course to its cell ids, ``closes`` to the time after which it is closed."""
        now = now or datetime.now(timezone.utc)
        if exercise not in exercises:
            raise HandInError(f"there is no exercise {exercise!r} in this course: nothing was stored")
        if len(data) > self.max_bytes:
            raise HandInError(f"the notebook is {len(data) / 1e6:.1f} MB, more than the "
                              f"{self.max_bytes / 1e6:.0f} MB a hand-in may have (clear the outputs and "
                              f"hand in again): nothing was stored")
        close = (closes or {}).get(exercise)
        if close is not None and now > close:
            raise HandInError(f"{exercise} closed at {close.isoformat(timespec='minutes')}: nothing was stored")
        _check_notebook(data, exercise, exercises[exercise])
        digest = hashlib.sha256(data).hexdigest()
        received = now.astimezone(timezone.utc).isoformat(timespec="seconds")
        with self._lock, sqlite3.connect(self.path) as db:
            version = 1 + self._check_room(db, learner, exercise, len(data))
            db.execute("INSERT INTO handins (learner, exercise, version, received, sha256, size, notebook) "
                       "VALUES (?,?,?,?,?,?,?)", (learner, exercise, version, received, digest, len(data), data))
        return Receipt(learner, exercise, version, received, digest, len(data))

    def room(self, learner: str, exercise: str, size: int) -> None:
        """HandInError unless ``learner`` may hand in ``size`` more bytes of ``exercise`` (asked
        before the bytes are read; ``receive`` asks again as it stores them)."""
        with self._lock, sqlite3.connect(self.path) as db:
            self._check_room(db, learner, exercise, size)

    def _check_room(self, db: sqlite3.Connection, learner: str, exercise: str, size: int) -> int:
        """The versions ``learner`` has of ``exercise``; HandInError if one more of ``size``
        bytes would pass a cap (``MAX_VERSIONS``, ``MAX_LEARNER_BYTES``)."""
        versions = int(db.execute("SELECT COUNT(*) FROM handins WHERE learner=? AND exercise=?",
                                  (learner, exercise)).fetchone()[0])
        if versions >= self.max_versions:
            raise HandInError(f"you have handed in {exercise} {versions} times, the most the server keeps: "
                              f"nothing was stored (your earlier versions are all kept; ask your teacher)")
        used = int(db.execute("SELECT COALESCE(SUM(size), 0) FROM handins WHERE learner=?",
                              (learner,)).fetchone()[0])
        if used + size > self.max_learner_bytes:
            raise HandInError(f"your hand-ins take {used / 1e6:.1f} MB already and this one would pass the "
                              f"{self.max_learner_bytes / 1e6:.0f} MB a learner may hand in: nothing was stored "
                              f"(your earlier versions are all kept; clear the outputs and hand in again, or "
                              f"ask your teacher)")
        return versions

    def receipts(self, learner: str | None = None) -> list[Receipt]:
        """Every version (of one learner, or all), oldest first."""
        query = "SELECT learner, exercise, version, received, sha256, size FROM handins"
        args: tuple[str, ...] = ()
        if learner is not None:
            query, args = query + " WHERE learner=?", (learner,)
        with sqlite3.connect(self.path) as db:
            return [Receipt(*row) for row in db.execute(query + " ORDER BY id", args)]

    def write_folders(self, folder: str | Path) -> dict[tuple[str, str], Stamp]:
        """Each learner's last version of each exercise as ``folder/<learner>/<exercise>.ipynb``
        (the layout ``maumau grade`` reads); returns the receipt (time and SHA-256) by (folder
        name, exercise).  Two learners whose folders would be one (a collision of the hash, or
        names one file system does not tell apart) are refused, and a file is never overwritten:
        HandInError, saying whose."""
        folder = Path(folder)
        received: dict[tuple[str, str], Stamp] = {}
        with sqlite3.connect(self.path) as db:
            rows = db.execute("SELECT learner, exercise, received, sha256, notebook FROM handins WHERE id IN "
                              "(SELECT MAX(id) FROM handins GROUP BY learner, exercise)").fetchall()
        owners: dict[str, str] = {}
        for learner, *_ in rows:
            name = safe_folder_name(learner)
            if owners.setdefault(name, learner) != learner:
                raise HandInError(f"the learners {owners[name]!r} and {learner!r} would share the grading folder "
                                  f"{name}: nothing was written (rename one of them on the roster)")
        for learner, exercise, when, digest, data in rows:
            name = safe_folder_name(learner)
            target = folder / name
            target.mkdir(parents=True, exist_ok=True)
            path = target / f"{safe_folder_name(exercise)}.ipynb"
            try:
                with path.open("xb") as file:  # never over another learner's notebook
                    file.write(data)
            except FileExistsError:
                raise HandInError(f"{path} is there already: the hand-in of {learner!r} was not written over it "
                                  f"(a file system that does not tell {name!r} from another folder name?)") from None
            received[(name, exercise)] = Stamp(datetime.fromisoformat(when), digest)
        return received
