"""``maumau release SOURCE --out DIR``: the student versions of the exercise notebooks.

Each solution region becomes nbgrader's stub (``# YOUR CODE HERE`` /
``raise NotImplementedError()``), hidden tests are removed, outputs are cleared, and
every released notebook is checked for leaks (any solution or hidden-test line) before
anything is written.  Nothing of the notebooks is executed.

An exercise's translations (``exercises/de/NAME.ipynb``, ``exercises/hu/NAME.ipynb``) are
released beside it the same way (``student/de/NAME.ipynb``...), each checked against its own
language's solution and hidden-test lines (and the source's), and each saying its language in
its notebook metadata (``maumau.language``), which tells the grader what language to answer in.

With the course key and the learners (``learners_variants``), each learner also gets their own copy,
``DIR/learners/<learner>/NAME.ipynb`` (and ``.../de/NAME.ipynb``...): the same student version with
the test cells relabeled by the learner's draw (``learner_variants``), its metadata and a note at
the top saying whose draw it is; each is leak-checked like the others.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

import nbformat

from .exercise import SOURCE_LANGUAGE, Exercise, NotebookError, leaks, load_exercises, student_version
from .learner_variants import COMMON, Relabeling, for_learner, learners_draw, note_cell
from .submissions import safe_folder_name

__all__ = ['release', 'learners_copy']


def _cells_text(nb: nbformat.NotebookNode) -> str:
    return "\n".join(cell.source for cell in nb.cells)


def _released(exercise: Exercise, source: Exercise, learner: str = "", draw: Relabeling = COMMON) -> str:
    """The student version of ``exercise`` (the source or one of its translations) as text, for
    ``learner`` with their ``draw`` if given; NotebookError when it would show a line of its
    solutions or hidden tests, or of the source's."""
    nb = student_version(for_learner(exercise, draw))
    if exercise.language != SOURCE_LANGUAGE:  # the grader reads the language here
        meta = nb.metadata.get("maumau")
        nb.metadata["maumau"] = {**(meta if isinstance(meta, dict) else {}), "language": exercise.language}
    if learner:  # whose positions: said on the page, kept in the metadata (the grader draws again)
        nb.metadata["maumau"] = {**nb.metadata.get("maumau", {}), "variant": {"learner": learner, "draw": draw.name}}
        nb.cells.insert(1 if nb.cells and nb.cells[0].cell_type == "markdown" else 0,
                        note_cell(learner, draw, exercise.language))
    text: str = nbformat.writes(nb)
    cells = _cells_text(nb)
    found = leaks(exercise, cells) + leaks(exercise, text)
    if exercise is not source:
        found += leaks(source, cells) + leaks(source, text)
    if found:
        where = exercise.path.name if exercise is source else f"{exercise.language}/{exercise.path.name}"
        raise NotebookError(f"{where}: the student version would show {found[0]!r}")
    return text


def learners_copy(exercise: Exercise, learner: str, variants: bytes | None, lang: str = SOURCE_LANGUAGE
                  ) -> tuple[str, str]:
    """``learner``'s copy of ``exercise`` (an English source) in ``lang``, as ``release`` writes it into
    their folder, and the name of their draw; without ``variants`` the common student version."""
    translated = exercise if lang == exercise.language else exercise.translations[lang]
    if variants is None:
        return _released(translated, exercise), COMMON.name
    draw = learners_draw(variants, safe_folder_name(learner), exercise)
    return _released(translated, exercise, learner, draw), draw.name


def release(source: str | Path, out: str | Path, variants: bytes | None = None,
            learners: Iterable[str] = ()) -> list[Path]:
    """Write the student version of every exercise in ``source`` into ``out``, and of each of
    its translations into ``out/<language>/``; returns the written paths.  With the course key
    ``variants``, each of ``learners`` gets their own copies in ``out/learners/<folder>/``, the folder
    the grader files their hand-ins under (``submissions.safe_folder_name``: the name when it is plain).
    NotebookError (and nothing written) for broken markers, a translation that does not match
    its source, a leak, or two learners whose folders would be one."""
    source, out = Path(source), Path(out)
    folders: dict[str, str] = {}
    for learner in dict.fromkeys(learners):
        if folders.setdefault(safe_folder_name(learner).casefold(), learner) != learner:
            raise NotebookError(f"the learners {folders[safe_folder_name(learner).casefold()]!r} and {learner!r} "
                                f"would share a folder: nothing was written (rename one of them on the roster)")
    if folders and variants is None:
        raise NotebookError("each learner's own positions need the course key: give it with --variants KEYFILE")
    if source.resolve() == out.resolve() or (source.is_dir() and out.resolve().is_relative_to(source.resolve())):
        raise NotebookError(f"the student versions must go outside the instructor folder {source}")
    exercises = load_exercises(source)
    released: list[tuple[Path, str]] = []
    for exercise in exercises:
        released.append((Path(exercise.path.name), _released(exercise, exercise)))
        for lang, translated in sorted(exercise.translations.items()):
            released.append((Path(lang) / exercise.path.name, _released(translated, exercise)))
        for learner in folders.values():
            mine = learners_draw(variants, safe_folder_name(learner), exercise)
            folder = Path("learners") / safe_folder_name(learner)
            released.append((folder / exercise.path.name, _released(exercise, exercise, learner, mine)))
            for lang, translated in sorted(exercise.translations.items()):
                released.append((folder / lang / exercise.path.name, _released(translated, exercise, learner, mine)))
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
