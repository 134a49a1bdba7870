"""Manual grading, as nbgrader does it: which manually graded cells of a submission wait
for a person, and which answers were left as released (they score 0, "No response.")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .markers import SOLUTION, cell_key
from .student import student_cell_source

if TYPE_CHECKING:  # only for the annotations, as in ``student``
    from .exercise_model import Exercise, ExerciseCell

__all__ = ["answered", "manual_pending"]


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
