"""The middle of the table: the players round it, the stock, the discard pile and the status.

``Board.show(state, ...)`` rebuilds the HTML of each part and hands it to that part's own
widget; a part whose HTML did not change sends nothing to the browser.
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as W

from ..core import engine
from ..core.cards import Suit
from ..core.state import DRAWN, EXTRA, GameState
from ..text.i18n import describe_pending, use_language, wish_name
from ..text.i18n import t as _t
from .common import Seating, announce_word, esc
from .style import card_backs, card_face

__all__ = ["Board", "cards_word", "turn_mark", "turn_words"]


def turn_mark(turn: bool, lang: str) -> str:
    """A ▶ before the name of the player to move: the gold frame alone would tell it by colour."""
    return '<span aria-hidden="true">▶ </span>' if turn else ""


def turn_words(turn: bool, lang: str) -> str:
    """", to move" for a screen reader, after the name of the player to move."""
    return f'<span class="mm-sr">, {esc(_t("a11y.to_move", lang))}</span>' if turn else ""


def cards_word(n: int, lang: str) -> str:
    return _t("ui.cards_1", lang) if n == 1 else _t("ui.cards_n", lang, n=n)


class Board:
    """Seat panels (face down, or open in teacher view), stock, discard pile, status."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.seats_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.seats_box.add_class("mm-opponents")
        self.panels: list[W.HTML] = []
        self.stock = W.HTML()
        self.discard = W.HTML()
        self.status = W.HTML()
        self.center = W.HBox([self.stock, self.discard, self.status])
        self.center.add_class("mm-center")
        self.widget = W.VBox([self.seats_box, self.center])

    # --- drawing ------------------------------------------------------------------------------------
    def show(self, state: GameState, seating: Seating, seats: Sequence[int] | None = None, *,
             me: int | None = None, open_hands: bool = False, subtitles: Sequence[str] = ()) -> None:
        """Show ``state``; ``me`` is the learner's hand seat (not shown among the panels),
        ``seats`` maps hand seats to match seats, ``subtitles`` are per match seat."""
        n = state.players
        order = [(me + 1 + i) % n for i in range(n - 1)] if me is not None else list(range(n))
        while len(self.panels) < len(order):
            self.panels.append(W.HTML())
        panels = self.panels[:len(order)]
        for panel, seat in zip(panels, order, strict=True):
            panel.value = self._seat_html(state, seat, seating, seats, open_hands, subtitles)
        if tuple(self.seats_box.children) != tuple(panels):
            self.seats_box.children = tuple(panels)
        self.stock.value = self._stock_html(state)
        self.discard.value = self._discard_html(state)
        self.status.value = self._status_html(state, seating, seats, me)

    def _seat_html(self, state: GameState, seat: int, seating: Seating, seats: Sequence[int] | None,
                   open_hands: bool, subtitles: Sequence[str]) -> str:
        lang = self.lang
        hand = state.hands[seat]
        active = state.active[seat]
        classes = "mm-seat"
        if seat == state.to_move and not state.is_over:
            classes += " mm-turn"
        if not active:
            classes += " mm-gone"
        bubble = ""
        if state.is_over and state.winner == seat:
            bubble = '<span class="mm-bubble">🏆</span>'
        elif len(hand) == 1 and active and state.variant.announcement is not None:
            bubble = f'<span class="mm-bubble">{esc(announce_word(state.variant))}!</span>'
        if seat in state.locked:
            bubble += '<span class="mm-bubble">🔒</span>'
        match_seat = seats[seat] if seats is not None else seat
        sub = subtitles[match_seat] if match_seat < len(subtitles) else ""
        if seat == state.dealer:
            sub = (sub + " · " if sub else "") + _t("ui.deal", lang)
        if open_hands:
            cards = f'<div class="mm-open">{"".join(card_face(c, "sm", lang) for c in hand)}</div>'
        else:
            cards = f'<div class="mm-fan" aria-hidden="true">{card_backs(len(hand))}</div>'
        turn = seat == state.to_move and not state.is_over
        return (f'<div class="{classes}"><div class="mm-name">{turn_mark(turn, lang)}{esc(seating.name(seat, seats))}'
                f'{turn_words(turn, lang)}{bubble}</div>'
                f'<div class="mm-sub">{esc(sub)}&nbsp;</div>{cards}'
                f'<div class="mm-count">{cards_word(len(hand), lang)}</div></div>')

    def _stock_html(self, state: GameState) -> str:
        n = len(state.stock)
        pile = ('<div class="mm-back"></div>' if n else
                '<div style="width:84px;height:120px;border:2px dashed rgba(255,255,255,.5);border-radius:9px">'
                '</div>')
        return (f'<div class="mm-pile mm-stockpile"><div class="mm-label">{esc(_t("ui.stock", self.lang))}</div>'
                f'<div class="mm-stack">{pile}</div>'
                f'<div class="mm-count">{cards_word(n, self.lang)}</div></div>')

    def _discard_html(self, state: GameState) -> str:
        layers = []
        pile = state.discard
        for depth, card in ((2, pile[-3] if len(pile) > 2 else None), (1, pile[-2] if len(pile) > 1 else None)):
            if card is not None:
                turn = (card.index * 37 + depth * 11) % 17 - 8
                shift = 5 * depth if depth == 1 else -6
                layers.append(f'<div aria-hidden="true" '
                              f'style="transform:translate({shift}px,{depth}px) rotate({turn}deg)">'
                              f'{card_face(card, "lg", self.lang)}</div>')
        layers.append(f"<div>{card_face(state.top, 'lg', self.lang)}</div>")
        return (f'<div class="mm-pile"><div class="mm-label">{esc(_t("ui.discard", self.lang))}</div>'
                f'<div class="mm-stack">{"".join(layers)}</div>'
                f'<div class="mm-count">{cards_word(len(pile), self.lang)}</div></div>')

    def _status_html(self, state: GameState, seating: Seating, seats: Sequence[int] | None,
                     me: int | None) -> str:
        lang = self.lang
        lines = []
        if state.is_over:
            lines.append(f"<b>{esc(_t('ui.over', lang))}</b>")
        elif state.to_move == me:
            lines.append(f"<b>{turn_mark(True, lang)}{esc(_t('ui.your_turn', lang))}</b>")
        else:
            who = seating.name(state.to_move, seats)
            lines.append(f"{turn_mark(True, lang)}{esc(_t('ui.to_move', lang, name=who))}")
        way = _t("ui.clockwise", lang) if state.direction > 0 else _t("ui.counter", lang)
        arrow = "↻" if state.direction > 0 else "↺"
        lines.append(f"{esc(_t('ui.direction', lang))}: <span style='font-size:17px' aria-hidden='true'>{arrow}</span> "
                     f"{esc(way)}")
        wish = state.wish
        if wish is None:
            lines.append(f"{esc(_t('ui.wish', lang))}: {esc(_t('ui.none', lang))}")
        else:
            colour = "#c62828" if isinstance(wish, Suit) and wish.is_red else "#1a1a1a"
            symbol = wish.symbol if isinstance(wish, Suit) else wish.value
            suit = f" mm-s-{wish.value}" if isinstance(wish, Suit) else ""  # the four-colour deck's colour
            lines.append(f"{esc(_t('ui.wish', lang))}: <span class='mm-wishbadge{suit}' style='color:{colour}' "
                         f"aria-hidden='true'>{esc(symbol)}</span> <b>{esc(wish_name(wish, lang))}</b>")
        if state.pending is not None:
            with use_language(lang):
                what = describe_pending(state.pending)
            text = _t("ui.pending_for", lang, what=what, name=seating.name(state.pending.target, seats))
            lines.append(f"{esc(_t('ui.pending', lang))}: <b>{esc(text)}</b>")
        for rule, value in state.memory:  # what the rules that remember hold: a Runde (MR-8)
            with use_language(lang):
                told = rule.describe_memory(value, lambda seat: seating.name(seat, seats))
            if told is not None:
                lines.append(f"<b>{esc(told)}</b>")
        if not state.is_over and state.phase == EXTRA:
            key = "ui.phase_extra" if state.variant.extra_closer == engine.DRAW else "ui.phase_extra_pass"
            lines.append(f"<i>{esc(_t(key, lang, name=seating.name(state.to_move, seats)))}</i>")
        elif not state.is_over and state.phase == DRAWN:
            lines.append(f"<i>{esc(_t('ui.phase_drawn', lang, name=seating.name(state.to_move, seats)))}</i>")
        return f'<div class="mm-status">{"<br>".join(lines)}</div>'
