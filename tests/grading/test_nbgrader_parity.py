"""nbgrader's notebooks grade in maumau as nbgrader grades them (issue 12, item 6).

The corpus is nbgrader's own: ``nbgrader/tests/apps/files`` of the pinned nbgrader wheel,
downloaded from PyPI at test time (tests/nbgrader/corpus.py; nothing of nbgrader is in this
repository).  Each graded case below sets up what one of nbgrader's tests sets up and
asserts the score that test asserts (``nbgrader/tests/apps/test_nbgrader_autograde.py``,
``test_nbgrader_validate.py``, named at each case).  Where maumau deliberately differs, the
test asserts maumau's behaviour and says why (DIFFERS).

One grading batch (about ten kernels) plus one with a 2 s cell limit.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import shutil
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from maumau.grading.exercise import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_SOLUTION,
    LOCKED,
    SOLUTION,
    STUB,
    TEST,
    TEXT_STUB,
    NotebookError,
    exercise_files,
    leaks,
    load_exercise,
    manual_pending,
    read_notebook,
    secret_lines,
    strip_region,
    student_version,
    submission_files,
)

_spec = importlib.util.spec_from_file_location("maumau_tests_nbgrader_corpus",
                                               Path(__file__).parents[1] / "nbgrader" / "corpus.py")
corpus_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus_module)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    try:
        return corpus_module.extract(tmp_path_factory.mktemp("nbgrader-corpus"))
    except corpus_module.Unavailable as err:
        pytest.skip(f"nbgrader's test notebooks are fetched from PyPI at test time and could not be: {err}")


def apps(corpus: Path, name: str) -> Path:
    return corpus / "apps" / name


# --- reading nbgrader's instructor notebooks (no kernel) -----------------------------------------------

def test_solution_cells_without_markers_are_stubbed_whole(corpus):
    """nbgrader's ClearSolutions: a solution cell without BEGIN/END SOLUTION is replaced by the
    stub as a whole (code: '# YOUR CODE HERE' / 'raise NotImplementedError()', markdown:
    'YOUR ANSWER HERE'); test_nbgrader_autograde.py uses submitted-unchanged.ipynb as its source."""
    ex = load_exercise(apps(corpus, "submitted-unchanged.ipynb"))
    roles = {c.key: (c.role, c.manual, c.points) for c in ex.cells if c.key}
    assert roles == {"set_a": (SOLUTION, False, 0), "foo": (TEST, False, 1), "bar": (TEST, False, 1),
                     "baz": (SOLUTION, True, 2), "quux": (SOLUTION, True, 3), "ro1": (LOCKED, False, 0),
                     "ro2": (LOCKED, False, 0)}
    # nbgrader: max_score 7 = 2 autograded + 5 manually graded (baz, quux)
    assert (ex.max_score, ex.auto_points, ex.manual_points) == (7, 2, 5)

    ex = load_exercise(apps(corpus, "test.ipynb"))
    released = {c.get("id"): c.source for c in student_version(ex).cells}
    assert released["sum_of_squares_application"] == "\n".join(STUB)          # a whole code cell
    assert released["sum_of_squares_equation"] == TEXT_STUB                     # a whole markdown cell
    assert released["squares"].count("raise NotImplementedError()") == 1       # a region
    assert (ex.max_score, ex.auto_points, ex.manual_points) == (6, 3, 3)
    assert "def pyramidal_number(n):" in secret_lines(ex)
    text = nbformat.writes(student_version(ex))
    assert leaks(ex, text) == [] and "pyramidal_number" not in text and "\\\\sum_" not in text


def test_task_cells_are_manually_graded(corpus):
    ex = load_exercise(corpus / "preprocessors" / "test_taskcell.ipynb")
    task = ex.by_key()["task1"]
    assert (task.role, task.manual, task.points) == (LOCKED, True, 2)
    assert manual_pending(ex, student_version(ex)) == {"task1": 2}  # a task always waits for a person
    released = nbformat.writes(student_version(ex))  # nbgrader's ClearMarkScheme: the mark scheme goes
    assert "MARK SCHEME" not in released and "1 mark for" not in released and leaks(ex, released) == []
    assert "Do your best!" in student_version(ex).cells[1].source


def test_manual_answers_left_as_released_score_zero_and_need_no_grader(corpus):
    """nbgrader's determine_grade: an unchanged manually graded answer scores 0 ('No
    response.', needs_manual_grade False); a changed one waits for a person."""
    ex = load_exercise(apps(corpus, "submitted-unchanged.ipynb"))
    assert manual_pending(ex, read_notebook(apps(corpus, "submitted-unchanged.ipynb"))) == {}
    assert manual_pending(ex, read_notebook(apps(corpus, "submitted-changed.ipynb"))) == {"baz": 2, "quux": 3}
    assert manual_pending(ex, nbformat.v4.new_notebook()) == {}  # deleted answers: no response


