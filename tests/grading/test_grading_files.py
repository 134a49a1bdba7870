"""Submission files cannot hurt the grader, and reports cannot be corrupted (maumau.grading).

One batch, through the command line (``maumau grade``, in a subprocess with a time limit, so a
grader that blocks fails the test instead of hanging it), grades exercise 02 for learners who
each try one thing: a notebook that is a symbolic link to the instructor's, a learner folder
that is a link to ``--source``, a named pipe, a link to /dev/zero, a 21 MB file, folders named
🙂 and 🙃, ``_alice`` and ``.bob``, ``=2+3``, a name that is not UTF-8, an error message full
of HTML and Markdown, a notebook with a duplicated cell id, an nbformat 3 notebook, modules
beside a notebook (``ipykernel.py``).  Only six of them run in a kernel.  Two more grade()
calls run no kernel at all: grading jobs that raise, and a grades.csv that something rewrites
while the reports are written.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from maumau.cli import main  # noqa: E402
from maumau.grading.exercise import BEGIN_SOLUTION, END_SOLUTION, NotebookError, read_notebook, read_regular_file
from maumau.grading.grader import grade  # noqa: E402
from maumau.grading.releaser import release  # noqa: E402
from maumau.grading.report import md_text  # noqa: E402
from maumau.grading.run import Sandbox  # noqa: E402
from maumau.grading.submissions import find_submissions, read_submission  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
EX = "02_skip_on_eight"
SOLUTION_ID = "skip_on_eight_solution"
#: What 🙂's code raises: every test fails with this message.
ATTACK = ('<script>alert(1)</script> <img src=x onerror=alert(2)> [click](https://evil.example/a) '
          '![pic](https://evil.example/p.png) <https://evil.example> *bold* `code` ``` | x |')
BAD_BYTES = b"\xff\xfename"
HTML_NAME = "<img src=x onerror=alert(3)>"
#: Markup that is not escaped by a backslash: an HTML tag, a link or an image.
LIVE = re.compile(r"(?<!\\)<[a-z/]|(?<!\\)\]\(")


def answer(source: str) -> str:
    """A solution cell as a learner who wrote the instructor's answer hands it in."""
    return "\n".join(line for line in source.split("\n") if line.strip() not in (BEGIN_SOLUTION, END_SOLUTION))


def learner_notebook(student_dir: Path, solution: str | None = None) -> nbformat.NotebookNode:
    """The released notebook of exercise 02, its solution cell replaced by ``solution``
    (the instructor's answer when None)."""
    nb = nbformat.read(student_dir / f"{EX}.ipynb", 4)
    teacher = {c.get("id"): c for c in nbformat.read(EXERCISES / f"{EX}.ipynb", 4).cells}
    for cell in nb.cells:
        if cell.get("id") == SOLUTION_ID:
            cell.source = answer(teacher[SOLUTION_ID].source) if solution is None else solution
    return nb


