"""The names of seats across screens (issue 24, item 5): the learner's seat says "you" first
("You (seat 0)", "Du (Platz 0)", "Te (0. játékos)"), others their name or seat; the notebook table,
the terminal and the class page read the same names (maumau.text.locale.seats)."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

import maumau as mm
from maumau.terminal.console import Console
from maumau.terminal.table import you_name
from maumau.text.i18n import t, use_language
from maumau.text.locale.seats import SEAT_WORDS, seat_label, seat_words

LANGS = ("en", "de", "hu")
YOU = {"en": "You", "de": "Du", "hu": "Te"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_learners_seat_says_you_first_and_the_seat_beside_it(lang):
    for seat in range(6):
        label = seat_label(seat, True, lang)
        assert label.startswith(YOU[lang] + " (") and label.endswith(")")
        assert seat_words(seat, lang) in label and str(seat) in label
        assert seat_label(seat, True, lang, start=False) == label[0].lower() + label[1:]
        other = seat_label(seat, False, lang)
        assert other == t("seat.label", lang, seat=seat)  # the seat's label everywhere else
        assert YOU[lang] not in other


@given(st.sampled_from(LANGS), st.integers(0, 9), st.text(min_size=1, max_size=12).filter(str.strip))
def test_a_named_seat_keeps_its_name_and_the_learner_reads_as_on_the_class_page(lang, seat, name):
    if name in (t("seat.label", lang, seat=seat), SEAT_WORDS[lang]["seat.mid"].format(seat=seat)):
        assert seat_label(seat, True, lang, name) == seat_label(seat, True, lang)  # a default is no name
        return
    assert seat_label(seat, False, lang, name) == name
    assert seat_label(seat, True, lang, name) == t("ui.me", lang, name=name)  # the class page's rows
    assert seat_words(seat, lang, name) == name


@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_names_seats_with_the_catalogue(lang):
    with use_language(lang):
        for seat in range(4):
            default = t("seat.label", seat=seat)
            assert you_name(default, seat, seat) == seat_label(seat, True, lang)
            assert you_name(default, seat, (seat + 1) % 4) == default
            assert you_name("Cleo", seat, seat) == seat_label(seat, True, lang, "Cleo")


@pytest.mark.parametrize("lang", LANGS)
def test_a_terminal_hand_lists_the_learner_as_you(lang):
    from maumau.terminal.report import report_hand

    before = mm.position("makao", hands=["9S", "8S QD"], top="10S", stock="8D", to_move=0)
    state = before.apply(next(m for m in before.legal_moves() if "9" in str(m)))
    assert state.is_over and state.winner == 0
    out = io.StringIO()
    with use_language(lang):
        names = [t("seat.label", seat=s) for s in range(2)]
        report_hand(Console(out=out), state, names, me=0)
    text = out.getvalue()
    assert seat_label(0, True, lang) in text, text  # the hand's scores, a list of labels
