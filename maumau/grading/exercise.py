"""The exercise notebook: nbgrader-compatible markers, cell roles and stable ids, read without
trusting the file, the student version and its secret lines, manual grading, the data files
beside it, and the graded notebook assembled by stable id.

An instructor notebook marks its cells in ``metadata.nbgrader`` (schema 3, as nbgrader does):

- a *solution* cell (``solution: true``) holds the learner's code; the instructor's answer
  sits between ``### BEGIN SOLUTION`` and ``### END SOLUTION``;
- a *test* cell (``grade: true, solution: false, locked: true, points: N``) is graded: it
  scores its points when it runs without an error; hidden tests sit between
  ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``;
- a *locked* cell (``locked: true``) is instructor code the grader restores (setup cells).

As in nbgrader, a solution cell without the markers is a solution as a whole (the student
version holds only the stub; ``YOUR ANSWER HERE`` for markdown); manually graded answers
(``grade`` and ``solution``) and task cells count in ``max_score`` and wait for a person
(``manual_pending``); ``### AUTOTEST`` directives are refused; files beside the notebook go
into the grading kernel's folder (``exercise_files``, ``submission_files``).

Every marked cell has a stable ``grade_id``; the cell's own nbformat id is the same string,
so cells are found by id, never by position.  Nothing here runs notebook code.

In the order of this module: reading a notebook file, the markers of one cell, the exercise's
cells as data, the student version and the secret lines, manual grading, the data files, loading
an instructor notebook (checked once), and the graded notebook put together.
"""

from __future__ import annotations

import copy
import errno
import io
import json
import os
import re
import stat
import tokenize
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..text.i18n import LANGUAGES

if TYPE_CHECKING:  # pragma: no cover - read with the first notebook: the class server's pages import this module
    import nbformat

__all__ = [
    "NotebookError", "MAX_NOTEBOOK_BYTES", "read_regular_file", "notebook_from_bytes", "read_notebook",
    "BEGIN_SOLUTION", "END_SOLUTION", "BEGIN_HIDDEN", "END_HIDDEN", "STUB", "HIDDEN_NOTE", "HIDDEN_NOTES",
    "SOLUTION", "TEST",
    "LOCKED", "FREE", "TEXT_STUB", "AUTOTEST", "HASHED_AUTOTEST", "BEGIN_MARK_SCHEME", "END_MARK_SCHEME",
    "SCHEMA_VERSION", "nbgrader_data", "role_of", "is_manual", "cell_key", "strip_region", "region_lines",
    "autotest_line", "ExerciseCell", "Exercise", "stub_for", "student_cell_source", "student_version",
    "secret_lines", "leaks", "answered", "manual_pending", "MAX_DATA_FILE_BYTES", "MAX_DATA_BYTES",
    "MAX_DATA_FILES", "exercise_files", "submission_files", "load_exercise", "load_exercises", "GradedCell",
    "assemble", "SOURCE_LANGUAGE", "declared_language", "notebook_language", "translation_paths",
    "translation_mismatch", "load_translation"
]


# --- reading a notebook file --------------------------------------------------------------------------------
#
# Reading a notebook file without trusting it: a regular file, under a size limit, JSON that
# is a notebook (nbformat 4, or 3 converted to 4).  Nothing here runs notebook code.
#
# Both the instructor's notebooks and the learners' submissions (``submissions``) are read here,
# so a named pipe, a device, a huge or a malformed file costs the grader one NotebookError.

#: A submitted notebook larger than this is not read (status "invalid notebook").
MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024


class NotebookError(ValueError):
    """A notebook that cannot be read, or an instructor notebook with broken markers."""


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a plain file"


