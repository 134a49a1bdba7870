"""The learner's hand: one card button per card, kept across moves.

A card keeps its button while it stays in the hand (a double deck's twin cards are told
apart by their occurrence), so a move changes only the buttons that came or went and the
classes that mark legal and chosen cards.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import ipywidgets as W

from ..core.cards import Card
from ..play.seat_model import SeatModel
from ..text.i18n import card_name, t
from .style import card_button, set_card

__all__ = ["HandView", "Key"]

#: A card in the hand: the card and which of its copies (0, or 1 for a double deck's twin).
Key = tuple[Card, int]


def keys_of(hand: Sequence[Card]) -> list[Key]:
    seen: dict[Card, int] = {}
    keys = []
    for card in hand:
        i = seen.get(card, 0)
        seen[card] = i + 1
        keys.append((card, i))
    return keys


class HandView:
    """A row of card buttons; ``on_card(key)`` is called when one is clicked."""

    def __init__(self, lang: str, on_card: Callable[[Key], None]) -> None:
        self.lang = lang
        self.on_card = on_card
        self.box = W.HBox()
        self.box.add_class("mm-hand")
        self._buttons: dict[Key, W.Button] = {}
        self._spare: list[W.Button] = []

    @property
    def buttons(self) -> list[W.Button]:
        """The card buttons in hand order."""
        return list(self.box.children)

    def button_for(self, card: Card | str, copy: int = 0) -> W.Button:
        """The button of ``card`` (e.g. ``"7H"``); KeyError if it is not in the hand."""
        card = Card.parse(card)
        return self._buttons[(card, copy)]

    def show(self, hand: Sequence[Card], legal: Collection[Card], selected: Collection[Key] = (),
             dim: bool = True) -> None:
        """Show ``hand``, raising the ``legal`` cards and the ``selected`` ones."""
        keys = keys_of(hand)
        kept: dict[Key, W.Button] = {}
        for key in keys:
            button = self._buttons.pop(key, None)
            if button is None:
                button = self._spare.pop() if self._spare else self._new_button(key[0])
                set_card(button, key[0], self.lang)
            button.key = key
            kept[key] = button
        self._spare.extend(self._buttons.values())
        self._buttons = kept
        for key, button in kept.items():
            is_legal = key[0] in legal
            _toggle(button, "mm-legal", is_legal and key not in selected)
            _toggle(button, "mm-dim", dim and not is_legal and key not in selected)
            _toggle(button, "mm-selected", key in selected)
            button.tooltip = self.name(key[0], is_legal, key in selected)
        children = tuple(kept[k] for k in keys)
        if tuple(self.box.children) != children:
            self.box.children = children

    def show_seat(self, model: SeatModel, selected: Collection[Key] = ()) -> None:
        """Show the hand of a seat model: on the seat's turn the cards a legal play begins with
        raised (``HandCard.leads``: a click plays them), the others dimmed, ``selected`` marked."""
        leads = {spot.card for spot in model.cards if spot.leads}
        self.show(model.view.hand, leads, selected, dim=model.my_turn)

    def name(self, card: Card, playable: bool, chosen: bool = False) -> str:
        """What a screen reader (and the tooltip) says of a card: "7 of Hearts, playable"."""
        key = "a11y.chosen" if chosen else "a11y.playable" if playable else "a11y.unplayable"
        return t(key, self.lang, card=card_name(card, self.lang))

    def _new_button(self, card: Card) -> W.Button:
        button = card_button(card, self.lang)
        button.on_click(self._clicked)
        return button

    def _clicked(self, button: W.Button) -> None:
        key = getattr(button, "key", None)
        if key is not None and self._buttons.get(key) is button:
            self.on_card(key)


def _toggle(widget: W.DOMWidget, name: str, on: bool) -> None:
    if on:
        widget.add_class(name)
    else:
        widget.remove_class(name)
