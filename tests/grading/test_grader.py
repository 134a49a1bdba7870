"""Exercises, release and grading (maumau.grading, ``maumau release`` / ``maumau grade``).

The grading tests grade, in one batch through the command line, the instructor solutions
and the released stubs of three representative exercises, plus the deliberately wrong
submissions in tests/submissions/ (one folder per failure kind, named after it).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from maumau.cli import main  # noqa: E402
from maumau.grading import CheckFailed, check, check_moves, scenario  # noqa: E402
from maumau.grading.exercise import (  # noqa: E402
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_SOLUTION,
    SOLUTION,
    TEST,
    NotebookError,
    assemble,
    leaks,
    load_exercise,
    load_exercises,
    read_notebook,
    secret_lines,
)
from maumau.grading.releaser import release  # noqa: E402
from maumau.sandbox.guard import make_guard  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
SUBMISSIONS = Path(__file__).resolve().parents[1] / "submissions"
GRADED = ("01_matching", "02_skip_on_eight", "04_seven_chain", "13_strategy")

#: (student, exercise) -> (score, status) for the deliberately wrong submissions.
EXPECTED = {
    ("infinite_loop", "02_skip_on_eight"): (4, "timeout"),
    ("exception", "02_skip_on_eight"): (6, "error"),
    ("syntax_error", "02_skip_on_eight"): (0, "error"),
    ("deleted_test", "02_skip_on_eight"): (6, "ok"),
    ("edited_test", "02_skip_on_eight"): (4, "ok"),
    ("invalid_json", "02_skip_on_eight"): (0, "invalid notebook"),
    ("writes_grades", "02_skip_on_eight"): (6, "ok"),
    ("reads_hidden", "02_skip_on_eight"): (6, "ok"),
    ("leaks_hidden", "02_skip_on_eight"): (4, "ok"),
    ("buggy_seven", "04_seven_chain"): (2, "ok"),
    ("buggy_matching", "01_matching"): (2, "ok"),
    ("memory_hog", "02_skip_on_eight"): (6, "memory limit"),
    ("kernel_exit", "02_skip_on_eight"): (6, "kernel died"),
    ("stray_file", "02_skip_on_eight"): (6, "ok"),
    ("stray_file", "99_not_an_exercise"): (0, "unknown exercise"),
    ("stray_file", "01_matching"): (0, "missing"),
    # issue 12: a stub and a cheat score what the honest stub scores (tests/submissions/cheats.py)
    ("cheat_rebind", "02_skip_on_eight"): (0, "ok"),
    ("cheat_code", "02_skip_on_eight"): (0, "ok"),
    ("cheat_fake_module", "02_skip_on_eight"): (0, "error"),  # the summary cell cannot import the faked module
    ("cheat_transformer", "02_skip_on_eight"): (0, "ok"),
    ("cheat_post_run_hook", "02_skip_on_eight"): (0, "ok"),
    ("cheat_forged_report", "02_skip_on_eight"): (0, "ok"),
    # exercise 13: the grader plays the hands itself, the player in a process of its own fed only Views,
    # on secret deals (maumau.grading.hands); faked hands and weakened opponents in the kernel count
    # for nothing: the random player earns the legal-moves test
    ("cheat_fake_hands", "13_strategy"): (0, "error"),
    ("cheat_weak_opponents", "13_strategy"): (2, "ok"),
    # issue 34: the first legal card that finds the real GameState up its stack or in gc wins 85% where
    # the game runs (7/7 before); in its own process it finds nothing: the first legal card's 2/7
    ("cheat_clairvoyant", "13_strategy"): (2, "ok"),
    # issue 25: after the hidden test no cell is named; duplicate ids refused; exits cost nothing
    ("leaks_by_cell", "02_skip_on_eight"): (6, "error"),
    ("duplicate_id", "02_skip_on_eight"): (0, "invalid notebook"),
    ("sys_exit", "02_skip_on_eight"): (6, "error"),
    ("exit_call", "02_skip_on_eight"): (6, "ok"),
    ("kernel_kill", "02_skip_on_eight"): (6, "kernel died"),
    # exercise 13 grades a strategy: the first legal card passes only the legal-moves test
    ("first_legal", "13_strategy"): (2, "ok"),
}


def all_secrets() -> set[str]:
    return set().union(*(secret_lines(e) for e in load_exercises(EXERCISES)))


# --- the exercise sources ------------------------------------------------------------------------------

def test_release_and_grade_are_the_functions_whichever_module_is_imported_first():
    code = ("import maumau.grading.grader, maumau.grading.releaser\n"
            "from maumau.grading import grade, release\n"
            "import maumau.grading as g\n"
            "print(callable(grade), callable(release), g.grade is grade, g.release is release)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True"] * 4


def test_the_pipeline_is_one_list_of_the_batch_stages_in_order():
    """grader.PIPELINE names each stage once, each is a method of the batch that grade runs, and the
    batch has no stage the list leaves out."""
    from maumau.grading import grader

    names = [stage.name for stage in grader.PIPELINE]
    assert names == ["exercises", "submissions", "plan", "keep", "run", "record", "similar", "report"]
    assert all(stage.does for stage in grader.PIPELINE)
    methods = {name for name, value in vars(grader._Batch).items() if callable(value) and not name.startswith("_")}
    assert methods == set(names)


def test_every_exercise_is_well_formed():
    exercises = load_exercises(EXERCISES)
    assert len(exercises) >= 14
    for ex in exercises:
        assert ex.max_score > 0
        assert any(c.role == SOLUTION for c in ex.cells), ex.name
        assert any(c.hidden for c in ex.tests), ex.name
        first = ex.notebook.cells[0]
        assert first.cell_type == "markdown" and f"pytest --nbval-lax student/{ex.name}.ipynb" in first.source
        for cell in ex.cells:
            if cell.key and cell.role != "free":
                assert cell.cell["id"] == cell.key
                meta = cell.cell.metadata["nbgrader"]
                assert meta["schema_version"] == 3 and meta["grade_id"] == cell.key
                assert meta["solution"] == (cell.role == SOLUTION)


# --- release ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def student_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    assert main(["release", str(EXERCISES), "--out", str(out)], out=io.StringIO()) == 0
    return out


def test_release_leaves_no_solution_or_hidden_test(student_dir):
    exercises = load_exercises(EXERCISES)
    assert sorted(p.stem for p in student_dir.glob("*.ipynb")) == [e.name for e in exercises]
    for ex in exercises:
        raw = (student_dir / f"{ex.name}.ipynb").read_text(encoding="utf-8")
        for marker in (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN):
            assert marker not in raw
        nb = nbformat.read(student_dir / f"{ex.name}.ipynb", 4)
        sources = "\n".join(c.source for c in nb.cells)
        assert leaks(ex, raw) == [] and leaks(ex, sources) == [], ex.name
        assert not [line for line in secret_lines(ex) if json.dumps(line)[1:-1] in raw and line not in sources]
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None
        sol = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
        assert sol and all("raise NotImplementedError()" in c.source for c in sol)


def test_release_refuses_broken_markers_and_writes_nothing(tmp_path):
    nb = nbformat.read(EXERCISES / "02_skip_on_eight.ipynb", 4)
    for cell in nb.cells:
        if cell.get("id") == "skip_on_eight_hidden":
            cell.source = cell.source.replace(END_HIDDEN, "")
    src = tmp_path / "src"
    src.mkdir()
    nbformat.write(nb, src / "02_skip_on_eight.ipynb")
    out = tmp_path / "out"
    err = io.StringIO()
    assert main(["release", str(src), "--out", str(out)], out=io.StringIO(), err=err) == 1
    assert "never closed" in err.getvalue()
    assert not out.exists()
    with pytest.raises(NotebookError, match="outside the instructor folder"):
        release(EXERCISES, EXERCISES / "student")


def test_read_notebook_rejects_what_is_not_a_notebook(tmp_path):
    bad = tmp_path / "bad.ipynb"
    for text, match in (("{oops", "not valid JSON"), ("[1, 2]", "not a notebook"),
                        ('{"cells": [{"cell_type": "weird"}]}', "unknown type"), ("\xff\xfe", "not valid JSON")):
        bad.write_bytes(text.encode("latin-1"))
        with pytest.raises(NotebookError, match=match):
            read_notebook(bad)
    with pytest.raises(NotebookError, match="limit"):
        read_notebook(EXERCISES / "01_matching.ipynb", max_bytes=100)


# --- putting a submission together by id -------------------------------------------------------------

def test_assemble_finds_cells_by_id_not_position(student_dir):
    ex = load_exercise(EXERCISES / "02_skip_on_eight.ipynb")
    nb = nbformat.read(student_dir / "02_skip_on_eight.ipynb", 4)
    by_id = {c.get("id"): c for c in nb.cells}
    by_id["skip_on_eight_solution"].source = "class SkipOnEight: pass  # mine"
    by_id["skip_on_eight_test2"].source = "pass  # edited"
    mine = nbformat.v4.new_code_cell("helper = 1")
    # learner order: reversed, a helper cell after the solution, test 1 deleted, test 2 duplicated
    cells = [c for c in reversed(nb.cells) if c.get("id") != "skip_on_eight_test1"]
    cells.insert(cells.index(by_id["skip_on_eight_solution"]) + 1, mine)
    cells.append(nbformat.v4.new_code_cell("dup", metadata=by_id["skip_on_eight_test2"].metadata))
    nb.cells = cells
    graded, notes = assemble(ex, nb)
    roles = [(c.role, c.key) for c in graded]
    assert roles == [("locked", "skip_on_eight_setup"), ("solution", "skip_on_eight_solution"), ("free", None),
                     (TEST, "skip_on_eight_test1"), (TEST, "skip_on_eight_test2"), (TEST, "skip_on_eight_hidden"),
                     ("locked", "skip_on_eight_summary")]  # the summary cell (issue 24), locked
    assert graded[1].source.endswith("# mine") and graded[2].source == "helper = 1"
    hidden = ex.by_key()["skip_on_eight_hidden"].source
    assert graded[5].source == hidden and BEGIN_HIDDEN in hidden
    assert graded[4].source == ex.by_key()["skip_on_eight_test2"].source
    text = " ".join(notes)
    assert "'skip_on_eight_test1' was missing" in text and "were undone" in text and "copy" in text


def test_missing_solution_cell_grades_the_stub():
    ex = load_exercise(EXERCISES / "02_skip_on_eight.ipynb")
    graded, notes = assemble(ex, nbformat.v4.new_notebook())
    sol = [c for c in graded if c.role == SOLUTION]
    assert "raise NotImplementedError()" in sol[0].source and BEGIN_SOLUTION not in sol[0].source
    assert any("is missing" in n for n in notes)


# --- readable checks ----------------------------------------------------------------------------------

@pytest.fixture
def as_graded():
    """The checks as the grader runs them: a failure raises (in the learner's notebook it shows its
    ✗ line and the cell goes on, tests/grading/test_checks.py)."""
    from maumau.grading import checks

    checks.record()
    yield
    checks._records = None

def test_checks_say_which_scenario_failed_and_what_was_expected(as_graded):
    import maumau as mm

    with pytest.raises(CheckFailed, match=r"^3 players: who moves next: expected 2, got 0$"):
        with scenario("3 players"):
            check("who moves next", 0, 2)
    s = mm.position("makao", hands=["7H 3C 5D", "7S 4D"], top="9H", stock="2C 3D")
    with pytest.raises(CheckFailed, match=r"missing \['play 3C'\]; should not be legal \['play 7H'\]"):
        check_moves("moves", s, [mm.Play("3C"), mm.Draw()])
    check_moves("moves", s, [mm.Draw(), mm.Play("7H")])


class _Stub:
    def affects(self, card):
        # YOUR CODE HERE
        raise NotImplementedError()

    def on_play(self, turn, card):
        return [][1]


def test_a_stub_or_an_error_in_the_learners_code_reads_as_one_line(as_graded):
    from maumau.core.moves import Move

    with pytest.raises(CheckFailed) as err:
        with scenario("3 players"):
            _Stub().affects(None)
    assert str(err.value) == ("3 players: _Stub.affects is not written yet: replace raise NotImplementedError() "
                              "with your code")
    assert err.value._render_traceback_() == [f"\x1b[31m\x1b[1m✗ Check failed:\x1b[0m {err.value}"]
    with pytest.raises(CheckFailed) as err:
        with scenario("3 players"):
            _Stub().on_play(None, None)
    assert str(err.value) == "3 players: your code raised IndexError: list index out of range"
    lines = err.value._render_traceback_()
    line = _Stub.on_play.__code__.co_firstlineno + 1
    assert lines[1:] == [f"  in _Stub.on_play, line {line}: return [][1]"]
    with pytest.raises(CheckFailed, match=r"^3 players: your code raised NotImplementedError$"):  # not a stub
        with scenario("3 players"):
            Move().to_dict()


def test_checks_speak_the_learners_language(as_graded):
    from maumau.text.i18n import use_language

    with use_language("de"), pytest.raises(CheckFailed, match=r"^x: wer: erwartet 2, erhalten 0$") as err:
        with scenario("x"):
            check("wer", 0, 2)
    with use_language("de"):
        assert "Prüfung fehlgeschlagen" in err.value._render_traceback_()[0]
        with pytest.raises(CheckFailed, match="_Stub.affects ist noch nicht geschrieben"):
            with scenario("x"):
                _Stub().affects(None)
    with use_language("hu"), pytest.raises(CheckFailed, match="_Stub.affects még nincs megírva"):
        with scenario("x"):
            _Stub().affects(None)
    with pytest.raises(CheckFailed, match=r"^x: who: expected 2, got 0$"):
        with scenario("x"):
            check("who", 0, 2)


# --- the sandbox policy (unit) ------------------------------------------------------------------------

def test_sandbox_guard_policy(tmp_path):
    scratch, secret = tmp_path / "scratch", tmp_path / "secret"
    scratch.mkdir()
    secret.mkdir()
    (scratch / "link").symlink_to(secret)
    guard = make_guard(str(scratch), [str(secret)])
    guard("open", (str(scratch / "notes.txt"), "w", 0))
    guard("open", ("/dev/null", "w", 0))
    guard("open", (os.__file__, "r", 0))
    denied = [
        ("open", (str(secret / "x.ipynb"), "r", 0)),
        ("open", (str(scratch / "link" / "x.ipynb"), "r", 0)),
        ("open", (str(tmp_path / "grades.csv"), "w", 0)),
        ("open", ("relative.txt", None, os.O_RDONLY)),
        ("open", (f"/proc/{os.getppid()}/cmdline", "r", 0)),
        ("os.listdir", (str(secret),)),
        ("os.rename", (str(scratch / "a"), str(tmp_path / "b"), None, None)),
        ("subprocess.Popen", ("cat", ["cat"], None, None)),
        ("os.kill", (os.getppid(), 9)),
        ("ctypes.dlopen", ("libc.so.6",)),
        ("socket.connect", (None, ("127.0.0.1", 80))),
        ("resource.setrlimit", (9, (1, 1))),
    ]
    for event, args in denied:
        with pytest.raises(PermissionError, match="grading sandbox"):
            guard(event, args)


# --- grading a batch ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def graded(tmp_path_factory, student_dir):
    root = tmp_path_factory.mktemp("grading")
    subs, out = root / "submissions", root / "out"
    # the escape_* learners switch the audit hook off: only test_escapes.py grades them, in bwrap
    shutil.copytree(SUBMISSIONS, subs, ignore=shutil.ignore_patterns("escape_*"))
    for path in subs.glob("*/*.ipynb"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("__OUT__", str(out)).replace("__SOURCE__", str(EXERCISES)), encoding="utf-8")
    for name in GRADED:
        (subs / "teacher").mkdir(exist_ok=True)
        (subs / "stub").mkdir(exist_ok=True)
        shutil.copy(EXERCISES / f"{name}.ipynb", subs / "teacher")
        shutil.copy(student_dir / f"{name}.ipynb", subs / "stub")
    tmp_existed = Path("/tmp/grades.csv").exists()
    log = io.StringIO()
    argv = ["grade", "--source", str(EXERCISES), str(subs), "--out", str(out), "-j", "2",
            "--cell-timeout", "8", "--timeout", "60"] + [a for n in GRADED for a in ("--exercise", n)]
    assert main(argv, out=log, err=log) == 0, log.getvalue()
    with open(out / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return {"rows": {(r["student"], r["exercise"]): r for r in rows}, "out": out, "log": log.getvalue(),
            "tmp_existed": tmp_existed}


def test_instructor_solutions_get_full_marks(graded):
    for name in GRADED:
        row = graded["rows"][("teacher", name)]
        most = "7" if name == "13_strategy" else "6"
        assert row["status"] == "ok" and row["score"] == row["max_score"] == most, row


def test_released_stubs_get_zero(graded):
    for name in GRADED:
        row = graded["rows"][("stub", name)]
        assert row["score"] == "0" and row["failed"] == "3", row
        assert "NotImplementedError" in row["message"]


def test_wrong_submissions_get_the_expected_scores_and_statuses(graded):
    rows = graded["rows"]
    got = {key: (int(float(rows[key]["score"])), rows[key]["status"]) for key in EXPECTED}
    assert got == EXPECTED
    assert set(rows) >= set(EXPECTED) | {("teacher", n) for n in GRADED} | {("stub", n) for n in GRADED}


def test_after_a_hidden_test_no_cell_and_no_way_of_failing_is_named(graded):
    from maumau.grading.gradebook import QUIET_PROBLEM

    row = graded["rows"][("leaks_by_cell", "02_skip_on_eight")]
    feedback = (graded["out"] / "feedback" / "leaks_by_cell.md").read_text(encoding="utf-8")
    assert QUIET_PROBLEM in row["message"] and QUIET_PROBLEM in feedback
    for text in (row["message"], feedback):
        assert "# leak" not in text and "your cell" not in text and "ValueError" not in text and "'4'" not in text


def test_a_kernel_death_names_the_cell_before_any_hidden_test(graded):
    rows = graded["rows"]
    assert "your cell 'import os, signal'" in rows[("kernel_kill", "02_skip_on_eight")]["message"]
    assert "ids must be unique" in rows[("duplicate_id", "02_skip_on_eight")]["message"]


def test_grade_files_cannot_be_written_by_learner_code(graded):
    out, rows = graded["out"], graded["rows"]
    text = (out / "grades.csv").read_text(encoding="utf-8")
    assert text.startswith("student,exercise,score,max_score,manual_pending,status,passed,failed,seconds,message,"
                           "submitted,late_days,penalty,final\n")
    assert ",100," not in text and rows[("writes_grades", "02_skip_on_eight")]["score"] == "6"
    assert not (out / "feedback" / "writes_grades.md").read_text(encoding="utf-8").startswith("student,")
    if not graded["tmp_existed"]:
        assert not Path("/tmp/grades.csv").exists()


def test_reports_show_results_but_never_hidden_test_source(graded):
    out = graded["out"]
    secrets = all_secrets()
    texts = [(out / "grades.csv").read_text(encoding="utf-8"), (out / "summary.md").read_text(encoding="utf-8"),
             graded["log"]] + [p.read_text(encoding="utf-8") for p in (out / "feedback").glob("*.md")]
    for text in texts:
        for line in secrets:
            assert line not in text, line
    feedback = (out / "feedback" / "edited_test.md").read_text(encoding="utf-8")
    assert "✗ test *With 2 players the player of the 8 moves again*: 0/2" in feedback
    assert "who moves next: expected 0, got 1" in feedback
    leaked = (out / "feedback" / "leaks_hidden.md").read_text(encoding="utf-8")
    assert "✗ hidden test *Hidden tests: other directions and an 8 on an 8*: 0/2" in leaked
    assert "hidden:" not in leaked and "hidden:" not in graded["rows"][("leaks_hidden", "02_skip_on_eight")]["message"]
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "| teacher | 6/6 | 6/6 | 6/6 | 7/7 | 25/25 |" in summary
    assert "4/6 (timeout)" in summary and "0/6 (invalid notebook)" in summary


def test_student_checks_their_stub_with_nbval_lax(student_dir, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-q", "-p", "no:cacheprovider",
         str(student_dir / "02_skip_on_eight.ipynb")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stdout[-2000:]
    assert "checks failed" in result.stdout and "1 failed, 5 passed" in result.stdout  # every cell ran: the summary
