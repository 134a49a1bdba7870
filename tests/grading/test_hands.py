"""A player's hands, played in the kernel and again by the grader (maumau.grading.hands).

The grader counts the wins of exercise 13 itself: it plays every hand again with the
instructor's set-ups, its own Random opponents and the learner's recorded moves.  These tests
check that an honest record replays to the same wins (also from a process with another hash
seed), and that made-up, cut or doctored records, and junk, fail without breaking the grader.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau.grading import checks
from maumau.grading.checks import CheckFailed, check_wins
from maumau.grading.hands import Hands, judge_hands, play_hands, replay
from maumau.text.i18n import set_language

REPO = Path(__file__).resolve().parents[2]


class FirstCard:
    """Plays the first card it can, else draws or passes."""

    def choose(self, view):
        plays = [m for m in view.legal_moves() if isinstance(m, mm.Play)]
        return plays[0] if plays else view.legal_moves()[0]


class AlwaysDraw:
    """Draws whenever it may: it hardly ever wins."""

    def choose(self, view):
        moves = view.legal_moves()
        return mm.Draw() if mm.Draw() in moves else moves[-1]


def as_sent(hands: Hands) -> tuple[dict, dict]:
    """The instructor's and the learner's records of ``hands``, through JSON as the kernel sends them."""
    want = {"setups": hands.setups, "at_least": 0.6}
    got = {"setups": hands.setups, "moves": hands.moves}
    return json.loads(json.dumps(want)), json.loads(json.dumps(got))


@pytest.fixture(scope="module")
def hands():
    return play_hands(FirstCard(), games=30, seed=3)


def test_an_honest_record_replays_to_the_same_wins(hands):
    for setup, moves, won in zip(hands.setups, hands.moves, hands.won, strict=True):
        assert replay(setup, moves) == (won, "")
    want, got = as_sent(hands)
    assert judge_hands(want, got) == (True, f"won {sum(hands.won)} of 30 hands ({hands.win_rate:.0%})")


def test_a_weak_player_fails_on_the_graders_count():
    weak = play_hands(AlwaysDraw(), games=20, seed=1)
    passed, message = judge_hands(*as_sent(weak))
    assert not passed and message.endswith("at least 60% needed"), message


def test_hands_played_in_another_process_replay_here(hands):
    """The kernel is another process, maybe with another hash seed: the same hands."""
    code = ("import json, sys; sys.path.insert(0, 'tests/grading'); from test_hands import FirstCard; "
            "from maumau.grading.hands import play_hands; h = play_hands(FirstCard(), games=30, seed=3); "
            "print(json.dumps([h.setups, h.moves, h.won]))")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env,
                          timeout=120, check=True)
    setups, moves, won = json.loads(done.stdout)
    assert [setups, moves, won] == json.loads(json.dumps([hands.setups, hands.moves, hands.won]))


def test_made_up_cut_or_doctored_records_fail(hands):
    want, got = as_sent(hands)
    cases = {
        "no moves": {**got, "moves": [[] for _ in got["moves"]]},
        "one move cut": {**got, "moves": [got["moves"][0][:-1]] + got["moves"][1:]},
        "another card": {**got, "moves": [[{"play": "AS"}] + got["moves"][0][1:]] + got["moves"][1:]},
        "not a move": {**got, "moves": [[{"fly": True}]] + got["moves"][1:]},
        "easier seeds": {**got, "setups": [{**s, "seed": 0} for s in got["setups"]]},
        "fewer hands": {"setups": got["setups"][:5], "moves": got["moves"][:5]},
        "nothing": None,
    }
    for name, doctored in cases.items():
        passed, message = judge_hands(want, doctored)
        assert not passed, name
        assert message, name


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                     max_size=4),
                         max_leaves=12))
def test_junk_records_fail_without_breaking_the_grader(hands, junk):
    want, got = as_sent(hands)
    for doctored in (junk, {"setups": got["setups"], "moves": junk},
                     {"setups": got["setups"], "moves": [junk] + got["moves"][1:]}):
        passed, message = judge_hands(want, doctored)
        assert not passed and isinstance(message, str)


def test_check_wins_records_the_moves_and_compares_nothing_in_a_learners_kernel(hands, monkeypatch):
    monkeypatch.setattr(checks, "_records", [])
    check_wins("won at least 60% of the hands", hands)  # as the grader runs it: no expected share
    [record] = checks._records
    assert record["kind"] == "hands" and record["value"] == {"setups": hands.setups, "moves": hands.moves}


@pytest.mark.parametrize(("language", "words"), [("en", "won 0 of 20 hands (0%), at least 60% needed"),
                                                 ("de", "0 von 20 Spielen gewonnen (0%), mindestens 60% nötig"),
                                                 ("hu", "20 leosztásból 0 megnyerve (0%), legalább 60% kell")])
def test_a_learner_sees_how_many_hands_were_won(language, words):
    weak = play_hands(AlwaysDraw(), games=20, seed=1)
    assert sum(weak.won) == 0
    set_language(language)
    try:
        with pytest.raises(CheckFailed, match=words.replace("(", r"\(").replace(")", r"\)")):
            check_wins("won at least 60% of the hands", weak, 0.6)
    finally:
        set_language("en")
