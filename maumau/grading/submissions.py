"""Finding and reading the learners' submissions, trusting nothing the learners made.

Layout: each SUBMISSION_DIR (the teacher's argument, followed even if it is a symbolic link)
holds one folder per learner, named after the learner, with the notebooks named as released;
a SUBMISSION_DIR that holds notebooks itself is one learner's folder.

Everything below a SUBMISSION_DIR is the learners': names, links, file types and sizes.

- A learner's folder that is a symbolic link is not followed (it could point at the
  instructor's exercises): a ``Submission`` for the folder says so, and grading makes it a row.
- Notebooks are opened relative to the learner's folder, itself opened without following a
  link, with ``O_NOFOLLOW | O_NONBLOCK``; only a regular file is read, and at most 20 MB of it
  (``notebook.read_regular_file``).  A link, a named pipe, a device, a folder or a huge file
  is an "invalid notebook" row with the reason; the batch goes on.
- Every learner folder counts except well-known junk (``JUNK``): ``_alice`` and ``.bob`` are
  learners too.  A name that is not valid UTF-8 is shown with backslash escapes (``\\xff``).
"""

from __future__ import annotations

import errno
import os
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import nbformat

from .notebook import MAX_NOTEBOOK_BYTES, NotebookError, cell_key, notebook_from_bytes, read_regular_file

__all__ = ["Submission", "find_submissions", "read_submission", "duplicate_id_notes", "printable", "JUNK",
           "FOLDER", "submitted_at", "TIMESTAMP"]

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
    note: str = ""            # which of a learner's copies was graded and why (``receipts``)


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
