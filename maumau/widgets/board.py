"""The middle of the table: the players round it, the stock, the discard pile and the status.

``Board.show(state, ...)`` rebuilds the HTML of each part and hands it to that part's own
widget; a part whose HTML did not change sends nothing to the browser.  A seat round the table is
a ``Panel`` (what it shows, as data) made by ``seat_panel`` from a seat's ``View`` and written by
``panel_html``: the one maker and the one writer of the seat panels for the notebook's table and
``mm.join``'s; the stock, the pile and the status are drawn from a
``View`` (``show_centre``), so a seat at a class table draws its own View, not a GameState.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import ipywidgets as W

from ..core.cards import Card, Suit
from ..core.state import DRAW, DRAWN, EXTRA, GameState
from ..players.view import View
from ..text.explain import memory_sentence
from ..text.i18n import describe_pending, rank_letter, use_language, wish_name
from ..text.i18n import t as _t
from .common import Seating, announce_word, esc
from .style import card_backs, card_face

__all__ = ["Board", "Panel", "panel_html", "seat_panel", "cards_word", "turn_mark", "turn_words"]


def turn_mark(turn: bool, lang: str) -> str:
    """A ▶ before the name of the player to move: the gold frame alone would tell it by colour."""
    return '<span aria-hidden="true">▶ </span>' if turn else ""


def turn_words(turn: bool, lang: str) -> str:
    """", to move" for a screen reader, after the name of the player to move."""
    return f'<span class="mm-sr">, {esc(_t("a11y.to_move", lang))}</span>' if turn else ""


def cards_word(n: int, lang: str) -> str:
    return _t("ui.cards_1", lang) if n == 1 else _t("ui.cards_n", lang, n=n)


# --- the seat markers drawn as pictures ---------------------------------------------------------------------
#
# The winner's cup and the lock of a last card locked (JM-9) are small inline SVG pictures, not the
# emoji 🏆 and 🔒: where no emoji font is installed (a school's Linux image, a fresh container) an
# emoji is an empty box, a picture draws the same everywhere.  A marker of a Panel is its text, or
# one of these keys; the picture says its words (in the language) to a screen reader and as a tooltip.

WINNER, LOCKED = "mark.winner", "mark.locked"
_SVG = ('<svg viewBox="0 0 16 16" width="1.1em" height="1.1em" aria-hidden="true" '
        'style="vertical-align:-0.2em">{}</svg>')
PICTURES = {
    WINNER: _SVG.format('<path d="M4 1.5h8V6a4 4 0 0 1-8 0z" fill="currentColor"/>'
                        '<path d="M4 3H2.2v1.3A2.7 2.7 0 0 0 4.6 7M12 3h1.8v1.3A2.7 2.7 0 0 1 11.4 7" fill="none" '
                        'stroke="currentColor" stroke-width="1.2"/>'
                        '<rect x="7" y="9.5" width="2" height="3" fill="currentColor"/>'
                        '<rect x="4.5" y="12.5" width="7" height="2.2" rx=".6" fill="currentColor"/>'),
    LOCKED: _SVG.format('<path d="M5.2 7.5V5.3a2.8 2.8 0 0 1 5.6 0v2.2" fill="none" stroke="currentColor" '
                        'stroke-width="1.5"/>'
                        '<rect x="3.3" y="7.3" width="9.4" height="7.4" rx="1.2" fill="currentColor"/>'),
}
_PICTURE_WORDS = {WINNER: "a11y.winner", LOCKED: "a11y.locked"}


def mark_html(mark: str, lang: str) -> str:
    """A seat's marker as a bubble: its picture with its words, or its text."""
    if mark in PICTURES:
        words = esc(_t(_PICTURE_WORDS[mark], lang))
        return f'<span class="mm-bubble" role="img" aria-label="{words}" title="{words}">{PICTURES[mark]}</span>'
    return f'<span class="mm-bubble">{esc(mark)}</span>'


@dataclass(frozen=True)
class Panel:
    """A seat round the table: its name, whether it is to move or out of the hand, its markers
    (WINNER, the announcement, offline, LOCKED), the line under the name, and its cards: how many
    backs, the open cards (teacher view), or None (not in this hand)."""

    name: str
    turn: bool = False
    gone: bool = False
    marks: tuple[str, ...] = ()
    sub: str = ""
    cards: int | tuple[Card, ...] | None = None


def panel_html(panel: Panel, lang: str) -> str:
    """The HTML of a seat panel (the one place it is written)."""
    classes = "mm-seat" + (" mm-turn" if panel.turn else "") + (" mm-gone" if panel.gone else "")
    bubbles = "".join(mark_html(mark, lang) for mark in panel.marks)
    cards = panel.cards
    if isinstance(cards, tuple):
        shown = (f'<div class="mm-open">{"".join(card_face(c, "sm", lang) for c in cards)}</div>'
                 f'<div class="mm-count">{cards_word(len(cards), lang)}</div>')
    elif cards is not None:
        shown = (f'<div class="mm-fan" aria-hidden="true">{card_backs(cards)}</div>'
                 f'<div class="mm-count">{cards_word(cards, lang)}</div>')
    else:
        shown = ""
    return (f'<div class="{classes}"><div class="mm-name">{turn_mark(panel.turn, lang)}{esc(panel.name)}'
            f'{turn_words(panel.turn, lang)}{bubbles}</div>'
            f'<div class="mm-sub">{esc(panel.sub)}&nbsp;</div>{shown}</div>')


