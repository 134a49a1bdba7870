"""Typed events: the Turn API records what a rule did, naming the rule (maumau/events.py).

A rule written the way the exercises ask (a class of its own, not a subclass of the shipped one)
must show up everywhere the shipped rule does: in the narration, in the statistics of
``simulate``, in the phase graph's labels and in the events themselves.
"""

from __future__ import annotations

import random

import pytest

import maumau as mm
from maumau.core import events as E
from maumau.core.rules import (
    AceExtraPlay,
    EightSkipsSummed,
    JokerDrawsFour,
    QueenOfHeartsCancels,
    ReverseOnNine,
    Runde,
    SevenDrawsTwo,
    SkipOnEight,
)
from maumau.graph.phases import transition_label
from maumau.simulation.run import rules_acting
from maumau.text.explain import narrate


def learners_copy(shipped: mm.Rule) -> mm.Rule:
    """The shipped rule's code in a class of the learner's own, as an exercise's solution is."""
    body = {k: v for k, v in vars(type(shipped)).items() if k not in ("__dict__", "__weakref__")}
    for klass in type(shipped).__mro__[1:]:
        if klass is mm.Rule:
            break
        for k, v in vars(klass).items():
            body.setdefault(k, v)
    cls = type(f"My{type(shipped).__name__}", (mm.Rule,), body)
    copy = cls.__new__(cls)
    copy.__dict__.update(vars(shipped))
    return copy


def _stories(variant: mm.Variant, seeds: range, players: int = 3) -> list[tuple[str, str, tuple[str, ...]]]:
    """Random hands: per move, its sentence, its phase label and the rules acting."""
    told = []
    for seed in seeds:
        rng = random.Random(seed)
        state = mm.deal(variant, players=players, seed=seed)
        for _ in range(300):
            if state.is_over:
                break
            move = rng.choice(sorted(state.legal_moves(), key=repr))
            after = state.apply(move)
            told.append((narrate(state, move, after), transition_label(state, move, after),
                         tuple(sorted(rules_acting(move, after)))))
            state = after
    return told


@pytest.mark.parametrize("game, name", [
    ("makao", "skip_on_eight"), ("makao", "reverse_on_nine"), ("makao", "seven_draws_two"),
    ("makao", "ace_extra_play"), ("makao", "jack_wishes_suit"), ("makao", "last_seven_hits"),
    ("lite_macau", "kings_draw_five"), ("lite_macau", "queen_of_hearts_cancels"),
    ("lite_macau", "four_skips"), ("mau_mau_runde", "runde"), ("joker_mau_mau", "joker_draws_four"),
    ("joker_mau_mau", "eight_skips_summed"), ("joker_mau_mau", "mau_lock"), ("joker_mau_mau", "ace_may_play_again"),
    ("lite_macau", "macau_penalty"), ("lite_macau", "two_three_draw"), ("lite_macau", "ace_wishes_suit"),
    ("makao", "mau_penalty"),
])
def test_a_learners_rule_is_told_and_counted_as_the_shipped_one(game, name):
    shipped = mm.variant(game)
    mine = shipped.with_rules(learners_copy(shipped.rule(name)))
    assert type(mine.rule(name)) is not type(shipped.rule(name))
    assert _stories(mine, range(12)) == _stories(shipped, range(12))


def test_events_name_the_rule_that_acted():
    v = mm.variant("makao")
    s = mm.position(v, hands=["8H 9C 7D 5C", "7S 4D 5S", "5D 6C 2S"], top="8C", stock="2C 3D 4H")
    assert s.apply(mm.Play("8H")).events == (E.Skipped(1, 1, rule=v.rule("skip_on_eight")),)
    assert isinstance(s.apply(mm.Play("8H")).events[0].rule, SkipOnEight)
    after = mm.position(v, hands=["9C 7D 5C", "7S", "5D"], top="9H", stock="2C").apply(mm.Play("9C"))
    assert [type(e) for e in after.events] == [E.Reversed]
    assert isinstance(after.events[0].rule, ReverseOnNine)
    seven = mm.position(v, hands=["7D 5C 6C", "7S 4D", "5D 6D"], top="7H", stock="2C 3D 4H").apply(mm.Play("7D"))
    pending, = seven.events
    assert pending == E.EffectPending("draw", 2, 1, rule=v.rule("seven_draws_two"))
    accepted = seven.apply(mm.Draw())
    assert E.PenaltyDrawn(1, 2, 2, rule=v.rule("seven_draws_two")) in accepted.events
    ace = mm.position(v, hands=["AD 5C 6C", "7S 4D", "5D 6D"], top="AH", stock="2C").apply(mm.Play("AD"))
    assert ace.events == (E.PlaysAgain(0, rule=v.rule("ace_extra_play")),)
    jack = mm.position(v, hands=["JD 5C 6C", "7S 4D", "5D 6D"], top="5D", stock="2C").apply(mm.Play("JD", wish="H"))
    assert [type(e) for e in jack.events] == [E.Wished] and jack.events[0].wish is mm.Suit.HEARTS
    drew = mm.position(v, hands=["5C 6C", "7S 4D"], top="2D", stock="2C 3D 4H").apply(mm.Draw())
    assert drew.events == (E.Drew(0, 1, 1),) and drew.events[0].rule is None  # C-4: the core


