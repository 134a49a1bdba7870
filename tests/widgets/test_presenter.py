"""The one presenter (issue 27): the notebook's table turns clicks into moves from the seat model, and
says for a card exactly the sentence the seat model (and so the class page and ``mm.join``) says."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("ipywidgets")

import maumau as mm  # noqa: E402
from maumau.play.seat_model import seat_model  # noqa: E402
from maumau.text.i18n import use_language  # noqa: E402
from maumau.widgets import TableView  # noqa: E402


def _table(start: mm.GameState, lang: str = "en") -> TableView:
    return TableView(start.variant, start.players - 1, start=start, seed=1, delay=0, step=True, lang=lang)


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_an_illegal_card_says_the_seat_models_sentence_and_changes_nothing(lang: str) -> None:
    start = mm.position("mau_mau_runde", hands=["8S KD 7C", "9D 9C"], top="9H")
    t = _table(start, lang)
    model = seat_model(t.state, 0, lang, lambda s: t.seating.name(s, t.seats))
    for card in ("8S", "KD"):
        t.click(card)
        spot = model.card(mm.Card.parse(card))
        assert spot is not None and spot.why and t.message_text == spot.why
        assert t.state is start and "mm-error" in t.message.value


def test_a_wish_card_asks_the_models_wishes_then_plays_with_the_one_picked() -> None:
    start = mm.position("mau_mau_runde", hands=["JH 8S", "9D 9C"], top="9H")
    t = _table(start)
    t.click("JH")
    assert t.wish.visible and t.state is start
    assert set(t.wish.buttons) >= {mm.Suit("C"), mm.Suit("S")}
    t.wish.buttons[mm.Suit("S")].click()
    assert t.game.moves[-1] == mm.Play("JH", wish="S") and not t.wish.visible


def test_a_set_is_chosen_card_by_card_then_played() -> None:
    start = mm.position("lite_macau", hands=["8H 8S 8C 5D", "9D 9C 4S"], top="8D")
    t = _table(start)
    t.set_button.value = True
    for card in ("8H", "8C", "8S"):
        t.click(card)
    assert [k[0].text for k in t.controller.selected] == ["8H", "8C", "8S"] and t.state is start
    t.play_set_button.click()
    assert t.game.moves[-1].cards == mm.Play("8H 8C 8S").cards and t.controller.selected == []


def test_a_move_the_engine_refuses_says_its_sentence_and_the_announcement_does_not_stick() -> None:
    start = mm.position("mau_mau_runde", hands=["9S KH 7C", "9D 9C"], top="9H")
    t = _table(start)
    t.mau_button.value = True  # "Mau" with three cards in hand: too early (C-8)
    t.click("KH")
    with use_language("en"):
        expected = start.why_illegal(mm.Play("KH", mau=True))
    assert expected and t.message_text == expected and t.state is start
    assert t.mau_button.value is False
    t.click("KH")
    assert t.game.moves[-1] == mm.Play("KH") and t.message_text == ""


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(["makao", "lite_macau", "mau_mau_runde", "joker_mau_mau"]),
       st.sampled_from(["en", "de", "hu"]))
def test_the_notebook_table_draws_the_hand_and_draw_and_pass_from_the_seat_model(seed: int, name: str,
                                                                                lang: str) -> None:
    """Whatever the hand, the notebook's table shows what the learner's seat model says (as mm.join's
    table and the class page do): the cards a click plays raised, Draw and Pass with the model's labels,
    enabled as it says, and, when not, the engine's sentence why as their tooltip."""
    t = mm.play(name, opponents=2, seed=seed, lang=lang, delay=0, step=True)
    rng = random.Random(seed)
    for _ in range(30):
        if t.result is not None:
            break
        model = t.controller.model()
        assert model is not None and model == seat_model(t.state, t.me, lang, lambda s: t.seating.name(s, t.seats))
        assert [b.card for b in t.hand.buttons] == list(model.view.hand)
        leads = {spot.card for spot in model.cards if spot.leads}
        assert {b.card for b in t.hand.buttons if "mm-legal" in b._dom_classes} == leads
        assert leads == ({m.card for m in t.state.legal_moves() if isinstance(m, mm.Play)} if model.my_turn else set())
        for button, move, label, why in ((t.draw_button, model.draw, model.draw_label, model.draw_why),
                                         (t.pass_button, model.pass_, model.pass_label, model.pass_why)):
            assert button.description == label and button.disabled == (move is None)
            assert button.tooltip == (why or "") and (not model.my_turn or move is not None or why)
        if model.my_turn:
            t.move(rng.choice(t.state.legal_moves()))
        else:
            t.next_move()
