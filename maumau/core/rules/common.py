"""Rules shared by every variant: matching (C-3); and a house rule of any variant: a stock that is
never refilled (C-6), which makes a hand's state graph finite."""

from __future__ import annotations

from ..cards import Card, Suit
from .base import Rule, Table


class Matching(Rule):
    """A card is legal if it shares suit or rank with the top card; a named suit replaces the top card's suit (C-3)."""

    name = "matching"
    rule_id = "C-3"

    def allows(self, card: Card, table: Table) -> bool:
        wish, top = table.wish, table.top
        if wish is None:
            # A joker on top without a named suit leaves nothing to follow.
            return top.is_joker or card.suit is top.suit or card.rank is top.rank
        if isinstance(wish, Suit):
            return card.suit is wish or (card.rank is not None and card.rank is top.rank)
        return card.rank is wish


class FixedStock(Rule):
    """House rule for graphs: the pile is never reshuffled; once the stock is empty nothing can be drawn (C-7)."""

    name = "fixed_stock"
    rule_id = "C-6"
    reshuffles = False