def read_regular_file(path: str | Path, max_bytes: int, *, dir_fd: int | None = None,
                      follow_links: bool = True) -> bytes:
    """The bytes of the regular file ``path`` (relative to ``dir_fd`` if given).

    It is opened without blocking (a named pipe would otherwise wait for a writer forever),
    checked on the open file (no race between the check and the read) and read up to
    ``max_bytes + 1`` bytes (a file that grows, or a device, cannot fill the memory).
    NotebookError naming the file for a symbolic link (unless ``follow_links``), anything
    but a regular file, a file larger than ``max_bytes``, or one that cannot be read."""
    name = Path(path).name
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as err:
        if err.errno == errno.ELOOP and not follow_links:
            raise NotebookError(f"{name} is a symbolic link: it was not read") from None
        raise NotebookError(f"{name} cannot be read ({err.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotebookError(f"{name} is not a regular file ({_kind(info.st_mode)}): it was not read")
        too_big = NotebookError(f"{name} is larger than {_size(max_bytes)}, the limit: it was not read")
        if info.st_size > max_bytes:
            raise too_big
        chunks, left = [], max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:  # it grew while being read
            raise too_big
        return b"".join(chunks)
    except OSError as err:
        raise NotebookError(f"{name} cannot be read ({err.strerror})") from None
    finally:
        os.close(fd)


def notebook_from_bytes(raw: bytes, name: str) -> nbformat.NotebookNode:
    """The notebook (nbformat 4; nbformat 3 is converted) in ``raw``, the contents of the file
    ``name``, without running anything; NotebookError if it is not one."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise NotebookError(f"{name} is not a readable notebook (not valid JSON: {err})") from None
    if not isinstance(data, dict):
        raise NotebookError(f"{name} is JSON but not a notebook (no list of cells)")
    major = data.get("nbformat", 4)
    # nbformat 3 keeps its cells in worksheets; it is converted below
    if not (major == 3 and isinstance(data.get("worksheets"), list)) and not isinstance(data.get("cells"), list):
        raise NotebookError(f"{name} is JSON but not a notebook (no list of cells)")
    if major not in (3, 4):
        raise NotebookError(f"{name} is a notebook of nbformat {major!r}; the grader reads nbformat 3 and 4")
    import nbformat  # here: a default dependency that `maumau rules` and `maumau play` need not load

    try:
        nb: nbformat.NotebookNode = nbformat.from_dict(data)
        if major != 4:
            nb = nbformat.convert(nb, 4)
        for cell in nb.cells:
            if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
                raise NotebookError(f"{name} has a cell of unknown type")
            source = cell.get("source", "")
            cell["source"] = "".join(source) if isinstance(source, list) else str(source)
            if not isinstance(cell.get("metadata"), dict):
                cell["metadata"] = nbformat.NotebookNode()
    except NotebookError:
        raise
    except Exception as err:  # a malformed structure, whatever nbformat makes of it
        raise NotebookError(f"{name} is not a valid notebook: {err}") from None
    return nb


def read_notebook(path: str | Path, max_bytes: int = MAX_NOTEBOOK_BYTES, *,
                  follow_links: bool = True) -> nbformat.NotebookNode:
    """Read a notebook file (nbformat 4, or 3 converted to 4) without running anything;
    NotebookError if it is not one, is not a regular file, is larger than ``max_bytes``, or is
    a symbolic link and ``follow_links`` is false (submissions: ``submissions.read_submission``)."""
    return notebook_from_bytes(read_regular_file(path, max_bytes, follow_links=follow_links), Path(path).name)


# --- nbgrader's markers, one cell at a time -----------------------------------------------------------------
#
# nbgrader's cell markers: a cell's role and stable id from ``metadata.nbgrader``, and the
# regions its source marks (solutions, hidden tests, mark schemes) and directives.
#
# These read one cell at a time and run nothing; the checks across a whole instructor notebook
# are ``exercise.load_exercise``.

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
#: What a solution region becomes in the student version (nbgrader's own stub).
STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")
HIDDEN_NOTE = "# (more tests run here when your notebook is graded)"
#: HIDDEN_NOTE in the language of a translated exercise's student version.
HIDDEN_NOTES = {"en": HIDDEN_NOTE, "de": "# (hier laufen weitere Tests, wenn dein Notebook bewertet wird)",
                "hu": "# (itt további tesztek futnak, amikor a notebookodat értékeljük)"}
SOLUTION, TEST, LOCKED, FREE = "solution", "test", "locked", "free"

# --- nbgrader's format beyond the regions (manual grading, stubs, directives) ---------------------------

#: What a markdown solution cell becomes in the student version (nbgrader's ``text_stub``).
TEXT_STUB = "YOUR ANSWER HERE"
#: nbgrader's autotest directives: maumau does not expand them (they need autotests.yml and a
#: run of the instructor's notebook at release time); an instructor notebook using them is refused.
AUTOTEST, HASHED_AUTOTEST = "AUTOTEST", "HASHED AUTOTEST"
#: A task cell's mark scheme (nbgrader's ClearMarkScheme): removed from the student version.
BEGIN_MARK_SCHEME, END_MARK_SCHEME = "=== BEGIN MARK SCHEME ===", "=== END MARK SCHEME ==="
#: The newest nbgrader metadata schema maumau reads (nbgrader 0.6 to 0.9 write 3).
SCHEMA_VERSION = 3


def nbgrader_data(cell: dict[str, Any]) -> dict[str, Any]:
    """The cell's ``metadata.nbgrader`` ({} when it has none, or not a dict: learners write it)."""
    meta = cell.get("metadata") or {}
    data = meta.get("nbgrader") if isinstance(meta, dict) else None
    return data if isinstance(data, dict) else {}


def role_of(cell: dict[str, Any]) -> str:
    """SOLUTION, TEST, LOCKED or FREE, from the cell's nbgrader metadata (and its type).

    SOLUTION: the learner's text (code or markdown); TEST: a graded code cell that is not a
    solution (it scores when it runs without error); LOCKED: the instructor's text, restored
    when graded (setup code, task cells, locked markdown).  Whether a person grades the cell
    is a separate question: ``is_manual``."""
    data = nbgrader_data(cell)
    code = cell.get("cell_type") == "code"
    if data.get("solution"):
        return SOLUTION
    if data.get("grade") and code and not data.get("task"):
        return TEST
    if data.get("locked") or data.get("grade") or data.get("task"):
        return LOCKED
    return FREE


def is_manual(cell: dict[str, Any]) -> bool:
    """Whether a person grades the cell (nbgrader's "manually graded answer" — ``grade`` and
    ``solution`` — and "manually graded task" cells, and a graded markdown cell)."""
    data = nbgrader_data(cell)
    if data.get("task"):
        return True
    if not data.get("grade"):
        return False
    return bool(data.get("solution")) or cell.get("cell_type") != "code"


def cell_key(cell: dict[str, Any]) -> str | None:
    """The stable id of a cell: its nbgrader grade_id, else its nbformat id."""
    gid = nbgrader_data(cell).get("grade_id")
    if isinstance(gid, str) and gid:
        return gid
    cid = cell.get("id")
    return cid if isinstance(cid, str) and cid else None


def strip_region(source: str, begin: str, end: str, replacement: tuple[str, ...] | None,
                 where: str = "") -> str:
    """Replace every ``begin``..``end`` region (markers included) by ``replacement`` lines,
    indented like the begin marker; NotebookError for unbalanced markers."""
    out: list[str] = []
    inside = False
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped == begin:
            if inside:
                raise NotebookError(f"{where}: {begin!r} inside another {begin!r}")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out += [indent + r for r in (replacement or ())]
        elif stripped == end:
            if not inside:
                raise NotebookError(f"{where}: {end!r} without {begin!r}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise NotebookError(f"{where}: {begin!r} is never closed by {end!r}")
    return "\n".join(out)


def region_lines(source: str, begin: str, end: str) -> list[str]:
    """The lines inside the ``begin``..``end`` regions of ``source``."""
    lines, inside = [], False
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped == begin:
            inside = True
        elif stripped == end:
            inside = False
        elif inside:
            lines.append(line)
    return lines


def autotest_line(source: str) -> str | None:
    """The first line of ``source`` with an nbgrader autotest directive (a comment naming
    AUTOTEST, as nbgrader's InstantiateTests finds them), else None."""
    for line in source.split("\n"):
        text = line.strip()
        if text.startswith("#") and AUTOTEST in text:
            return text
    return None


# --- the exercise as data -----------------------------------------------------------------------------------
#
# An instructor notebook's cells and the notebook itself as the grader holds them
# (``ExerciseCell``, ``Exercise``): plain data with the properties read from their nbgrader
# metadata.  ``load_exercise`` loads and checks them; the data files, the student version and
# manual grading read them, so they come first.

@dataclass
class ExerciseCell:
    """One cell of an instructor notebook, with its role and id."""

    key: str | None
    role: str
    cell: Any  # nbformat.NotebookNode

    @property
    def source(self) -> str:
        return str(self.cell.source)

    @property
    def manual(self) -> bool:
        """Graded by a person (``is_manual``): its points wait for a manual grade."""
        return is_manual(self.cell)

    @property
    def points(self) -> float:
        """The points of a test cell or of a manually graded cell (0 for the others)."""
        if self.role != TEST and not self.manual:
            return 0.0
        try:
            return max(0.0, float(nbgrader_data(self.cell).get("points", 0) or 0))
        except (TypeError, ValueError):
            return 0.0

    @property
    def whole(self) -> bool:
        """A solution cell without ``### BEGIN SOLUTION``: the whole cell is the solution
        (nbgrader replaces all of it by the stub)."""
        return self.role == SOLUTION and not any(line.strip() == BEGIN_SOLUTION
                                                 for line in self.source.split("\n"))

    @property
    def title(self) -> str:
        """The first comment line of a test cell, e.g. "# An 8 skips the next player"."""
        first = self.source.strip().split("\n", 1)[0].strip()
        return first.lstrip("#").strip() if first.startswith("#") else (self.key or "test")

    @property
    def hidden(self) -> bool:
        return any(line.strip() == BEGIN_HIDDEN for line in self.source.split("\n"))


@dataclass
class Exercise:
    """An instructor notebook: its name (the file stem), its cells and its points.

    ``max_score`` counts every point, the manually graded ones included (nbgrader's
    ``max_score``); ``auto_points`` are those the grader decides, ``manual_points`` those a
    person decides.  ``files``: the data files the kernel gets (``exercise_files``)."""

    name: str
    path: Path
    notebook: Any
    cells: list[ExerciseCell]
    files: dict[str, Path] = field(default_factory=dict)
    #: The language of this notebook: SOURCE_LANGUAGE for the English source, else a translation's.
    language: str = "en"
    #: The source's translations by language (``exercises/de/NAME.ipynb``...); a translation has none.
    translations: dict[str, Exercise] = field(default_factory=dict)
    #: The learner's draw this notebook's test cells were relabeled with (``learner_variants``), or "".
    variant: str = ""
    #: For a relabeled notebook, the instructor's notebook it was relabeled from (else None).
    common: Exercise | None = None

    @property
    def tests(self) -> list[ExerciseCell]:
        return [c for c in self.cells if c.role == TEST]

    @property
    def manual(self) -> list[ExerciseCell]:
        """The manually graded cells (answers and tasks), in notebook order."""
        return [c for c in self.cells if c.manual]

    @property
    def auto_points(self) -> float:
        return sum(c.points for c in self.tests)

    @property
    def manual_points(self) -> float:
        return sum(c.points for c in self.manual)

    @property
    def max_score(self) -> float:
        return self.auto_points + self.manual_points

    def by_key(self) -> dict[str, ExerciseCell]:
        return {c.key: c for c in self.cells if c.key}

    @property
    def title(self) -> str:
        """What a gradebook column or a page calls it: the number and the first heading without
        its "Exercise:" ("02 Skip on 8 (MK-5)"); the name when the notebook has no heading."""
        number = self.name.split("_", 1)[0]
        for cell in self.notebook.cells:
            first = cell.source.strip().split("\n", 1)[0] if cell.cell_type == "markdown" else ""
            if first.startswith("# "):
                heading = first[2:].split(":", 1)[-1].strip()[:120]
                return f"{number} {heading}" if number.isdigit() and heading else heading or self.name
        return self.name

    def in_language(self, lang: str | None) -> Exercise:
        """The instructor notebook a hand-in in ``lang`` is graded with: the translation into
        ``lang`` when there is one, else this (the English source).  ``lang`` is only looked up
        among the translations loaded, never used as a path."""
        return self.translations.get(lang, self) if isinstance(lang, str) else self


# --- the student version and the secret lines ---------------------------------------------------------------
#
# What the learner gets of an instructor notebook, and what must not leak: the student
# version (nbgrader's stubs for the solutions, the hidden tests gone) and the secret lines
# (solutions, hidden tests, mark schemes) that ``release`` and the data files are checked against.

def stub_for(cell: ExerciseCell) -> tuple[str, ...]:
    """nbgrader's stub for the cell's type: code, or markdown (``YOUR ANSWER HERE``)."""
    return STUB if cell.cell.cell_type == "code" else (TEXT_STUB,)


def student_cell_source(cell: ExerciseCell, language: str = "en") -> str:
    """A cell as the learner gets it: solutions stubbed (a solution cell without markers
    wholly, as nbgrader does), hidden tests gone (a note in ``language`` in their place)."""
    where = cell.key or "cell"
    if cell.whole:
        return "\n".join(stub_for(cell))
    text = strip_region(cell.source, BEGIN_SOLUTION, END_SOLUTION, stub_for(cell), where)
    text = strip_region(text, BEGIN_MARK_SCHEME, END_MARK_SCHEME, (), where)
    return strip_region(text, BEGIN_HIDDEN, END_HIDDEN, (HIDDEN_NOTES.get(language, HIDDEN_NOTE),), where)


def student_version(exercise: Exercise) -> Any:
    """The released notebook: stubs for solutions, no hidden tests, no outputs."""
    nb = copy.deepcopy(exercise.notebook)
    for cell, info in zip(nb.cells, exercise.cells, strict=True):
        cell.source = student_cell_source(info, exercise.language)
        if info.key and info.role != FREE:
            cell["id"] = info.key
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)
    meta = nb.metadata.get("maumau")
    if isinstance(meta, dict) and "variants" in meta:  # the instructor's: which draws the grader may make
        meta.pop("variants")
        if not meta:
            nb.metadata.pop("maumau")
    return nb


def _public_text(exercise: Exercise) -> str:
    """Everything a learner may see of the instructor notebook (outside the regions)."""
    return "\n".join(student_cell_source(c, exercise.language) for c in exercise.cells)


def _secret_regions(cell: ExerciseCell) -> list[str]:
    """The lines of a cell that the learner must not see: its solution (all of a solution
    cell without markers) and its hidden tests."""
    if cell.whole:
        return cell.source.split("\n")
    return (region_lines(cell.source, BEGIN_SOLUTION, END_SOLUTION)
            + region_lines(cell.source, BEGIN_HIDDEN, END_HIDDEN)
            + region_lines(cell.source, BEGIN_MARK_SCHEME, END_MARK_SCHEME))


def secret_lines(exercise: Exercise, min_length: int = 10) -> set[str]:
    """The stripped lines of the solution and hidden-test regions that say something and do
    not also appear in the public part of the notebook."""
    public = _public_text(exercise)
    found: set[str] = set()
    for cell in exercise.cells:
        for line in _secret_regions(cell):
            text = line.strip()
            if len(text) >= min_length and text not in STUB and text != TEXT_STUB and text not in public:
                found.add(text)
    return found


def leaks(exercise: Exercise, released_text: str) -> list[str]:
    """The solution / hidden-test lines (or markers) that appear in ``released_text``,
    other than lines that also appear in the public part of the notebook."""
    markers = (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN, BEGIN_MARK_SCHEME, END_MARK_SCHEME)
    found = [m for m in markers if m in released_text]
    return found + sorted(line for line in secret_lines(exercise, min_length=6) if line in released_text)


# --- manual grading -----------------------------------------------------------------------------------------
#
# Manual grading, as nbgrader does it: which manually graded cells of a submission wait
# for a person, and which answers were left as released (they score 0, "No response.").

def answered(cell: ExerciseCell, submitted: Any) -> bool:
    """Whether the learner's version of a solution cell differs from the released stub
    (nbgrader's checksum test: an unchanged answer is "No response." and scores 0)."""
    if submitted is None:
        return False
    return str(submitted.get("source", "")).strip() != student_cell_source(cell).strip()


def manual_pending(exercise: Exercise, submission: Any) -> dict[str, float]:
    """The manually graded cells of ``submission`` (a notebook) that wait for a person, by
    grade_id, with their points: every task cell and graded markdown cell, and each manually
    graded answer the learner changed.  An answer left as released (or deleted) is not
    listed: it scores 0, as nbgrader's autograde gives it 0 with the comment "No response."."""
    mine: dict[str, Any] = {}
    for cell in getattr(submission, "cells", None) or ():
        key = cell_key(cell) if isinstance(cell, dict) else None
        if key and key not in mine:
            mine[key] = cell
    pending: dict[str, float] = {}
    for cell in exercise.manual:
        if cell.key is None:
            continue
        if cell.role != SOLUTION or answered(cell, mine.get(cell.key)):
            pending[cell.key] = cell.points
    return pending


# --- the files beside the notebook --------------------------------------------------------------------------
#
# The files a grading kernel finds in its working folder: an exercise's data files (checked
# when the exercise is loaded: no notebook, no symbolic link, no file holding a secret line)
# and the learner's own files beside their notebook, within the same limits.

#: Data files beside an exercise that go into the grading kernel's working folder.
MAX_DATA_FILE_BYTES = 20 * 1024 * 1024
MAX_DATA_BYTES = 50 * 1024 * 1024
MAX_DATA_FILES = 50


def _private(name: str) -> bool:
    """A file name that is never copied into a kernel: hidden (``.``), private (``_``),
    a notebook (where solutions and hidden tests live) or compiled Python."""
    return name.startswith((".", "_")) or name.endswith((".ipynb", ".pyc", "~"))


def _regular(path: Path) -> int | None:
    """The size of ``path`` if it is a regular file and not a symbolic link, else None."""
    try:
        info = path.lstat()
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _holds_secret(path: Path, secrets: set[str]) -> str | None:
    """The first secret line that the (text) file ``path`` contains, if any."""
    if not secrets:
        return None
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # not text: it cannot hold a line of code
    return next((line for line in sorted(secrets) if line in text), None)


def exercise_files(exercise: Exercise) -> dict[str, Path]:
    """The data files of an exercise, by the name the kernel sees (relative to its working
    folder), for the runner to copy into the kernel's scratch folder.

    - If the notebook's metadata has ``maumau.files`` (a list of paths relative to the
      notebook's folder; subfolders allowed), exactly those; each must be a regular file
      (no symbolic link) inside that folder, not hidden and not a notebook.
    - Otherwise every regular file directly beside the notebook (no subfolder, no symbolic
      link) except hidden or private ones (``.`` or ``_`` first), notebooks, ``*.pyc``; a file
      that contains a line of this exercise's solutions or hidden tests is refused (rename
      it with a leading ``_`` to keep it out of the kernels, or list the files explicitly).

    Never copied, whatever the list says: notebooks (the instructor's notebooks hold the
    solutions and hidden tests).  At most MAX_DATA_FILES files, MAX_DATA_FILE_BYTES each and
    MAX_DATA_BYTES together, else NotebookError."""
    folder = exercise.path.parent
    meta = exercise.notebook.get("metadata", {}) or {}
    listed = (meta.get("maumau") or {}).get("files") if isinstance(meta.get("maumau"), dict) else None
    where = exercise.path.name
    if listed is not None:
        found = _listed_files(listed, folder, where)
    else:
        found = _files_beside(exercise, folder, where)
    _check_sizes(found, where)
    return found


def _listed_files(listed: object, folder: Path, where: str) -> dict[str, Path]:
    """The files the notebook's metadata ``maumau.files`` lists, by their relative name; each a
    regular file inside ``folder`` reached through no symbolic link, not hidden, not a notebook."""
    found: dict[str, Path] = {}
    if not isinstance(listed, list) or not all(isinstance(n, str) and n for n in listed):
        raise NotebookError(f"{where}: metadata maumau.files must be a list of file names")
    for name in listed:
        rel = Path(name)
        if rel.is_absolute() or ".." in rel.parts or any(p.startswith(".") for p in rel.parts) \
                or rel.name.endswith(".ipynb"):
            raise NotebookError(f"{where}: maumau.files lists {name!r}; it must be a data file "
                                f"inside the notebook's folder (not hidden, not a notebook)")
        path = folder / rel
        real, root = os.path.realpath(path), os.path.realpath(folder)
        if _regular(path) is None or not real.startswith(root.rstrip("/") + "/") \
                or any((folder / Path(*rel.parts[:i])).is_symlink() for i in range(1, len(rel.parts))):
            raise NotebookError(f"{where}: maumau.files lists {name!r}, which is not a regular "
                                f"file in {folder} (symbolic links are not followed)")
        found[rel.as_posix()] = path
    return found


def _files_beside(exercise: Exercise, folder: Path, where: str) -> dict[str, Path]:
    """The regular files directly beside the notebook that are neither private nor a notebook;
    NotebookError for one over the size limit or holding a line of a solution or hidden test."""
    found: dict[str, Path] = {}
    secrets = secret_lines(exercise)
    for path in sorted(folder.iterdir()):
        size = _regular(path)
        if _private(path.name) or size is None:
            continue
        if size > MAX_DATA_FILE_BYTES:
            raise NotebookError(f"{where}: the data file {path.name} beside it is larger than "
                                f"{MAX_DATA_FILE_BYTES // 1024 // 1024} MB")
        line = _holds_secret(path, secrets)
        if line is not None:
            raise NotebookError(
                f"{where}: the file {path.name} beside it would go into the grading kernels, but it "
                f"holds a line of the solution or hidden tests; rename it to _{path.name} to keep it "
                f"out, or list the data files in the notebook's metadata maumau.files")
        found[path.name] = path
    return found


def _check_sizes(files: dict[str, Path], where: str) -> None:
    """NotebookError when the files are too many, one is too large, or all are, together."""
    if len(files) > MAX_DATA_FILES:
        raise NotebookError(f"{where}: {len(files)} data files beside it; the limit is {MAX_DATA_FILES} "
                            f"(list the ones it needs in the notebook's metadata maumau.files)")
    total = 0
    for name, path in files.items():
        size = _regular(path) or 0
        if size > MAX_DATA_FILE_BYTES:
            raise NotebookError(f"{where}: the data file {name} is larger than "
                                f"{MAX_DATA_FILE_BYTES // 1024 // 1024} MB")
        total += size
    if total > MAX_DATA_BYTES:
        raise NotebookError(f"{where}: its data files hold more than {MAX_DATA_BYTES // 1024 // 1024} MB")


#: A learner's file that Python could import in place of a module (``ipykernel.py``,
#: ``maumau.py``): data files are data, so these stay out of the kernel's working folder.
_IMPORTABLE = frozenset({".py", ".pyw", ".pyc", ".pyd", ".so", ".pth", ".egg", ".whl", ".zip"})


def submission_files(exercise: Exercise, submission: str | Path) -> dict[str, Path]:
    """The files the kernel grading ``submission`` (a notebook's path) gets in its working
    folder: the learner's own regular files beside the notebook (the same rules as beside an
    exercise: no subfolder, link, hidden or private file, notebook; files over the size limits
    are left out; and no file Python could import in place of a module), then the
    exercise's data files over them (nbgrader's autograde, too, puts the instructor's copy of
    a data file over the learner's)."""
    folder = Path(submission).parent
    mine: dict[str, Path] = {}
    total = 0
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        entries = []
    for path in entries:
        size = _regular(path)
        if _private(path.name) or path.suffix in _IMPORTABLE or size is None or size > MAX_DATA_FILE_BYTES:
            continue
        if len(mine) >= MAX_DATA_FILES or total + size > MAX_DATA_BYTES:
            break
        mine[path.name] = path
        total += size
    return {**mine, **exercise.files}


# --- loading an instructor notebook -------------------------------------------------------------------------
#
# An instructor notebook as the grader sees it: its cells with their roles, ids and points,
# checked once when it is loaded (``load_exercise``), and its data files found.
#
# Every marked cell has a stable ``grade_id``; the cell's own nbformat id is the same string,
# so cells are found by id, never by position.  Nothing here runs notebook code.

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _points(cell: dict[str, Any], where: str, key: str | None) -> float:
    """The points of a graded cell; NotebookError unless they are a number, 0 or more and finite."""
    raw = nbgrader_data(cell).get("points")
    if isinstance(raw, bool) or raw is None:
        raise NotebookError(f"{where}: graded cell {key!r} has no points")
    try:
        points = float(raw)
    except (TypeError, ValueError):
        raise NotebookError(f"{where}: graded cell {key!r} has points {raw!r}, not a number") from None
    if not points >= 0 or points == float("inf"):
        raise NotebookError(f"{where}: graded cell {key!r} has points {raw!r}; points are 0 or more")
    return points


def _read_exercise(path: Path, language: str = "en") -> Exercise:
    """An instructor notebook read and checked (``load_exercise``), without its data files."""
    nb = read_notebook(path)
    cells, seen = [], set()
    for i, cell in enumerate(nb.cells):
        role = role_of(cell)
        key = cell_key(cell)
        where = f"{path.name}, cell {i + 1}"
        data = nbgrader_data(cell)
        version = data.get("schema_version")
        if isinstance(version, int | float) and not isinstance(version, bool) and version > SCHEMA_VERSION:
            raise NotebookError(f"{where}: nbgrader metadata of schema {version}; maumau reads schema "
                                f"{SCHEMA_VERSION} and older (it was written by a newer nbgrader)")
        if role != FREE:
            gid = data.get("grade_id")
            if not isinstance(gid, str) or not _ID.match(gid):
                raise NotebookError(f"{where}: a marked cell needs a grade_id of letters, digits, - and _")
            if gid in seen:
                raise NotebookError(f"{where}: grade_id {gid!r} is used twice")
            seen.add(gid)
        if role == TEST or is_manual(cell):
            _points(cell, where, key)
        if cell.cell_type == "code" and role != FREE:
            found = autotest_line(cell.source)
            if found is not None:
                raise NotebookError(
                    f"{where}: cell {key!r} uses nbgrader's autotest directive {found!r}, which maumau "
                    f"does not expand (nbgrader builds those asserts from autotests.yml by running the "
                    f"instructor's notebook); write the assertions out instead, e.g. 'assert a == 5'")
        strip_region(cell.source, BEGIN_SOLUTION, END_SOLUTION, None, where)
        strip_region(cell.source, BEGIN_HIDDEN, END_HIDDEN, None, where)
        strip_region(cell.source, BEGIN_MARK_SCHEME, END_MARK_SCHEME, None, where)
        if role != SOLUTION and BEGIN_SOLUTION in cell.source:
            raise NotebookError(f"{where}: {BEGIN_SOLUTION!r} outside a solution cell")
        if role != TEST and BEGIN_HIDDEN in cell.source:
            raise NotebookError(f"{where}: {BEGIN_HIDDEN!r} outside a test cell")
        cells.append(ExerciseCell(key, role, cell))
    exercise = Exercise(path.stem, path, nb, cells, language=language)
    if not exercise.tests and not exercise.manual:
        raise NotebookError(f"{path.name} has no graded cell (no test cell, no manually graded cell)")
    return exercise


def load_exercise(path: str | Path) -> Exercise:
    """Read and check an instructor notebook: unique ids, balanced markers, points on graded
    cells, no autotest directive, a schema maumau knows; find its data files; and load its
    translations beside it (``translation_paths``), each checked against it (``load_translation``)."""
    path = Path(path)
    exercise = _read_exercise(path)
    # a translation graded as a source of its own (notebook 08 of the German course grades
    # exercises/de) keeps its language: its hand-ins are graded and answered in it
    exercise.language = notebook_language(exercise.notebook)
    exercise.files = exercise_files(exercise)
    exercise.translations = {lang: load_translation(exercise, where, lang)
                             for lang, where in translation_paths(exercise).items()}
    return exercise


def load_exercises(source: str | Path) -> list[Exercise]:
    """Every instructor notebook in a folder (or one notebook), sorted by name, each with its
    translations (``load_exercise``).  NotebookError for a translation without its English
    source (``exercises/de/NAME.ipynb`` without ``exercises/NAME.ipynb``); a subfolder whose name
    is not a language of ``LANGUAGES`` is not looked into."""
    source = Path(source)
    if source.is_file():
        return [load_exercise(source)]
    paths = sorted(p for p in source.glob("*.ipynb") if not p.name.startswith("."))
    if not paths:
        raise NotebookError(f"no exercise notebooks (*.ipynb) in {source}")
    names = {p.name for p in paths}
    for lang in LANGUAGES:
        folder = source / lang
        if lang == SOURCE_LANGUAGE or not folder.is_dir():
            continue
        orphans = sorted(p.name for p in folder.glob("*.ipynb") if not p.name.startswith(".") and p.name not in names)
        if orphans:
            raise NotebookError(f"{lang}/{orphans[0]} in {source} is a translation without its English source "
                                f"{orphans[0]} beside the {lang}/ folder")
    return [load_exercise(p) for p in paths]


# --- the translations of an exercise ------------------------------------------------------------------------
#
# An exercise's translations sit beside its English source, in a folder named after their
# language (``exercises/de/NAME.ipynb``, ``exercises/hu/NAME.ipynb``): the same cells with the
# same ids, nbgrader metadata and points, and the same code, only comments and the strings meant
# for people translated.  A hand-in is graded with the translation of its language (its
# notebook metadata ``maumau.language``), so its checks speak that language; its points come
# from the source, and a translation that differs from its source in anything graded is refused
# when the exercises are loaded.

#: The language of the source notebooks, and of every notebook that names no language.
SOURCE_LANGUAGE = "en"


def declared_language(notebook: Any) -> str | None:
    """The language a notebook's metadata names (``{"maumau": {"language": "de"}}``) when it is
    one of ``LANGUAGES``, else None (none named, or anything else: a learner writes it).  The
    value is only compared with the known languages, never used to build a path."""
    meta = notebook.get("metadata") if isinstance(notebook, dict) else None
    own = meta.get("maumau") if isinstance(meta, dict) else None
    value = own.get("language") if isinstance(own, dict) else None
    for lang in LANGUAGES:
        if value == lang:
            return lang
    return None


def notebook_language(notebook: Any) -> str:
    """The language a notebook is in: the one its metadata names, else English (the source)."""
    return declared_language(notebook) or SOURCE_LANGUAGE


def translation_paths(exercise: Exercise) -> dict[str, Path]:
    """The translations of an English source found beside it, by language: ``de/NAME.ipynb``,
    ``hu/NAME.ipynb`` (the languages of ``LANGUAGES``; other folders are not looked into)."""
    folder, found = exercise.path.parent, {}
    for lang in LANGUAGES:
        path = folder / lang / exercise.path.name
        if lang != exercise.language and (path.exists() or path.is_symlink()):
            found[lang] = path
    return found


def _code_shape(source: str) -> list[tuple[int, str]] | None:
    """The tokens of ``source`` without its comments and line breaks inside brackets, each
    string (docstrings and f-strings too; adjacent ones as one) as a placeholder: what must
    be equal in a translation.  None when it is not Python that the tokenizer reads."""
    shape: list[tuple[int, str]] = []
    fstring = 0
    start, end = getattr(tokenize, "FSTRING_START", -1), getattr(tokenize, "FSTRING_END", -1)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == start:
                fstring += 1
                if fstring == 1 and not (shape and shape[-1] == (tokenize.STRING, "")):
                    shape.append((tokenize.STRING, ""))
            elif tok.type == end:
                fstring -= 1
            elif fstring or tok.type in (tokenize.COMMENT, tokenize.NL):
                continue
            elif tok.type == tokenize.STRING:
                if not (shape and shape[-1] == (tokenize.STRING, "")):
                    shape.append((tokenize.STRING, ""))
            elif tok.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE, tokenize.ENDMARKER):
                shape.append((tok.type, ""))
            else:
                shape.append((tok.type, tok.string))
    except (tokenize.TokenError, SyntaxError):
        return None
    return shape


