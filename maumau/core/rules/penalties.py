"""Draw penalties, their chains and their cancellation (LM-6..LM-9, LM-12, MK-4, MK-10,
MR-5, JM-4, JM-5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import Card, Rank, Suit
from .base import Pending, Role, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..turn import Turn

KING_OF_HEARTS = Card(Rank.KING, Suit.HEARTS)
KING_OF_SPADES = Card(Rank.KING, Suit.SPADES)
QUEEN_OF_HEARTS = Card(Rank.QUEEN, Suit.HEARTS)


class TwoThreeDraw(Rule):
    """2/3: next(X) draws 2 or 3 unless they answer with any 2/3, which adds to the total (LM-6)."""

    name = "two_three_draw"
    roles = frozenset((Role.DRAW_PENALTY,))
    rule_id = "LM-6"

    def affects(self, card: Card) -> bool:
        return card.rank is Rank.TWO or card.rank is Rank.THREE

    def answers(self, card: Card, pending: Pending) -> bool:
        return pending.rule == self and self.affects(card)

    def on_play(self, turn: Turn, card: Card) -> None:
        before = turn.answering(self)
        amount = (before.amount if before else 0) + (2 if card.rank is Rank.TWO else 3)
        turn.start_pending(amount, turn.following())


class KingsDrawFive(Rule):
    """K♥: next(X) draws 5, K♠: prev(X) draws 5; the other special king raises it to 10 (LM-7, LM-8, LM-9)."""

    name = "kings_draw_five"
    roles = frozenset((Role.DRAW_PENALTY,))
    rule_id = "LM-7"
    response_id = "LM-8"  # LM-8: king responses

    def affects(self, card: Card) -> bool:
        return card is KING_OF_HEARTS or card is KING_OF_SPADES

    def answers(self, card: Card, pending: Pending) -> bool:
        # LM-8: a player facing 10 may only play Q♥ or draw.
        return pending.rule == self and pending.amount < 10 and self.affects(card)

    def on_play(self, turn: Turn, card: Card) -> None:
        before = turn.answering(self)
        if before is not None:  # LM-8: whoever moves next in normal order faces 10
            turn.start_pending(before.amount + 5, turn.following())
            return
        forward = turn.next(turn.player)
        if card is KING_OF_HEARTS:
            turn.start_pending(5, forward)
            return
        backward = turn.prev(turn.player)
        if backward == forward:  # LM-9: with 2 players K♠ acts like K♥
            turn.start_pending(5, forward)
        else:  # LM-9: prev(X) answers out of turn, then next(X) moves
            turn.start_pending(5, backward, resume=forward)


class QueenOfHeartsCancels(Rule):
    """Q♥ on a pending 2/3 or king penalty cancels it; with nothing pending it is ordinary (LM-6, LM-8, LM-12)."""

    name = "queen_of_hearts_cancels"
    roles = frozenset((Role.CANCEL,))
    rule_id = "LM-12"

    def answers(self, card: Card, pending: Pending) -> bool:
        return card is QUEEN_OF_HEARTS and pending.kind == "draw"

    def affects(self, card: Card) -> bool:
        return card is QUEEN_OF_HEARTS

    def on_play(self, turn: Turn, card: Card) -> None:
        # LM-6 or LM-8: the rule of the penalty it answers says that Q♥ cancels it
        turn.cancel()


class SevenDrawsTwo(Rule):
    """7: next(X) draws 2 unless they answer with a 7, which adds 2 for the next player (MK-4)."""

    name = "seven_draws_two"
    roles = frozenset((Role.DRAW_PENALTY,))
    rule_id = "MK-4"

    def affects(self, card: Card) -> bool:
        return card.rank is Rank.SEVEN

    def answers(self, card: Card, pending: Pending) -> bool:
        return pending.rule == self and card.rank is Rank.SEVEN

    def on_play(self, turn: Turn, card: Card) -> None:
        before = turn.answering(self)
        amount = (before.amount if before else 0) + 2
        turn.start_pending(amount, turn.following())


class SevenDrawsTwoPlayOn(SevenDrawsTwo):
    """7: next(X) draws 2, only a 7 answers; whoever accepts draws and then takes a normal turn (MR-5, JM-5)."""

    rule_id = "MR-5"
    accept_ends_turn = False


class LastSevenHits(Rule):
    """If a hand ends on a 7, next(X) still draws the chain total before scoring (MK-10)."""

    name = "last_seven_hits"
    roles = frozenset((Role.DRAW_PENALTY,))
    rule_id = "MK-10"
    penalty_words = "then.last_seven"

    def affects(self, card: Card) -> bool:
        return card.rank is Rank.SEVEN

    def on_last_card(self, turn: Turn, card: Card) -> None:
        before = turn.answered
        # the 7 answered a pending draw (its chain, MK-4): that total is drawn, plus this 7's 2
        chain = before.amount if before is not None and before.kind == "draw" else 0
        turn.draw(turn.next(turn.player), chain + 2, "penalty")


class JokerDrawsFour(Rule):
    """Joker: legal on anything; X names a suit and next(X) draws 4 at once, as part of X's move (JM-4)."""

    name = "joker_draws_four"
    roles = frozenset((Role.DRAW_PENALTY, Role.WISH,))
    rule_id = "JM-4"
    penalty_words = "then.joker"

    def __init__(self, jacks: bool = False) -> None:
        #: JM-1: with jokers=0 the Jacks follow every Joker rule.
        self.jacks = jacks

    def options(self) -> dict[str, Any]:
        return {"jacks": self.jacks}

    def is_wild(self, card: Card) -> bool:
        return card.is_joker or (self.jacks and card.rank is Rank.JACK)

    def wish_kind(self, card: Card) -> type | None:
        return Suit if self.is_wild(card) else None

    def allows(self, card: Card, table: Any) -> bool:
        return self.is_wild(card)

    def affects(self, card: Card) -> bool:
        return self.is_wild(card)

    def on_play(self, turn: Turn, card: Card) -> None:
        turn.draw(turn.following(), 4, "penalty")
