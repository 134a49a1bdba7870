"""The one seat model (issue 27): what a seat sees and may do, as data, for the notebook's table,
``mm.join``'s table and the class page alike; its wire form comes back the same model."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau.classroom.views import model_from_wire, model_to_wire, seat_view, view_from_wire
from maumau.play.seat_model import seat_model
from maumau.players.view import View
from maumau.text.i18n import use_language


def _names(seat: int) -> str:
    return ["Anna", "Ben", "Cleo"][seat]


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_a_card_that_may_not_be_played_carries_the_engines_sentence_in_the_seats_language(lang: str) -> None:
    state = mm.position("mau_mau_runde", hands=["8S KD 7C", "9D 9C"], top="9H")
    model = seat_model(state, 0, lang, _names)
    assert model.my_turn and isinstance(model.view, View) and model.view.hand == state.hands[0]
    by_card = {spot.card.text: spot for spot in model.cards}
    for text in ("8S", "KD", "7C"):
        with use_language(lang):
            expected = state.why_illegal(mm.Play(text))
        assert by_card[text].why == expected and not by_card[text].playable and expected
    assert model.draw == mm.Draw() and model.pass_ is None


def test_a_wish_card_offers_each_wish_and_its_why_not_is_about_the_card_not_the_wish() -> None:
    state = mm.position("mau_mau_runde", hands=["JH 8S", "9D 9C"], top="9H")
    jack = seat_model(state, 0, "en", _names).card(mm.Card.parse("JH"))
    assert jack is not None and jack.why is None
    assert jack.asks_wish and sorted(str(w) for w in jack.wishes) == ["C", "D", "H", "S"]
    assert {c.label for c in jack.choices} >= {"J♥, wish ♥ Hearts", "J♥, wish ♠ Spades"}
    # under a pending 7 a Jack does not answer: the sentence says why, not "say which wish"
    pending = mm.position("mau_mau_runde", hands=["JH 8S", "9D 9C"], top="7H", pending_draw=2)
    jack = seat_model(pending, 0, "en", _names).card(mm.Card.parse("JH"))
    assert jack is not None and not jack.playable and jack.why and "wish" not in jack.why.split("(")[0].lower()
    assert seat_model(pending, 0, "en", _names).draw_label == "Take 2 cards"


def test_sets_are_choices_of_their_first_card_and_a_seat_not_to_move_only_waits() -> None:
    state = mm.position("lite_macau", hands=["8H 8S 8C 5D", "9D 9C 4S"], top="8D")
    model = seat_model(state, 0, "en", _names)
    eight = model.card(mm.Card.parse("8H"))
    assert eight is not None and any(len(c.move.cards) == 3 for c in eight.choices) and not eight.asks_wish
    assert model.sets and all(len(s.cards) > 1 and s.cards[0].rank == s.cards[-1].rank for s in model.sets)
    assert any(c.label.endswith("together") for c in eight.choices)
    other = seat_model(state, 1, "de", _names)
    assert not other.my_turn and all(not c.playable and c.why is None for c in other.cards)
    assert other.status == "Warte: Anna ist am Zug."


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(["en", "de", "hu"]))
@example(3000, "en")  # a K♠ draw penalty in lite_macau: who moves after it (resume, LM-9) crosses too
def test_the_model_crosses_the_wire_and_comes_back_the_same(seed: int, lang: str) -> None:
    rng = random.Random(seed)
    name = rng.choice(["makao", "lite_macau", "mau_mau_runde", "joker_mau_mau"])
    state = mm.deal(name, players=3, seed=seed)
    for _ in range(rng.randrange(40)):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    for seat in range(3):
        model = seat_model(state, seat, lang, _names)
        view = view_from_wire(state.variant, seat_view(state, seat, lang, _names))
        assert view == model.view
        assert model_from_wire(view, lang, model_to_wire(model)) == model