def _code_difference(source: str, translated: str) -> str | None:
    """How the translated code differs from the source's beyond strings and comments, else None."""
    mine, theirs = _code_shape(translated), _code_shape(source)
    if mine is None or theirs is None:
        if translated.strip() != source.strip():
            return "its code cannot be read as Python and differs from the source's"
        return None
    if mine == theirs:
        return None
    for n, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a != b:
            return (f"its code differs from the source's beyond strings and comments "
                    f"(token {n + 1}: {a[1] or tokenize.tok_name[a[0]]!r} here, "
                    f"{b[1] or tokenize.tok_name[b[0]]!r} in the source)")
    return "its code differs from the source's beyond strings and comments (one is longer)"


def _count(source: str, marker: str) -> int:
    return sum(line.strip() == marker for line in source.split("\n"))


def _cell_difference(source: ExerciseCell, translated: ExerciseCell) -> str | None:
    """What differs between a cell of a translation and the source's cell in its place, else None."""
    mine, theirs = translated.cell, source.cell
    if mine.get("cell_type") != theirs.get("cell_type"):
        return f"it is a {mine.get('cell_type')} cell, the source's is a {theirs.get('cell_type')} cell"
    if mine.get("id") != theirs.get("id"):
        return f"its id is {mine.get('id')!r}, the source's {theirs.get('id')!r}"
    a, b = nbgrader_data(mine), nbgrader_data(theirs)
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    if keys:
        return "its nbgrader metadata differ: " + ", ".join(f"{k} {a.get(k)!r} (the source: {b.get(k)!r})"
                                                           for k in keys)
    for marker, what in ((BEGIN_SOLUTION, "solution regions"), (BEGIN_HIDDEN, "hidden test regions"),
                         (BEGIN_MARK_SCHEME, "mark schemes")):
        here, there = _count(translated.source, marker), _count(source.source, marker)
        if here != there:
            return f"it has {here} {what}, the source {there}"
    if mine.get("cell_type") == "code":
        return _code_difference(source.source, translated.source)
    return None