@pytest.mark.parametrize("name, cell", [("autotest-simple.ipynb", "test_simple"),
                                        ("autotest-hashed.ipynb", None),
                                        ("autotest-multi.ipynb", None),
                                        ("autotest-hidden.ipynb", "test_hidden")])
def test_autotest_directives_are_refused_by_name(corpus, name, cell):
    """DIFFERS: nbgrader expands '### AUTOTEST expr' from autotests.yml by running the
    instructor's notebook at release time; maumau does not, and refuses the notebook, naming
    the cell (before, the directives were comments and an untouched stub scored full marks)."""
    with pytest.raises(NotebookError, match="autotest directive") as err:
        load_exercise(apps(corpus, name))
    assert name in str(err.value) and "write the assertions out" in str(err.value)
    if cell:
        assert repr(cell) in str(err.value)


def test_too_new_metadata_is_refused(corpus):
    """nbgrader refuses metadata of a newer schema (test_nbgrader_update.py, too-new.ipynb)."""
    with pytest.raises(NotebookError, match="schema 10"):
        load_exercise(apps(corpus, "too-new.ipynb"))


def test_a_notebook_without_graded_cells_is_refused(corpus):
    """DIFFERS: nbgrader grades a notebook with no graded cell as 0 of 0 (side-effects.ipynb);
    maumau refuses it as an exercise: an instructor notebook that lost its metadata would
    otherwise give everyone 0/0 without a word."""
    with pytest.raises(NotebookError, match="no graded cell"):
        load_exercise(apps(corpus, "side-effects.ipynb"))


# --- data files ---------------------------------------------------------------------------------------

def test_data_files_beside_the_notebook(corpus, tmp_path):
    """nbgrader copies the files of the assignment's source folder into the autograded folder,
    over the learner's copies (test_grade_overwrite_files: data.csv is the instructor's; the
    learner's other files stay).  maumau's Exercise.files: the regular files beside the
    notebook, without hidden/private names, notebooks, links or subfolders."""
    src, sub = tmp_path / "source", tmp_path / "submitted" / "foo"
    src.mkdir()
    sub.mkdir(parents=True)
    shutil.copy(apps(corpus, "submitted-unchanged.ipynb"), src / "p1.ipynb")
    shutil.copy(apps(corpus, "test.ipynb"), src / "p2.ipynb")  # another exercise: never copied
    (src / "data.csv").write_text("some,data\n")
    (src / "helper.py").write_text("print('hello!')\n")
    (src / ".secret").write_text("x")
    (src / "_hidden_tests.py").write_text("assert a == 1\n")
    (src / "sub").mkdir()
    (src / "sub" / "deep.csv").write_text("1\n")
    (src / "link.csv").symlink_to(src / "data.csv")
    ex = load_exercise(src / "p1.ipynb")
    assert ex.files == {"data.csv": src / "data.csv", "helper.py": src / "helper.py"}

    shutil.copy(apps(corpus, "submitted-unchanged.ipynb"), sub / "p1.ipynb")
    (sub / "timestamp.txt").write_text("2015-02-02 15:58:23.948203 America/Los_Angeles")
    (sub / "data.csv").write_text("some,other,data\n")
    (sub / "mine.py").write_text("x = 1\n")
    (sub / "sneaky").symlink_to("/etc/passwd")
    files = submission_files(ex, sub / "p1.ipynb")
    # the learner's mine.py stays out: a learner's module could stand in for one the kernel imports
    assert files == {"data.csv": src / "data.csv", "helper.py": src / "helper.py",
                     "timestamp.txt": sub / "timestamp.txt"}

    # a file beside the notebook that holds a solution line is refused, not copied
    (src / "p2_solutions.py").write_text("def pyramidal_number(n):\n    return 0\n")
    with pytest.raises(NotebookError, match="p2_solutions.py .*solution or hidden tests"):
        load_exercise(src / "p2.ipynb")
    # an explicit list (notebook metadata maumau.files) is taken as it is, subfolders allowed
    nb = read_notebook(src / "p2.ipynb")
    nb.metadata["maumau"] = {"files": ["sub/deep.csv", "data.csv"]}
    nbformat.write(nb, src / "p2.ipynb")
    ex2 = load_exercise(src / "p2.ipynb")
    assert ex2.files == {"sub/deep.csv": src / "sub" / "deep.csv", "data.csv": src / "data.csv"}
    assert exercise_files(ex2) == ex2.files
    for bad in (["../x"], ["p1.ipynb"], [".secret"], ["link.csv"], ["nope.txt"], "data.csv"):
        nb.metadata["maumau"] = {"files": bad}
        nbformat.write(nb, src / "p2.ipynb")
        with pytest.raises(NotebookError, match="maumau.files"):
            load_exercise(src / "p2.ipynb")


