"""What the learners handed in: their submission folders (trusting nothing the learners made),
the class server's hand-ins (every version kept, stamped by the server's clock), and which
notebook a receipt belongs to.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from .exercise import MAX_NOTEBOOK_BYTES, NotebookError, cell_key, notebook_from_bytes, read_regular_file

if TYPE_CHECKING:  # pragma: no cover - the notebooks are read by .exercise
    import nbformat

__all__ = [
    "Submission", "find_submissions", "read_submission", "duplicate_id_notes", "printable", "JUNK", "FOLDER",
    "submitted_at", "TIMESTAMP", "HandIns", "HandInError", "Receipt", "Stamp", "MAX_HANDIN_BYTES", "MAX_VERSIONS",
    "MAX_LEARNER_BYTES", "safe_folder_name", "match_receipts"
]


# --- submission folders -------------------------------------------------------------------------------------
#
# Finding and reading the learners' submissions, trusting nothing the learners made.
#
# Layout: each SUBMISSION_DIR (the teacher's argument, followed even if it is a symbolic link)
# holds one folder per learner, named after the learner, with the notebooks named as released;
# a SUBMISSION_DIR that holds notebooks itself is one learner's folder.
#
# Everything below a SUBMISSION_DIR is the learners': names, links, file types and sizes.
#
# - A learner's folder that is a symbolic link is not followed (it could point at the
#   instructor's exercises): a ``Submission`` for the folder says so, and grading makes it a row.
# - Notebooks are opened relative to the learner's folder, itself opened without following a
#   link, with ``O_NOFOLLOW | O_NONBLOCK``; only a regular file is read, and at most 20 MB of it
#   (``exercise.read_regular_file``).  A link, a named pipe, a device, a folder or a huge file
#   is an "invalid notebook" row with the reason; the batch goes on.
# - Every learner folder counts except well-known junk (``JUNK``): ``_alice`` and ``.bob`` are
#   learners too.  A name that is not valid UTF-8 is shown with backslash escapes (``\xff``).

#: Folders in a SUBMISSION_DIR that are never a learner (tools' and operating systems' leftovers).
JUNK = frozenset({".ipynb_checkpoints", "__pycache__", ".git", "__MACOSX"})
#: The ``exercise`` of a Submission (and Row) about a learner's whole folder.
FOLDER = ""
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@dataclass
class Submission:
    """One notebook of one learner, or (``exercise == FOLDER``) a learner's folder."""

    student: str
    exercise: str
    path: Path
    root: Path | None = None  # the SUBMISSION_DIR: the only part of ``path`` that may be a link
    problem: str = ""         # why the folder could not be looked into ("" when it could)
    received: datetime | None = None  # when the class server received it (its own clock), if it did
    note: str = ""            # which of a learner's copies was graded and why (``match_receipts``)


def printable(text: str) -> str:
    """``text`` as valid UTF-8: bytes of a file name that are not UTF-8 become ``\\xff``."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that no file name produced
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _open_dir(name: str | Path, dir_fd: int | None = None, follow: bool = False) -> int:
    return os.open(name, _DIR_FLAGS | (0 if follow else _NOFOLLOW), dir_fd=dir_fd)


def _folder_problem(err: OSError, name: str) -> str:
    if err.errno in (errno.ELOOP, errno.ENOTDIR):  # O_NOFOLLOW met a link (swapped in since the listing)
        return f"the folder {printable(name)} is a symbolic link: it was not followed"
    return f"the folder {printable(name)} cannot be read ({err.strerror})"


def _folder(folder: Path, root: Path, student: str) -> list[Submission]:
    """The notebooks in a learner's folder, listed without following a link to it."""
    try:
        if folder == root:
            fd = _open_dir(root, follow=True)
        else:
            parent = _open_dir(root, follow=True)
            try:
                fd = _open_dir(folder.name, parent)
            finally:
                os.close(parent)
        try:
            names = sorted(os.listdir(fd))
        finally:
            os.close(fd)
    except OSError as err:
        return [Submission(student, FOLDER, folder, root, _folder_problem(err, folder.name))]
    found = [Submission(student, printable(name[: -len(".ipynb")]), folder / name, root)
             for name in names if name.endswith(".ipynb") and not name.startswith(".")]
    # a folder without notebooks still counts: its learner gets a "missing" row per exercise
    return found or [Submission(student, FOLDER, folder, root)]