def translation_mismatch(source: Exercise, translated: Exercise) -> str | None:
    """Why ``translated`` cannot stand for ``source`` in grading, else None: a different number
    of cells, or a cell (in the same place) of another type, id, nbgrader metadata (role, grade id,
    points), number of solution or hidden regions, or code beyond its strings and comments."""
    if len(translated.cells) != len(source.cells):
        return f"it has {len(translated.cells)} cells, the source {len(source.cells)}"
    for n, (theirs, mine) in enumerate(zip(source.cells, translated.cells, strict=True), 1):
        why = _cell_difference(theirs, mine)
        if why is not None:
            return f"cell {n} ({mine.key or theirs.key or 'no id'}): {why}"
    if translated.max_score != source.max_score:  # (equal nbgrader metadata give equal points)
        return f"its points add up to {translated.max_score:g}, the source's to {source.max_score:g}"
    return None


def load_translation(source: Exercise, path: Path, lang: str) -> Exercise:
    """The translation of ``source`` into ``lang`` at ``path``, read and checked as an instructor
    notebook and against its source (``translation_mismatch``); it uses the source's data files.
    NotebookError saying which file and what differs."""
    where = f"{lang}/{path.name}"
    try:
        translated = _read_exercise(path, lang)
    except NotebookError as err:
        raise NotebookError(f"the translation {where}: {err}") from None
    meta = translated.notebook.get("metadata") or {}
    own = meta.get("maumau") if isinstance(meta, dict) else None
    said = own.get("language") if isinstance(own, dict) else None
    if said is not None and said != lang:
        raise NotebookError(f"the translation {where} says it is in {said!r} (notebook metadata maumau.language), "
                            f"but it sits in the {lang}/ folder")
    why = translation_mismatch(source, translated)
    if why is not None:
        raise NotebookError(f"the translation {where} does not match its English source {source.path.name}: {why}")
    translated.files = source.files
    return translated


