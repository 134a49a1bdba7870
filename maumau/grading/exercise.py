"""An instructor notebook as the grader sees it: its cells with their roles, ids and points,
checked once when it is loaded (``load_exercise``), and its data files found.

Every marked cell has a stable ``grade_id``; the cell's own nbformat id is the same string,
so cells are found by id, never by position.  Nothing here runs notebook code.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .datafiles import exercise_files
from .exercise_model import Exercise, ExerciseCell
from .markers import (
    BEGIN_HIDDEN,
    BEGIN_MARK_SCHEME,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_MARK_SCHEME,
    END_SOLUTION,
    FREE,
    SCHEMA_VERSION,
    SOLUTION,
    TEST,
    autotest_line,
    cell_key,
    is_manual,
    nbgrader_data,
    role_of,
    strip_region,
)
from .reading import NotebookError, read_notebook

__all__ = ["ExerciseCell", "Exercise", "load_exercise", "load_exercises"]

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


def load_exercise(path: str | Path) -> Exercise:
    """Read and check an instructor notebook: unique ids, balanced markers, points on graded
    cells, no autotest directive, a schema maumau knows; and find its data files."""
    path = Path(path)
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
    exercise = Exercise(path.stem, path, nb, cells)
    if not exercise.tests and not exercise.manual:
        raise NotebookError(f"{path.name} has no graded cell (no test cell, no manually graded cell)")
    exercise.files = exercise_files(exercise)
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
