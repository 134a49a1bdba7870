"""Which cards a table lets be played (C-3, C-5 and the wild cards), asked of the variant's rules
in its order and remembered by the variant per table, so that legal moves do not ask every rule
about every card.

A table is what a card is played on: the top card, the wish, the pending effect and what the
rules remember (``maumau.core.rules.base.Table``; ``GameState.table`` is a state's).  Nothing
here reads a whole state: the state's legal moves (``maumau.core.state``), the reasons for an
illegal move (``maumau.core.illegal``) and a rule that asks (the Runde) all ask this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARD_AT, Card, Rank, Suit
from .moves import Play
from .refusal import Refusal, refuse
from .rules.base import Memory, Pending, Table

if TYPE_CHECKING:  # pragma: no cover
    from .variants import Variant

__all__ = ["CACHE_TABLES", "legal_cards", "plays_on", "card_refusal"]

#: The most tables a variant remembers the playable cards of.  The shipped variants meet a few
#: hundred (lite_macau about 630 in 3,000 random hands); a learner's rule whose memory counts
#: something makes a new table at nearly every move (99,000 tables, 320 MB, in 1,600 hands), so a
#: full cache starts again rather than grow without end.
CACHE_TABLES = 4096


def legal_cards(variant: Variant, table: Table) -> frozenset[Card]:
    """The distinct cards playable on ``table`` (cached per table by the variant)."""
    cache = variant._legal_cache
    found = cache.get(table)
    if found is None:
        found = frozenset(c for c in variant.distinct_cards if card_refusal(variant, c, table) is None)
        _keep(cache, table, found)
    return found


def _keep(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """``cache[key] = value``, starting the cache again when it holds ``CACHE_TABLES`` tables."""
    if len(cache) >= CACHE_TABLES:
        cache.clear()
    cache[key] = value


#: The plays of each card on one table, by the card's index (None: not playable there).
CardPlays = tuple["tuple[Play, ...] | None", ...]


def plays_on(variant: Variant, top: Card, wish: Suit | Rank | None, pending: Pending | None,
             memory: Memory) -> tuple[CardPlays, CardPlays]:
    """The plays of each card playable on a table (its wishes named), without and with the
    announcement (C-8), by the card's index: what legal moves read for each card of a hand (kept as
    the bytes of its cards' indices), one tuple entry a card.  Cached by the variant per table; a
    table of no wish, no pending effect and the memory of the deal (most tables) by its top card
    alone, a cheaper key to look up."""
    playable = legal_cards(variant, Table(top, wish, pending, memory))
    without, with_mau = (tuple(plays[card] if card in playable else None for card in CARD_AT)
                         for plays in variant._plays)
    found = without, with_mau
    if wish is None and pending is None and memory is variant.memory_at_deal:
        variant._plays_by_top[top] = found
    else:
        _keep(variant._plays_cache, (top, wish, pending, memory), found)
    return found


def card_refusal(variant: Variant, card: Card, table: Table) -> Refusal | str | None:
    """None if ``card`` may be played on ``table``, else why not (a rule's ``forbids`` may say it
    in a sentence of its own)."""
    pending = table.pending
    if pending is not None:
        if any(rule.answers(card, pending) for rule in variant._hooks["answers"]):
            return None
        return refuse("illegal.pending", pending.rule.response_id, card=card, pending=pending)
    for rule in variant._hooks["forbids"]:
        reason = rule.forbids(card, table)
        if reason:
            return reason
    if any(rule.allows(card, table) for rule in variant._hooks["allows"]):
        return None
    wish = table.wish
    if isinstance(wish, Suit):
        return refuse("illegal.wish_suit", card=card, suit=wish)
    if isinstance(wish, Rank):
        return refuse("illegal.wish_rank", card=card, rank=wish)
    top = table.top
    if top.suit is None or top.rank is None:  # a Joker on top: nothing to match
        return refuse("illegal.generic", card=card)
    return refuse("illegal.match", card=card, suit=top.suit, rank=top.rank)
