"""The notebook that is graded, put together by stable id, never by position: the
instructor's setup and test cells (hidden tests included) in the instructor's order, the
learner's solution cells in their place (the stub where one is missing), and the learner's
own extra cells after the instructor cell they followed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from .notebook import FREE, LOCKED, SOLUTION, TEST, Exercise, cell_key, student_cell_source

__all__ = ["GradedCell", "assemble"]


@dataclass
class GradedCell:
    """A code cell of the notebook being graded."""

    source: str
    role: str                      # SOLUTION, TEST, LOCKED, or FREE (the learner's own cell)
    key: str | None = None
    title: str = ""
    points: float = 0.0
    hidden: bool = False


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
            elif info.role in (TEST, LOCKED) and cell.source.strip() != student_cell_source(info).strip():
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
                cells.append(GradedCell(student_cell_source(info), SOLUTION, info.key))
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
