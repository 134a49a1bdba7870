"""A state keeps its cards as the bytes of their indices (issue 39's compact layout): each hand sorted,
the stock and the discard pile in order, read back as the same cards; a state made from cards or from its
own bytes is the same state.  Bad hands and piles given to ``make_state`` are refused with the loader's
sentences, before any state exists."""

from __future__ import annotations

import random

import pytest

import maumau as mm
from maumau.core.cards import CARD_AT, Card
from maumau.core.problems import InvalidState
from maumau.core.state import FIELDS, make_state
from maumau.core.turn import add_cards, cards_of, packed, remove_cards


def _random_states(name: str, count: int, seed: int) -> list[mm.GameState]:
    rng, found, game = random.Random(seed), [], 0
    while len(found) < count:
        state = mm.deal(name, players=rng.choice([2, 3]), seed=seed * 1000 + game)
        game += 1
        while not state.is_over and len(found) < count:
            found.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    return found


@pytest.mark.parametrize("name", mm.variant_names())
def test_a_hand_is_the_sorted_bytes_of_its_cards(name: str) -> None:
    for state in _random_states(name, 400, seed=3):
        for kept, cards in zip(state._hands, state.hands, strict=True):
            assert type(kept) is bytes
            assert list(kept) == sorted(card.index for card in cards)
            assert cards_of(kept) == cards and all(type(card) is Card for card in cards)
        for kept, cards in ((state._stock, state.stock), (state._discard, state.discard)):
            assert type(kept) is bytes and list(kept) == [card.index for card in cards]
        assert state.top is state.discard[-1] and state.stock_size == len(state.stock)


def test_adding_and_removing_cards_keeps_the_hand_sorted_with_its_copies() -> None:
    rng = random.Random(5)
    deck = [card for card in CARD_AT for _ in range(2)]  # copies, as a double deck holds them
    for _ in range(500):
        held: list[Card] = []
        hand = b""
        for card in rng.sample(deck, rng.randrange(1, 30)):
            hand = add_cards(hand, (card,))
            held.append(card)
            assert list(hand) == sorted(c.index for c in held)
        gone = tuple(rng.sample(held, rng.randrange(len(held) + 1)))
        for card in gone:
            held.remove(card)
        assert remove_cards(hand, packed(gone)) == packed(sorted(held))
        assert cards_of(hand) == tuple(sorted(held + list(gone)))


def test_a_state_made_from_cards_equals_the_engines_own() -> None:
    for state in _random_states("makao", 300, seed=4):
        values = {field: getattr(state, "_" + field) for field in FIELDS}
        from_cards = make_state(**{**values, "hands": state.hands, "stock": state.stock,
                                   "discard": state.discard})
        assert from_cards == state and hash(from_cards) == hash(state)
        assert (from_cards._hands, from_cards._stock, from_cards._discard) == (state._hands, state._stock,
                                                                               state._discard)
        assert state.replace(to_move=state.to_move) == state


@pytest.mark.parametrize(("hands", "said"), [
    ("7H 8H", "hands must be a tuple of hands, not '7H 8H'"),
    ((["7H"],), "hands must be a tuple of hands, not (['7H'],)"),
    (((Card.parse("7H"), "8H"),), "seat 0's hand holds '8H', which is not a card"),
    ((b"\x01", (Card.parse("7H"),)), "hands must be a tuple of hands, not (b'\\x01', (Card('7H'),))"),
])
def test_make_state_refuses_hands_that_are_not_tuples_of_cards(hands: object, said: str) -> None:
    state = mm.deal("mau_mau_runde", players=2, seed=1)
    values = {field: getattr(state, "_" + field) for field in FIELDS}
    with pytest.raises(InvalidState) as err:
        make_state(**{**values, "hands": hands})
    assert str(err.value) == said


@pytest.mark.parametrize(("field", "pile", "said"), [
    ("stock", ["7H"], "the stock must be a tuple of cards, not ['7H']"),
    ("discard", (Card.parse("7H"), 7), "the discard pile holds 7, which is not a card"),
    ("discard", "7H", "the discard pile must be a tuple of cards, not '7H'"),
])
def test_make_state_refuses_piles_that_are_not_tuples_of_cards(field: str, pile: object, said: str) -> None:
    state = mm.deal("mau_mau_runde", players=2, seed=1)
    values = {name: getattr(state, "_" + name) for name in FIELDS}
    with pytest.raises(InvalidState) as err:
        make_state(**{**values, field: pile})
    assert str(err.value) == said
