"""Running a course (issue 26): deadlines and late policy, the gradebook that remembers and grades
only what changed, and the grades exported in Canvas's and Moodle's import formats."""

from __future__ import annotations

import csv
import io
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import nbformat
import pytest

from maumau.cli import main
from maumau.grading.deadlines import (
    DeadlineError,
    Deadlines,
    LatePolicy,
    parse_due_options,
    parse_time,
    read_extensions,
)
from maumau.grading.export import CANVAS_COLUMNS, MOODLE_COLUMNS, ExportError, export, read_grades, read_roster
from maumau.grading.gradebook import Gradebook, GradebookError, Row
from maumau.grading.report import lateness_sentence

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
SUBMISSIONS = Path(__file__).resolve().parents[1] / "submissions"
EX = "01_matching"
CET = timezone(timedelta(hours=1))


# --- deadlines --------------------------------------------------------------------------------------------

def test_a_due_time_needs_its_zone_and_reads_offsets_and_zone_names():
    assert parse_time("2026-12-10T23:59+01:00") == datetime(2026, 12, 10, 23, 59, tzinfo=CET)
    assert parse_time("2026-12-10T22:59Z") == datetime(2026, 12, 10, 23, 59, tzinfo=CET)
    # a zone name follows summer time: 23:59 in Berlin is +02:00 in July, +01:00 in December
    assert parse_time("2026-07-10T23:59[Europe/Berlin]").utcoffset() == timedelta(hours=2)
    assert parse_time("2026-12-10T23:59[Europe/Berlin]").utcoffset() == timedelta(hours=1)
    # nbgrader's timestamp.txt
    stamp = parse_time("2015-02-02 15:58:23.948203 America/Los_Angeles")
    assert stamp.utcoffset() == timedelta(hours=-8) and stamp.microsecond == 948203
    with pytest.raises(DeadlineError, match="no time zone: add one"):
        parse_time("2026-12-10T23:59")
    with pytest.raises(DeadlineError, match="no time zone"):
        parse_time("2026-12-10 23:59 Mars/Olympus")
    with pytest.raises(DeadlineError, match="not a date and time"):
        parse_time("next friday")


def test_late_policy_costs_a_share_per_started_day_and_nothing_after_the_cutoff():
    policy = LatePolicy.parse("10%/day, 0 after 7 days")
    assert [policy.penalty(d) for d in (0, 1, 2, 7, 8)] == [0, 0.1, 0.2, 0.7, 1.0]
    assert LatePolicy.parse("25% per day").penalty(5) == 1.0   # never more than everything
    assert LatePolicy.parse("0 after 0 days").penalty(1) == 1.0
    assert LatePolicy.parse("none").penalty(30) == 0.0
    for bad in ("ten percent", "150%/day", "10%/week"):
        with pytest.raises(DeadlineError, match="late policy"):
            LatePolicy.parse(bad)


def test_lateness_counts_started_days_and_extensions_move_one_learners_due_time(tmp_path):
    due = parse_due_options([f"{EX}=2026-12-10T23:59+01:00"], [EX, "02_skip_on_eight"])
    ext = tmp_path / "extensions.csv"
    ext.write_text("student,exercise,days\ncarol,01_matching,3\ndan,*,1\n")
    book = Deadlines(due, LatePolicy.parse("10%/day, 0 after 7 days"), read_extensions(ext, [EX, "02_skip_on_eight"]))
    at = datetime(2026, 12, 10, 23, 59, tzinfo=CET)
    assert book.lateness("alice", EX, at).late_days == 0
    one_minute = book.lateness("alice", EX, at + timedelta(minutes=1))
    assert (one_minute.late_days, one_minute.penalty) == (1, 0.1)
    assert book.lateness("alice", EX, at + timedelta(days=2, hours=1)).late_days == 3
    carol = book.lateness("carol", EX, at + timedelta(days=2))
    assert (carol.late_days, carol.extended) == (0, True)
    assert book.lateness("dan", EX, at + timedelta(hours=30)).late_days == 1
    assert book.lateness("alice", "02_skip_on_eight", at + timedelta(days=99)).late_days == 0  # no due time
    assert book.lateness("alice", EX, None).late_days == 0  # time not known
    with pytest.raises(DeadlineError, match="no exercise 'nope'"):
        parse_due_options(["nope=2026-12-10T23:59+01:00"], [EX])
    ext.write_text("student,exercise,days\ncarol,nope,3\n")
    with pytest.raises(DeadlineError, match="line 2: there is no exercise 'nope'"):
        read_extensions(ext, [EX])
    ext.write_text("student,exercise,days\ncarol,01_matching,many\n")
    with pytest.raises(DeadlineError, match="days must be a number"):
        read_extensions(ext, [EX])


