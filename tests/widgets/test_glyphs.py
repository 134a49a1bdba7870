"""The widgets draw with glyphs every default font has (issue 36).

An emoji (🏆, 🔒, 🃏) is an empty box where no emoji font is installed: the replay and the table
of a played game hold no character outside the Basic Multilingual Plane, in any language; the
winner's cup and the lock of a locked last card are small pictures with their words.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

import ipywidgets as W  # noqa: E402

import maumau as mm  # noqa: E402
from maumau.widgets import ReplayView, TableView  # noqa: E402
from maumau.widgets.board import LOCKED, WINNER, Panel, panel_html  # noqa: E402
from maumau.widgets.style import card_face  # noqa: E402

LANGS = ("en", "de", "hu")
#: A character that needs more than the Basic Multilingual Plane (every emoji picture among them).
OUTSIDE_BMP = re.compile("[\U00010000-\U0010ffff]")


def texts(widget: W.Widget) -> Iterator[str]:
    """Every string a widget and the widgets inside it send to the browser (HTML, labels, tooltips)."""
    for value in widget.get_state().values():
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, str))
    for child in getattr(widget, "children", ()):
        yield from texts(child)


def outside_bmp(widget: W.Widget) -> list[str]:
    return [f"{ch!r} in {text[:80]!r}" for text in texts(widget) for ch in OUTSIDE_BMP.findall(text)]


def played_match(lang: str) -> Any:
    """A match of makao whose hand ran to its end, the winner known."""
    match = mm.Match("makao", players=3, seed=5)
    match.play_hand([mm.players.Random(i) for i in range(3)])
    return match


@pytest.mark.parametrize("lang", LANGS)
def test_the_replay_of_a_won_hand_holds_no_emoji(lang):
    r = ReplayView(played_match(lang), lang=lang)
    assert r.state.is_over and r.state.winner is not None
    assert "<svg" in "".join(p.value for p in r.board.panels)  # the winner's cup is drawn
    assert outside_bmp(r.widget) == []
    for i in range(0, len(r.game) + 1, 7):
        r.go(i)
        assert outside_bmp(r.widget) == [], i


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_of_a_played_hand_holds_no_emoji(lang):
    t = TableView("makao", 2, seed=3, delay=0, lang=lang)
    rng = random.Random(2)
    for _ in range(3000):
        if t.result is not None:
            break
        assert outside_bmp(t.widget) == []
        moves = t.state.legal_moves()
        plays = [m for m in moves if isinstance(m, mm.Play) and len(m.cards) == 1 and not m.runde]
        if plays:
            move = rng.choice(plays)
            t.mau_button.value = move.mau
            t.click(move.card)
            if move.wish is not None:
                t.wish.buttons[move.wish].click()
        else:
            (t.draw_button if mm.Draw() in moves else t.pass_button).click()
    assert t.result is not None and t.state.winner is not None
    assert outside_bmp(t.widget) == []


@pytest.mark.parametrize("lang, winner, locked", [("en", "won the hand", "last card locked (JM-9)"),
                                                 ("de", "hat das Spiel gewonnen", "letzte Karte gesperrt (JM-9)"),
                                                 ("hu", "megnyerte a kört", "az utolsó lap zárolva (JM-9)")])
def test_the_cup_and_the_lock_are_pictures_with_their_words(lang, winner, locked):
    html = panel_html(Panel("Anna", marks=(WINNER, "Mau!", LOCKED)), lang)
    assert not OUTSIDE_BMP.search(html)
    assert html.count("<svg") == 2 and f'aria-label="{winner}"' in html and f'aria-label="{locked}"' in html
    assert "Mau!" in html and "mark." not in html.replace('class="mm-', "")


def test_the_joker_is_drawn_without_an_emoji():
    joker = mm.Card.parse("JOKER")
    for size in ("lg", "sm"):
        for lang in LANGS:
            face = card_face(joker, size, lang)
            assert not OUTSIDE_BMP.search(face) and "★" in face, face
