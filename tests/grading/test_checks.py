"""Exercises report every check at once (issue 24 items 8 and 9).

In the learner's notebook a failed check shows its ✗ line and the cell goes on, Run All reaches
every test cell, and the last cell lists ✓/✗ per scenario (and fails, so ``pytest --nbval-lax``
fails too).  While graded, a failure raises as before: the grade is the grader's.  ``maumau grade``
lists only the exercises handed in (or asked for, or all with ``--all``) and says its wall time.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import maumau as mm
from maumau.cli import main
from maumau.grading import checks
from maumau.grading.checks import CheckFailed, check, passed, scenario, summary
from maumau.grading.releaser import release

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"


@pytest.fixture(autouse=True)
def fresh_checks() -> Iterator[None]:
    """Each test starts with no recorded results, as a fresh kernel does."""
    checks._results.clear()
    checks._failed_here.clear()
    yield
    checks._results.clear()
    checks._failed_here.clear()
    checks._records = None


def test_a_failed_check_shows_its_line_and_the_cell_goes_on(capsys):
    s = mm.position("makao", hands=["8H 5C", "7S 4D"], top="5H", stock="2C 3D 4H")
    with scenario("seat 0 plays 8♥"):
        check("who moves next", s.apply(mm.Play("8H")).to_move, 1)  # the 8 skips: 0 moves again
        check("never reached", 1, 1)
    with scenario("seat 0 plays 5♣"):
        check("who moves next", s.apply(mm.Play("5C")).to_move, 1)
    passed(2)
    out = capsys.readouterr().out
    assert "✗" in out and "seat 0 plays 8♥: who moves next: expected 1, got 0" in out
    assert "1 of 2 checks failed." in out and "All 2 checks passed." not in out


def test_learner_code_raising_is_one_line_and_the_next_scenario_runs(capsys):
    def stub():
        raise NotImplementedError()

    with scenario("a stub"):
        stub()
    with scenario("after it"):
        check("still checked", 2, 2)
    passed(1)
    out = capsys.readouterr().out
    assert "a stub: test_learner_code_raising_is_one_line_and_the_next_scenario_runs.<locals>.stub is not " \
           "written yet" in out
    with pytest.raises(CheckFailed, match="1 of 2 checks failed"):
        summary()
    listing = capsys.readouterr().out
    assert "✗ a stub" in listing and "✓ after it" in listing and "1 passed, 1 failed" in listing


def test_the_summary_counts_a_cell_run_again_once(capsys):
    for got in (1, 2):  # the learner fixes the code and runs the test cell again
        with scenario("the same scenario"):
            check("value", got, 2)
    summary()  # passes: the last run counts
    assert "✓ the same scenario" in capsys.readouterr().out


def test_nothing_run_yet_says_so(capsys):
    summary()
    assert "No checks have run yet" in capsys.readouterr().out


def test_while_graded_a_failure_still_raises_and_the_summary_is_silent(capsys):
    checks.record()
    with pytest.raises(CheckFailed):
        with scenario("graded"):
            raise ValueError("boom")
    summary()
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("lang, line", [("de", "1 von 1 Prüfungen fehlgeschlagen."),
                                         ("hu", "1 ellenőrzésből 1 sikertelen.")])
def test_the_lines_speak_the_language(capsys, lang, line):
    with mm.text.i18n.use_language(lang):
        with scenario("x"):
            check("y", 1, 2)
        passed(1)
    assert line in capsys.readouterr().out


def test_run_all_on_a_released_exercise_reaches_every_test_cell(tmp_path):
    """The student version of exercise 02 (stubs): every test cell runs, each shows ✗ lines, the
    summary lists every scenario and is the only cell that errors."""
    release(EXERCISES, tmp_path / "student")
    path = tmp_path / "student" / "02_skip_on_eight.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code), "a cell did not run"
    errors = [c for c in code if any(o.output_type == "error" for o in c.outputs)]
    assert [c.source for c in errors] == [code[-1].source] and "summary()" in code[-1].source
    tests = [c for c in code if c.metadata.get("nbgrader", {}).get("grade") and "passed(" in c.source]
    for cell in tests:
        text = "".join(o.get("text", "") for o in cell.outputs)
        assert "✗" in text and "is not written yet" in text and "checks failed." in text, text
    first = "".join(o.get("text", "") for o in tests[0].outputs)  # its second scenario uses the first's state
    assert "NameError" in first and "a scenario before it in this cell failed before setting it up" in first
    listing = "".join(o.get("text", "") for o in code[-1].outputs)
    assert listing.count("✗ ") >= 3 and "0 passed" in listing


def test_run_all_on_the_released_exercise_13_runs_every_cell(tmp_path):
    """Issue 34: the student version of exercise 13 (the stub raises NotImplementedError) runs to its
    summary: its try-it cell and each of its test cells show a ✗ line (the player's process says which
    method is not written), and only the summary cell errors."""
    release(EXERCISES, tmp_path / "student")
    path = tmp_path / "student" / "13_strategy.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code), "a cell did not run"
    errors = [c for c in code if any(o.output_type == "error" for o in c.outputs)]
    assert [c.source for c in errors] == [code[-1].source] and "summary()" in code[-1].source
    shown = ["".join(o.get("text", "") for o in c.outputs) for c in code if "scenario(" in c.source]
    assert len(shown) == 3  # the try-it cell and the two test cells the learner has
    for text in shown:
        assert "✗" in text and "MyPlayer.choose is not written yet" in text, text
    listing = "".join(o.get("text", "") for o in code[-1].outputs)
    assert listing.count("✗ ") == 3 and "0 passed" in listing, listing


def test_every_exercise_ends_with_its_summary_cell():
    for path in sorted(EXERCISES.glob("*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        assert "summary()" in "".join(cells[-1]["source"]), path.name
        assert cells[-1]["metadata"]["nbgrader"]["locked"], path.name


# --- maumau grade: the rows asked for, and the time it took ----------------------------------------

def hand_in(root: Path, student: str, exercise: str) -> None:
    """A notebook that cannot be read (no kernel needed to grade it: the row says so)."""
    (root / student).mkdir(parents=True, exist_ok=True)
    (root / student / f"{exercise}.ipynb").write_text("{ not a notebook")


def grade_rows(tmp_path: Path, *options: str) -> tuple[list[str], str]:
    subs = tmp_path / "submissions"
    hand_in(subs, "alice", "02_skip_on_eight")
    hand_in(subs, "bob", "02_skip_on_eight")
    out = io.StringIO()
    code = main(["grade", str(subs), "--source", str(EXERCISES), "--out", str(tmp_path / "grades"), *options],
                out=out, err=io.StringIO())
    assert code == 0, out.getvalue()
    lines = (tmp_path / "grades" / "grades.csv").read_text().splitlines()[1:]
    return [",".join(line.split(",")[:2]) + "," + line.split(",")[5] for line in lines], out.getvalue()


def test_grade_lists_only_the_exercises_handed_in_and_its_wall_time(tmp_path):
    rows, said = grade_rows(tmp_path)
    assert rows == ["alice,02_skip_on_eight,invalid notebook", "bob,02_skip_on_eight,invalid notebook"]
    assert "Graded 2 rows in " in said and " s (wall time)" in said


def test_grade_all_lists_every_exercise(tmp_path):
    rows, _ = grade_rows(tmp_path, "--all")
    exercises = len(list(EXERCISES.glob("*.ipynb")))
    assert len(rows) == 2 * exercises
    assert sum(row.endswith(",missing") for row in rows) == 2 * (exercises - 1)


def test_grade_an_exercise_asked_for_lists_it_for_everyone(tmp_path):
    rows, _ = grade_rows(tmp_path, "--exercise", "01_matching")
    assert rows == ["alice,01_matching,missing", "bob,01_matching,missing"]
