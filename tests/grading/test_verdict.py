"""Verdicts outside the learner's kernel (maumau.grading.verdict, issue 12 item 1).

The end-to-end cheats (rebound checks, a fake maumau.grading, an input transformer, a
post_run_cell hook, forged reports) are graded in tests/grading/test_grader.py; these tests pin the
pieces: the expected values leave the test cells, the records compare strictly, and a
failed test says what the reference expected, with no learner text where it must not.
"""

from __future__ import annotations

import ast

import pytest

import maumau as mm
from maumau.core.cards import Suit
from maumau.grading import checks
from maumau.grading.checks import canonical, check, check_moves, scenario
from maumau.grading.kernel import ERROR, OK, CellRun
from maumau.grading.verdict import instrument, judge, same

CELL = '''# A test
with scenario("3 players"):
    check("who moves next", t.to_move, 2)
    check_moves("legal moves", s, [mm.Play("8H"), mm.Draw()], hint="h")
    check("wish", t.wish, expected=None)
    grading.check("x", 1, 1)
%time y = 1
'''


def test_the_learners_version_of_a_test_cell_holds_no_expected_value():
    learner = instrument(CELL, keep_expected=False)
    calls = [n for n in ast.walk(ast.parse(learner)) if isinstance(n, ast.Call)
             and getattr(n.func, "id", getattr(n.func, "attr", "")) in ("check", "check_moves")]
    assert len(calls) == 4
    assert all(len(c.args) == 2 and all(k.arg != "expected" for k in c.keywords) for c in calls)
    assert "8H" not in learner and ", 2)" not in learner
    assert "hint='h'" in learner  # the hint stays: it is computed from the learner's state
    assert learner.startswith("__import__('maumau.grading.checks', fromlist=['begin']).begin()")
    reference = instrument(CELL, keep_expected=True)
    assert "mm.Play('8H')" in reference and "t.to_move, 2)" in reference


def test_records_hold_the_expected_value_or_what_the_learner_got():
    s = mm.position("makao", hands=["8H 5C", "7S 4D"], top="5H", stock="2C 3D 4H")
    checks.record()
    try:
        with scenario("one"):
            check("seat", s.to_move, 0)
            check("seat", s.to_move)
            check_moves("moves", s)
            with pytest.raises(checks.CheckFailed):
                check("wrong", 1, 2)
        found = list(checks._records or ())
    finally:
        checks._records = None
    assert [r["value"] for r in found[:2]] == [0, 0]
    assert found[2]["kind"] == "moves" and "draw" in found[2]["value"]["list"]
    assert found[3]["value"] == 2 and found[0]["scenario"] == ["one"]


def test_canonical_values_cannot_pose_as_others():
    class Same(int):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    class Anything:
        def __eq__(self, other: object) -> bool:
            return True

    assert canonical(Same(3)) == 3
    assert not same(canonical(Anything()), canonical(2))
    assert not same(canonical(True), canonical(1))  # a forged True is not seat 1
    assert same(canonical(1), canonical(1.0))
    assert same(canonical((mm.Play("8H"),)), canonical((mm.Play("8H"),)))
    assert not same(canonical((1, 2)), canonical([1, 2]))
    assert same(canonical({3, 1}), canonical({1, 3}))
    assert canonical(Suit.HEARTS) == {"enum": "Suit.HEARTS"}
    deep: list = []
    for _ in range(100):
        deep = [deep]
    assert "deep" in str(canonical(deep))  # a deep value is cut off, not a crash


REFERENCE = [{"kind": "value", "scenario": ["3 players"], "what": "who moves next", "value": 2, "repr": "2",
              "hint": ""}]


def _run(report: object, status: str = OK, evalue: str = "") -> CellRun:
    return CellRun(status, "CheckFailed" if evalue else "", evalue, 0.1, report)


def test_judge_compares_records_with_the_reference():
    good = [dict(REFERENCE[0], repr="2")]
    assert judge(REFERENCE, _run(good), quiet=False).passed
    wrong = [dict(REFERENCE[0], value=0, repr="0")]
    verdict = judge(REFERENCE, _run(wrong), quiet=False)
    assert not verdict.passed and verdict.message == "3 players: who moves next: expected 2, got 0"
    assert not judge(REFERENCE, _run(None), quiet=False).passed           # a silenced check
    assert not judge(REFERENCE, _run([]), quiet=False).passed             # a check that did not run
    assert not judge(REFERENCE, _run(good + good), quiet=False).passed    # records made up
    assert not judge(REFERENCE, _run("nonsense"), quiet=False).passed
    assert not judge(REFERENCE, _run(good, ERROR, "boom"), quiet=False).passed


def test_a_quiet_verdict_carries_no_learner_text():
    wrong = [dict(REFERENCE[0], value=0, repr="the hidden test said: ...")]
    assert judge(REFERENCE, _run(wrong), quiet=True).message == ""
    assert judge(REFERENCE, _run(None, ERROR, "leaked text"), quiet=True).message == ""
    assert judge([], _run(None, ERROR, "leaked text"), quiet=True).message == ""


def test_a_cell_without_checks_is_judged_by_its_errors_and_says_so():
    assert judge([], _run(None), quiet=False) == judge([], _run(None), quiet=False)
    assert judge([], _run(None), quiet=False).passed and not judge([], _run(None), quiet=False).checked
    assert not judge([], _run(None, ERROR, "AssertionError"), quiet=False).passed