def test_the_fast_and_the_turn_path_record_the_same_events():
    for name in mm.variant_names():
        rng = random.Random(name)
        for seed in range(6):
            state = mm.deal(name, players=3, seed=seed)
            while not state.is_over:
                move = rng.choice(state.legal_moves())
                fast, slow = state.apply(move), mm.core.state.apply_move(state, move, fast=False)
                assert fast.events == slow.events
                assert all(type(e) in E.EVENT_TYPES for e in fast.events)
                state = fast


def test_an_event_equals_only_an_event_of_its_own_kind():
    assert E.Drew(0, 1, 1) != E.PenaltyDrawn(0, 1, 1)
    assert E.Drew(0, 1, 1) == E.Drew(0, 1, 1) and hash(E.Drew(0, 1, 1)) == hash(E.Drew(0, 1, 1))
    assert E.Skipped(1, 1) != E.Locked(1)
    with pytest.raises(AttributeError):
        E.Drew(0, 1, 1).seat = 2  # records do not change


def test_the_queen_of_hearts_cancel_names_the_cancelled_rule():
    v = mm.variant("lite_macau")
    s = mm.position(v, hands=["KH 5C 6C", "QH 4D 7S", "5D 6D 8D"], top="KS", stock="2C 3D 4H 5H 6H 7H 8H")
    kings = s.apply(mm.Play("KH"))
    assert kings.pending is not None and kings.pending.target == 1
    cancelled = kings.apply(mm.Play("QH"))
    cancel, = [e for e in cancelled.events if isinstance(e, E.Cancelled)]
    assert isinstance(cancel.rule, QueenOfHeartsCancels) and cancel.cancelled == v.rule("kings_draw_five")
    assert "(LM-8)" in narrate(kings, mm.Play("QH"), cancelled)


def test_the_runde_and_the_joker_record_what_they_did():
    runde = mm.variant("mau_mau_runde")
    s = mm.position(runde, hands=["9H 9C 8C", "7S 10D", "QD KD"], top="9D", stock="7C 8D")
    opened = s.apply(mm.Play("9H", runde=True))
    assert opened.events == (E.RundeOpened(0, mm.Rank.NINE, rule=runde.rule("runde")),)
    assert isinstance(opened.events[0].rule, Runde)
    joker = mm.variant("joker_mau_mau")
    j = mm.position(joker, hands=["JOKER 10C QC", "7S KD", "QD KH"], top="9D", stock="7C 8D 9H 10H")
    after = j.apply(mm.Play("JOKER", wish="C"))
    drawn = [e for e in after.events if isinstance(e, E.PenaltyDrawn)]
    assert drawn == [E.PenaltyDrawn(1, 4, 4, rule=joker.rule("joker_draws_four"))]
    assert isinstance(drawn[0].rule, JokerDrawsFour)
    assert not isinstance(drawn[0].rule, (AceExtraPlay, EightSkipsSummed, SevenDrawsTwo))


class DrawN(mm.Rule):
    """A learner's rule with a setting: a 5 makes the next player draw n (a house rule)."""

    name = "draw_n"

    def __init__(self, n: int) -> None:
        self.n = n


def test_rules_are_equal_only_with_equal_settings():
    assert DrawN(1) != DrawN(5) and DrawN(5) == DrawN(5)
    assert hash(DrawN(5)) == hash(DrawN(5))
    assert repr(DrawN(5)) == "DrawN(n=5)"
    assert mm.variant("makao").with_rules(DrawN(1)) != mm.variant("makao").with_rules(DrawN(5))
    cited = SkipOnEight().cite("MR-6")
    assert cited == SkipOnEight()  # the id a section cites it by is no setting


def test_what_a_rule_is_is_declared_not_guessed_from_its_name():
    from maumau.core.rules import Role

    makao = mm.variant("makao")
    assert [r.name for r in makao.having(Role.SKIP)] == ["skip_on_eight"]
    assert makao.call == "Makaó" and mm.variant("lite_macau").call == "Macau"
    assert mm.variant("mau_mau_runde").call == "Mau"
    assert makao.without("reverse_on_nine").call == "Makaó"  # a policy of the variant, kept by house rules
    assert makao.join_and_leave and not mm.variant("lite_macau").join_and_leave
    # a learner's Ace rule (a class of its own) still gives the extra play its closer (JM-8)
    joker = mm.variant("joker_mau_mau")
    mine = joker.with_rules(learners_copy(joker.rule("ace_may_play_again")))
    assert mine.extra_closer == mm.Pass() == joker.extra_closer
