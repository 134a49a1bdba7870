"""The table for every learner (issue 16), its Python side: what a screen reader is told (card names
with their playability, in en/de/hu; the log as a live region with every move), the letter keys
(pressed without a browser, as access.js sends them), and the four-colour deck and high contrast.
The browser side (focus, arrows, axe-core) is tests/browser/drive_table.py."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

import maumau as mm  # noqa: E402
from maumau.widgets import ReplayView, RulesExplorer, TableView  # noqa: E402
from maumau.widgets.access import Access, LiveLog  # noqa: E402
from maumau.widgets.keys import KEYS, keys_text  # noqa: E402
from maumau.widgets.style import card_face  # noqa: E402
from maumau.widgets.theme import SUIT_COLOURS, THEME_CSS  # noqa: E402

WIDGETS = Path(mm.__file__).parent / "widgets"
START = ["9C 9D 4H JS QD 7S KC", "5C 6D 8H 10S 3D KH 2C", "AD 6S 10H 4C 5D QS 3H"]


def table(lang: str = "en", **options) -> TableView:
    options.setdefault("start", mm.position("makao", hands=START, top="9H"))
    return TableView("makao", 2, seed=4, delay=0, lang=lang, **options)


# --- what a screen reader is told ----------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "playable", "unplayable"), [
    ("en", "9 of Clubs, playable", "Queen of Diamonds, not playable"),
    ("de", "Kreuz 9, spielbar", "Karo Dame, nicht spielbar"),
    ("hu", "treff 9, kijátszható", "káró dáma, nem játszható ki"),
])
def test_every_card_button_says_the_card_and_whether_it_may_be_played(lang, playable, unplayable):
    t = table(lang)
    names = {str(b.card): b.tooltip for b in t.hand.buttons}
    assert names["9C"] == playable and names["QD"] == unplayable
    assert all("mm-label-from-title" in b._dom_classes for b in t.hand.buttons)  # access.js: aria-label = title
    legal = {m.card for m in t.state.legal_moves() if isinstance(m, mm.Play)}
    for button in t.hand.buttons:
        assert button.tooltip.endswith(", " + playable.split(", ")[1]) == (button.card in legal), button.tooltip


def test_the_names_follow_the_game_and_the_set_choice():
    t = table()
    t.click("9C")  # played: now it is the computers' turn, then mine again
    assert t.state.to_move == 0 and "9C" not in [str(b.card) for b in t.hand.buttons]
    legal = {m.card for m in t.state.legal_moves() if isinstance(m, mm.Play)}
    assert [b.tooltip.endswith(", playable") for b in t.hand.buttons] == [b.card in legal for b in t.hand.buttons]
    lite = TableView("lite_macau", 1, seed=2, delay=0)
    lite.set_button.value = True
    first = lite.hand.buttons[0]
    first.click()
    assert first.tooltip.endswith(", chosen for the set")


def test_cards_on_the_board_are_images_with_names_and_the_player_to_move_is_not_told_by_colour():
    face = card_face(mm.Card.parse("QD"), "lg", "de")
    assert 'role="img"' in face and 'aria-label="Karo Dame"' in face and "mm-s-D" in face
    t = table()
    t.click("4H")  # Ann is to move while the computers play; the board shows the state after them
    html = t.board.discard.value
    assert 'aria-hidden="true"' in html or html.count('role="img"') == 1
    seats = "".join(p.value for p in t.board.panels)
    assert seats.count("▶") <= 1 and "mm-fan\" aria-hidden" in seats


def test_the_log_is_a_live_region_that_gets_every_move_appended():
    t = table()
    log = t.moves_log.html
    assert isinstance(log, LiveLog) and log in t.widget.children
    script = (WIDGETS / "livelog.js").read_text()
    assert "'role', 'log'" in script and "'aria-live', 'polite'" in script and "list.append(row)" in script
    before = [n for n, _kind, _text in log.lines]
    t.click("9C")  # my move, then both computers move at once (no event loop here)
    numbers = [n for n, _kind, _text in log.lines]
    assert numbers == sorted(numbers) and numbers[: len(before)] == before and len(numbers) >= len(before) + 3
    said = [text for _n, _kind, text in log.lines]
    assert any(text.startswith("Ann ") for text in said) and any(text.startswith("Ben ") for text in said)
    assert said[-len(t.log[len(before):]):] == t.log[len(before):]  # the same sentences, in order


def test_the_message_line_hand_and_actions_are_named_for_the_helper():
    t = table("de")
    access = t.screen.access
    assert isinstance(access, Access) and access in t.widget.children
    assert access.labels["hand"] == "Deine Hand" and access.labels["actions"] == "Deine Züge"
    assert "mm-msg" in t.screen.message._dom_classes and "mm-result-box" in t.screen.result_box._dom_classes
    children = list(t.widget.children)
    assert children.index(t.screen.hand.box) < children.index(t.controls.row) < children.index(t.screen.keys_line)


# --- keys ----------------------------------------------------------------------------------------------

def test_letter_keys_do_what_their_buttons_do():
    t = table()
    assert set(KEYS) == set(t.screen.access.letters) == {"d", "p", "m", "r", "s", "n"}
    assert not t.press("p") and "may not pass" in t.message_text  # the disabled button's reason
    hand = len(t.state.hands[0])
    assert t.press("m") and t.mau_button.value and "“Makaó” is on" in t.message_text
    assert t.press("m") and not t.mau_button.value and "off" in t.message_text
    assert t.press("d")
    assert len(t.log) > 1 and t.log[1].startswith("You draw a card")
    assert len(t.game.history[0][0].hands[0]) == hand
    assert not t.press("x") and not t.press("r")  # no such key; no Runde in makao


def test_a_key_out_of_turn_says_whose_turn_it_is_and_n_steps_a_computer():
    start = mm.position("makao", hands=START, top="9H", to_move=1)
    t = TableView("makao", 2, seed=4, delay=0, step=True, start=start)
    assert not t.press("d") and t.message_text == "Wait: Ann is to move." and len(t.game) == 0
    assert t.press("n") and len(t.game) == 1  # step mode: N is "Next move"


def test_keys_come_from_the_browser_as_messages():
    t = table()
    access = t.screen.access
    access._message(access, {"type": "key", "key": "d"}, [])
    assert len(t.game) >= 1 and t.game.moves[0] == mm.Draw()
    moves = len(t.game)
    access._message(access, {"type": "key", "key": "q"}, [])  # not one of ours: nothing happens
    access._message(access, {"type": "focus"}, [])
    assert len(t.game) == moves


def test_a_whole_match_hand_by_keys_and_enter_alone():
    """Enter on a card is its button's click; the rest are letters.  The hand ends and N deals the next."""
    t = TableView("makao", 2, seed=9, delay=0)
    rng = random.Random(3)
    for _ in range(3000):
        if t.result is not None:
            break
        state = t.state
        plays = [m for m in state.legal_moves() if isinstance(m, mm.Play)]
        if plays:
            move = rng.choice(plays)
            if move.mau:
                assert t.press("m")
            t.click(move.card)  # Enter on the focused card
            if move.wish is not None:
                t.wish.buttons[move.wish].click()  # Enter on the wish picker's button
        else:
            assert t.press("p" if mm.Pass() in state.legal_moves() else "d"), t.message_text
    assert t.result is not None
    assert t.press("n") and t.result is None and len(t.match.hands) == 1