def find_submissions(dirs: Iterable[str | Path]) -> list[Submission]:
    """The notebooks of SUBMISSION_DIR/<student>/<exercise>.ipynb (or of a student's folder),
    and a Submission with ``exercise == FOLDER`` for a learner's folder that holds none or
    cannot be looked into (``problem`` says why)."""
    found: list[Submission] = []
    for d in dirs:
        d = Path(d)
        if not d.is_dir():
            raise NotebookError(f"no such submissions folder: {d}")
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError as err:
            raise NotebookError(f"cannot read the submissions folder {d} ({err.strerror})") from None
        if any(e.name.endswith(".ipynb") and not e.name.startswith(".") for e in entries):
            found += _folder(d, d, printable(d.name))
            continue
        for entry in entries:
            student = printable(entry.name)
            if entry.name in JUNK:
                continue
            if entry.is_symlink():  # never followed: it might lead to the instructor's exercises
                found.append(Submission(student, FOLDER, Path(entry.path), d,
                                        f"the folder {student} is a symbolic link: it was not followed"))
            elif entry.is_dir(follow_symlinks=False):
                found += _folder(Path(entry.path), d, student)
    return found


def read_submission(sub: Submission, max_bytes: int = MAX_NOTEBOOK_BYTES) -> nbformat.NotebookNode:
    """The notebook of ``sub``, read without following a symbolic link below its
    SUBMISSION_DIR, only if it is a regular file of at most ``max_bytes``; NotebookError
    (with the reason, naming the file) otherwise."""
    root = sub.root if sub.root is not None else sub.path.parent
    parts = sub.path.relative_to(root).parts
    try:
        fd = _open_dir(root, follow=True)
    except OSError as err:
        raise NotebookError(f"{sub.path.parent.name} cannot be read ({err.strerror})") from None
    try:
        for part in parts[:-1]:
            try:
                inner = _open_dir(part, fd)
            except OSError as err:
                raise NotebookError(_folder_problem(err, part)) from None
            os.close(fd)
            fd = inner
        raw = read_regular_file(parts[-1], max_bytes, dir_fd=fd, follow_links=False)
    finally:
        os.close(fd)
    return notebook_from_bytes(raw, printable(sub.path.name))


#: nbgrader's record of the hand-in time, beside the notebooks (``2015-02-02 15:58:23.9 America/Los_Angeles``).
TIMESTAMP = "timestamp.txt"


def submitted_at(sub: Submission) -> tuple[datetime | None, str]:
    """When ``sub`` was handed in: the class server's receipt time, else nbgrader's timestamp.txt
    beside the notebook (read like a notebook: no link followed, at most 200 bytes); None when
    neither says.  The second value is a note for the row when timestamp.txt cannot be read."""
    from .deadlines import DeadlineError, parse_time

    if sub.received is not None:
        return sub.received, ""
    stamp = Submission(sub.student, sub.exercise, sub.path.parent / TIMESTAMP, sub.root)
    if not os.path.lexists(stamp.path):
        return None, ""
    try:
        raw = _read_beside(stamp, 200)
        return parse_time(raw.decode("utf-8").strip(), "timestamp.txt"), ""
    except (NotebookError, DeadlineError, UnicodeDecodeError) as err:
        return None, f"timestamp.txt was not used: {err}"


def _read_beside(sub: Submission, max_bytes: int) -> bytes:
    """The bytes of ``sub.path``, opened as ``read_submission`` opens a notebook."""
    root = sub.root if sub.root is not None else sub.path.parent
    parts = sub.path.relative_to(root).parts
    fd = _open_dir(root, follow=True)
    try:
        for part in parts[:-1]:
            inner = _open_dir(part, fd)
            os.close(fd)
            fd = inner
        return read_regular_file(parts[-1], max_bytes, dir_fd=fd, follow_links=False)
    except OSError as err:
        raise NotebookError(f"{sub.path.name} cannot be read ({err.strerror})") from None
    finally:
        os.close(fd)


def duplicate_id_notes(nb: nbformat.NotebookNode) -> tuple[list[str], list[str]]:
    """For each cell id that more than one cell of a submitted notebook carries: (notes, refusals).
    Copies that are the same cell (same type and source) are one cell, noted; copies that differ
    refuse the notebook: which of them is the solution would be a guess (by position, the first
    would decide, and the stub before a copy would be graded)."""
    cells: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for cell in nb.cells:
        key = cell_key(cell)
        if key:
            cells[key].append((str(cell.get("cell_type")), str(cell.get("source", ""))))
    notes, refusals = [], []
    for key, found in cells.items():
        if len(found) < 2:
            continue
        if len(set(found)) == 1:
            notes.append(f"the cell id {printable(key)!r} is used by {len(found)} cells of your notebook, all the "
                         f"same: they were taken as one (ids should be unique)")
        else:
            refusals.append(f"the cell id {printable(key)!r} is used by {len(found)} different cells of your "
                            f"notebook: ids must be unique, so it was not graded (keep one of those cells, or "
                            f"copy its code into a new cell)")
    return notes, refusals


