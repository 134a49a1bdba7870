"""An instructor notebook's cells and the notebook itself as the grader holds them
(``ExerciseCell``, ``Exercise``): plain data with the properties read from their nbgrader
metadata.  ``exercise`` loads and checks them; ``datafiles``, ``student`` and ``manual`` read
them, so they live here, below all of those.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .markers import BEGIN_HIDDEN, BEGIN_SOLUTION, SOLUTION, TEST, is_manual, nbgrader_data

__all__ = ["ExerciseCell", "Exercise"]


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