@pytest.mark.parametrize(("lang", "words"), [("en", ["D draw", "P pass", "M say “Makaó”", "Enter"]),
                                              ("de", ["D ziehen", "P passen", "M „Makaó“ sagen", "Leertaste"]),
                                              ("hu", ["D húzás", "P passz", "M „Makaó” bemondása", "szóköz"])])
def test_the_keys_are_written_on_the_table_and_in_the_rules_panel(lang, words):
    t = table(lang)
    for word in words:
        assert word in t.screen.keys_line.value and word in t.rules.children[0].value
    assert "R " in keys_text(mm.variant("mau_mau_runde"), lang) and "S " in keys_text(mm.variant("lite_macau"), lang)


# --- colours -------------------------------------------------------------------------------------------

def contrast(colour: str, background: str = "#ffffff") -> float:
    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(colour), luminance(background)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_four_colours_give_each_suit_its_own_colour_readable_on_a_white_card():
    assert len(set(SUIT_COLOURS.values())) == 4
    assert all(contrast(c) >= 4.5 for c in SUIT_COLOURS.values()), {s: contrast(c) for s, c in SUIT_COLOURS.items()}
    for suit, colour in SUIT_COLOURS.items():
        assert re.search(rf"\.mm-four \.mm-s-{suit}\b[^{{]*\{{ color: {colour}", THEME_CSS)


def test_the_colour_and_contrast_options_on_every_view():
    t = table(colours="four", contrast="high")
    assert {"mm-four", "mm-high"} <= set(t.widget._dom_classes)
    assert "mm-four" not in table().widget._dom_classes and "mm-high" not in table().widget._dom_classes
    assert "mm-four" in ReplayView(t, colours="four").widget._dom_classes
    explorer = RulesExplorer("makao", colours="four", contrast="high", games=2)
    assert "mm-high" in explorer.widget._dom_classes
    assert {"mm-four", "mm-high"} <= set(explorer.play().widget._dom_classes)
    assert "mm-four" in mm.play("makao", opponents=1, seed=1, delay=0, colours="four").widget._dom_classes
    with pytest.raises(ValueError, match="colours"):
        table(colours="three")
    with pytest.raises(ValueError, match="contrast"):
        mm.replay(t, contrast="loud")


def test_wish_buttons_carry_their_suit_for_the_four_colour_deck():
    t = table(colours="four")
    t.click("JS")
    assert t.wish.visible
    for wish, button in t.wish.buttons.items():
        assert "mm-s-" + wish.value in button._dom_classes and wish.symbol in button.description