def test_the_feedback_says_the_lateness_in_the_learners_language():
    row = Row("bob", EX, score=6, max_score=6, submitted="2026-12-12T10:00:00+01:00", late_days=2, penalty=0.2)
    assert lateness_sentence(row, "en") == ("Handed in 2026-12-12 10:00 +01:00, 2 days late: 20% of the points "
                                            "are taken off, 4.8 of 6 count.")
    assert "2 Tage zu spät: 20 % der Punkte" in lateness_sentence(row, "de") and "4,8 von 6" in lateness_sentence(
        row, "de")
    assert "2 nap késéssel" in lateness_sentence(row, "hu") and "6 pontból 4,8" in lateness_sentence(row, "hu")
    on_time = Row("al", EX, submitted="2026-12-10T09:00:00+01:00", extended=True)
    assert lateness_sentence(on_time) == "Handed in 2026-12-10 09:00 +01:00, on time (with your extension)."
    assert lateness_sentence(Row("x", EX)) == ""


# --- export -----------------------------------------------------------------------------------------------

ROSTER = """learner,name,id,sis_user_id,sis_login_id,email,section
alice,"Liddell, Alice",1001,S-17,alice@school.example,alice@school.example,A
bob,Bob Builder,1002,S-18,bob@school.example,bob@school.example,B
=evil,"=HYPERLINK(""http://x"")",1003,S-19,e@school.example,e@school.example,A
zoe,Zoe Absent,1004,S-20,zoe@school.example,zoe@school.example,B
"""


def _roster(tmp_path: Path) -> Path:
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    return path


def test_canvas_and_moodle_files_have_their_documented_headers_and_keys(tmp_path):
    roster = read_roster(_roster(tmp_path))
    scores = {"alice": {EX: 6.0, "02_skip_on_eight": 4.8}, "bob": {EX: 2.0}, "=evil": {EX: 0.0},
              "mallory": {EX: 6.0}}
    points = {EX: 6.0, "02_skip_on_eight": 6.0}
    canvas = export("canvas", scores, points, roster, {EX: "Matching (4711)"})
    table = list(csv.reader(io.StringIO(canvas.text)))
    assert tuple(table[0][:5]) == CANVAS_COLUMNS and table[0][5:] == ["Matching (4711)", "02_skip_on_eight"]
    assert table[1] == ["Points Possible", "", "", "", "", "6", "6"]
    alice = next(r for r in table if r[1] == "1001")
    assert alice == ["Liddell, Alice", "1001", "S-17", "alice@school.example", "A", "6", "4.8"]
    evil = next(r for r in table if r[1] == "1003")
    assert evil[0].startswith("'=")  # a name is never a formula in a spreadsheet
    zoe = next(r for r in table if r[1] == "1004")
    assert zoe[5:] == ["", ""]  # no grade: left empty, the LMS keeps what it has
    assert canvas.unmatched == ["mallory"] and canvas.ungraded == ["zoe"]
    moodle = list(csv.reader(io.StringIO(export("moodle", scores, points, roster).text)))
    assert tuple(moodle[0][:4]) == MOODLE_COLUMNS
    assert ["Alice", "Liddell", "S-17", "alice@school.example", "6", "4.8"] in moodle
    assert ["Bob", "Builder", "S-18", "bob@school.example", "2", ""] in moodle
    plain = list(csv.reader(io.StringIO(export("csv", scores, points, roster).text)))
    assert plain[0] == ["learner", "lms_id", "email", EX, "02_skip_on_eight", "total"]
    assert ["alice", "1001", "alice@school.example", "6", "4.8", "10.8"] in plain


