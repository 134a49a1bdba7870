"""What one seat sees and may do, as data: the seat model every screen of a table draws.

``seat_model(state, seat, lang, name_of)`` is made where the GameState is: the notebook's table
(``maumau.widgets.table_controller``) and the class table's server (``maumau.classroom.frames``,
which sends it to ``mm.join``'s table and to the class page, ``maumau.classroom.views`` its wire
form).  It lives here, below the screens, so that the server needs no widget to make it.  It holds the
seat's ``View`` (never a hidden card), and for each card of the hand the legal ways to play it
(``Choice``: a set, a wish, a Runde, each with its label) or, on the seat's turn, the engine's
sentence why it may not be played now; the same for Draw and Pass.  Every sentence is in the
seat's language already, so a screen only shows them; the one presenter
(``maumau.widgets.presenter``) turns clicks into a move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..core.cards import Card, Rank, Suit
from ..core.moves import Draw, Move, Pass, Play
from ..core.state import GameState
from ..players.view import View
from ..text.i18n import card_name, card_symbol, describe_pending, t, use_language, wish_name
from ..text.locale.page import PAGE

__all__ = ["Choice", "HandCard", "SeatModel", "seat_model", "why_not", "name_of_card"]


@lru_cache(maxsize=1024)
def name_of_card(card: Card, lang: str) -> str:
    """A card's name in ``lang`` ("Queen of Hearts"), kept: every frame names every card of a hand."""
    return card_name(card, lang)


@dataclass(frozen=True)
class Choice:
    """One legal way to play a card (the announcement left to the screen's toggle) and its label."""

    move: Play
    label: str


@dataclass(frozen=True)
class HandCard:
    """One card of the seat's hand: its name, whether it was just drawn, the legal ways to play
    it, and why it may not be played (the engine's sentence; None if it may, or not the seat's turn)."""

    card: Card
    name: str
    drawn: bool
    choices: tuple[Choice, ...]
    why: str | None

    @property
    def playable(self) -> bool:
        """Whether some legal play holds this card (the class page offers it, with its choices)."""
        return bool(self.choices)

    @property
    def leads(self) -> bool:
        """Whether a legal play begins with this card: a click on it alone plays it (the notebook's
        and ``mm.join``'s tables mark these; a card that only follows another in a set is chosen
        with "several cards")."""
        return any(choice.move.card == self.card for choice in self.choices)

    @property
    def wishes(self) -> list[Suit | Rank]:
        """The wishes this card may name when played alone (in the order the engine lists them)."""
        return list(dict.fromkeys(c.move.wish for c in self.choices
                                  if c.move.cards == (self.card,) and c.move.wish is not None))

    @property
    def asks_wish(self) -> bool:
        """Whether playing this card alone asks which wish (a Jack, an Ace in lite_macau)."""
        return bool(self.wishes)


@dataclass(frozen=True)
class SeatModel:
    """What a seat sees (``view``) and may do now, with the sentences for it (see the module docstring)."""

    view: View
    lang: str
    my_turn: bool
    cards: tuple[HandCard, ...]
    draw: Move | None
    pass_: Move | None
    draw_label: str
    pass_label: str
    status: str
    draw_why: str | None = None  # on the seat's turn, why Draw may not be made now (the engine's sentence)
    pass_why: str | None = None  # the same for Pass

    @property
    def sets(self) -> list[Play]:
        """The sets of several cards the seat may play now (LM-5), each once."""
        return list(dict.fromkeys(c.move for spot in self.cards for c in spot.choices if len(c.move.cards) > 1))

    def card(self, card: Card) -> HandCard | None:
        """The first card of the hand that is ``card`` (None if the hand has none)."""
        return next((spot for spot in self.cards if spot.card == card), None)


def seat_model(state: GameState, seat: int, lang: str, name_of: Callable[[int], str]) -> SeatModel:
    """The seat model of hand seat ``seat`` of ``state``; ``name_of(hand_seat)`` names the players."""
    view = View(state, seat)
    mine = not state.is_over and state.to_move == seat
    words = PAGE[lang]
    with use_language(lang):
        found: dict[Card, tuple[tuple[Choice, ...], str | None]] = {}
        for card in view.hand:
            if card not in found:
                choices = _choices(view.legal_moves, card, lang) if mine else ()
                found[card] = choices, why_not(state, card) if mine and not choices else None
        marked = False
        cards = []
        for card in view.hand:
            drawn = not marked and view.drawn == card
            marked = marked or drawn
            cards.append(HandCard(card, name_of_card(card, lang), drawn, *found[card]))
        pending = view.pending
        if state.is_over:
            status = t("ui.over", lang)
        elif not mine:
            status = t("ui.wait", lang, name=name_of(state.to_move))
        elif pending is not None and pending.target == seat:
            status = words["yourTurnPending"].format(pending=describe_pending(pending))
        else:
            status = words["yourTurn"]
    on_me = pending if pending is not None and pending.target == seat else None
    draw_label = t("ui.take", lang, n=on_me.amount) if on_me and on_me.kind == "draw" else t("ui.draw", lang)
    pass_label = t("ui.sit_out" if on_me and on_me.kind == "skip" else "ui.pass", lang)
    legal = view.legal_moves
    with use_language(lang):
        draw_why, pass_why = (state.why_illegal(move) or "" if mine and move not in legal else None
                              for move in (Draw(), Pass()))
    return SeatModel(view, lang, mine, tuple(cards), Draw() if Draw() in legal else None,
                     Pass() if Pass() in legal else None, draw_label, pass_label, status, draw_why, pass_why)


def why_not(state: GameState, card: Card) -> str:
    """Why ``card`` may not be played now, in the current language: the engine's sentence for it
    played alone (a wish card with some wish, so that the card, not the missing wish, is the trouble)."""
    kind = state.variant.wish_kind(card)
    if kind is None:
        move = Play(card)
    else:
        example: Suit | Rank = next(iter(Suit)) if kind is Suit else card.rank  # type: ignore[assignment]
        move = Play(card, wish=example)
    return state.why_illegal(move) or state.why_illegal(Play(card)) or ""


def _choices(legal: tuple[Move, ...], card: Card, lang: str) -> tuple[Choice, ...]:
    """The legal plays led by ``card`` (else those with it in a set), one per set, wish and Runde."""
    plays = [m for m in legal if isinstance(m, Play)]
    led = [m for m in plays if m.card == card] or [m for m in plays if card in m.cards]
    seen: dict[tuple[object, ...], Choice] = {}
    for move in led:
        key = (move.cards, move.wish, move.runde)
        if key not in seen:
            seen[key] = Choice(Play(move.cards, wish=move.wish, runde=move.runde), _label(move, lang))
    return tuple(seen.values())


def _label(move: Play, lang: str) -> str:
    """How a choice reads: "7♥ + 7♠ together, wish ♥ Hearts, open a Runde"."""
    words = PAGE[lang]
    cards = " + ".join(card_symbol(c, lang) for c in move.cards)
    parts = [words["together" if len(move.cards) > 1 else "alone"].format(cards=cards)]
    if move.wish is not None:
        parts.append(words["wishes"].format(wish=wish_name(move.wish, lang)))
    if move.runde:
        parts.append(words["runde"])
    return ", ".join(parts)
