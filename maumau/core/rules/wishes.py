"""Wish cards: Aces and Jacks that name a suit or a rank (LM-4, MR-3, MK-7)."""

from __future__ import annotations

from ..cards import Card, Rank, Suit
from ..refusal import Refusal, refuse
from .base import Role, Rule, Table


class AceWishesSuit(Rule):
    """An Ace names a suit and is legal on anything, but on a rank wish only if the rank is A (LM-4)."""

    name = "ace_wishes_suit"
    roles = frozenset((Role.WISH,))
    rule_id = "LM-4"

    def wish_kind(self, card: Card) -> type | None:
        return Suit if card.rank is Rank.ACE else None

    def allows(self, card: Card, table: Table) -> bool:
        return card.rank is Rank.ACE

    def forbids(self, card: Card, table: Table) -> Refusal | None:
        wish = table.wish
        if card.rank is Rank.ACE and isinstance(wish, Rank) and wish is not Rank.ACE:
            return refuse("illegal.no_overwrite_rank", self.rule_id, card=card, rank=wish)
        return None


class JackWishesRank(Rule):
    """A Jack names a rank and is legal on anything, but on a suit wish only in that suit (LM-4)."""

    name = "jack_wishes_rank"
    roles = frozenset((Role.WISH,))
    rule_id = "LM-4"

    def wish_kind(self, card: Card) -> type | None:
        return Rank if card.rank is Rank.JACK else None

    def allows(self, card: Card, table: Table) -> bool:
        return card.rank is Rank.JACK

    def forbids(self, card: Card, table: Table) -> Refusal | None:
        wish = table.wish
        if card.rank is Rank.JACK and isinstance(wish, Suit) and card.suit is not wish:
            return refuse("illegal.no_overwrite_suit", self.rule_id, card=card, suit=wish)
        return None


class JackWishesSuit(Rule):
    """A Jack names any suit and is legal on any card, except during a Runde or against a pending 7 (MR-3, MK-7)."""

    name = "jack_wishes_suit"
    roles = frozenset((Role.WISH,))
    rule_id = "MK-7"

    def wish_kind(self, card: Card) -> type | None:
        return Suit if card.rank is Rank.JACK else None

    def allows(self, card: Card, table: Table) -> bool:
        return card.rank is Rank.JACK
