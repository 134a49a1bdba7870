"""What the learner gets of an instructor notebook, and what must not leak: the student
version (nbgrader's stubs for the solutions, the hidden tests gone) and the secret lines
(solutions, hidden tests, mark schemes) that ``release`` and the data files are checked against.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .markers import (
    BEGIN_HIDDEN,
    BEGIN_MARK_SCHEME,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_MARK_SCHEME,
    END_SOLUTION,
    FREE,
    HIDDEN_NOTE,
    STUB,
    TEXT_STUB,
    region_lines,
    strip_region,
)

if TYPE_CHECKING:  # only for the annotations
    from .exercise_model import Exercise, ExerciseCell

__all__ = ["stub_for", "student_cell_source", "student_version", "secret_lines", "leaks"]


def stub_for(cell: ExerciseCell) -> tuple[str, ...]:
    """nbgrader's stub for the cell's type: code, or markdown (``YOUR ANSWER HERE``)."""
    return STUB if cell.cell.cell_type == "code" else (TEXT_STUB,)


def student_cell_source(cell: ExerciseCell) -> str:
    """A cell as the learner gets it: solutions stubbed (a solution cell without markers
    wholly, as nbgrader does), hidden tests gone."""
    where = cell.key or "cell"
    if cell.whole:
        return "\n".join(stub_for(cell))
    text = strip_region(cell.source, BEGIN_SOLUTION, END_SOLUTION, stub_for(cell), where)
    text = strip_region(text, BEGIN_MARK_SCHEME, END_MARK_SCHEME, (), where)
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
