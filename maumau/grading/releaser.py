"""``maumau release SOURCE --out DIR``: the student versions of the exercise notebooks.

Each solution region becomes nbgrader's stub (``# YOUR CODE HERE`` /
``raise NotImplementedError()``), hidden tests are removed, outputs are cleared, and
every released notebook is checked for leaks (any solution or hidden-test line) before
anything is written.  Nothing of the notebooks is executed.

An exercise's translations (``exercises/de/NAME.ipynb``, ``exercises/hu/NAME.ipynb``) are
released beside it the same way (``student/de/NAME.ipynb``...), each checked against its own
language's solution and hidden-test lines (and the source's), and each saying its language in
its notebook metadata (``maumau.language``), which tells the grader what language to answer in.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import nbformat

from .exercise import SOURCE_LANGUAGE, Exercise, NotebookError, leaks, load_exercises, student_version

__all__ = ['release']


def _cells_text(nb: nbformat.NotebookNode) -> str:
    return "\n".join(cell.source for cell in nb.cells)


def _released(exercise: Exercise, source: Exercise) -> str:
    """The student version of ``exercise`` (the source or one of its translations) as text;
    NotebookError when it would show a line of its solutions or hidden tests, or of the source's."""
    nb = student_version(exercise)
    if exercise.language != SOURCE_LANGUAGE:  # the grader reads the language here
        meta = nb.metadata.get("maumau")
        nb.metadata["maumau"] = {**(meta if isinstance(meta, dict) else {}), "language": exercise.language}
    text: str = nbformat.writes(nb)
    cells = _cells_text(nb)
    found = leaks(exercise, cells) + leaks(exercise, text)
    if exercise is not source:
        found += leaks(source, cells) + leaks(source, text)
    if found:
        where = exercise.path.name if exercise is source else f"{exercise.language}/{exercise.path.name}"
        raise NotebookError(f"{where}: the student version would show {found[0]!r}")
    return text


def release(source: str | Path, out: str | Path) -> list[Path]:
    """Write the student version of every exercise in ``source`` into ``out``, and of each of
    its translations into ``out/<language>/``; returns the written paths.  NotebookError (and
    nothing written) for broken markers, a translation that does not match its source, or a leak."""
    source, out = Path(source), Path(out)
    if source.resolve() == out.resolve() or (source.is_dir() and out.resolve().is_relative_to(source.resolve())):
        raise NotebookError(f"the student versions must go outside the instructor folder {source}")
    exercises = load_exercises(source)
    released: list[tuple[Path, str]] = []
    for exercise in exercises:
        released.append((Path(exercise.path.name), _released(exercise, exercise)))
        for lang, translated in sorted(exercise.translations.items()):
            released.append((Path(lang) / exercise.path.name, _released(translated, exercise)))
    written = []
    for name, text in released:
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".release-", suffix=".ipynb")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
        written.append(target)
    return written
