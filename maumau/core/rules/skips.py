"""Skips and the reverse (LM-11, MR-6, MK-5, MK-6, JM-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card, Rank
from .base import Pending, Role, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..turn import Turn


class FourSkips(Rule):
    """4: next(X) is skipped unless they answer with any 4, which passes one skip on; skips are not summed (LM-11)."""

    name = "four_skips"
    roles = frozenset((Role.SKIP,))
    rule_id = "LM-11"

    def affects(self, card: Card) -> bool:
        return card.rank is Rank.FOUR

    def answers(self, card: Card, pending: Pending) -> bool:
        return pending.rule == self and card.rank is Rank.FOUR

    def on_play(self, turn: Turn, card: Card) -> None:
        turn.start_pending(1, turn.following())


class SkipOnEight(Rule):
    """8: next(X) is skipped, there is no answer; with 2 players X moves again (MK-5, MR-6)."""

    name = "skip_on_eight"
    roles = frozenset((Role.SKIP,))
    rule_id = "MK-5"

    def affects(self, card: Card) -> bool:
        return card.rank is Rank.EIGHT

    def on_play(self, turn: Turn, card: Card) -> None:
        turn.skip()


class EightSkipsSummed(Rule):
    """8: next(X) is skipped unless they answer with an 8, which skips one player more (JM-6)."""

    name = "eight_skips_summed"
    roles = frozenset((Role.SKIP,))
    rule_id = "JM-6"

    def affects(self, card: Card) -> bool:
        return card.rank is Rank.EIGHT

    def answers(self, card: Card, pending: Pending) -> bool:
        return pending.rule == self and card.rank is Rank.EIGHT

    def on_play(self, turn: Turn, card: Card) -> None:
        before = turn.answering(self)
        turn.start_pending((before.amount if before else 0) + 1, turn.following())


class ReverseOnNine(Rule):
    """9: the direction of play reverses; with 2 players the opponent still moves next (MK-6)."""

    name = "reverse_on_nine"
    roles = frozenset((Role.REVERSE,))
    rule_id = "MK-6"

    def affects(self, card: Card) -> bool:
        return card.rank is Rank.NINE

    def on_play(self, turn: Turn, card: Card) -> None:
        turn.reverse()
