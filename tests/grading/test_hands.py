"""A player's hands, played with the player in a process of its own (maumau.grading.hands, issue 34).

The player receives only its seat's View: what a player finds up its call stack, in ``gc``, in
the globals of its caller or behind its View is checked in that process (and, as a control, the
same player finds the real state when it plays in this process).  The grader plays on deals with
secret seeds (a player that searches the seeds finds none), from a record of a few kilobytes
whatever the hands; a fault of the player says which hand and what; junk records fail without
breaking the grader.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau.grading import checks, hands
from maumau.grading.checks import CheckFailed, check_wins
from maumau.grading.hands import PACKED_CHARS, Hands, HandSpec, _in_kernel, deals, judge_hands, pack, play_hands
from maumau.grading.kernel import REPORT_BYTES
from maumau.text.i18n import set_language


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


def _is_state(obj, view) -> bool:
    return isinstance(obj, mm.GameState) and obj.hands[view.seat] == view.hand


class Spy(FirstCard):
    """The first legal card; raises when it finds the real GameState by ``route``."""

    def __init__(self, route: str) -> None:
        self.route = route

    def choose(self, view):
        if self.route == "frames":  # every frame up the stack, its locals and its module's globals
            frame = sys._getframe(1)
            while frame is not None:
                if any(_is_state(v, view) for v in (*frame.f_locals.values(), *frame.f_globals.values())):
                    raise RuntimeError("saw the real state up the call stack")
                frame = frame.f_back
        elif self.route == "gc":
            if any(_is_state(o, view) for o in gc.get_objects()):
                raise RuntimeError("saw the real state in gc")
        elif self.route == "view":  # what the View refers to, three steps deep
            todo, seen = [(view, 0)], set()
            while todo:
                obj, depth = todo.pop()
                if id(obj) in seen or depth > 3:
                    continue
                seen.add(id(obj))
                if _is_state(obj, view) or (isinstance(obj, tuple) and len(obj) == len(view.hand_sizes)
                                            and all(isinstance(h, tuple) for h in obj) and obj[view.seat] == view.hand
                                            and len(obj) > 1):
                    raise RuntimeError("saw the hands behind the View")
                todo += [(r, depth + 1) for r in gc.get_referents(obj)]
        return super().choose(view)


class SeedSearch(FirstCard):
    """At a hand's first move, looks for the deal's seed among the first 3,000; raises if found."""

    def choose(self, view):
        if view.hand_sizes == (7, 7):  # a hand's first move (seat 0's)
            for seed in range(3000):
                dealt = mm.deal("makao", players=2, seed=seed)
                if dealt.hands[view.seat] == view.hand and dealt.discard == view.discard:
                    raise RuntimeError(f"found the deal's seed {seed}")
        return super().choose(view)


class Stub:
    def choose(self, view):
        raise NotImplementedError()


class Illegal:
    def choose(self, view):
        return mm.Play(view.discard[-1])  # the top card: never in its hand


class NoMove:
    def choose(self, view):
        return "draw"


class BigTable(FirstCard):
    """An honest player that carries a large table (as a learner's lookup table might)."""

    def __init__(self, entries: int) -> None:
        self.table = {f"situation {i}": i % 7 for i in range(entries)}


@pytest.fixture(autouse=True)
def not_graded():
    checks._records = None
    yield
    checks._records = None


def as_graded(monkeypatch, player, **hands):
    """The instructor's and the learner's records of a test's hands, through JSON, as graded kernels send them."""
    got, want = [], []
    monkeypatch.setattr(checks, "_records", got)
    check_wins("won", play_hands(player, **hands))
    monkeypatch.setattr(checks, "_records", want)
    check_wins("won", play_hands(FirstCard(), **hands), 0.3)
    monkeypatch.setattr(checks, "_records", None)
    return json.loads(json.dumps(want[0]["value"])), json.loads(json.dumps(got[0]["value"]))


def test_a_player_in_its_process_wins_the_hands_it_wins_here():
    spec = HandSpec(games=40, seed=3, opponent="medium")
    played = play_hands(FirstCard(), games=40, seed=3, opponent="medium")
    assert played.won == _in_kernel(FirstCard(), spec, deals(spec)) and 0 < sum(played.won) < 40


@pytest.mark.parametrize("route", ["frames", "gc", "view"])
def test_the_player_finds_no_game_state_in_its_process(route):
    if route != "view":  # the control: where the game runs, the stack and gc hold it (a View never does)
        with pytest.raises(RuntimeError, match="saw the real"):
            _in_kernel(Spy(route), HandSpec(games=1), deals(HandSpec(games=1)))
    assert len(play_hands(Spy(route), games=3, seed=5)) == 3


def test_the_graders_deals_have_seeds_no_player_can_search(monkeypatch):
    with pytest.raises(CheckFailed, match="found the deal's seed 0"):  # the control: the learner's own deals
        play_hands(SeedSearch(), games=2, seed=0)
    want, got = as_graded(monkeypatch, SeedSearch(), games=4, seed=0)
    passed, message = judge_hands(dict(want, at_least=0.0), got)
    assert passed and "found" not in message, message


def test_the_record_is_small_and_the_grader_plays_the_hands(monkeypatch):
    want, got = as_graded(monkeypatch, FirstCard(), games=2000, seed=0, opponent="medium")
    assert set(got) == {"spec", "player", "problem"} and len(json.dumps(got)) < 5_000
    assert want == {"spec": got["spec"], "at_least": 0.3}
    small = dict(want, at_least=0.1, spec=dict(want["spec"], games=60))  # the first legal card: about 41%
    passed, message = judge_hands(small, dict(got, spec=small["spec"]))
    assert passed and message.startswith("won ") and "of 60 hands" in message
    passed, message = judge_hands(dict(small, at_least=0.9), dict(got, spec=small["spec"]))
    assert not passed and "at least 90% needed" in message


def test_the_largest_honest_record_fits_the_report_and_a_larger_player_is_refused(monkeypatch):
    _, got = as_graded(monkeypatch, BigTable(12_000), games=2000, opponent="medium")
    report = [{"kind": "hands", "scenario": ["s"], "what": "won", "value": got, "repr": "", "hint": ""}]
    assert not got["problem"] and PACKED_CHARS // 2 < len(got["player"]) <= PACKED_CHARS
    assert len(json.dumps(report)) <= REPORT_BYTES
    _, got = as_graded(monkeypatch, BigTable(40_000), games=2000, opponent="medium")
    assert got["player"] == "" and "at most 400,000 are taken" in got["problem"]
    assert judge_hands({"spec": got["spec"], "at_least": 0.45}, got) == (False, got["problem"])
    with pytest.raises(CheckFailed, match="at most 400,000 are taken"):
        play_hands(BigTable(40_000), games=1)


@pytest.mark.parametrize(("player", "words"), [
    (Stub(), "s: Stub.choose is not written yet: replace raise NotImplementedError() with your code"),
    (Illegal(), "s: hand 1 (move 1): your player at seat 0 chose an illegal move"),
    (NoMove(), "s: hand 1 (move 1): choose returned 'draw', not a move"),
])
def test_a_fault_of_the_player_says_which_hand_and_what(player, words, capsys):
    with checks.scenario("s"):  # in the learner's notebook: the ✗ line, and the cell goes on
        play_hands(player, games=3)
    assert f"Check failed:\x1b[0m {words}" in capsys.readouterr().out
    checks._results.clear()
    checks._failed_here.clear()


class Spinner(FirstCard):
    def choose(self, view):
        while True:
            pass


class Sleeper(FirstCard):
    def choose(self, view):
        time.sleep(0.05)
        return super().choose(view)


def test_a_player_that_thinks_too_long_fails_on_the_cpu_clock(monkeypatch, capsys):
    monkeypatch.setattr(hands, "REQUEST_SECONDS", 0.5)
    began = time.monotonic()
    with checks.scenario("s"):
        play_hands(Spinner(), games=3)
    words = "s: hand 1: your player did not answer within 0.5 s of CPU time (2 s on the clock)"
    assert words in capsys.readouterr().out
    assert time.monotonic() - began < 30
    checks._results.clear()
    checks._failed_here.clear()


def test_a_player_that_sleeps_cannot_hold_the_grader(monkeypatch):
    """Each move in time, but all the hands past the wall-clock budget: the grader stops there."""
    monkeypatch.setattr(hands, "BASE_SECONDS", 0.5)
    monkeypatch.setattr(hands, "HAND_SECONDS", 0.0)
    spec = HandSpec(games=40).to_dict()
    began = time.monotonic()
    passed, message = judge_hands({"spec": spec, "at_least": 0.0}, {"spec": spec, "player": pack(Sleeper()),
                                                                   "problem": ""})
    assert not passed and message == "your player took longer than 2 s (wall-clock time) for 40 hands", message
    assert time.monotonic() - began < 30


def test_a_slow_referee_on_a_busy_machine_does_not_count_against_the_player(monkeypatch):
    """The wall-clock budget is the time spent waiting for the player's answers: the opponents' moves,
    made by the grader (slow on a loaded machine), are not the player's (CI failed on this under load)."""
    monkeypatch.setattr(hands, "BASE_SECONDS", 0.5)
    monkeypatch.setattr(hands, "HAND_SECONDS", 0.0)
    advance = hands._Hand.advance

    def slow_advance(hand: hands._Hand) -> None:
        time.sleep(0.05)  # a busy machine: the referee's own work takes wall time
        advance(hand)

    monkeypatch.setattr(hands._Hand, "advance", slow_advance)
    spec = HandSpec(games=10).to_dict()
    began = time.monotonic()
    passed, message = judge_hands({"spec": spec, "at_least": 0.0}, {"spec": spec, "player": pack(FirstCard()),
                                                                   "problem": ""})
    assert time.monotonic() - began > 2  # longer than the whole wall budget (0.5 s x 4)...
    assert passed, message  # ...and still the player's moves were all in time


def test_a_stub_fails_when_graded_too(monkeypatch):
    want, got = as_graded(monkeypatch, Stub(), games=5)
    assert judge_hands(want, got) == (False, "your player's choose is not written yet: replace raise "
                                             "NotImplementedError() with your code")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                     max_size=4),
                         max_leaves=12))
