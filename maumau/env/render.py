"""How a learning environment shows its table: a text table (with ANSI colours) and an HTML card table.

``seat=None`` shows every hand (the teacher's view of a multi-agent game); a seat shows only
what that seat may see: its own cards, and how many cards the others hold.
"""

from __future__ import annotations

import html

from ..core.cards import Card, Rank, Suit, card_html
from ..core.state import DRAWN, EXTRA, GameState
from ..text.i18n import (
    card_symbol,
    check_language,
    describe_pending,
    rank_letter,
    rank_name,
    t,
    use_language,
    wish_name,
)
from .words import say

__all__ = ["table_text", "table_html", "RENDER_MODES"]

#: What ``render()`` of a learning environment gives: a text table with ANSI colours, or HTML.
RENDER_MODES = ("ansi", "html")

_RED, _RESET, _BOLD = "\x1b[31m", "\x1b[0m", "\x1b[1m"


def _card_text(card: Card, colour: bool, lang: str = "en") -> str:
    shown = card.symbol if lang == "en" else card_symbol(card, lang)
    return f"{_RED}{shown}{_RESET}" if colour and card.is_red else shown


def _card_html(card: Card, lang: str, size: str = "1.1em") -> str:
    if lang == "en" or card.rank is None:
        return card_html(card, size=size)
    return card_html(card, size=size, letter=rank_letter(card.rank, lang))


def _count(n: int, lang: str = "en") -> str:
    return t("ui.cards_1", lang) if n == 1 else t("ui.cards_n", lang, n=n)


def status(state: GameState, lang: str | None = None) -> str:
    """One line: whose turn, the phase, a pending effect, the wish, the direction; or the result
    (in ``lang``; None: the course's language)."""
    lang = check_language(lang)
    if state.is_over:
        return say("void", lang) if state.blocked else say("went_out", lang, seat=state.winner)
    bits = [say("to_move", lang, seat=state.to_move)]
    if state.phase in (EXTRA, DRAWN):
        bits.append(t("state.extra", lang) if state.phase == EXTRA else say("drawn", lang))
    if state.pending is not None:
        with use_language(lang):
            pending = describe_pending(state.pending)
        bits.append(say("pending_for", lang, pending=pending, seat=state.pending.target))
    wish = state.wish
    if wish is not None:
        if lang == "en":
            shown = wish.symbol if isinstance(wish, Suit) else wish.value if isinstance(wish, Rank) else str(wish)
        else:
            shown = wish.symbol if isinstance(wish, Suit) else wish_name(wish, lang)
        bits.append(say("wish", lang, wish=shown))
    if state.runde is not None:
        rank = state.runde[0]
        shown_rank = rank.value if lang == "en" or not isinstance(rank, Rank) else rank_name(rank, lang)
        bits.append(say("runde", lang, rank=shown_rank, seat=state.runde[1]))
    if state.direction < 0:
        bits.append(say("counter", lang))
    return ", ".join(bits)


def _shown(state: GameState, seat: int | None, who: int) -> bool:
    return seat is None or seat == who


def _name(state: GameState, seat: int | None, who: int, lang: str) -> str:
    return (t("state.seat", lang, seat=who) + (say("you", lang) if seat == who else "")
            + ("" if state.active[who] else t("state.left", lang)))


def table_text(state: GameState, seat: int | None = None, colour: bool = True, lang: str | None = None) -> str:
    """The table as lines of text; ``colour`` adds ANSI colours (red suits, the seat to move in
    bold); ``lang``: None, the course's language."""
    lang = check_language(lang)
    lines = [f"{state.variant.title}: {status(state, lang)}",
             f"{say('top', lang)} {_card_text(state.top, colour, lang)}   {say('stock', lang)} "
             f"{_count(state.stock_size, lang)}   {say('pile', lang)} {_count(len(state.discard), lang)}"]
    for who, hand in enumerate(state.hands):
        mark = "▶" if who == state.to_move and not state.is_over else " "
        name = _name(state, seat, who, lang)
        if colour and mark == "▶":
            name = f"{_BOLD}{name}{_RESET}"
        cards = " ".join(_card_text(c, colour, lang) for c in hand) if _shown(state, seat, who) else ""
        lines.append(f"{mark} {name}: {_count(len(hand), lang)}" + (f"  {cards}" if cards else ""))
    return "\n".join(lines)


def table_html(state: GameState, seat: int | None = None, lang: str | None = None) -> str:
    """The card table as HTML: each hand as playing cards (a seat's view shows only its own);
    ``lang``: None, the course's language."""
    lang = check_language(lang)
    cell = "padding:0.15em 0.5em;vertical-align:middle;border:none;text-align:left"
    rows = []
    for who, hand in enumerate(state.hands):
        marker = "▶ " if who == state.to_move and not state.is_over else ""
        name = _name(state, seat, who, lang)
        if _shown(state, seat, who):
            cards = "".join(_card_html(c, lang) for c in hand) or f"<i>{html.escape(say('no_cards', lang))}</i>"
        else:
            cards = f"<i>{html.escape(say('face_down', lang, cards=_count(len(hand), lang)))}</i>"
        rows.append(f"<tr style='background:transparent'><td style='{cell};white-space:nowrap'>"
                    f"<b>{marker}{html.escape(name)}</b><br><small>{_count(len(hand), lang)}</small></td>"
                    f"<td style='{cell}'>{cards}</td></tr>")
    return (f"<div class='mm-env'><div><b>{html.escape(state.variant.title)}</b> — "
            f"{html.escape(status(state, lang))}</div>"
            f"<div style='margin:0.3em 0'>{html.escape(say('top', lang))} "
            f"{_card_html(state.top, lang, size='1.4em')} &nbsp; "
            f"{html.escape(say('stock', lang))}: {_count(state.stock_size, lang)} &nbsp; "
            f"{html.escape(say('pile', lang))}: {_count(len(state.discard), lang)}</div>"
            f"<table style='margin:0;border-collapse:collapse'>{''.join(rows)}</table></div>")