# --- the graded notebook, put together ----------------------------------------------------------------------
#
# The notebook that is graded, put together by stable id, never by position: the
# instructor's setup and test cells (hidden tests included) in the instructor's order, the
# learner's solution cells in their place (the stub where one is missing), and the learner's
# own extra cells after the instructor cell they followed.

@dataclass
class GradedCell:
    """A code cell of the notebook being graded."""

    source: str
    role: str                      # SOLUTION, TEST, LOCKED, or FREE (the learner's own cell)
    key: str | None = None
    title: str = ""
    points: float = 0.0
    hidden: bool = False


def _as_released(exercise: Exercise, key: str) -> set[str]:
    """The sources of cell ``key`` as a learner may have it unchanged: as released, and for a learner's
    own positions also as the common version has it (a learner who worked in that one changed nothing)."""
    found = set()
    for version in (exercise, exercise.common) if exercise.common is not None else (exercise,):
        info = version.by_key().get(key)
        if info is not None:
            found.add(student_cell_source(info, version.language).strip())
    return found


def assemble(exercise: Exercise, submission: Any) -> tuple[list[GradedCell], list[str]]:
    """The cells to run for ``submission`` (a notebook) and notes on what was restored."""
    known = exercise.by_key()
    solutions: dict[str, str] = {}
    learner_free: dict[str, str] = {}  # the learner's version of unmarked instructor code cells
    after: dict[str | None, list[str]] = defaultdict(list)
    seen: set[str] = set()
    notes: list[str] = []
    anchor: str | None = None
    for cell in submission.cells:
        key = cell_key(cell)
        info = known.get(key) if key else None
        code = cell.get("cell_type") == "code"
        if info is not None and key is not None and key not in seen:  # (a known cell has a key)
            seen.add(key)
            anchor = key
            if code and info.role == SOLUTION:
                solutions[key] = cell.source
            elif code and info.role == FREE:
                learner_free[key] = cell.source
            elif info.role in (TEST, LOCKED) and cell.source.strip() not in _as_released(exercise, key):
                notes.append(f"your changes to the instructor cell {key!r} were undone")
            continue
        if info is not None and info.role in (TEST, LOCKED):
            notes.append(f"a copy of the instructor cell {key!r} was ignored")
            continue
        if code and cell.source.strip():
            after[anchor].append(cell.source)
    cells = [GradedCell(src, FREE) for src in after[None]]
    for info in exercise.cells:
        code = info.cell.cell_type == "code"
        if code and info.role == SOLUTION:
            if info.key in solutions:
                cells.append(GradedCell(solutions[info.key], SOLUTION, info.key))
            else:
                notes.append(f"solution cell {info.key!r} is missing: the empty stub was graded")
                cells.append(GradedCell(student_cell_source(info, exercise.language), SOLUTION, info.key))
        elif code and info.role in (TEST, LOCKED):
            if info.key not in seen:
                notes.append(f"{'test' if info.role == TEST else 'setup'} cell {info.key!r} was missing "
                             f"and has been restored")
            cells.append(GradedCell(info.source, info.role, info.key, info.title, info.points, info.hidden))
        elif code and info.key in learner_free:
            cells.append(GradedCell(learner_free[info.key], FREE, info.key))
        if info.key is not None:
            cells += [GradedCell(src, FREE) for src in after.get(info.key, ())]
    return cells, notes
