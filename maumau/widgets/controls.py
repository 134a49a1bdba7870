"""The learner's buttons: draw, pass, announce, Runde, several cards, next, take back; the wish picker."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as W

from ..core.cards import Rank, Suit
from ..core.rules.base import Role
from ..core.state import DRAWN
from ..core.variants import Variant
from ..play.seat_model import SeatModel
from ..text.i18n import t, wish_name
from .common import announce_word

__all__ = ["TableButtons", "WishPicker"]


def _button(description: str = "", tooltip: str = "", toggle: bool = False) -> W.Button | W.ToggleButton:
    cls = W.ToggleButton if toggle else W.Button
    return cls(description=description, tooltip=tooltip, layout=W.Layout(width="auto"))


class TableButtons:
    """The action buttons under the hand.  Draw and Pass are drawn from the learner's seat model:
    enabled only while they are legal moves of the seat; a disabled one says why in its tooltip
    (and a click made in code still says why in the message line)."""

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

    def show_moves(self, model: SeatModel | None) -> None:
        """Draw and Pass as the seat model says them ("Take 4", "Sit out"): enabled and emphasised
        while they are legal moves of the seat, a disabled one saying why in its tooltip on the
        seat's turn (the notebook's table and ``mm.join``'s alike)."""
        lang = self.lang
        self.draw.description = model.draw_label if model is not None else t("ui.draw", lang)
        self.pass_.description = model.pass_label if model is not None else t("ui.pass", lang)
        shown = (((model.draw, model.draw_why), (model.pass_, model.pass_why)) if model is not None
                 else ((None, None), (None, None)))
        for button, (move, why) in zip((self.draw, self.pass_), shown, strict=True):
            button.disabled = move is None
            button.button_style = "" if move is None else "primary"
            button.tooltip = why or ""
        if model is not None and model.my_turn and model.view.phase == DRAWN:
            self.pass_.button_style = "primary"

    def update(self, model: SeatModel | None, *, over: bool, computer: bool, step: bool, chosen: int,
               can_undo: bool = True) -> None:
        """The buttons for the learner's seat ``model`` (None: out of the match) in a hand that is
        ``over`` or where a ``computer`` is to move; ``chosen`` cards are picked for a set."""
        self.show_moves(model)
        playing = model is not None and not over
        _shown(self.row, playing)
        _shown(self.draw, playing)
        _shown(self.pass_, playing)
        _shown(self.play_set, self.sets.value and model is not None)
        self.play_set.description = t("ui.play_set", self.lang) + (f" ({chosen})" if chosen else "")
        _shown(self.next, step)
        self.next.disabled = not computer
        self.undo.disabled = over or not can_undo
        _shown(self.undo, model is not None)

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
