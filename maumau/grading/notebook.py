"""Exercise notebooks: nbgrader-compatible markers, cell roles and stable ids.

An instructor notebook marks its cells in ``metadata.nbgrader`` (schema 3, as nbgrader does):

- a *solution* cell (``solution: true``) holds the learner's code; the instructor's answer
  sits between ``### BEGIN SOLUTION`` and ``### END SOLUTION``;
- a *test* cell (``grade: true, solution: false, locked: true, points: N``) is graded: it
  scores its points when it runs without an error; hidden tests sit between
  ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``;
- a *locked* cell (``locked: true``) is instructor code the grader restores (setup cells).

Every marked cell has a stable ``grade_id``; the cell's own nbformat id is the same string,
so cells are found by id, never by position.  Nothing here runs notebook code.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

__all__ = [
    "NotebookError", "BEGIN_SOLUTION", "END_SOLUTION", "BEGIN_HIDDEN", "END_HIDDEN", "STUB",
    "SOLUTION", "TEST", "LOCKED", "FREE", "ExerciseCell", "Exercise", "read_notebook",
    "load_exercise", "load_exercises", "role_of", "cell_key", "strip_region", "student_version",
    "secret_lines", "leaks", "MAX_NOTEBOOK_BYTES",
]

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
#: What a solution region becomes in the student version (nbgrader's own stub).
STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")
HIDDEN_NOTE = "# (more tests run here when your notebook is graded)"
SOLUTION, TEST, LOCKED, FREE = "solution", "test", "locked", "free"
#: A submitted notebook larger than this is not read (status "invalid notebook").
MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class NotebookError(ValueError):
    """A notebook that cannot be read, or an instructor notebook with broken markers."""


def read_notebook(path: str | Path, max_bytes: int = MAX_NOTEBOOK_BYTES) -> nbformat.NotebookNode:
    """Read a notebook file (nbformat 4) without running anything; NotebookError if it is not one."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise NotebookError(f"{path.name} is {size // 1024 // 1024} MB; the limit is "
                                f"{max_bytes // 1024 // 1024} MB")
        text = path.read_bytes().decode("utf-8")
        data = json.loads(text)
    except NotebookError:
        raise
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise NotebookError(f"{path.name} is not a readable notebook (not valid JSON: {err})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError(f"{path.name} is JSON but not a notebook (no list of cells)")
    try:
        nb = nbformat.from_dict(data)
        if nb.get("nbformat", 4) != 4:
            nb = nbformat.convert(nb, 4)
        for cell in nb.cells:
            if not isinstance(cell, dict) or cell.get("cell_type") not in ("code", "markdown", "raw"):
                raise NotebookError(f"{path.name} has a cell of unknown type")
            source = cell.get("source", "")
            cell["source"] = "".join(source) if isinstance(source, list) else str(source)
            if not isinstance(cell.get("metadata"), dict):
                cell["metadata"] = nbformat.NotebookNode()
    except NotebookError:
        raise
    except Exception as err:  # a malformed structure, whatever nbformat makes of it
        raise NotebookError(f"{path.name} is not a valid notebook: {err}") from None
    return nb


def _nbgrader(cell: dict) -> dict:
    meta = cell.get("metadata") or {}
    data = meta.get("nbgrader") if isinstance(meta, dict) else None
    return data if isinstance(data, dict) else {}


def role_of(cell: dict) -> str:
    """SOLUTION, TEST, LOCKED or FREE, from the cell's nbgrader metadata."""
    data = _nbgrader(cell)
    if data.get("solution"):
        return SOLUTION
    if data.get("grade"):
        return TEST
    if data.get("locked"):
        return LOCKED
    return FREE


def cell_key(cell: dict) -> str | None:
    """The stable id of a cell: its nbgrader grade_id, else its nbformat id."""
    gid = _nbgrader(cell).get("grade_id")
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


@dataclass
class ExerciseCell:
    """One cell of an instructor notebook, with its role and id."""

    key: str | None
    role: str
    cell: Any  # nbformat.NotebookNode

    @property
    def source(self) -> str:
        return self.cell.source

    @property
    def points(self) -> float:
        return float(_nbgrader(self.cell).get("points", 0) or 0) if self.role == TEST else 0.0

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
    """An instructor notebook: its name (the file stem), its cells and its points."""

    name: str
    path: Path
    notebook: Any
    cells: list[ExerciseCell]

    @property
    def tests(self) -> list[ExerciseCell]:
        return [c for c in self.cells if c.role == TEST]

    @property
    def max_score(self) -> float:
        return sum(c.points for c in self.tests)

    def by_key(self) -> dict[str, ExerciseCell]:
        return {c.key: c for c in self.cells if c.key}


def load_exercise(path: str | Path) -> Exercise:
    """Read and check an instructor notebook: unique ids, balanced markers, points on tests."""
    path = Path(path)
    nb = read_notebook(path)
    cells, seen = [], set()
    for i, cell in enumerate(nb.cells):
        role = role_of(cell) if cell.cell_type == "code" else (LOCKED if role_of(cell) != FREE else FREE)
        key = cell_key(cell)
        where = f"{path.name}, cell {i + 1}"
        if role != FREE:
            gid = _nbgrader(cell).get("grade_id")
            if not isinstance(gid, str) or not _ID.match(gid):
                raise NotebookError(f"{where}: a marked cell needs a grade_id of letters, digits, - and _")
            if gid in seen:
                raise NotebookError(f"{where}: grade_id {gid!r} is used twice")
            seen.add(gid)
        if role == TEST and not float(_nbgrader(cell).get("points", 0) or 0) > 0:
            raise NotebookError(f"{where}: test cell {key!r} has no points")
        strip_region(cell.source, BEGIN_SOLUTION, END_SOLUTION, None, where)
        strip_region(cell.source, BEGIN_HIDDEN, END_HIDDEN, None, where)
        if role == SOLUTION and BEGIN_SOLUTION not in cell.source:
            raise NotebookError(f"{where}: solution cell {key!r} has no {BEGIN_SOLUTION!r} region")
        if role != SOLUTION and BEGIN_SOLUTION in cell.source:
            raise NotebookError(f"{where}: {BEGIN_SOLUTION!r} outside a solution cell")
        if role != TEST and BEGIN_HIDDEN in cell.source:
            raise NotebookError(f"{where}: {BEGIN_HIDDEN!r} outside a test cell")
        cells.append(ExerciseCell(key, role, cell))
    exercise = Exercise(path.stem, path, nb, cells)
    if not exercise.tests:
        raise NotebookError(f"{path.name} has no graded test cell")
    return exercise


def load_exercises(source: str | Path) -> list[Exercise]:
    """Every instructor notebook in a folder (or one notebook), sorted by name."""
    source = Path(source)
    if source.is_file():
        return [load_exercise(source)]
    paths = sorted(p for p in source.glob("*.ipynb") if not p.name.startswith("."))
    if not paths:
        raise NotebookError(f"no exercise notebooks (*.ipynb) in {source}")
    return [load_exercise(p) for p in paths]


def student_cell_source(cell: ExerciseCell) -> str:
    """A cell as the learner gets it: solutions stubbed, hidden tests gone."""
    where = cell.key or "cell"
    text = strip_region(cell.source, BEGIN_SOLUTION, END_SOLUTION, STUB, where)
    return strip_region(text, BEGIN_HIDDEN, END_HIDDEN, (HIDDEN_NOTE,), where)


def student_version(exercise: Exercise) -> Any:
    """The released notebook: stubs for solutions, no hidden tests, no outputs."""
    nb = copy.deepcopy(exercise.notebook)
    for cell, info in zip(nb.cells, exercise.cells, strict=True):
        cell.source = student_cell_source(info)
        if info.key and info.role != FREE:
            cell["id"] = info.key
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)
    return nb


def _public_text(exercise: Exercise) -> str:
    """Everything a learner may see of the instructor notebook (outside the regions)."""
    return "\n".join(student_cell_source(c) for c in exercise.cells)


def secret_lines(exercise: Exercise, min_length: int = 10) -> set[str]:
    """The stripped lines of the solution and hidden-test regions that say something and do
    not also appear in the public part of the notebook."""
    public = _public_text(exercise)
    found: set[str] = set()
    for cell in exercise.cells:
        for begin, end in ((BEGIN_SOLUTION, END_SOLUTION), (BEGIN_HIDDEN, END_HIDDEN)):
            for line in region_lines(cell.source, begin, end):
                text = line.strip()
                if len(text) >= min_length and text not in STUB and text not in public:
                    found.add(text)
    return found


def leaks(exercise: Exercise, released_text: str) -> list[str]:
    """The solution / hidden-test lines (or markers) that appear in ``released_text``,
    other than lines that also appear in the public part of the notebook."""
    found = [m for m in (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN) if m in released_text]
    return found + sorted(line for line in secret_lines(exercise, min_length=6) if line in released_text)
