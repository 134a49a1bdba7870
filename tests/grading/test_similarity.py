"""Similarity flags (issue 38, item 4): a copied pair is flagged whatever its names, comments and
order, twenty independent solutions are not, two learners with the same rare wrong answers are,
hostile code breaks nothing, and the page shows the evidence escaped, side by side."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from maumau.grading import gradebook
from maumau.grading.exercise import SOLUTION, TEST, GradedCell, assemble, load_exercise, student_version
from maumau.grading.gradebook import Row
from maumau.grading.kernel import OK, CellRun
from maumau.grading.similarity import Flag, answers_of, find_flags, load_flags, save_flags, solution_codes
from maumau.grading.similarity_answers import MAX_ANSWERS, MAX_CHECKS, check_answers, shared_answers
from maumau.grading.similarity_code import MAX_CHARS, bound_names, fingerprint_code, normalised
from maumau.grading.similarity_page import SIMILAR_WORDS, similar_section

sys.path.insert(0, str(Path(__file__).parent))
from similar_code import COPY, INDEPENDENT, ORIGINAL  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
GRAPH = "14_state_graph"


@pytest.fixture(scope="module")
def graph_exercise():
    return load_exercise(REPO / "exercises" / f"{GRAPH}.ipynb")


def _job(exercise, student: str, code: str):
    """The grader's job for ``student``'s notebook: the student version with ``code`` in its solution cell."""
    notebook = student_version(exercise)
    for cell in notebook.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution") and cell.cell_type == "code":
            cell.source = code
    cells, _ = assemble(exercise, notebook)
    return Row(student, exercise.name), exercise, cells, {}


def _words(source: str) -> list[str]:
    return [t.text for t in normalised(source, bound_names([source]))]


# --- code --------------------------------------------------------------------------------------------------

def test_names_comments_and_literals_do_not_count_but_what_the_code_calls_does():
    mine = "def f(hand):\n    # the total\n    total = sum(c.points for c in hand)  # sum it\n    return total + 1\n"
    theirs = "def g(cards):\n\n    s = sum(x.points for x in cards)\n    return s + 20  # twenty\n"
    assert _words(mine) == _words(theirs)
    assert "points" in _words(mine) and "sum" in _words(mine)       # the API and built-ins stay
    assert "total" not in _words(mine) and "hand" not in _words(mine)
    assert _words(mine) != _words(mine.replace(".points", ".rank"))


def test_a_copied_pair_is_flagged_whatever_its_names_comments_and_order_and_twenty_independent_are_not(
        graph_exercise):
    jobs = [_job(graph_exercise, f"learner{n:02}", code) for n, code in enumerate(INDEPENDENT, 1)]
    jobs += [_job(graph_exercise, "zoe", ORIGINAL), _job(graph_exercise, "yann", COPY)]
    flags = find_flags(solution_codes(jobs), answers_of(row for row, *_ in jobs))
    assert [f.learners for f in flags] == [("yann", "zoe")]
    flag = flags[0]
    assert flag.score >= 0.8 and not flag.answers
    (evidence,) = flag.code
    assert evidence.exercise == GRAPH and evidence.shared >= 12
    # the matching lines are the copied ones, in each learner's own order: outcomes first in the copy
    copy_text, original_text = evidence.code
    assert copy_text == COPY and original_text == ORIGINAL
    marked_copy = {copy_text.split("\n")[n - 1].strip() for n in evidence.lines[0]}
    marked_original = {original_text.split("\n")[n - 1].strip() for n in evidence.lines[1]}
    assert "result[who] = result.get(who, 0) + 1" in marked_copy
    assert "ending[key] = ending.get(key, 0) + 1" in marked_original
    assert "if len(level) > max_nodes:" in marked_copy and "if len(explored) > max_nodes:" in marked_original
    assert not any(line.startswith('"""') for line in marked_copy)   # the template given to all is not evidence


def test_the_template_and_the_instructors_solution_are_no_evidence(graph_exercise):
    """Twenty learners who all hand in the instructor's solution (or the untouched template) share
    nothing distinctive: the obvious code is everyone's."""
    solution = next(c.source for c in graph_exercise.cells if c.role == SOLUTION)
    stub = next(c.source for c in student_version(graph_exercise).cells
                if c.get("metadata", {}).get("nbgrader", {}).get("solution"))
    jobs = [_job(graph_exercise, f"l{n}", solution.replace("### BEGIN SOLUTION", "# mine")) for n in range(3)]
    jobs += [_job(graph_exercise, f"s{n}", stub) for n in range(3)]
    codes = solution_codes(jobs)
    assert all(not code.prints for code in codes[GRAPH].values())
    assert find_flags(codes, {}) == []