def test_junk_records_fail_without_breaking_the_grader(junk):
    spec = HandSpec(games=3).to_dict()
    want = {"spec": spec, "at_least": 0.0}
    for doctored in (junk, {"spec": spec, "player": junk, "problem": ""}, {"spec": junk, "player": "x"}):
        passed, message = judge_hands(want, doctored)
        assert not passed and isinstance(message, str)
    for forged in (junk, {"spec": junk, "at_least": junk}):
        passed, message = judge_hands(forged, {"spec": spec, "player": "", "problem": ""})
        assert not passed and isinstance(message, str)


def test_a_player_that_is_not_one_fails_in_its_process():
    spec = HandSpec(games=2).to_dict()
    passed, message = judge_hands({"spec": spec, "at_least": 0.0}, {"spec": spec, "player": "bm90IGEgcGlja2xl",
                                                                   "problem": ""})
    assert not passed and message.startswith("your player did not start in its process"), message


def test_check_wins_records_the_player_and_compares_nothing_while_graded(monkeypatch):
    monkeypatch.setattr(checks, "_records", [])
    hands = play_hands(AlwaysDraw(), games=2000, seed=0, opponent="medium")
    assert isinstance(hands, Hands) and hands.won == [] and hands.player
    check_wins("won at least 60% of the hands", hands, 0.6)  # the reference run: no hands, nothing compared
    check_wins("won at least 60% of the hands", hands)
    reference, learner = (r["value"] for r in checks._records)
    assert reference == {"spec": hands.spec.to_dict(), "at_least": 0.6}
    assert learner == {"spec": hands.spec.to_dict(), "player": hands.player, "problem": ""}


@pytest.mark.parametrize(("language", "words"), [
    ("en", "won 0 of 20 hands (0%), at least 60% needed"),
    ("de", "0 von 20 Spielen gewonnen (0\u00a0%), mindestens 60\u00a0% nötig"),   # German: "60 %"
    ("hu", "20 leosztásból 0 megnyerve (0\u00a0%), legalább 60\u00a0% kell"),
])
def test_a_learner_sees_how_many_hands_were_won(language, words):
    weak = play_hands(AlwaysDraw(), games=20, seed=1)
    assert sum(weak.won) == 0
    set_language(language)
    try:
        with pytest.raises(CheckFailed, match=words.replace("(", r"\(").replace(")", r"\)")):
            check_wins("won at least 60% of the hands", weak, 0.6)
    finally:
        set_language("en")


@pytest.mark.parametrize("first", ["maumau.league.wire", "maumau.league", "maumau.grading.hands",
                                   "maumau.grading.player_runner"])
def test_the_league_and_the_player_process_import_in_any_order(first):
    """The league imports the grading package, which plays exercise 13's hands with the league's process."""
    code = f"import {first}, maumau.grading.hands, maumau.league.process; print('ok')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr[-500:]
