"""Every exercise: the released stub scores nothing, the instructor's solution everything.

All exercises are released (``maumau release``) and graded in one batch by the real grader
(``maumau.grading.grade``, sandboxed kernels) for two learners: ``stub`` hands in the released
notebooks untouched (``raise NotImplementedError()``), ``solution`` whose solution cells are the
instructor's answers.  Per test cell the stub scores 0 and the solution full points.

Two more runs in one plain kernel each (a kernel per notebook would cost seconds apiece):

- the released notebooks top to bottom, as a learner's *Run All* does: a failing test cell shows
  one short, friendly line instead of a traceback;
- every exercise with hidden tests and a class that does nothing (each stub replaced by
  ``pass``): every test cell fails, so no test passes merely because nothing happened.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from maumau.grading.exercise import (
    BEGIN_SOLUTION,
    END_SOLUTION,
    HIDDEN_NOTE,
    SOLUTION,
    STUB,
    TEST,
    load_exercises,
    student_cell_source,
)
from maumau.grading.grader import grade  # noqa: E402
from maumau.grading.releaser import release  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
LEARNERS = ("stub", "solution")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def instructor_answer(source: str) -> str:
    """A solution cell as a learner who wrote the instructor's answer hands it in."""
    return "\n".join(line for line in source.split("\n") if line.strip() not in (BEGIN_SOLUTION, END_SOLUTION))


def does_nothing(source: str) -> str:
    """A released stub with every ``raise NotImplementedError()`` replaced by ``pass``."""
    return source.replace(STUB[1], "pass")


def run_in_one_kernel(cells: list, cwd: Path) -> list:
    """Run ``cells`` (code cells, of several notebooks) top to bottom in one plain kernel, going
    on after errors; returns them with their outputs."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {
        "name": "python3", "language": "python", "display_name": "Python 3"}})
    NotebookClient(nb, timeout=120, allow_errors=True, kernel_name="python3",
                   resources={"metadata": {"path": str(cwd)}}).execute()
    return nb.cells


def errors(cell) -> list[dict]:
    return [o for o in cell.outputs if o.output_type == "error"]


def shown(cell) -> str:
    """What a cell printed, without colours (a failed scenario's ✗ line is printed: the cell goes on)."""
    return ANSI.sub("", "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream"))


def failed(cell) -> bool:
    """A test cell failed: it raised, or one of its scenarios printed its ✗ line."""
    return bool(errors(cell)) or "✗ " in shown(cell)


@pytest.fixture(scope="module")
def exercises():
    return load_exercises(EXERCISES)


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    release(EXERCISES, out)
    return out


# --- the grader: stub 0, solution full marks, per test cell -------------------------------------------

@pytest.fixture(scope="module")
def graded(tmp_path_factory, student, exercises):
    root = tmp_path_factory.mktemp("stubs")
    for learner in LEARNERS:
        (root / "submissions" / learner).mkdir(parents=True)
    for ex in exercises:
        answers = {c.key: instructor_answer(c.source) for c in ex.cells if c.role == SOLUTION}
        for learner in LEARNERS:
            nb = nbformat.read(student / f"{ex.name}.ipynb", 4)
            for cell in nb.cells:
                if learner == "solution" and cell.get("id") in answers:
                    cell.source = answers[cell["id"]]
            nbformat.write(nb, root / "submissions" / learner / f"{ex.name}.ipynb")
    rows = grade(EXERCISES, [root / "submissions"], out=root / "grades", jobs=2)
    return {(r.student, r.exercise): r for r in rows}


def test_every_test_cell_scores_0_for_the_stub_and_full_marks_for_the_solution(graded, exercises):
    wrong = []
    for ex in exercises:
        for learner in LEARNERS:
            row = graded[(learner, ex.name)]
            results = {t.key: t for t in row.tests}
            assert set(results) == {c.key for c in ex.tests}, (learner, ex.name, row.status, row.message)
            for cell in ex.tests:
                got = results[cell.key]
                want = cell.points if learner == "solution" else 0
                if got.points != want:
                    wrong.append(f"{learner} {ex.name} {cell.key}: {got.points:g} points, expected {want:g} "
                                 f"({got.message or 'passed'})")
        solution = graded[("solution", ex.name)]
        assert solution.status == "ok" and solution.score == ex.max_score, (ex.name, solution.message)
    assert not wrong, "\n".join(wrong)


def test_the_feedback_on_a_stub_says_it_is_not_written_yet(graded, exercises):
    for ex in exercises:
        for result in graded[("stub", ex.name)].tests:
            where = (ex.name, result.key, result.message)
            if result.hidden:  # a hidden test reports its title and pass or fail, nothing it saw
                assert not result.passed and result.message == "", where
            else:  # what the learner sees in the notebook, too
                assert "NotImplementedError" in result.message, where
                assert "is not written yet" in result.message, where


# --- a class that does nothing fails every test cell, hidden tests included ----------------------------

def test_a_class_that_does_nothing_fails_every_test_cell(exercises, tmp_path):
    cells = []
    for ex in exercises:
        for info in ex.cells:
            if info.cell.cell_type != "code":
                continue
            source = does_nothing(student_cell_source(info)) if info.role == SOLUTION else info.source
            cell = nbformat.v4.new_code_cell(source, metadata={"exercise": ex.name, "key": info.key,
                                                               "test": info.role == TEST})
            cells.append(cell)
    passed = [(c.metadata["exercise"], c.metadata["key"]) for c in run_in_one_kernel(cells, tmp_path)
              if c.metadata["test"] and not failed(c)]
    assert not passed, f"test cells that pass for a class that does nothing: {passed}"


# --- a learner's Run All on the released stubs ---------------------------------------------------------

@pytest.fixture(scope="module")
def run_all(student, tmp_path_factory):
    """Every released notebook run top to bottom in one plain kernel (as *Run All* does, but
    going on after an error), cells tagged with their notebook."""
    cells = []
    for path in sorted(student.glob("*.ipynb")):
        for cell in nbformat.read(path, 4).cells:
            if cell.cell_type == "code":
                cell.metadata["exercise"] = path.stem
                cells.append(cell)
    return run_in_one_kernel(cells, tmp_path_factory.mktemp("run_all"))


def test_a_failing_test_cell_shows_one_friendly_line(run_all):
    tests = [c for c in run_all if c.metadata.get("nbgrader", {}).get("grade") and HIDDEN_NOTE not in c.source]
    assert len(tests) >= 14 * 2
    for cell in tests:  # every scenario that failed says so in one line, and the cell goes on to its end
        text = shown(cell)
        where = (cell.metadata["exercise"], cell.get("id"), text)
        assert not errors(cell), where
        lines = [line for line in text.splitlines() if line.startswith("✗ ")]
        assert lines and all(line.startswith("✗ Check failed: ") and len(line) < 400 for line in lines), where
        assert "is not written yet" in lines[0], where
        assert "Traceback" not in text and "Could not get source" not in text and "File " not in text, where
        assert text.rstrip().endswith("checks failed."), where


def test_other_cells_run_or_say_the_stub_is_not_written(run_all):
    for cell in run_all:
        if cell.metadata.get("nbgrader", {}).get("grade"):
            continue
        for error in errors(cell):  # a try-it cell that calls the stub, or the summary at the end
            text = ANSI.sub("", "\n".join(error.traceback))
            if str(cell.get("id", "")).endswith("_summary"):
                assert error.ename == "CheckFailed" and "checks failed" in text and "✗ " in shown(cell), text
                continue
            assert error.ename == "NotImplementedError" and len(text.splitlines()) == 1, (cell.get("id"), text)
            assert "is not written yet" in text
