"""Feedback release, the grading side (issue 38 item 2): the releases kept in the class database, the
hidden tests' own explanations (the reference's words, never the learner's), the feedback that shows
them, and ``maumau feedback release|hold|status``.  The server side is tests/classroom/test_feedback.py."""

from __future__ import annotations

import io
import re
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from maumau.cli import main
from maumau.grading.feedback_release import DEADLINE, HAND, HELD, FeedbackRelease, FeedbackReleaseError, parse_delay
from maumau.grading.gradebook import Row
from maumau.grading.gradebook import TestResult as Result
from maumau.grading.kernel import ERROR, OK, CellRun
from maumau.grading.report import feedback_markdown
from maumau.grading.verdict import judge
from maumau.text.i18n import use_language

T0 = datetime(2026, 12, 10, 22, 59, tzinfo=timezone.utc)
REFERENCE = [{"kind": "value", "scenario": ["3 players"], "what": "who moves next", "value": 2, "repr": "2",
              "hint": ""}]


def _run(report: object, status: str = OK, evalue: str = "") -> CellRun:
    return CellRun(status, "CheckFailed" if evalue else "", evalue, 0.1, report)


def test_a_hidden_tests_explanation_is_the_references_words_and_never_the_learners():
    chosen = [dict(REFERENCE[0], value=0, repr="SECRET the learner's code chose")]
    verdict = judge(REFERENCE, _run(chosen), quiet=True)
    assert verdict.message == "" and verdict.explanation == "3 players: who moves next: expected 2"
    raised = judge(REFERENCE, _run(None, ERROR, "SECRET leaked text"), quiet=True)
    assert raised.message == "" and raised.explanation == "3 players: who moves next: expected 2"
    assert judge(REFERENCE, _run([dict(REFERENCE[0], repr="2")]), quiet=True).explanation == ""  # passed
    assert judge(REFERENCE, _run(chosen), quiet=False).explanation == ""  # a visible test says it all itself
    assert judge([], _run(None, ERROR, "SECRET"), quiet=True).explanation == ""  # no checks: nothing to explain
    moves = [{"kind": "moves", "scenario": [], "what": "legal", "value": {"list": ["draw", "7H"]}, "repr": ""}]
    assert judge(moves, _run([dict(moves[0], value={"list": ["draw"]})]), quiet=True).explanation \
        == "legal: the legal moves are ['7H', 'draw']"
    with use_language("de"):
        assert judge(REFERENCE, _run(chosen), quiet=True).explanation == "3 players: who moves next: erwartet 2"


def _row(explanation: str = "3 players: who moves next: expected 2") -> Row:
    return Row("anna", "01_matching", 4, 6, message="hidden test 'B'", tests=[
        Result("a", "A <visible>", 4, 4, True, False),
        Result("b", "B *hidden*", 0, 2, False, True, "", explanation)])


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_the_explanations_show_only_where_asked_and_as_text(lang):
    plain = feedback_markdown("anna", [_row()], lang)
    assert "expected 2" not in plain
    explained = feedback_markdown("anna", [_row()], lang, explain=True)
    assert "3 players: who moves next: expected 2" in explained
    assert {"en": "Why the hidden test", "de": "Warum der verdeckte Test",
            "hu": "rejtett teszt"}[lang] in explained
    after = _row()
    after.tests.append(Result("c", "after the hidden one", 0, 1, False, False, "", "seat 2: expected 7"))
    assert {"en": "Why the test *after the hidden one* failed:", "de": "Warum der Test *after the hidden one*",
            "hu": "*after the hidden one* teszt"}[lang] in feedback_markdown("anna", [after], lang, explain=True)
    evil = feedback_markdown("anna", [_row("<script>x</script>\n```\n[a](b)")], lang, explain=True)
    assert "````\n<script>x</script> ``` [a](b)\n````" in evil  # one line, in a fence longer than any inside


def test_releases_are_kept_and_a_decision_by_hand_wins_over_the_schedule(tmp_path):
    db = tmp_path / "class.sqlite"
    releases = FeedbackRelease(db)
    assert releases.of("01_matching").how is None and not releases.of("01_matching").visible(T0)
    due = releases.schedule("01_matching", T0 + timedelta(hours=2), T0)
    assert due.how == DEADLINE and not due.visible(T0) and due.visible(T0 + timedelta(hours=2))
    releases.schedule("01_matching", T0 + timedelta(hours=3), T0)  # a server started with another delay
    assert FeedbackRelease(db).of("01_matching").at == T0 + timedelta(hours=3)  # a new process reads it
    held = releases.hold("01_matching", T0)
    assert held.how == HELD and not held.visible(T0 + timedelta(days=30))
    releases.schedule("01_matching", T0, T0)  # a restarted server's schedule does not undo the hold
    assert releases.of("01_matching").how == HELD
    first = releases.release("01_matching", T0)
    assert first.how == HAND and first.visible(T0)
    assert releases.release("01_matching", T0 + timedelta(hours=1)).at == T0  # released once, from then on
    releases.schedule("01_matching", T0 + timedelta(days=2), T0)
    assert releases.of("01_matching").how == HAND and set(releases.all()) == {"01_matching"}