def put(folder: Path, nb: nbformat.NotebookNode | str | bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{EX}.ipynb"
    if isinstance(nb, bytes):
        path.write_bytes(nb)
    elif isinstance(nb, str):
        path.write_text(nb, encoding="utf-8")
    else:
        nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def student_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("released")
    release(EXERCISES, out)
    return out


def build_layout(subs: Path, student_dir: Path) -> None:
    """One folder per attack (see the module docstring)."""
    (subs / "teacher_link").mkdir(parents=True)
    (subs / "teacher_link" / f"{EX}.ipynb").symlink_to(EXERCISES / f"{EX}.ipynb")
    (subs / "source_link").symlink_to(EXERCISES, target_is_directory=True)
    (subs / "fifo").mkdir()
    os.mkfifo(subs / "fifo" / f"{EX}.ipynb")
    (subs / "zero").mkdir()
    (subs / "zero" / f"{EX}.ipynb").symlink_to("/dev/zero")
    (subs / "huge").mkdir()
    with open(subs / "huge" / f"{EX}.ipynb", "wb") as f:  # sparse: 21 MB that take no disk
        f.truncate(21 * 1024 * 1024)
    (subs / "folder_notebook" / f"{EX}.ipynb").mkdir(parents=True)
    smiley = learner_notebook(student_dir, SOLUTION_HEAD + f"        raise ValueError({ATTACK!r})\n")
    extra = nbformat.v4.new_code_cell(f"raise ValueError({ATTACK!r})")  # the learner's own cell: status error
    smiley.cells.insert([c.get("id") for c in smiley.cells].index(SOLUTION_ID) + 1, extra)
    put(subs / "🙂", smiley)
    dup = learner_notebook(student_dir)
    copy = next(c for c in dup.cells if c.get("id") == SOLUTION_ID)
    dup.cells.append(nbformat.from_dict(json.loads(json.dumps(copy))))  # the same id twice
    put(subs / "🙃", json.dumps(dup))
    v3 = nbformat.convert(learner_notebook(student_dir), 3)
    put(subs / "_alice", nbformat.writes(v3, version=3))
    put(subs / ".bob", (student_dir / f"{EX}.ipynb").read_bytes())  # the released stub
    put(subs / "=2+3", "{not json")
    put(subs / HTML_NAME, "{not json")
    put(subs / os.fsdecode(BAD_BYTES), "{not json")
    (subs / "carol").mkdir()  # hands in nothing
    put(subs / "shadow", learner_notebook(student_dir))  # modules beside the notebook that would replace
    for module in ("ipykernel.py", "maumau.py", "zmq.py", "evil.pth"):  # the kernel's and the grader's own
        (subs / "shadow" / module).write_text("raise SystemExit('shadowed')\n")
    for junk in (".ipynb_checkpoints", "__pycache__", ".git"):
        put(subs / junk, learner_notebook(student_dir))


SOLUTION_HEAD = '''class SkipOnEight(mm.Rule):
    name = "skip_on_eight"
    rule_id = "MK-5"

    def affects(self, card):
        return card.rank is Rank.EIGHT

    def on_play(self, turn, card):
'''


@pytest.fixture(scope="module")
def batch(tmp_path_factory, student_dir):
    root = tmp_path_factory.mktemp("files")
    subs, out = root / "submissions", root / "grades"
    build_layout(subs, student_dir)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    argv = [sys.executable, "-c", "import sys; from maumau.cli import main; sys.exit(main(sys.argv[1:]))",
            "grade", "--source", str(EXERCISES), str(subs), "--out", str(out), "--exercise", EX, "-j", "2",
            "--cell-timeout", "10", "--timeout", "60"]
    # a grader that blocks on the named pipe fails here instead of hanging the test run
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env, cwd=root)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    with open(out / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return {"rows": rows, "by": {(r["student"], r["exercise"]): r for r in rows}, "out": out,
            "stdout": done.stdout, "subs": subs}


def row(batch, student: str, exercise: str = EX) -> dict:
    return batch["by"][(student, exercise)]


def feedback(batch, student: str) -> str:
    """The feedback file that starts with ``student``'s name."""
    found = [p.read_text(encoding="utf-8") for p in (batch["out"] / "feedback").glob("*.md")]
    found = [t for t in found if t.split("\n", 1)[0] == f"# Feedback for {md_text(student)}"]
    assert len(found) == 1, student
    return found[0]


def outside_code(text: str) -> str:
    """``text`` without its fenced code blocks."""
    kept, fence = [], ""
    for line in text.split("\n"):
        if fence:
            fence = "" if line == fence else fence
        elif line.startswith("```"):
            fence = line
        else:
            kept.append(line)
    return "\n".join(kept)


# --- submission files cannot hurt the grader ----------------------------------------------------------

def test_a_notebook_that_links_to_the_instructors_scores_nothing(batch):
    r = row(batch, "teacher_link")
    assert (r["status"], r["score"]) == ("invalid notebook", "0"), r
    assert r["message"] == f"{EX}.ipynb is a symbolic link: it was not read"


def test_a_learner_folder_that_links_to_the_source_is_not_followed(batch):
    r = row(batch, "source_link", "")
    assert r["status"] == "invalid notebook" and r["score"] == "0", r
    assert r["message"] == "the folder source_link is a symbolic link: it was not followed"
    assert row(batch, "source_link")["status"] == "missing"  # and 0 for the exercise
    assert {x["exercise"] for x in batch["rows"] if x["student"] == "source_link"} == {"", EX}
    assert "invalid notebook" in feedback(batch, "source_link")


def test_a_named_pipe_is_a_row_and_the_batch_finishes(batch):
    r = row(batch, "fifo")
    assert (r["status"], r["score"]) == ("invalid notebook", "0")
    assert r["message"] == f"{EX}.ipynb is not a regular file (a named pipe): it was not read"
    assert "not a regular file (a folder)" in row(batch, "folder_notebook")["message"]


def test_a_link_to_dev_zero_is_a_row(batch):
    r = row(batch, "zero")
    assert (r["status"], r["score"], r["message"]) == (
        "invalid notebook", "0", f"{EX}.ipynb is a symbolic link: it was not read")


def test_a_file_over_20_mb_is_a_row(batch):
    r = row(batch, "huge")
    assert (r["status"], r["score"]) == ("invalid notebook", "0")
    assert r["message"] == f"{EX}.ipynb is larger than 20 MB, the limit: it was not read"


def test_the_files_are_read_without_blocking_and_capped(tmp_path):
    (tmp_path / "zero.ipynb").symlink_to("/dev/zero")
    with pytest.raises(NotebookError, match=r"not a regular file \(a device\)"):  # the teacher's links: followed
        read_notebook(tmp_path / "zero.ipynb")
    with pytest.raises(NotebookError, match="is a symbolic link"):
        read_notebook(tmp_path / "zero.ipynb", follow_links=False)
    # a /proc file says it is empty: what is read is still capped at the limit + 1 byte
    with pytest.raises(NotebookError, match="larger than 10 bytes"):
        read_regular_file("/proc/self/maps", 10)
    assert read_regular_file(EXERCISES / f"{EX}.ipynb", 10**7) == (EXERCISES / f"{EX}.ipynb").read_bytes()


def test_a_folder_swapped_for_a_link_after_listing_is_not_followed(tmp_path, student_dir):
    subs = tmp_path / "subs"
    put(subs / "mallory", learner_notebook(student_dir))
    [sub] = find_submissions([subs])
    shutil.rmtree(subs / "mallory")
    (subs / "mallory").symlink_to(EXERCISES, target_is_directory=True)
    with pytest.raises(NotebookError, match="the folder mallory is a symbolic link: it was not followed"):
        read_submission(sub)


# --- every learner gets rows, and their own feedback --------------------------------------------------

def test_a_learners_modules_beside_the_notebook_do_not_reach_the_kernel(batch):
    """ipykernel.py, maumau.py, zmq.py and a .pth in the learner's folder would stand in for the
    kernel's and the grader's modules if they were copied into the working folder."""
    assert (row(batch, "shadow")["score"], row(batch, "shadow")["status"]) == ("6", "ok")


def test_two_emoji_learners_get_two_rows_and_two_feedback_files(batch):
    assert row(batch, "🙂")["score"] == "0" and row(batch, "🙃")["score"] == "6"
    files = sorted(p.name for p in (batch["out"] / "feedback").glob("_-*.md"))
    assert len(files) == 2, files
    texts = {p.read_text(encoding="utf-8").split("\n", 1)[0] for p in (batch["out"] / "feedback").glob("_-*.md")}
    assert texts == {"# Feedback for 🙂", "# Feedback for 🙃"}
    summary = (batch["out"] / "summary.md").read_text(encoding="utf-8")
    assert "## Feedback files" in summary and "| 🙂 | feedback/" in summary


def test_dot_and_underscore_learners_get_rows_but_junk_folders_do_not(batch):
    assert row(batch, "_alice")["status"] == "ok" and row(batch, ".bob")["score"] == "0"
    assert (batch["out"] / "feedback" / "_alice.md").exists()
    students = {r["student"] for r in batch["rows"]}
    assert not students & {".ipynb_checkpoints", "__pycache__", ".git"}
    assert row(batch, "carol")["status"] == "missing"  # an empty folder: the learner is not dropped
    assert row(batch, "\\xff\\xfename")["status"] == "invalid notebook"  # not UTF-8: escaped, not a crash


def test_an_nbformat_3_notebook_is_converted_and_graded(batch):
    r = row(batch, "_alice")
    assert (r["status"], r["score"], r["max_score"]) == ("ok", "6", "6"), r


def test_a_duplicated_cell_id_is_reported(batch):
    text = feedback(batch, "🙃")
    assert f"Note: the cell id '{SOLUTION_ID}' is used by 2 cells of your notebook" in text.replace("\\_", "_")


# --- reports that cannot be corrupted -----------------------------------------------------------------

def test_a_formula_as_a_name_is_text_in_grades_csv(batch):
    r = row(batch, "'=2+3")
    assert r["status"] == "invalid notebook"
    for x in batch["rows"]:
        float(x["score"]), float(x["max_score"]), int(x["passed"]), float(x["seconds"])  # numbers stay numbers
        for key in ("student", "exercise", "status", "message"):
            assert not x[key].startswith(("=", "+", "-", "@", "\t", "\r")), x


def test_learner_html_and_markdown_stay_text(batch):
    smiley = feedback(batch, "🙂")
    summary = (batch["out"] / "summary.md").read_text(encoding="utf-8")
    assert row(batch, "🙂")["status"] == "error" and "<script>" in row(batch, "🙂")["message"]
    assert "\\<script\\>" in outside_code(smiley) and "\\<script\\>" in summary
    assert "\n````\n" in smiley  # the failure message's fence: longer than the ``` in the message
    assert md_text(HTML_NAME) in summary and md_text(HTML_NAME) in feedback(batch, HTML_NAME)
    for text in (smiley, summary, feedback(batch, HTML_NAME)):
        assert not LIVE.search(outside_code(text)), text
        for html in rendered(text):
            assert "<script" not in html and "<img" not in html and "<a " not in html, html
            assert "&lt;script&gt;" in html or text != smiley


def rendered(text: str) -> list[str]:
    """``text`` as HTML, by the Markdown renderers at hand (raw HTML allowed, bare URLs linked)."""
    found = []
    markdown_it = pytest.importorskip("markdown_it")
    found.append(markdown_it.MarkdownIt("commonmark", {"html": True}).render(text))
    try:
        import mistune
    except ImportError:
        return found
    found.append(mistune.create_markdown(escape=False, plugins=["url", "strikethrough", "table"])(text))
    return found


def test_grades_csv_is_written_atomically_with_its_digest(batch):
    out = batch["out"]
    data = (out / "grades.csv").read_bytes()
    assert (out / "grades.csv.sha256").read_text() == f"{hashlib.sha256(data).hexdigest()}  grades.csv\n"
    assert not [p for p in out.rglob("*") if p.name.startswith(".tmp-")]


def test_grades_csv_is_written_even_when_grading_jobs_raise(tmp_path, student_dir, monkeypatch):
    async def broken(self, *args, **kwargs):
        raise RuntimeError("the grader broke")

    monkeypatch.setattr(Sandbox, "run", broken)
    subs, out = tmp_path / "subs", tmp_path / "out"
    put(subs / "alice", learner_notebook(student_dir))
    out.mkdir()
    (out / "grades.csv").write_text("old grades\n")
    os.link(out / "grades.csv", tmp_path / "old.csv")  # the old file itself is never rewritten
    rows = grade(EXERCISES, [subs], out=out, only=[EX])
    assert [(r.student, r.status) for r in rows] == [("alice", "grader error")]
    assert "the grader broke" in rows[0].message
    assert (tmp_path / "old.csv").read_text() == "old grades\n"
    text = (out / "grades.csv").read_text(encoding="utf-8")
    assert text.startswith("student,exercise,") and "alice,02_skip_on_eight,0,6,0,grader error" in text
    assert not [p for p in out.iterdir() if p.name.startswith(".tmp-")]


def test_a_grades_csv_rewritten_behind_the_graders_back_does_not_stand(tmp_path, student_dir, monkeypatch):
    import maumau.grading.report as report

    async def broken(self, *args, **kwargs):
        raise RuntimeError("no kernel needed")

    def rival(student, rows, *more):  # runs after grades.csv is written, as a process racing the grader would
        (tmp_path / "out" / "grades.csv").write_text("student,exercise,score\nalice,02_skip_on_eight,100\n")
        return real(student, rows, *more)

    real = report.feedback_markdown
    monkeypatch.setattr(Sandbox, "run", broken)
    monkeypatch.setattr(report, "feedback_markdown", rival)
    put(tmp_path / "subs" / "alice", learner_notebook(student_dir))
    err = io.StringIO()
    argv = ["grade", "--source", str(EXERCISES), str(tmp_path / "subs"), "--out", str(tmp_path / "out"),
            "--exercise", EX]
    assert main(argv, out=io.StringIO(), err=err) == 1
    assert "grades.csv was changed after the grader wrote it" in err.getvalue()


def test_find_submissions_is_still_reachable_from_grade():
    import importlib

    from maumau.grading import submissions

    g = importlib.import_module("maumau.grading.grader")  # the module of the function grade

    assert g.find_submissions is submissions.find_submissions and g.Submission is submissions.Submission
