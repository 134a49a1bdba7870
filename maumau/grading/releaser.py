"""``maumau release SOURCE --out DIR``: the student versions of the exercise notebooks.

Each solution region becomes nbgrader's stub (``# YOUR CODE HERE`` /
``raise NotImplementedError()``), hidden tests are removed, outputs are cleared, and
every released notebook is checked for leaks (any solution or hidden-test line) before
anything is written.  Nothing of the notebooks is executed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import nbformat

from .exercise import NotebookError, leaks, load_exercises, student_version

__all__ = ['release']


def _cells_text(nb: nbformat.NotebookNode) -> str:
    return "\n".join(cell.source for cell in nb.cells)


def release(source: str | Path, out: str | Path) -> list[Path]:
    """Write the student version of every exercise in ``source`` into ``out``; returns the
    written paths.  NotebookError (and nothing written) for broken markers or a leak."""
    source, out = Path(source), Path(out)
    if source.resolve() == out.resolve() or (source.is_dir() and out.resolve().is_relative_to(source.resolve())):
        raise NotebookError(f"the student versions must go outside the instructor folder {source}")
    exercises = load_exercises(source)
    released = []
    for exercise in exercises:
        nb = student_version(exercise)
        text = nbformat.writes(nb)
        found = leaks(exercise, _cells_text(nb)) + leaks(exercise, text)
        if found:
            raise NotebookError(f"{exercise.path.name}: the student version would show {found[0]!r}")
        released.append((exercise.path.name, text))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in released:
        target = out / name
        fd, tmp = tempfile.mkstemp(dir=out, prefix=".release-", suffix=".ipynb")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
        written.append(target)
    return written