def test_a_roster_or_grades_file_that_cannot_be_used_is_refused_with_its_line(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("name,email\nAlice,a@x\n")
    with pytest.raises(ExportError, match="no learner column"):
        read_roster(bad)
    bad.write_text("learner,email\nalice,a@x\nalice,b@x\n")
    with pytest.raises(ExportError, match="line 3: 'alice' is on the roster twice"):
        read_roster(bad)
    bad.write_text("learner,section\nalice,A\n")
    with pytest.raises(ExportError, match="no column the LMS knows a learner by"):
        read_roster(bad)
    bad.write_text("student,exercise,score,max_score\nalice,01,six,6\n")
    with pytest.raises(ExportError, match="line 2: the score is not a number"):
        read_grades(bad)
    with pytest.raises(ExportError, match="unknown format"):
        export("blackboard", {}, {}, {})


# --- a course run end to end ------------------------------------------------------------------------------

def _hand_in(subs: Path, student: str, notebook: Path, stamp: str | None) -> None:
    folder = subs / student
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(notebook, folder / f"{EX}.ipynb")
    if stamp:
        (folder / "timestamp.txt").write_text(stamp)


def _grade(source: Path, subs: Path, out: Path, *extra: str) -> tuple[dict[tuple[str, str], dict[str, str]], str]:
    log = io.StringIO()
    argv = ["grade", "--source", str(source), str(subs), "--out", str(out), "-j", "2", "--exercise", EX,
            "--cell-timeout", "20", "--timeout", "90", *extra]
    assert main(argv, out=log, err=log) == 0, log.getvalue()
    with open(out / "grades.csv", newline="", encoding="utf-8") as f:
        return {(r["student"], r["exercise"]): r for r in csv.DictReader(f)}, log.getvalue()


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    pytest.importorskip("nbclient")
    root = tmp_path_factory.mktemp("course")
    source, subs = root / "source", root / "submissions"
    source.mkdir()
    shutil.copy(EXERCISES / f"{EX}.ipynb", source)
    teacher = EXERCISES / f"{EX}.ipynb"
    _hand_in(subs, "alice", teacher, "2026-12-10 20:00:00 Europe/Berlin")
    _hand_in(subs, "bob", teacher, "2026-12-12 08:00:00+01:00")            # two days late
    _hand_in(subs, "carol", teacher, "2026-12-12 08:00:00+01:00")          # late, but extended
    _hand_in(subs, "dave", SUBMISSIONS / "buggy_matching" / f"{EX}.ipynb", None)   # time unknown
    (root / "ext.csv").write_text("student,exercise,due\ncarol,01_matching,2026-12-13T23:59+01:00\n")
    (root / "roster.csv").write_text("learner,name,id,email\nalice,Alice A,1,a@s.example\nbob,Bob B,2,b@s.example\n"
                                     "carol,Carol C,3,c@s.example\n")
    return root


def test_a_course_is_graded_late_work_costs_and_the_gradebook_grades_only_what_changed(course):
    source, subs, book = course / "source", course / "submissions", course / "class.sqlite"
    options = ["--due", f"{EX}=2026-12-10T23:59+01:00", "--late", "10%/day, 0 after 7 days",
               "--extensions", str(course / "ext.csv"), "--gradebook", str(book), "--lang", "de"]
    rows, log = _grade(source, subs, course / "out1", *options)
    alice, bob, carol, dave = (rows[(s, EX)] for s in ("alice", "bob", "carol", "dave"))
    assert (alice["late_days"], alice["penalty"], alice["final"], alice["score"]) == ("0", "0", "6", "6")
    assert alice["submitted"] == "2026-12-10T20:00:00+01:00"
    assert (bob["late_days"], bob["penalty"], bob["final"]) == ("2", "0.2", "4.8")
    assert (carol["late_days"], carol["final"]) == ("0", "6")
    assert (dave["submitted"], dave["late_days"], dave["score"]) == ("", "0", "2")
    feedback = (course / "out1" / "feedback" / "bob.md").read_text()
    assert "2 Tage zu spät: 20 % der Punkte werden abgezogen, 4,8 von 6 zählen" in feedback
    assert "mit deiner Verlängerung" in (course / "out1" / "feedback" / "carol.md").read_text()
    assert "Gradebook run 1: no grade changed" in log

    # nothing changed: nothing runs again, the same grades (lateness worked out anew)
    rows2, log2 = _grade(source, subs, course / "out2", *options)
    assert "  alice/" not in log2 and "Gradebook run 2: no grade changed" in log2
    assert {k: (r["score"], r["final"], r["status"]) for k, r in rows2.items()} == \
           {k: (r["score"], r["final"], r["status"]) for k, r in rows.items()}

    # dave hands in again (fixed): only his notebook runs
    _hand_in(subs, "dave", EXERCISES / f"{EX}.ipynb", None)
    rows3, log3 = _grade(source, subs, course / "out3", *options)
    ran = [line.split("/")[0].strip() for line in log3.splitlines() if line.startswith("  ") and line.endswith(" s)")]
    assert ran == ["dave"] and rows3[("dave", EX)]["score"] == "6"
    assert "dave/01_matching: 2 -> 6" in log3

    # the teacher fixes a hidden test (here: it is worth 3 points, not 2): every learner of the exercise is
    # graded again, and the change says whose grade moved
    nb = nbformat.read(source / f"{EX}.ipynb", as_version=4)
    hidden = next(c for c in nb.cells if "BEGIN HIDDEN TESTS" in c.source)
    hidden.metadata["nbgrader"]["points"] = 3
    nbformat.write(nb, source / f"{EX}.ipynb")
    rows4, log4 = _grade(source, subs, course / "out4", *options)
    assert rows4[("alice", EX)]["score"] == "7" and rows4[("bob", EX)]["final"] == "5.6"
    assert "alice/01_matching: 6 -> 7" in log4 and "bob/01_matching: 4.8 -> 5.6" in log4
    history = Gradebook(book).history("bob", EX)
    assert [h["final"] for h in history] == [4.8, 4.8, 4.8, 5.6] and [h["kept"] for h in history] == [0, 1, 1, 0]

    # --force runs everything again
    _, log5 = _grade(source, subs, course / "out5", *options, "--force")
    assert sum(1 for line in log5.splitlines() if line.startswith("  ") and line.endswith(" s)")) == 4

    # the export: every graded learner not on the roster is named, and the command says so
    out = io.StringIO()
    argv = ["export", "canvas", "--gradebook", str(book), "--roster", str(course / "roster.csv"),
            "--out", str(course / "canvas.csv")]
    assert main(argv, out=out, err=out) == 3
    assert "not on the roster, so not exported: dave" in out.getvalue()
    canvas = list(csv.reader((course / "canvas.csv").open()))
    assert canvas[0] == [*CANVAS_COLUMNS, EX] and canvas[1][-1] == "7"
    assert ["Bob B", "2", "", "", "", "5.6"] in canvas
    assert main(["gradebook", str(book), "bob"], out=(hist := io.StringIO()), err=hist) == 0
    assert "2 days late (-20%)" in hist.getvalue() and "(unchanged, not run again)" in hist.getvalue()


def test_a_bad_deadline_option_or_gradebook_is_refused_and_nothing_graded(tmp_path):
    out = io.StringIO()
    argv = ["grade", "--source", str(EXERCISES), str(tmp_path), "--out", str(tmp_path / "out"),
            "--due", f"{EX}=2026-12-10T23:59"]
    assert main(argv, out=out, err=out) == 1 and "has no time zone" in out.getvalue()
    assert not (tmp_path / "out" / "grades.csv").exists()
    not_a_db = tmp_path / "notes.sqlite"
    not_a_db.write_text("just some text, not SQLite" * 100)
    with pytest.raises(GradebookError, match="is not a gradebook"):
        Gradebook(not_a_db)


def test_the_course_page_shows_the_class_the_checks_most_fail_and_the_rules_behind_them(course):
    page = (course / "out1" / "course.html").read_text(encoding="utf-8")
    assert '<html lang="de">' in page and "<caption>" in page and '<th scope="row">' in page
    # bob's lateness in words, dave's failed checks counted, the rule the exercise's solution cites
    assert "2 T. zu spät, −20 %" in page and "4,8/6" in page
    assert "Prüfungen, an denen die meisten scheitern" in page and "1 von 4 Personen" in page
    assert "C-3" in page
    assert 'href="feedback/dave.md"' in page


def test_the_course_page_escapes_what_learners_wrote():
    from maumau.grading.course_page import course_html
    from maumau.grading.gradebook import TestResult

    evil = "<script>alert(1)</script>"
    rows = [Row(evil, EX, score=0, max_score=6, status="error",
                tests=[TestResult("t1", "# a test <b>", 0, 2, False, False, evil)])]
    from urllib.parse import quote

    page = course_html(rows, "en", {evil: f"feedback/{quote(evil)}.md"})
    assert "<script>" not in page and "&lt;script&gt;" in page and "%3Cscript%3E" in page


def test_grading_spread_over_a_dask_cluster_gives_the_grades_of_one_machine(course, tmp_path):
    """The same four hand-ins graded on a LocalCluster's two worker processes (each in its own
    sandboxed kernels, files sent as bytes): the same scores; the gradebook written here only."""
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    from maumau.grading.grader import grade

    source, subs = course / "source", course / "submissions"
    alone = grade(source, [subs], tmp_path / "alone", only=[EX], jobs=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        spread = grade(source, [subs], tmp_path / "spread", only=[EX], jobs=2, executor=client.get_executor(),
                       workers=2, gradebook=Gradebook(tmp_path / "book.sqlite"))
    assert [(r.student, r.score, r.status, r.passed) for r in spread] == \
           [(r.student, r.score, r.status, r.passed) for r in alone]
    assert spread.isolated == alone.isolated
    assert len(Gradebook(tmp_path / "book.sqlite").latest()) == 4
    assert (tmp_path / "spread" / "grades.csv").read_text().count("\n") == 5


# --- hand-ins (the store behind the class server's hand-in) ------------------------------------------------

def _ids(name: str) -> list[str]:
    from maumau.grading.exercise import load_exercise

    return [c.key for c in load_exercise(EXERCISES / f"{name}.ipynb").cells if c.key]


def test_hand_ins_keep_every_version_with_the_servers_time_and_refuse_what_is_not_the_exercise(tmp_path):
    from maumau.grading.submissions import HandInError, HandIns

    store = HandIns(tmp_path / "class.sqlite", max_bytes=2_000_000)
    course = {EX: _ids(EX), "04_seven_chain": _ids("04_seven_chain")}
    data = (EXERCISES / f"{EX}.ipynb").read_bytes()
    first = store.receive("alice", EX, data, course, now=datetime(2026, 12, 10, 22, 0, tzinfo=CET))
    second = store.receive("alice", EX, data + b"\n", course, now=datetime(2026, 12, 11, 9, 0, tzinfo=CET))
    assert (first.version, second.version) == (1, 2) and first.received == "2026-12-10T21:00:00+00:00"
    assert first.sha256 != second.sha256 and len(store.receipts("alice")) == 2

    refusals = {
        "not a notebook": (b"\x89PNG\r\n" + b"0" * 100, EX),
        r"this is not a notebook \(": (b'{"hello": "world"}', EX),
        "not valid JSON": (b"[" * 100_000 + b"]" * 100_000, EX),  # nested past Python's recursion limit
        "is not the exercise 04_seven_chain": (data, "04_seven_chain"),
        "no exercise '../../etc'": (data, "../../etc"),
        "more than the 2 MB": (b" " * 2_000_001, EX),
    }
    for words, (payload, exercise) in refusals.items():
        with pytest.raises(HandInError, match=words):
            store.receive("mallory", exercise, payload, course)
    closes = {EX: datetime(2026, 12, 17, 23, 59, tzinfo=CET)}
    with pytest.raises(HandInError, match="closed at 2026-12-17T23:59"):
        store.receive("bob", EX, data, course, closes, now=datetime(2026, 12, 18, tzinfo=CET))
    assert [r.learner for r in store.receipts()] == ["alice", "alice"]  # nothing of the refused ones


def test_hand_ins_are_graded_with_the_receipt_time_and_a_name_is_never_a_path(tmp_path):
    from maumau.grading.grader import grade
    from maumau.grading.submissions import HandIns, safe_folder_name

    store = HandIns(tmp_path / "class.sqlite")
    course = {EX: _ids(EX)}
    data = (EXERCISES / f"{EX}.ipynb").read_bytes()
    store.receive("../../outside", EX, data, course, now=datetime(2026, 12, 12, 8, 0, tzinfo=CET))
    store.receive("anna", EX, data, course, now=datetime(2026, 12, 10, 8, 0, tzinfo=CET))
    received = store.write_folders(tmp_path / "in")
    assert sorted(p.name for p in (tmp_path / "in").iterdir()) == sorted(["anna", safe_folder_name("../../outside")])
    assert not (tmp_path.parent / "outside").exists() and "/" not in safe_folder_name("../../outside")
    due = Deadlines({EX: parse_time("2026-12-10T23:59+01:00")}, LatePolicy.parse("10%/day"))
    rows = {r.student: r for r in grade(EXERCISES, [tmp_path / "in"], tmp_path / "out", only=[EX], jobs=2,
                                        deadlines=due, received=received)}
    outside = rows[safe_folder_name("../../outside")]
    assert (outside.late_days, outside.final, outside.submitted) == (2, 4.8, "2026-12-12T07:00:00+00:00")
    assert rows["anna"].late_days == 0 and rows["anna"].final == 6


def test_a_learner_graded_in_a_folder_made_from_their_name_is_exported_under_their_roster_line(tmp_path):
    """A hand-in through the class server is graded in a folder made from the learner's identity
    ("José" in ``Jos-24c2ab65``): the export finds it, and a learner whose plain name looks like that
    folder never gets José's grade (``safe_folder_name`` is one-to-one)."""
    from maumau.grading.submissions import safe_folder_name

    path = tmp_path / "roster.csv"
    path.write_text("learner,name,id\nJosé,José Álvarez,2001\nJos-24c2ab65,Jos Imposter,2002\n", encoding="utf-8")
    roster = read_roster(path)
    folder = safe_folder_name("José")
    assert folder != "Jos-24c2ab65" or safe_folder_name("Jos-24c2ab65") != folder
    result = export("csv", {folder: {EX: 5.0}}, {EX: 6.0}, roster)
    table = list(csv.reader(io.StringIO(result.text)))
    assert ["José", "2001", "", "5", "5"] in table
    assert ["Jos-24c2ab65", "2002", "", "", ""] in table
    assert result.unmatched == [] and result.ungraded == ["Jos-24c2ab65"]
