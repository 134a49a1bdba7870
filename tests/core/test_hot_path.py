"""What the engine's hot path keeps apart from the rules, checked against the rules (issue 29): the
plays cached per table against asking the rules card by card, the reshuffle's shuffle against
Python's own, and the JM-9 lock read by the variant's slot against the memory scanned for it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau.core.playable import card_refusal, plays_on
from maumau.core.rules.base import lock_slot, locked_in
from maumau.core.turn import shuffle


def _states(name: str, count: int, seed: int) -> list[mm.GameState]:
    rng = random.Random(seed)
    found: list[mm.GameState] = []
    game = 0
    while len(found) < count:
        state = mm.deal(name, players=2 + game % 3, seed=seed + game)
        game += 1
        while not state.is_over and len(found) < count:
            found.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    return found


def test_the_cached_plays_of_a_table_are_what_the_rules_allow_card_by_card() -> None:
    for name in mm.variant_names():
        variant = mm.variant(name)
        for state in _states(name, 600, seed=7):
            plays = plays_on(variant, state.top, state.wish, state.pending, state.memory)
            table = state.table
            for card in variant.distinct_cards:
                allowed = card_refusal(variant, card, table) is None
                found = plays[0][card.index], plays[1][card.index]  # by the card's index, as a hand is kept
                assert (found[0] is not None) is allowed and (found[1] is not None) is allowed, (name, card, table)
                if allowed:
                    assert found == (variant._plays[0][card], variant._plays[1][card])


def test_a_play_is_legal_exactly_when_the_rules_do_not_refuse_it() -> None:
    for name in mm.variant_names():
        for state in _states(name, 400, seed=11):
            legal = state.legal_moves()
            assert len(legal) == len(set(legal))
            for card in set(state.hand()):
                for play in state.variant._plays[len(state.hand()) == 2][card]:
                    assert (play in legal) is (state.refusal(play) is None), (name, play)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), size=st.integers(0, 120))
def test_the_reshuffle_shuffles_as_python_does(seed: int, size: int) -> None:
    ours, theirs = list(range(size)), list(range(size))
    mine, python = random.Random(seed), random.Random(seed)
    shuffle(ours, mine.getrandbits)
    python.shuffle(theirs)
    assert ours == theirs
    assert mine.getrandbits(63) == python.getrandbits(63)  # the next seed too (C-6)


@settings(max_examples=60, deadline=None)
@given(locked=st.lists(st.integers(0, 2), unique=True, max_size=3), seat=st.integers(0, 2))
def test_the_lock_is_read_where_the_memory_keeps_it(locked: list[int], seat: int) -> None:
    state = mm.position("joker_mau_mau", hands=["7H", "8C", "KD"], top="7C", to_move=seat,
                        locked=locked)
    slot = state.variant._lock_slot
    assert slot == lock_slot(state.memory) >= 0
    assert state.locked == locked_in(state.memory) == locked_in(state.memory, slot) == frozenset(locked)
    assert mm.variant("makao")._lock_slot == -1 and locked_in(mm.deal("makao", seed=1).memory) == frozenset()