def seat_marks(view: View, seat: int, over: bool, winner: int | None, extra: Sequence[str] = ()) -> tuple[str, ...]:
    """The markers of hand seat ``seat``: the winner's cup or the announcement, then ``extra``
    (offline), then the lock of a locked last card."""
    marks: list[str] = []
    if over and winner == seat:
        marks.append(WINNER)
    elif view.hand_sizes[seat] == 1 and view.active[seat] and view.variant.announcement is not None:
        marks.append(f"{announce_word(view.variant)}!")
    marks.extend(extra)
    if seat in view.locked:
        marks.append(LOCKED)
    return tuple(marks)


def seat_panel(view: View, seat: int, name: str, sub: str, over: bool, winner: int | None, lang: str, *,
               extra: Sequence[str] = (), cards: tuple[Card, ...] | None = None) -> Panel:
    """Hand seat ``seat`` as ``view``'s seat sees it, for either Python table: to move, out of the hand,
    its markers (``extra``: offline), ``sub`` and "deals" for the dealer, and the backs of its cards
    (``cards``: their faces, the teacher's view)."""
    if seat == view.dealer:
        sub = (sub + " · " if sub else "") + _t("ui.deal", lang)
    return Panel(name, seat == view.to_move and not over, not view.active[seat],
                 seat_marks(view, seat, over, winner, extra), sub,
                 cards if cards is not None else view.hand_sizes[seat])


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
             me: int | None = None, open_hands: bool = False, subtitles: Sequence[str] = (),
             view: View | None = None) -> None:
        """Show ``state`` as ``view`` (the learner's seat model's View; by default hand seat ``me``'s,
        or the mover's) sees it; ``me`` is not shown among the panels, ``seats`` maps hand seats to
        match seats, ``subtitles`` are per match seat, ``open_hands`` shows every hand's faces."""
        n = state.players
        order = [(me + 1 + i) % n for i in range(n - 1)] if me is not None else list(range(n))
        if view is None:
            view = View(state, me if me is not None else state.to_move)
        panels = []
        for seat in order:
            match_seat = seats[seat] if seats is not None else seat
            sub = subtitles[match_seat] if match_seat < len(subtitles) else ""
            panels.append(seat_panel(view, seat, seating.label(seat, seats), sub, state.is_over, state.winner,
                                     self.lang, cards=state.hands[seat] if open_hands else None))
        self.show_panels(panels)
        self.show_centre(view, state.is_over, seating, seats, me)

    def show_panels(self, panels: Sequence[Panel]) -> None:
        """The seats round the table (a panel whose HTML did not change sends nothing)."""
        while len(self.panels) < len(panels):
            self.panels.append(W.HTML())
        shown = self.panels[:len(panels)]
        for widget, panel in zip(shown, panels, strict=True):
            widget.value = panel_html(panel, self.lang)
        if tuple(self.seats_box.children) != tuple(shown):
            self.seats_box.children = tuple(shown)

    def show_centre(self, view: View, over: bool, seating: Seating, seats: Sequence[int] | None,
                    me: int | None) -> None:
        """The stock, the pile and the status line, as ``view``'s seat sees them."""
        self.stock.value = self._stock_html(view.stock_size)
        self.discard.value = self._discard_html(view.discard)
        self.status.value = self._status_html(view, over, seating, seats, me)

    def _stock_html(self, n: int) -> str:
        pile = ('<div class="mm-back"></div>' if n else
                '<div style="width:84px;height:120px;border:2px dashed rgba(255,255,255,.5);border-radius:9px">'
                '</div>')
        return (f'<div class="mm-pile mm-stockpile"><div class="mm-label">{esc(_t("ui.stock", self.lang))}</div>'
                f'<div class="mm-stack">{pile}</div>'
                f'<div class="mm-count">{cards_word(n, self.lang)}</div></div>')

    def _discard_html(self, pile: Sequence[Card]) -> str:
        layers = []
        for depth, card in ((2, pile[-3] if len(pile) > 2 else None), (1, pile[-2] if len(pile) > 1 else None)):
            if card is not None:
                turn = (card.index * 37 + depth * 11) % 17 - 8
                shift = 5 * depth if depth == 1 else -6
                layers.append(f'<div aria-hidden="true" '
                              f'style="transform:translate({shift}px,{depth}px) rotate({turn}deg)">'
                              f'{card_face(card, "lg", self.lang)}</div>')
        layers.append(f"<div>{card_face(pile[-1], 'lg', self.lang)}</div>")
        return (f'<div class="mm-pile"><div class="mm-label">{esc(_t("ui.discard", self.lang))}</div>'
                f'<div class="mm-stack">{"".join(layers)}</div>'
                f'<div class="mm-count">{cards_word(len(pile), self.lang)}</div></div>')

    def _status_html(self, state: View, over: bool, seating: Seating, seats: Sequence[int] | None,
                     me: int | None) -> str:
        lang = self.lang
        lines = []
        if over:
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
            symbol = wish.symbol if isinstance(wish, Suit) else rank_letter(wish, lang)
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
                told = memory_sentence(rule, value, lambda seat: seating.name(seat, seats))
            if told is not None:
                lines.append(f"<b>{esc(told)}</b>")
        if not over and state.phase == EXTRA:
            key = "ui.phase_extra" if state.variant.extra_closer == DRAW else "ui.phase_extra_pass"
            lines.append(f"<i>{esc(_t(key, lang, name=seating.name(state.to_move, seats)))}</i>")
        elif not over and state.phase == DRAWN:
            lines.append(f"<i>{esc(_t('ui.phase_drawn', lang, name=seating.name(state.to_move, seats)))}</i>")
        return f'<div class="mm-status">{"<br>".join(lines)}</div>'
