"""Every exercise: the released stub scores nothing, the instructor's solution everything.

All exercises are released (``maumau release``) and graded in one batch by the real grader
(``maumau.grading.grade``, sandboxed kernels) for three learners:

- ``stub``: hands in the released notebook untouched (``raise NotImplementedError()``);
- ``nothing``: replaced every stub by ``pass``, so the class exists but does nothing (a
  test that only checks that nothing happens would pass for it);
- ``solution``: whose solution cells are the instructor's answers.

Per test cell the first two score 0 and the last full points.  Then a released stub runs in a
plain kernel as a learner's Run All does, and a failing test cell shows a short, friendly
message instead of a traceback.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from maumau.grading import grade, release  # noqa: E402
from maumau.grading.notebook import BEGIN_SOLUTION, END_SOLUTION, HIDDEN_NOTE, STUB, load_exercises  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
EXERCISES = REPO / "exercises"
LEARNERS = ("stub", "nothing", "solution")


def instructor_answer(source: str) -> str:
    """A solution cell as a learner who wrote the instructor's answer hands it in."""
    return "\n".join(line for line in source.split("\n") if line.strip() not in (BEGIN_SOLUTION, END_SOLUTION))


def does_nothing(source: str) -> str:
    """The released stub with every ``raise NotImplementedError()`` replaced by ``pass``."""
    return "\n".join(line.replace(STUB[1], "pass") for line in source.split("\n"))


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    release(EXERCISES, out)
    return out


@pytest.fixture(scope="module")
def graded(tmp_path_factory, student):
    root = tmp_path_factory.mktemp("stubs")
    exercises = load_exercises(EXERCISES)
    for learner in LEARNERS:
        (root / "submissions" / learner).mkdir(parents=True)
    for ex in exercises:
        answers = {c.key: instructor_answer(c.source) for c in ex.cells if c.role == "solution"}
        for learner in LEARNERS:
            nb = nbformat.read(student / f"{ex.name}.ipynb", 4)
            for cell in nb.cells:
                if cell.get("id") in answers:
                    if learner == "solution":
                        cell.source = answers[cell["id"]]
                    elif learner == "nothing":
                        cell.source = does_nothing(cell.source)
            nbformat.write(nb, root / "submissions" / learner / f"{ex.name}.ipynb")
    began = time.monotonic()
    rows = grade(EXERCISES, [root / "submissions"], out=root / "grades", jobs=2)
    seconds = time.monotonic() - began
    return {"exercises": exercises, "rows": {(r.student, r.exercise): r for r in rows}, "seconds": seconds}


def test_every_test_cell_scores_0_for_the_stub_and_full_marks_for_the_solution(graded):
    wrong = []
    for ex in graded["exercises"]:
        for learner in LEARNERS:
            row = graded["rows"][(learner, ex.name)]
            results = {t.key: t for t in row.tests}
            assert set(results) == {c.key for c in ex.tests}, (learner, ex.name, row.status, row.message)
            for cell in ex.tests:
                got = results[cell.key]
                want = cell.points if learner == "solution" else 0
                if got.points != want:
                    wrong.append(f"{learner} {ex.name} {cell.key}: {got.points:g} points, expected {want:g} "
                                 f"({got.message or 'passed'})")
            if learner == "solution":
                assert row.status == "ok" and row.score == ex.max_score, (ex.name, row.status, row.message)
    assert not wrong, "\n".join(wrong)
    print(f"graded {len(graded['rows'])} notebooks in {graded['seconds']:.1f} s")


def test_the_feedback_on_a_stub_says_it_is_not_written_yet(graded):
    for ex in graded["exercises"]:
        row = graded["rows"][("stub", ex.name)]
        for result in row.tests:
            where = (ex.name, result.key, result.message)
            assert "NotImplementedError" in result.message, where
            if not result.hidden:  # what the learner sees in the notebook, too
                assert "is not written yet" in result.message, where


# --- a learner's Run All on the released stubs -------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def run_all(student, tmp_path_factory):
    """Every released notebook run top to bottom in one plain kernel (as *Run All* does, but
    going on after an error), cells tagged with their notebook."""
    from nbclient import NotebookClient

    cells = []
    for path in sorted(student.glob("*.ipynb")):
        for cell in nbformat.read(path, 4).cells:
            if cell.cell_type == "code":
                cell.metadata["exercise"] = path.stem
                cells.append(cell)
    nb = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "language": "python",
                                                                        "display_name": "Python 3"}})
    cwd = tmp_path_factory.mktemp("run_all")
    NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd)}}).execute()
    return nb.cells


def errors(cell) -> list[dict]:
    return [o for o in cell.outputs if o.output_type == "error"]


def test_a_failing_test_cell_shows_one_friendly_line(run_all):
    tests = [c for c in run_all if c.metadata.get("nbgrader", {}).get("grade") and HIDDEN_NOTE not in c.source]
    assert len(tests) >= 14 * 2
    for cell in tests:
        found = errors(cell)
        assert len(found) == 1, (cell.metadata["exercise"], cell.get("id"), cell.outputs)
        text = ANSI.sub("", "\n".join(found[0].traceback))
        where = (cell.metadata["exercise"], cell.get("id"), text)
        assert found[0].ename == "CheckFailed", where
        assert len(text.splitlines()) <= 3 and len(text) < 400, where
        assert text.startswith("✗ Check failed: ") and "is not written yet" in text, where
        assert "Traceback" not in text and "Could not get source" not in text and "File " not in text, where
        assert found[0].evalue in text, where


def test_other_cells_run_or_say_the_stub_is_not_written(run_all):
    for cell in run_all:
        if cell.metadata.get("nbgrader", {}).get("grade"):
            continue
        for error in errors(cell):  # only a try-it cell that calls the stub
            text = ANSI.sub("", "\n".join(error.traceback))
            assert error.ename == "NotImplementedError" and len(text.splitlines()) == 1, (cell.get("id"), text)
            assert "is not written yet" in text
