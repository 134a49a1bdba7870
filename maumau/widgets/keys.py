"""The table's letter keys: what each does, and the line that tells them (on the table, in the rules).

The arrows, Enter, Space and Escape are the browser's (``access.js``: Enter and Space click the
focused card or button); the letters come to Python, here, so that a key does exactly what its
button does, checks included, and tests can press keys without a browser:

    D  draw (or take the penalty)      M  say Mau/Macau/Makaó with the next card (on/off)
    P  pass (or sit out)               R  open a Runde (mau_mau_runde), S several cards (lite_macau)
    N  the next move (step mode), or the next hand / a new match once the hand is over
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ipywidgets as W

from ..core.rules.base import Role
from ..core.variants import Variant
from ..text.i18n import t
from .common import announce_word, esc

if TYPE_CHECKING:
    from .table_renderer import TableScreen

__all__ = ["KEYS", "press", "keys_text", "keys_html"]

#: Letter -> what it does.  The same letters in every language (they are printed on the table).
KEYS = {"d": "draw", "p": "pass", "m": "announce", "r": "runde", "s": "sets", "n": "next"}


def _shown(widget: W.DOMWidget) -> bool:
    return bool(widget.layout.display != "none")


def _inside(box: W.Widget, widget: W.Widget) -> bool:
    children = getattr(box, "children", ())
    return widget in children or any(_inside(child, widget) for child in children)


def _click(screen: TableScreen, button: W.Button) -> bool:
    """Click ``button`` as a key would; False if its move may not be made now.  A disabled Draw or Pass
    is clicked all the same: its handler refuses the move and says why in the table's words ("Wait:
    Ann is to move.", the engine's sentence), which a screen reader then reads from the message line."""
    if not _shown(button) or not _shown(screen.controls.row):
        screen.say(t("a11y.not_now", screen.lang), error=True)
        return False
    allowed = not button.disabled
    button.click()
    return allowed


def _toggle(screen: TableScreen, button: W.ToggleButton, word: str | None = None) -> bool:
    if not _shown(button) or not _shown(screen.controls.row) or button.disabled:
        screen.say(t("a11y.not_now", screen.lang), error=True)
        return False
    button.value = not button.value
    if word is not None:  # said aloud: the toggle's look alone would not tell a screen reader
        screen.say(t("a11y.announce_on" if button.value else "a11y.announce_off", screen.lang, word=word))
    return True


def press(screen: TableScreen, key: str) -> bool:
    """Do what the letter ``key`` does at this table; False (and why, in the message line) if nothing."""
    action = KEYS.get(key.lower())
    c = screen.controls
    if action == "draw":
        return _click(screen, c.draw)
    if action == "pass":
        return _click(screen, c.pass_)
    if action == "announce":
        return _toggle(screen, c.mau, announce_word(screen.variant))
    if action == "runde":
        return _toggle(screen, c.runde)
    if action == "sets":
        return _toggle(screen, c.sets)
    if action == "next":
        if _shown(screen.result_box):
            after = screen.next_hand_button if _shown(screen.next_hand_button) else screen.new_match_button
            if _inside(screen.result_box, after) and _shown(after):  # a class table deals by itself: none
                after.click()
                return True
        if _shown(c.next) and not c.next.disabled:
            c.next.click()
            return True
        screen.say(t("a11y.not_now", screen.lang), error=True)
    return False


def keys_text(variant: Variant, lang: str, next_key: bool = True) -> str:
    """"← → choose a card · Enter or Space plays it · D draw · …" for this variant, in ``lang``
    (``next_key=False``: no N, where nobody steps or deals, as at a class table)."""
    parts = [t("a11y.keys", lang, word=announce_word(variant))]
    if variant.having(Role.RUNDE):
        parts.append(t("a11y.keys_runde", lang))
    if variant.having(Role.SETS):
        parts.append(t("a11y.keys_sets", lang))
    if next_key:
        parts.append(t("a11y.keys_next", lang))
    return " · ".join(parts)


def keys_html(variant: Variant, lang: str, next_key: bool = True) -> str:
    """The keys line for the table and the rules panel: ``Keys: …``."""
    text = keys_text(variant, lang, next_key)
    return f'<div class="mm-keys"><b>{esc(t("a11y.keys_title", lang))}:</b> {esc(text)}</div>'
