"""How a learning environment shows its table: a text table (with ANSI colours) and an HTML card table.

``seat=None`` shows every hand (the teacher's view of a multi-agent game); a seat shows only
what that seat may see: its own cards, and how many cards the others hold.
"""

from __future__ import annotations

import html

from ..core.cards import Card, Rank, Suit, card_html
from ..core.state import DRAWN, EXTRA, GameState
from ..text.i18n import describe_pending

__all__ = ["table_text", "table_html", "RENDER_MODES"]

#: What ``render()`` of a learning environment gives: a text table with ANSI colours, or HTML.
RENDER_MODES = ("ansi", "html")

_RED, _RESET, _BOLD = "\x1b[31m", "\x1b[0m", "\x1b[1m"


def _card_text(card: Card, colour: bool) -> str:
    return f"{_RED}{card.symbol}{_RESET}" if colour and card.is_red else card.symbol


def _count(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def status(state: GameState) -> str:
    """One line: whose turn, the phase, a pending effect, the wish, the direction; or the result."""
    if state.is_over:
        return "the hand is blocked (void)" if state.blocked else f"seat {state.winner} went out"
    bits = [f"seat {state.to_move} to move"]
    if state.phase in (EXTRA, DRAWN):
        bits.append("extra play" if state.phase == EXTRA else "may play the drawn card")
    if state.pending is not None:
        bits.append(f"{describe_pending(state.pending)} for seat {state.pending.target}")
    wish = state.wish
    if wish is not None:
        bits.append("wish " + (wish.symbol if isinstance(wish, Suit) else wish.value if isinstance(wish, Rank)
                               else str(wish)))
    if state.runde is not None:
        bits.append(f"Runde of {state.runde[0].value} opened by seat {state.runde[1]}")
    if state.direction < 0:
        bits.append("counter-clockwise")
    return ", ".join(bits)


def _shown(state: GameState, seat: int | None, who: int) -> bool:
    return seat is None or seat == who


def table_text(state: GameState, seat: int | None = None, colour: bool = True) -> str:
    """The table as lines of text; ``colour`` adds ANSI colours (red suits, the seat to move in bold)."""
    lines = [f"{state.variant.title}: {status(state)}",
             f"top {_card_text(state.top, colour)}   stock {_count(len(state.stock))}   "
             f"pile {_count(len(state.discard))}"]
    for who, hand in enumerate(state.hands):
        mark = "▶" if who == state.to_move and not state.is_over else " "
        name = f"seat {who}" + (" (you)" if seat == who else "") + ("" if state.active[who] else " (left)")
        if colour and mark == "▶":
            name = f"{_BOLD}{name}{_RESET}"
        cards = " ".join(_card_text(c, colour) for c in hand) if _shown(state, seat, who) else ""
        lines.append(f"{mark} {name}: {_count(len(hand))}" + (f"  {cards}" if cards else ""))
    return "\n".join(lines)


def table_html(state: GameState, seat: int | None = None) -> str:
    """The card table as HTML: each hand as playing cards (a seat's view shows only its own)."""
    cell = "padding:0.15em 0.5em;vertical-align:middle;border:none;text-align:left"
    rows = []
    for who, hand in enumerate(state.hands):
        marker = "▶ " if who == state.to_move and not state.is_over else ""
        name = f"seat {who}" + (" (you)" if seat == who else "") + ("" if state.active[who] else " (left)")
        if _shown(state, seat, who):
            cards = "".join(card_html(c) for c in hand) or "<i>no cards</i>"
        else:
            cards = f"<i>{_count(len(hand))}, face down</i>"
        rows.append(f"<tr style='background:transparent'><td style='{cell};white-space:nowrap'>"
                    f"<b>{marker}{html.escape(name)}</b><br><small>{_count(len(hand))}</small></td>"
                    f"<td style='{cell}'>{cards}</td></tr>")
    return (f"<div class='mm-env'><div><b>{html.escape(state.variant.title)}</b> — "
            f"{html.escape(status(state))}</div>"
            f"<div style='margin:0.3em 0'>top {card_html(state.top, size='1.4em')} &nbsp; "
            f"stock: {_count(len(state.stock))} &nbsp; pile: {_count(len(state.discard))}</div>"
            f"<table style='margin:0;border-collapse:collapse'>{''.join(rows)}</table></div>")