HOSTILE = {
    "huge": "x = 1\n" * (MAX_CHARS // 2) + "def f():\n    return [i for i in range(10)]\n" * 20_000,
    "binary": "\x00\x01\xff\ufffe\udcff\ud800 \x1b[31m" * 5_000,
    "syntax": "def f(:\n    return ((((]\n\tif x\n  else:\n'''unterminated\n" * 500,
    "deep": "(" * 200_000 + ")" * 200_000,
    "deep_list": "x = " + "[" * 50_000 + "]" * 50_000 + "\n",
    "indent": "if x:\n        a = 1\n    b = 2\n" * 1000,
    "magic": "%timeit f()\n!rm -rf /\nclass A:\n    pass\n",
}


def test_hostile_code_costs_little_and_breaks_nothing(graph_exercise):
    jobs = [_job(graph_exercise, name, code) for name, code in HOSTILE.items()]
    pick = random.Random(38).choice
    junk = " ".join(pick(["(", "]", "+", "zork", ".rank", "if", "\n", "'x", "1", "\x00", "\udcff", ":", "def"])
                    for _ in range(3000))
    jobs += [_job(graph_exercise, "twin1", junk), _job(graph_exercise, "twin2", junk.replace("zork", "york"))]
    began = time.monotonic()
    codes = solution_codes(jobs)
    flags = find_flags(codes, {})
    assert time.monotonic() - began < 30
    assert all(len(code.text) <= MAX_CHARS for code in codes[GRAPH].values())
    assert ("twin1", "twin2") in [f.learners for f in flags]       # copied junk is still copied
    page = "\n".join(similar_section(flags, "en"))
    assert "\x00" not in page or "&" in page
    page.encode("utf-8", "surrogatepass")


def test_fingerprints_of_code_that_does_not_parse_still_ignore_names():
    broken = "def f(a, b:\n    return a.rank + b.rank  # oops\n"
    renamed = "def g(x, y:\n    return x.rank + y.rank  # sure\n"
    assert fingerprint_code([broken], set()).prints.keys() == fingerprint_code([renamed], set()).prints.keys()


# --- answers -----------------------------------------------------------------------------------------------

def _records(*answers: tuple[str, str, object]) -> list[dict]:
    return [{"kind": "value", "scenario": [scenario], "what": what, "value": value, "repr": repr(value), "hint": ""}
            for scenario, what, value in answers]


REFERENCE = {"t1": _records(("3 players, 8♥", "who moves next", 2), ("3 players, 8♥", "hand of seat 1", 3),
                            ("3 players, 5♣", "who moves next", 1)),
             "hidden": _records(("4 players anticlockwise", "who moves next", 2), ("an 8 on an 8", "who next", 1))}
CELLS = [GradedCell("setup", "locked", "setup"), GradedCell("check(...)", TEST, "t1", "test 1", 2.0),
         GradedCell("check(...)", TEST, "hidden", "hidden", 2.0, hidden=True)]


def _row(student: str, t1: tuple, hidden: tuple) -> Row:
    runs = [CellRun(OK), CellRun(OK, report=_records(*zip(
        ("3 players, 8♥", "3 players, 8♥", "3 players, 5♣"), ("who moves next", "hand of seat 1", "who moves next"),
        t1, strict=True))), CellRun(OK, report=_records(*zip(
            ("4 players anticlockwise", "an 8 on an 8"), ("who moves next", "who next"), hidden, strict=True)))]
    row = Row(student, "02_skip_on_eight", tests=[gradebook.TestResult("t1", "test 1", 0, 2, False, False)])
    row.answers = check_answers(CELLS, runs, REFERENCE)
    return row


def test_the_same_rare_wrong_answers_flag_a_pair_a_common_mistake_does_not():
    rows = [_row(f"right{n}", (2, 3, 1), (2, 1)) for n in range(10)]
    rows += [_row(f"forgot{n}", (1, 3, 1), (3, 2)) for n in range(5)]       # no skip at all: a common mistake
    rows += [_row("ann", (0, 3, 1), (0, 0)), _row("ben", (0, 3, 1), (0, 0))]  # skipped twice, both
    rows += [_row("cid", (0, 3, 1), (1, 1))]                                  # the same once, then his own
    first = rows[-2].answers[0]
    assert first["what"] == "who moves next" and first["got"] == "0" and first["expected"] == "2"
    assert len(rows[-2].answers) == 5 and [("sig" in a) for a in rows[-2].answers] == [True, False, False, True, True]
    flags = find_flags({}, answers_of(rows))
    assert [f.learners for f in flags] == [("ann", "ben")]
    shared = flags[0].answers
    assert {a["scenario"] for a in shared} == {"4 players anticlockwise", "an 8 on an 8"}
    assert all(a["exercise"] == "02_skip_on_eight" and a["others"] == 0 for a in shared)
    # with cid on the first one too, that answer is given by three: still rare in a class of 18? no (cap 2)
    assert "3 players, 8♥" not in {a["scenario"] for a in shared}


def test_one_shared_scenario_is_not_enough_and_answers_out_of_step_are_not_compared():
    rows = [_row(f"right{n}", (2, 3, 1), (2, 1)) for n in range(6)]
    rows += [_row("ann", (0, 3, 1), (2, 1)), _row("ben", (0, 3, 1), (2, 1))]
    assert shared_answers(answers_of(rows)) == {}
    # two learners alone on a position (a variant's): nobody else answered it, nobody differs
    alone = [_row("ann", (0, 3, 1), (0, 0)), _row("ben", (0, 3, 1), (0, 0))]
    assert shared_answers(answers_of(alone)) == {}
    assert list(shared_answers(answers_of([*alone, _row("cid", (2, 3, 1), (2, 1))]))) == [("ann", "ben")]
    runs = [CellRun(OK), CellRun(OK, report=_records(("another scenario", "who moves next", 0))), CellRun(OK)]
    assert check_answers(CELLS, runs, REFERENCE) == []      # out of step: not even answered
    flood = [CellRun(OK), CellRun(OK, report=_records(*[("3 players, 8♥", "who moves next", 0)] * 500)),
             CellRun(OK)]
    answered = check_answers(CELLS, flood, {"t1": _records(*[("3 players, 8♥", "who moves next", -1)] * 500)})
    assert len(answered) == MAX_CHECKS and sum("sig" in a for a in answered) == MAX_ANSWERS


# --- kept and shown ----------------------------------------------------------------------------------------

def test_flags_are_kept_in_the_gradebook_and_shown_escaped_side_by_side_in_every_language(tmp_path, graph_exercise):
    evil = "<script>alert(1)</script>"
    jobs = [_job(graph_exercise, evil, ORIGINAL + f"\n# {evil}\n"), _job(graph_exercise, "yann", COPY)]
    jobs += [_job(graph_exercise, f"l{n}", code) for n, code in enumerate(INDEPENDENT)]
    flags = find_flags(solution_codes(jobs), {})
    book = tmp_path / "class.sqlite"
    assert load_flags(book) == ("", [])
    gradebook.Gradebook(book)                  # a gradebook of before the flags: none, and no error
    assert load_flags(book) == ("", [])
    save_flags(book, flags)
    at, kept = load_flags(book)
    assert at and kept == flags
    assert Flag.from_dict({"learners": ["a"]}) is None and Flag.from_dict("junk") is None
    for lang in ("en", "de", "hu"):
        from maumau.grading.course_page import course_html

        page = course_html([Row("yann", GRAPH, 3, 6)], lang, similar=kept, similar_at=at)
        assert "<script>" not in page and "&lt;script&gt;" in page
        assert SIMILAR_WORDS[lang]["title"] in page and SIMILAR_WORDS[lang]["intro"] in page
        assert page.count("<figure>") == 2 and "<mark>▶" in page
    assert "Similar work" not in course_html([Row("yann", GRAPH, 3, 6)], "en")   # not asked: not shown
    assert SIMILAR_WORDS["en"]["none"] in course_html([Row("yann", GRAPH, 3, 6)], "en", similar=[])
    assert set(SIMILAR_WORDS["de"]) == set(SIMILAR_WORDS["en"]) == set(SIMILAR_WORDS["hu"])


# --- graded: maumau grade flags, keeps and shows them ------------------------------------------------------

SKIP = "02_skip_on_eight"
RULE = '''class SkipOnEight(mm.Rule):
    """8: next(X) is skipped, there is no answer; with 2 players X moves again (MK-5)."""

    name = "skip_on_eight"
    rule_id = "MK-5"

    def affects(self, card):
        """True for the cards this rule gives an effect."""
        {affects}

    def on_play(self, turn, card):
        """What playing card does (turn.skip() makes the next player lose their turn)."""
        {on_play}
'''
LEARNERS = {
    "carol": RULE.format(affects="return card.rank is Rank.EIGHT", on_play="turn.skip()"),
    "dan": RULE.format(affects="return card.rank == Rank.EIGHT", on_play="return turn.skip()"),
    "eve": RULE.format(affects="eight = card.rank is Rank.EIGHT\n        return eight", on_play="turn.skip()"),
    # the same mistake, written differently: the next player and the one after are skipped
    "ann": RULE.format(affects="return card.rank is Rank.EIGHT", on_play="turn.skip()\n        turn.skip()"),
    "ben": RULE.format(affects="return Rank.EIGHT == card.rank",
                       on_play="for _ in range(2):\n            turn.skip()"),
    # hostile: a syntax error, control characters and a lone surrogate in the solution cell
    "zed": "class SkipOnEight(mm.Rule:\n    \x00\x1b[2J\udcff" + "((" * 5000 + "\n",
}


def test_maumau_grade_flags_the_pair_with_the_same_rare_wrong_answers_and_the_course_pages_show_it(tmp_path):
    pytest.importorskip("nbclient")
    import io
    import json

    from maumau.classroom.course import Course, CourseDesk
    from maumau.cli import main

    exercise = load_exercise(REPO / "exercises" / f"{SKIP}.ipynb")
    source, subs, book = tmp_path / "source", tmp_path / "submissions", tmp_path / "class.sqlite"
    source.mkdir()
    (source / f"{SKIP}.ipynb").write_bytes((REPO / "exercises" / f"{SKIP}.ipynb").read_bytes())
    for name, code in LEARNERS.items():
        notebook = student_version(exercise)
        for cell in notebook.cells:
            if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                cell.source = code
        (subs / name).mkdir(parents=True)
        # JSON escapes the lone surrogate (\udcff): the file is UTF-8, the cell is not
        (subs / name / f"{SKIP}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    log = io.StringIO()
    argv = ["grade", "--source", str(source), str(subs), "--out", str(tmp_path / "out"), "-j", "2",
            "--cell-timeout", "20", "--timeout", "90", "--gradebook", str(book)]
    assert main(argv, out=log, err=log) == 0, log.getvalue()
    assert "Pairs flagged as similar: 1 (their evidence is in course.html" in log.getvalue()
    at, flags = load_flags(book)
    assert [f.learners for f in flags] == [("ann", "ben")] and flags[0].score == 0
    (beside,) = flags[0].code   # flagged for their answers: their code of the exercise shown beside them
    assert beside.exercise == SKIP and "for _ in range(2):" in beside.code[1] and beside.shared == 0
    assert {a["scenario"] for a in flags[0].answers} >= {"3 players, seat 0 plays 8♥", "2 players, seat 0 plays 8♥"}
    rows = {r.student: r for r in gradebook.Gradebook(book).latest()}
    assert rows["carol"].answers and not any("sig" in a for a in rows["carol"].answers)   # answered, all right
    assert any("sig" in a for a in rows["ann"].answers) and rows["zed"].status == "error"
    page = (tmp_path / "out" / "course.html").read_text(encoding="utf-8")
    assert "ann and ben" in page and "The same rare wrong answers" in page and "Code:" not in page
    assert page.count("<figure>") == 2 and "            turn.skip()" in page
    assert "\x00" not in page and "hidden: 4 players playing anticlockwise" in page   # the teacher sees the hidden ones
    feedback = (tmp_path / "out" / "feedback" / "ann.md").read_text(encoding="utf-8")
    assert "ben" not in feedback and "similar" not in feedback.lower()              # the learners are told nothing
    server_page = CourseDesk(Course(source), book).page("de")
    assert "Ähnliche Arbeiten" in server_page and "ann und ben" in server_page and at in server_page
    # graded again from the gradebook (nothing runs): the answers kept with the grades flag them again
    log = io.StringIO()
    assert main(argv, out=log, err=log) == 0, log.getvalue()
    assert "Pairs flagged as similar: 1" in log.getvalue() and "no grade changed" in log.getvalue()
    assert [f.learners for f in load_flags(book)[1]] == [("ann", "ben")]
    # switched off: no flags made, none shown, the gradebook's left as they were
    log = io.StringIO()
    assert main([*argv, "--no-similarity", "--lang", "hu"], out=log, err=log) == 0, log.getvalue()
    assert "Hasonlóként" not in log.getvalue() and "similar" not in log.getvalue().lower()
    assert "Hasonló munkák" not in (tmp_path / "out" / "course.html").read_text(encoding="utf-8")
    assert len(load_flags(book)[1]) == 1


def test_a_pair_with_many_shared_answers_lists_the_first_and_counts_the_rest():
    from maumau.grading.similarity_page import MAX_SHOWN_ANSWERS

    answers = tuple({"exercise": "02_skip_on_eight", "scenario": f"s{n}", "what": "who", "expected": "2",
                     "got": "0", "others": 0} for n in range(MAX_SHOWN_ANSWERS + 5))
    page = "\n".join(similar_section([Flag(("ann", "ben"), 0.0, (), answers)], "de"))
    assert page.count("<tr><td>02_skip_on_eight") == MAX_SHOWN_ANSWERS and "… und 5 weitere" in page
    assert "Code:" not in page   # flagged by the answers alone: no code score