@pytest.mark.parametrize("name", ["../../etc/passwd", "", "a b", "x" * 200, "01_matching\n"])
def test_a_name_that_is_no_exercises_is_refused_and_nothing_stored(tmp_path, name):
    releases = FeedbackRelease(tmp_path / "class.sqlite")
    with pytest.raises(FeedbackReleaseError, match="no exercise name"):
        releases.release(name, T0)
    assert releases.all() == {}


def test_delays_read_as_teachers_write_them():
    assert parse_delay("2h") == timedelta(hours=2) and parse_delay("30m") == timedelta(minutes=30)
    assert parse_delay("1d") == timedelta(days=1) and parse_delay("0") == timedelta(0)
    assert parse_delay("1.5") == timedelta(hours=1.5) and parse_delay(" 90 s ") == timedelta(seconds=90)
    for bad in ("soon", "-2h", "2 weeks", "1e9", "400d"):
        with pytest.raises(FeedbackReleaseError):
            parse_delay(bad)


def test_the_command_releases_holds_and_tells(tmp_path):
    db = tmp_path / "class.sqlite"
    sqlite3.connect(db).close()
    out = io.StringIO()
    assert main(["feedback", "release", "01_matching", "--db", str(db)], out=out, err=out) == 0
    assert "Released the feedback on 01_matching" in out.getvalue() and "No learner has a grade" in out.getvalue()
    assert FeedbackRelease(db).of("01_matching").how == HAND
    out = io.StringIO()
    assert main(["feedback", "status", "--db", str(db), "--lang", "de"], out=out, err=out) == 0
    assert "01_matching: seit" in out.getvalue() and "von Hand freigegeben" in out.getvalue()
    out = io.StringIO()
    assert main(["feedback", "hold", "01_matching", "--db", str(db), "--lang", "hu"], out=out, err=out) == 0
    assert "visszatartva" in out.getvalue() and FeedbackRelease(db).of("01_matching").how == HELD
    # bad input: one sentence, no traceback, nothing changed
    out = io.StringIO()
    assert main(["feedback", "release", "02_ok", "../x", "--db", str(db)], out=out, err=out) == 2
    assert "'../x' is no exercise name" in out.getvalue() and "Traceback" not in out.getvalue()
    assert set(FeedbackRelease(db).all()) == {"01_matching"}
    out = io.StringIO()
    assert main(["feedback", "release", "01_matching", "--db", str(tmp_path / "none.sqlite")], out=out, err=out) == 1
    assert "There is no class database at" in out.getvalue() and not (tmp_path / "none.sqlite").exists()
    (tmp_path / "text.sqlite").write_text("not a database " * 100)
    out = io.StringIO()
    assert main(["feedback", "status", "--db", str(tmp_path / "text.sqlite")], out=out, err=out) == 1
    assert "cannot read the class database" in out.getvalue() and "Traceback" not in out.getvalue()


def test_every_sentence_is_in_english_german_and_hungarian():
    from maumau.text.locale.feedback import FEEDBACK

    assert set(FEEDBACK) == {"en", "de", "hu"}
    for lang in ("de", "hu"):
        assert set(FEEDBACK[lang]) == set(FEEDBACK["en"]), lang
        for key, text in FEEDBACK[lang].items():  # the same blanks to fill, in every language
            assert sorted(re.findall(r"{(\w+)", text)) == sorted(re.findall(r"{(\w+)", FEEDBACK["en"][key])), key


@pytest.mark.parametrize("options, words", [(["--feedback-delay", "2h"], "--feedback-delay counts from an exercise's "
                                                                         "--close time: give --close too"),
                                            (["--close", "2026-12-10T23:59+01:00", "--feedback-delay", "soon"],
                                             "the feedback delay 'soon' is not like 2h, 30m, 1d or 0")])
def test_serve_says_what_is_wrong_with_a_feedback_delay_and_starts_nothing(tmp_path, options, words):
    from pathlib import Path

    exercises = Path(__file__).resolve().parents[2] / "exercises"
    out = io.StringIO()
    argv = ["serve", "--db", str(tmp_path / "class.sqlite"), "--port", "0", "--exercises", str(exercises), *options]
    assert main(argv, out=out, err=out) == 1
    assert words in out.getvalue() and "Traceback" not in out.getvalue() and out.getvalue().count("\n") == 1
    assert not (tmp_path / "class.sqlite").exists()