# --- grading nbgrader's notebooks (kernels) -----------------------------------------------------------

def _released_with_comment_stub(path: Path) -> nbformat.NotebookNode:
    """What nbgrader's generate_assignment releases with c.ClearSolutions.code_stub =
    '# YOUR CODE HERE' (test_hidden_tests_single_notebook): solution regions become that one
    comment line, hidden tests are removed."""
    nb = read_notebook(path)
    for cell in nb.cells:
        cell.source = strip_region(cell.source, BEGIN_SOLUTION, END_SOLUTION, ("# YOUR CODE HERE",))
        cell.source = strip_region(cell.source, BEGIN_HIDDEN, "### END HIDDEN TESTS", ())
    return nb


@pytest.fixture(scope="module")
def graded(corpus, tmp_path_factory):
    from maumau.grading.grader import grade
    from maumau.sandbox.limits import Limits

    root = tmp_path_factory.mktemp("parity")
    src, subs, out = root / "source", root / "submitted", root / "out"
    src.mkdir()
    for target, name in (("p1", "submitted-unchanged.ipynb"), ("hidden", "test-hidden-tests.ipynb"),
                         ("open_relative_file", "open_relative_file.ipynb"), ("timeout", "timeout.ipynb"),
                         ("envvar", "validating-environment-variable.ipynb"), ("squares", "test.ipynb")):
        shutil.copy(apps(corpus, name), src / f"{target}.ipynb")
    shutil.copy(apps(corpus, "data.txt"), src / "data.txt")
    hand_in = {
        "foo": {"p1": "submitted-unchanged.ipynb", "open_relative_file": "open_relative_file.ipynb",
                "timeout": "timeout.ipynb", "envvar": "validating-environment-variable.ipynb"},
        "bar": {"p1": "submitted-changed.ipynb"},
        "spam": {"p1": "submitted-cheat-attempt.ipynb"},
        "eggs": {"p1": "submitted-cheat-attempt-alternative.ipynb"},
        "teacher": {"squares": "test.ipynb"},
    }
    for student, notebooks in hand_in.items():
        (subs / student).mkdir(parents=True)
        for exercise, name in notebooks.items():
            shutil.copy(apps(corpus, name), subs / student / f"{exercise}.ipynb")
    nbformat.write(_released_with_comment_stub(apps(corpus, "test-hidden-tests.ipynb")), subs / "foo" / "hidden.ipynb")
    rows = grade(src, [subs], out=out, jobs=4)
    with open(out / "grades.csv", newline="", encoding="utf-8") as f:
        table = {(r["student"], r["exercise"]): r for r in csv.DictReader(f)}
    # nbgrader's test_autograde_timeout: --Execute.timeout=2 gives 0 (a cell sleeps 5 s); maumau's
    # timeouts are CPU time, and only a wall-clock limit stops a sleeping cell: 2 s of it here
    short = grade(src, [subs / "foo"], out=root / "out-short", only=["timeout"],
                  limits=Limits(cell_timeout=2, wall_factor=1))
    return {"rows": {(r.student, r.exercise): r for r in rows}, "csv": table, "out": out,
            "short": {(r.student, r.exercise): r for r in short}}


