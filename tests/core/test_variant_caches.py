"""A variant's caches (playable.legal_cards, playable.plays_on) stay bounded and never travel: a
learner's rule whose memory counts something makes a new table at almost every move, and a process
pool pickles the variant in a thread of its own while this process plays on and fills them."""

from __future__ import annotations

import pickle
import random
from typing import Any

import maumau as mm
from maumau.core import playable


class CountPlays(mm.Rule):
    """House rule: the deal counts its plays in its memory (changes the table after every play)."""

    name = "count_plays"
    remembers = True
    memory_at_deal = 0

    def affects(self, card: Any) -> bool:
        return True

    def on_play(self, turn: Any, card: Any) -> None:
        turn.remember(self, turn.memory_of(self) + 1)


def counting() -> mm.Variant:
    return mm.variant("makao").with_rules(CountPlays())


def play_randomly(v: mm.Variant, hands: int, seed: int = 0) -> int:
    rng, moves = random.Random(seed), 0
    for hand in range(hands):
        s = mm.deal(v, players=3, seed=hand)
        while not s.is_over and moves < 40_000:
            s = s.apply(rng.choice(s.legal_moves()))
            moves += 1
    return moves


def test_a_counting_rule_cannot_grow_the_caches_without_end(monkeypatch: Any) -> None:
    monkeypatch.setattr(playable, "CACHE_TABLES", 300)
    v = counting()
    moves = play_randomly(v, 40)
    assert moves > 2_000  # enough new tables to fill a 300-table cache several times over
    assert 0 < len(v._legal_cache) <= 300 and len(v._plays_cache) <= 300


def test_the_caches_forget_nothing_that_matters(monkeypatch: Any) -> None:
    """Starting again when full changes no answer: the same hands with a cache of 50 tables and of
    the default size give the same moves."""
    def moves_of(limit: int) -> list[str]:
        monkeypatch.setattr(playable, "CACHE_TABLES", limit)
        v, rng, seen = counting(), random.Random(5), []
        s = mm.deal(v, players=2, seed=5)
        while not s.is_over and len(seen) < 3_000:
            legal = s.legal_moves()
            seen.append(" ".join(map(str, legal)))
            s = s.apply(rng.choice(legal))
        return seen
    assert moves_of(50) == moves_of(playable.CACHE_TABLES)


def test_a_pickled_variant_is_what_makes_it_not_its_caches() -> None:
    v = counting()
    empty = len(pickle.dumps(v))
    play_randomly(v, 20)
    assert v._legal_cache and v._plays_cache  # filled by play
    again = pickle.loads(pickle.dumps(v))
    assert len(pickle.dumps(v)) <= empty + 256  # the caches did not travel (a rule's own small notes may)
    assert again == v and hash(again) == hash(v) and again.house_rules() == v.house_rules()
    assert not again._legal_cache and not again._plays_cache
    s = mm.deal(v, players=3, seed=9)
    t = mm.deal(again, players=3, seed=9)
    assert s.legal_moves() == t.legal_moves() and s.hands == t.hands


def test_named_variants_with_options_survive_pickling() -> None:
    for name in mm.variant_names():
        v = mm.variant(name)
        again = pickle.loads(pickle.dumps(v))
        assert again == v and again.title == v.title and again.options == v.options and again.call == v.call
