"""The learner's buttons: draw, pass, announce, Runde, several cards, next, take back; the wish picker."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as W

from ..core.cards import Rank, Suit
from ..core.moves import Draw, Move, Pass
from ..core.rules.base import Pending, Role
from ..core.state import DRAWN, GameState
from ..core.variants import Variant
from ..text.i18n import t, use_language, wish_name
from .common import announce_word

__all__ = ["Controls", "WishPicker"]


def _button(description: str = "", tooltip: str = "", toggle: bool = False) -> W.Button | W.ToggleButton:
    cls = W.ToggleButton if toggle else W.Button
    return cls(description=description, tooltip=tooltip, layout=W.Layout(width="auto"))


class Controls:
    """The action buttons under the hand.  Draw and Pass are enabled only while they are legal
    moves of the learner; a disabled one says why in its tooltip (and a click made in code
    still says why in the message line)."""

    def __init__(self, variant: Variant, lang: str) -> None:
        self.lang = lang
        self.draw = _button()
        self.pass_ = _button()
        word = announce_word(variant)
        self.mau = _button(t("ui.announce", lang, word=word), t("ui.announce_tip", lang), toggle=True)
        self.mau.button_style = "warning"
        self.runde = _button(t("ui.runde_open", lang), toggle=True)
        self.sets = _button(t("ui.set_mode", lang), t("ui.set_hint", lang), toggle=True)
        self.play_set = _button(t("ui.play_set", lang))
        self.play_set.button_style = "success"
        self.next = _button("▶ " + t("ui.next", lang))
        self.undo = _button("↶ " + t("ui.undo", lang))
        self.row = W.HBox([self.draw, self.pass_, self.mau, self.runde, self.sets, self.play_set,
                           self.next, self.undo])
        self.row.add_class("mm-actions")
        self.set_variant(variant)

    def set_variant(self, variant: Variant) -> None:
        _shown(self.mau, variant.announcement is not None)
        _shown(self.runde, bool(variant.having(Role.RUNDE)))
        _shown(self.sets, bool(variant.having(Role.SETS)))

    def show_draw_and_pass(self, pending: Pending | None, legal: Sequence[Move]) -> None:
        """Draw and Pass as the pending penalty names them ("Take 4", "Sit out"), enabled and
        emphasised when ``legal`` holds them (the card table and a class table seat alike)."""
        lang = self.lang
        if pending is not None and pending.kind == "draw":
            self.draw.description = t("ui.take", lang, n=pending.amount)
        else:
            self.draw.description = t("ui.draw", lang)
        skip = pending is not None and pending.kind == "skip"
        self.pass_.description = t("ui.sit_out" if skip else "ui.pass", lang)
        for button, move in ((self.draw, Draw()), (self.pass_, Pass())):
            allowed = move in legal
            button.disabled = not allowed
            button.button_style = "primary" if allowed else ""

    def update(self, state: GameState, me: int | None, *, step: bool, chosen: int, can_undo: bool = True) -> None:
        """Labels and emphasis for ``state``; ``chosen`` cards are picked for a set."""
        lang = self.lang
        mine = me is not None and state.to_move == me and not state.is_over
        legal = state.legal_moves() if mine else []
        self.show_draw_and_pass(state.pending, legal)
        for button, move in ((self.draw, Draw()), (self.pass_, Pass())):
            if move in legal or not mine:
                button.tooltip = ""
            else:
                with use_language(lang):
                    button.tooltip = state.why_illegal(move) or ""
        playing = me is not None and not state.is_over
        _shown(self.row, playing)
        _shown(self.draw, playing)
        _shown(self.pass_, playing)
        _shown(self.play_set, self.sets.value and me is not None)
        self.play_set.description = t("ui.play_set", lang) + (f" ({chosen})" if chosen else "")
        computer = not state.is_over and state.to_move != me
        _shown(self.next, step)
        self.next.disabled = not computer
        self.undo.disabled = state.is_over or not can_undo
        _shown(self.undo, me is not None)
        if state.phase == DRAWN and mine:
            self.pass_.button_style = "primary"

    def reset(self) -> None:
        """After a move: the announcement, the Runde and the set choice start over."""
        self.mau.value = False
        self.runde.value = False
        self.sets.value = False


class WishPicker:
    """"Wunschfarbe wählen": a row of suit (or rank) buttons shown while a wish card waits."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.label = W.HTML()
        self.buttons: dict[Suit | Rank, W.Button] = {}
        self.cancel = _button(t("ui.cancel", lang))
        self.box = W.HBox([self.label, self.cancel], layout=W.Layout(display="none", flex_flow="row wrap"))
        self.box.add_class("mm-wishes")
        self._on_pick: Callable[[Suit | Rank], None] | None = None
        self.cancel.on_click(lambda _: self.hide())

    @property
    def visible(self) -> bool:
        return bool(self.box.layout.display != "none")

    def ask(self, kind: type, wishes: Sequence[Suit | Rank], on_pick: Callable[[Suit | Rank], None]) -> None:
        self._on_pick = on_pick
        self.label.value = f"<b>{t('ui.wish_suit' if kind is Suit else 'ui.wish_rank', self.lang)}:</b>"
        row = [self.label]
        for wish in wishes:
            button = self.buttons.get(wish)
            if button is None:
                button = self.buttons[wish] = self._wish_button(wish)
            row.append(button)
        self.box.children = (*row, self.cancel)
        self.box.layout.display = "flex"

    def hide(self) -> None:
        self._on_pick = None
        self.box.layout.display = "none"

    def _wish_button(self, wish: Suit | Rank) -> W.Button:
        button = _button(wish_name(wish, self.lang))
        if isinstance(wish, Suit):
            button.add_class("mm-suitbtn")
            button.add_class("mm-s-" + wish.value)  # the four-colour deck paints it by suit (theme.py)
            button.style.text_color = "#c62828" if wish.is_red else "#1a1a1a"
        button.on_click(lambda _b, w=wish: self._pick(w))
        return button

    def _pick(self, wish: Suit | Rank) -> None:
        pick = self._on_pick
        self.hide()
        if pick is not None:
            pick(wish)


def _shown(widget: W.DOMWidget, visible: bool) -> None:
    widget.layout.display = None if visible else "none"