def _score(graded, student, exercise):
    row = graded["rows"][(student, exercise)]
    return row.score, row.max_score


def test_autograde_scores_match_nbgrader(graded):
    """test_grade / test_showtraceback_exploit: foo (unchanged) 1 of 7, bar (changed) 2 of 7,
    the two showtraceback cheats 1 of 7 each."""
    got = {s: _score(graded, s, "p1") for s in ("foo", "bar", "spam", "eggs")}
    assert got == {"foo": (1, 7), "bar": (2, 7), "spam": (1, 7), "eggs": (1, 7)}, \
        {s: graded["rows"][(s, "p1")].message for s in got}


def test_hidden_tests_are_put_back(graded):
    """test_hidden_tests_single_notebook: the release (stub '# YOUR CODE HERE') passes the
    visible tests and scores 1.5 (of 3) once the hidden tests are back."""
    assert _score(graded, "foo", "hidden") == (1.5, 3)


def test_missing_notebook_scores_zero(graded):
    """test_grade_missing_notebook: a notebook not handed in scores 0 and needs no grader."""
    row = graded["rows"][("bar", "hidden")]
    assert (row.score, row.status) == (0, "missing")


def test_timeouts(graded):
    """test_autograde_timeout: with nbgrader's default (30 s) the 5 s cell passes, with 2 s it
    fails.  DIFFERS in the measure: maumau's cell limit (default 10 s) is CPU time, and a cell that
    sleeps is stopped only by the wall-clock limit, ``wall_factor`` (default 6) times the CPU limit:
    with a wall-clock limit of 2 s the sleeping cell fails as in nbgrader."""
    assert _score(graded, "foo", "timeout") == (1, 1)
    row = graded["short"][("foo", "timeout")]
    assert (row.score, row.status) == (0, "timeout")


def test_nbgrader_execution_variable(graded):
    """DIFFERS: nbgrader sets NBGRADER_EXECUTION=autograde in the kernel, so this notebook's
    test fails there (score 0, test_grade_with_validating_envvar); maumau sets no such
    variable, and a test cell runs as in the learner's own kernel: 1 of 1."""
    assert _score(graded, "foo", "envvar") == (1, 1)


def test_instructor_solutions_with_manual_parts(graded):
    """test.ipynb graded against itself: the 3 autograded points, 3 manual points waiting."""
    assert _score(graded, "teacher", "squares") == (3, 6)


def test_a_data_file_beside_the_notebook_is_readable(graded):
    """test_validate_subdir: open('data.txt') in a test cell works (10 of 10)."""
    assert _score(graded, "foo", "open_relative_file") == (10, 10), \
        graded["rows"][("foo", "open_relative_file")].message


def test_manual_grading_is_reported(graded):
    """nbgrader: needs_manual_grade is True for bar (changed answers), False for foo."""
    rows, table = graded["rows"], graded["csv"]
    assert rows[("bar", "p1")].status == "needs manual grading"
    assert table[("bar", "p1")]["manual_pending"] == "5" and table[("foo", "p1")]["manual_pending"] == "0"
    assert table[("teacher", "squares")]["manual_pending"] == "3"
    summary = (graded["out"] / "summary.md").read_text(encoding="utf-8")
    assert "needs manual grading" in summary


def test_reports_hide_the_instructors_answers(graded):
    out = graded["out"]
    texts = [p.read_text(encoding="utf-8") for p in (out / "feedback").glob("*.md")]
    texts.append((out / "grades.csv").read_text(encoding="utf-8"))
    for text in texts:
        assert "pyramidal_number" not in text and "squares(11) ==" not in text
    assert json.dumps(sorted(graded["csv"]))  # every row is in grades.csv
