"""Shared test helpers for the rule scenario tests, and the layout of tests/.

The tests mirror the package: tests/core, tests/rules, tests/widgets, tests/classroom, ... hold the
tests of maumau/core, maumau/core/rules, maumau/widgets, maumau/classroom; what tests the project as a
whole (layers, sizes, the Makefile, notebooks) stays at the top.  Test modules share helpers by module
name (``from test_hub import Hub``), so every test folder is on the import path, as tests/ is; pytest
imports test files by their base name, so each name is used once in the whole tree.
"""

import sys
from pathlib import Path

import pytest

import maumau as mm

TESTS = Path(__file__).resolve().parent
for _folder in sorted(TESTS.iterdir()):
    if _folder.is_dir() and any(_folder.glob("test_*.py")) and str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))


@pytest.fixture(autouse=True, scope="session")
def graders_deals_seeded():
    """The grader's secret deals of exercise 13 from a seeded generator (the same 62-bit seeds in every run,
    no player can search them either): whether the instructor's solution passes never hangs on luck.
    Session-wide, so that the batches graded by module fixtures use it too."""
    import random

    from maumau.grading import hands

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hands, "SECRET_SOURCE", lambda: random.Random(34))
        yield


def play_seq(state, *moves):
    """Apply ``moves`` in order and return the final state."""
    for move in moves:
        state = state.apply(move)
    return state


def cs(text):
    """Cards as a sorted list, for comparing hands."""
    return sorted(mm.cards(text))


def hand(s, seat):
    return sorted(s.hands[seat])


def snapshot(s):
    return (s.hands, s.stock, s.discard, s.to_move, s.direction, s.wish, s.pending, s.phase,
            s.runde, s.locked, s.active, s.is_over, s.winner)


def assert_illegal(s, move, *rule_ids):
    """The move is not listed, apply() raises IllegalMove naming the rule, nothing changes."""
    before = snapshot(s)
    assert move not in s.legal_moves()
    with pytest.raises(mm.IllegalMove) as err:
        s.apply(move)
    message = str(err.value)
    for rule_id in rule_ids:
        assert rule_id in message, message
    assert snapshot(s) == before
    assert s.explain(move) == message
    return message


def assert_sentence(s, move):
    text = s.explain(move)
    assert isinstance(text, str) and text.endswith(".") and len(text.split()) >= 3, text
    return text


def plays(s):
    return {m for m in s.legal_moves() if isinstance(m, mm.Play)}
