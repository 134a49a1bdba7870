"""How a turn goes: drawing, forced play, the Ace's extra play, sets and the Runde
(LM-3, LM-5, MR-4, MR-8..MR-13, MK-3, MK-8, JM-3, JM-8)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ..cards import Card, Rank, Suit
from ..events import RundeEnded, RundeOpened
from ..moves import DRAWN, EXTRA, TURN, Draw, Move, Pass, Play
from ..problems import seat_problem, show
from ..refusal import Ranks, Refusal, refuse
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

    def why_not(self, state: GameState, move: Move) -> Refusal | None:
        if state.phase != DRAWN or state.pending is not None:
            return None
        if isinstance(move, Draw):
            return refuse("illegal.drawn_phase", self.rule_id)
        drawn = state.drawn
        if (self.after_draw == "drawn" and isinstance(move, Play) and len(move.cards) == 1
                and move.card is not drawn):
            return refuse("illegal.drawn_only", self.rule_id, card=drawn if drawn else "—")
        return None


class PlayAfterDrawing(PlayDrawnCard):
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

    def why_not(self, state: GameState, move: Move) -> Refusal | None:
        if not isinstance(move, Draw) or state.phase != TURN or state.pending is not None:
            return None
        # a rule that forces play for a reason of its own (a Runde, MR-10) says so itself
        if any(rule is not self and rule.forces_play(state) for rule in state.variant._forcers):
            return None
        return refuse("illegal.draw_forced", self.rule_id)


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

    def why_not(self, state: GameState, move: Move) -> Refusal | None:
        """At the extra play: play on it, or close the turn the variant's way."""
        if state.phase != EXTRA or state.pending is not None or isinstance(move, Play):
            return None
        return refuse("illegal.extra", self.rule_id, closer=repr(state.variant.extra_closer))


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

    def why_not(self, state: GameState, move: Move) -> Refusal | None:
        if not isinstance(move, Play) or len(move.cards) < 2:
            return None
        if len({c.rank for c in move.cards}) > 1:
            return refuse("illegal.set_rank", self.rule_id)
        if any(self.is_special(c) for c in move.cards):
            return refuse("illegal.set_special", self.rule_id)
        if state.pending is not None or state.phase != TURN:
            return refuse("illegal.set_pending", self.rule_id)
        return None

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
    #: The ranks that open a Runde (a house rule may open it with others).
    ranks: ClassVar[frozenset[Rank]] = RUNDE_RANKS
    #: The Runde's memory: (rank, opener) while a Runde runs, else None.
    remembers = True

    def affects(self, card: Card) -> bool:
        return card.rank in self.ranks

    def allows(self, card: Card, table: Table) -> bool:
        runde = table.memory_of(self)
        return runde is not None and card.rank is runde[0]  # MR-9: any suit

    def forbids(self, card: Card, table: Table) -> Refusal | None:
        runde = table.memory_of(self)
        if runde is not None and card.rank is not runde[0]:
            return refuse("illegal.runde", self.rule_id, card=card, rank=runde[0])
        return None

    def why_not(self, state: GameState, move: Move) -> Refusal | None:
        runde = state.memory_of(self)
        if isinstance(move, Draw) and runde is not None and state.phase == TURN and state.pending is None:
            # MR-11: the opener must follow while they can; MR-10: the others play the rank too
            return refuse("illegal.draw_forced", "MR-11" if runde[1] == state.to_move else "MR-10")
        if isinstance(move, Play) and move.runde and len(move.cards) == 1:
            return self._why_not_open(state, move)
        return None

    def _why_not_open(self, state: GameState, move: Play) -> Refusal | None:
        """Why ``move`` may not open a Runde (MR-8); None if the card itself is refused (the core
        says why) or opening is not what is wrong (e.g. the announcement)."""
        from ..playable import card_refusal  # it imports this package (its Table): asked at call time

        if card_refusal(state.variant, move.card, state.table) is not None:
            return None
        if state.pending is not None or state.memory_of(self) is not None or state.phase != TURN:
            return refuse("illegal.runde_when", self.rule_id)
        if move.card.rank not in self.ranks:
            return refuse("illegal.runde_rank", self.rule_id, ranks=Ranks(sorted(self.ranks, key=_order)))
        if sum(c.rank is move.card.rank for c in state.hands[state.to_move]) < 2:
            return refuse("illegal.runde_second", self.rule_id, rank=move.card.rank)
        return None

    def forces_play(self, state: GameState) -> bool:
        return state.memory_of(self) is not None  # MR-10, MR-11

    def extra_plays(self, state: GameState, card: Card) -> list[Play]:
        if state.memory_of(self) is not None or card.rank not in self.ranks:
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
        if rank not in self.ranks:  # a Runde of another rank would never end: MR-12 acts on these ranks
            return f"a Runde of {rank}s, but only {_listed(self.ranks)} open a Runde (MR-8)"
        if not any(c.rank is rank for c in variant.deck):
            return f"a Runde of {rank}s, but the {variant.name} deck has no {rank}"
        problem = seat_problem(state.active, "the Runde's opener", opener)
        if problem is None and not state.is_over and not any(c.rank is rank for c in state.hands[opener]):
            problem = (f"the Runde's opener, seat {opener}, holds no {rank}: the Runde would "
                       "have ended (MR-12)")
        return problem

    def describe_memory(self, value: Any, name_of: Callable[[int], str]) -> Refusal | None:
        if value is None:
            return None
        rank, opener = value
        return refuse("term.runde", self.rule_id, rank=rank, name=name_of(opener))


def _order(rank: Rank) -> int:
    return rank.order


def _listed(ranks: frozenset[Rank]) -> str:
    """"9, 10, Q, K or A": the ranks lowest first, as a saved state's refusal says them."""
    said = [rank.value for rank in sorted(ranks, key=_order)]
    return " or ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said) or "no rank"
