"""The turned-up card at the deal (LM-2, MR-2, MK-2, JM-2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Rank
from .base import Role, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..turn import Deal

MAU_EXCLUDED = frozenset((Rank.SEVEN, Rank.EIGHT, Rank.JACK))
MAKAO_ACTION = frozenset((Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.ACE))


class UpcardIsDealersPlay(Rule):
    """The up-card counts as the dealer's play, effect included; for an A/J the dealer names the wish (LM-2)."""

    name = "upcard_dealers_play"
    roles = frozenset((Role.UPCARD,))
    rule_id = "LM-2"
    counts_as_play = True


class JokerUpcard(UpcardIsDealersPlay):
    """The up-card is the dealer's play: 7 and 8 hit next(dealer), a Joker wishes and gives 4; an Ace: none (JM-2)."""

    rule_id = "JM-2"
    no_effect = frozenset((Rank.ACE,))


class UpcardToBottom(Rule):
    """A 7, 8 or J up-card goes under the stock and the next card is turned up; the up-card has no effect (MR-2)."""

    name = "upcard_to_bottom"
    roles = frozenset((Role.UPCARD,))
    rule_id = "MR-2"

    def prepare_upcard(self, deal: Deal) -> None:
        for _ in range(len(deal.stock)):
            if deal.upcard.rank not in MAU_EXCLUDED:
                return
            deal.stock, deal.discard = deal.stock[1:] + deal.discard, deal.stock[:1]


class UpcardCovered(Rule):
    """While the up-card is an action card (7, 8, 9, J, A) the next stock card covers it, without effect (MK-2)."""

    name = "upcard_covered"
    roles = frozenset((Role.UPCARD,))
    rule_id = "MK-2"

    def prepare_upcard(self, deal: Deal) -> None:
        while deal.stock and deal.upcard.rank in MAKAO_ACTION:
            deal.discard, deal.stock = deal.discard + deal.stock[:1], deal.stock[1:]
