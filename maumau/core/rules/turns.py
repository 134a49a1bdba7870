"""How a turn goes: drawing, forced play, the Ace's extra play, sets and the Runde
(LM-3, LM-5, MR-4, MR-8..MR-13, MK-3, MK-8, JM-3, JM-8)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ...text.i18n import rank_name, t
from ..cards import Card, Rank, Suit
from ..events import RundeEnded, RundeOpened
from ..moves import Draw, Move, Pass, Play
from ..problems import seat_problem, show
from .base import Role, Rule, Table

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState
    from ..turn import Turn


class DrawEndsTurn(Rule):
    """Drawing ends the turn; the drawn card is not played, even if it fits (LM-3, MK-3)."""

    name = "draw_ends_turn"
    rule_id = "MK-3"
    after_draw = "none"


class PlayDrawnCard(Rule):
    """After drawing, the player may play the drawn card if it is legal, or Pass() (MR-4)."""

    name = "play_drawn_card"
    rule_id = "MR-4"
    after_draw = "drawn"


class PlayAfterDrawing(Rule):
    """After drawing, the player may play any legal card from hand, or Pass() (JM-3)."""

    name = "play_after_drawing"
    rule_id = "JM-3"
    after_draw = "any"


class ForcedPlay(Rule):
    """A player with a legal play must play one card; only a player without one draws (MR-4)."""

    name = "forced_play"
    rule_id = "MR-4"

    def forces_play(self, state: GameState) -> bool:
        return True


class AceExtraPlay(Rule):
    """Ace: X continues at once: one more legal card on the Ace, or draw one card, which ends the turn (MK-8)."""

    name = "ace_extra_play"
    roles = frozenset((Role.EXTRA_PLAY,))
    rule_id = "MK-8"
    closer: ClassVar[Move | None] = Draw()

    def affects(self, card: Card) -> bool:
        return card.rank is Rank.ACE

    def on_play(self, turn: Turn, card: Card) -> None:
        turn.play_again()


class AceMayPlayAgain(AceExtraPlay):
    """Ace: X may play one more legal card on the Ace, or Pass(); nothing has to be drawn (JM-8)."""

    name = "ace_may_play_again"
    rule_id = "JM-8"
    closer = Pass()


#: Cards that are special by identity in lite_macau and may not be part of a set (LM-5).
LITE_SPECIAL_RANKS = frozenset((Rank.ACE, Rank.JACK, Rank.TWO, Rank.THREE, Rank.FOUR))
LITE_SPECIAL_CARDS = frozenset(
    (Card(Rank.KING, Suit.HEARTS), Card(Rank.KING, Suit.SPADES), Card(Rank.QUEEN, Suit.HEARTS))
)


class SameRankSets(Rule):
    """After a legal first card the same move may add more cards of that rank; none may be special (LM-5)."""

    name = "same_rank_sets"
    roles = frozenset((Role.SETS,))
    rule_id = "LM-5"

    @staticmethod
    def is_special(card: Card) -> bool:
        return card.rank in LITE_SPECIAL_RANKS or card in LITE_SPECIAL_CARDS or card.is_joker

    def extra_plays(self, state: GameState, card: Card) -> list[Play]:
        if self.is_special(card):
            return []
        hand = list(state.hands[state.to_move])
        hand.remove(card)
        mates = [c for c in hand if c.rank is card.rank and not self.is_special(c)]
        plays = []
        for size in range(1, len(mates) + 1):
            left = len(hand) - size
            for chosen in sorted(set(combinations(mates, size))):
                for i, last in enumerate(chosen):
                    if last in chosen[:i]:
                        continue
                    middle = chosen[:i] + chosen[i + 1:]
                    plays.append(Play((card, *middle, last), mau=left == 1))
        return plays


RUNDE_RANKS = frozenset((Rank.NINE, Rank.TEN, Rank.QUEEN, Rank.KING, Rank.ACE))


class Runde(Rule):
    """Runde: open with a 9, 10, Q, K or A, holding another; only that rank until the opener has none (MR-8..13)."""

    name = "runde"
    roles = frozenset((Role.RUNDE,))
    rule_id = "MR-8"
    #: The Runde's memory: (rank, opener) while a Runde runs, else None.
    remembers = True

    def affects(self, card: Card) -> bool:
        return card.rank in RUNDE_RANKS

    def allows(self, card: Card, table: Table) -> bool:
        runde = table.memory_of(self)
        return runde is not None and card.rank is runde[0]  # MR-9: any suit

    def forbids(self, card: Card, table: Table) -> str | None:
        runde = table.memory_of(self)
        if runde is not None and card.rank is not runde[0]:
            return t("illegal.runde", card=card.symbol, rank=rank_name(runde[0]))
        return None

    def forces_play(self, state: GameState) -> bool:
        return state.memory_of(self) is not None  # MR-10, MR-11

    def extra_plays(self, state: GameState, card: Card) -> list[Play]:
        if state.memory_of(self) is not None or card.rank not in RUNDE_RANKS:
            return []
        hand = state.hands[state.to_move]
        if sum(c.rank is card.rank for c in hand) < 2:  # MR-8: must hold another
            return []
        return [Play(card, runde=True, mau=len(hand) == 2)]

    def on_play(self, turn: Turn, card: Card) -> None:
        if cast(Play, turn.move).runde:  # on_play hooks run for the Play being made
            assert card.rank is not None  # affects(): only a 9, 10, Q, K or A opens a Runde
            turn.remember(self, (card.rank, turn.player))
            turn.emit(RundeOpened(turn.player, card.rank, rule=self))
            return
        runde = turn.memory_of(self)
        if runde is not None and runde[1] == turn.player:  # MR-12
            if not any(c.rank is runde[0] for c in turn.hand()):
                turn.remember(self, None)
                turn.emit(RundeEnded(turn.player, rule=self))

    def check_memory(self, value: Any, state: GameState) -> str | None:
        if value is None:
            return None
        if not isinstance(value, tuple) or len(value) != 2 or not isinstance(value[0], Rank):
            return f"a Runde is (rank, opener), not {show(value)}"
        rank, opener = value
        variant = state.variant
        if not any(c.rank is rank for c in variant.deck):
            return f"a Runde of {rank}s, but the {variant.name} deck has no {rank}"
        problem = seat_problem(state.active, "the Runde's opener", opener)
        if problem is None and not state.is_over and not any(c.rank is rank for c in state.hands[opener]):
            problem = (f"the Runde's opener, seat {opener}, holds no {rank}: the Runde would "
                       "have ended (MR-12)")
        return problem

    def describe_memory(self, value: Any, name_of: Callable[[int], str]) -> str | None:
        if value is None:
            return None
        rank, opener = value
        return t("term.runde", rank=rank_name(rank), name=name_of(opener))