# --- hand-ins through the class server ----------------------------------------------------------------------
#
# Hand-ins: the notebooks learners hand in through the class server, every version kept.
#
# The server is the only clock: a hand-in is stamped with the server's receipt time, never a time
# the client sends, and with the learner's identity as the server established it (their seat's
# token, or their hub user with ``--hub``), never a name the client sends.  The receipt (time,
# SHA-256, version) goes back to the learner.  Every version is kept; grading takes each learner's
# last one (``write_folders``), with its receipt time as the hand-in time for deadlines.
#
# Refused with a clear sentence, nothing stored: a file that is not a notebook, one larger than the
# limit, a notebook of another exercise (none of the exercise's cell ids in it), an exercise the
# course does not have, a hand-in after the course closed for that exercise, and a hand-in beyond a
# learner's caps: ``MAX_VERSIONS`` versions of one exercise, ``MAX_LEARNER_BYTES`` in all (so one
# learner cannot fill the teacher's disk; their earlier versions are all kept).

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
    from .exercise import NotebookError, cell_key, notebook_from_bytes

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


# --- which notebook a receipt belongs to --------------------------------------------------------------------
#
# Which notebook a class server's receipt belongs to: the exact bytes it stamped (SHA-256).
#
# ``maumau grade --handins class.sqlite`` grades each learner's last hand-in with the server's
# receipt time; folder submissions may be graded beside it, and a learner may have both for one
# exercise.  A receipt is given only to a notebook whose bytes are the ones the server received:
# a folder copy that differs never inherits the server's time.  When a learner has both:
#
# - the copy whose bytes the server stamped is graded, with the server's time (its clock is the
#   only one a learner cannot set); a copy with the same bytes is the same notebook;
# - a copy that differs is not graded: its row says so, and the graded row says which was graded
#   and why, so the report never leaves the teacher to guess.

def _digest(sub: Submission) -> str | None:
    """The SHA-256 of a submission's bytes (read as the grader reads them), or None if unreadable."""
    try:
        return hashlib.sha256(_read_beside(sub, MAX_NOTEBOOK_BYTES)).hexdigest()
    except (NotebookError, OSError):
        return None


def match_receipts(subs: list[Submission], stamps: Mapping[tuple[str, str], Stamp]) -> list[Submission]:
    """``subs`` with each receipt of ``stamps`` (by learner folder and exercise) given to the
    submissions whose bytes it stamped, those first among their learner's copies of the exercise
    (the grader grades the first, the others are duplicates); ``Submission.note`` says which
    copy was graded and why wherever a learner has a copy that differs."""
    if not stamps:
        return subs
    stamped: dict[int, bool] = {}
    for sub in subs:
        stamp = stamps.get((sub.student, sub.exercise))
        if stamp is None or sub.exercise == FOLDER:
            continue
        stamped[id(sub)] = _digest(sub) == stamp.sha256
        if stamped[id(sub)]:
            sub.received = stamp.received
    first: dict[tuple[str, str], int] = {}
    for n, sub in enumerate(subs):
        first.setdefault((sub.student, sub.exercise), n)
    ordered = sorted(subs, key=lambda s: (first[(s.student, s.exercise)], not stamped.get(id(s), False)))
    for key, stamp in stamps.items():
        copies = [s for s in ordered if (s.student, s.exercise) == key]
        _explain(copies, stamp, stamped)
    return ordered


def _explain(copies: list[Submission], stamp: Stamp, stamped: dict[int, bool]) -> None:
    """The notes of one learner's copies of one exercise when one of them differs from the receipt."""
    differing = [s for s in copies if not stamped.get(id(s), False)]
    if not differing:
        return
    when = stamp.received.isoformat(timespec="seconds")
    receipt = f"the notebook the class server received at {when} (SHA-256 {stamp.sha256[:12]}…)"
    graded = next((s for s in copies if stamped.get(id(s), False)), None)
    if graded is not None:
        places = ", ".join(f"{s.path.parent.parent.name}/{s.path.parent.name}" for s in differing)
        graded.note = (f"graded: {receipt}, with the server's time; the copy in {places} differs from it and was "
                       f"not graded")
        for sub in differing:
            sub.note = f"not graded: it differs from {receipt}, which was graded with the server's time"
    else:  # the server's copy is not among them: the one graded (the first) says the receipt was not its
        differing[0].note = (f"the class server's receipt of {when} is for other bytes (SHA-256 "
                             f"{stamp.sha256[:12]}…) than this notebook: its time was not used")
