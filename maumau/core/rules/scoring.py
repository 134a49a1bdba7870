"""How a hand is scored and how a match ends (LM-14, MR-14, MK-11..MK-14, JM-11, JM-12).

A scoring rule turns a finished hand into points per seat and tells the Match when it
is over.  ``higher_wins`` says which way the totals count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import Card, Rank
from .base import Role, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState


#: How a match is won, as data: the catalogue key of the sentence and the values it names
#: (``maumau.text.explain.goal_sentence`` says it in the language of the moment, with the
#: scoring's own ``score_key`` as ``{score}``).
Goal = tuple[str, dict[str, Any]]

FACE = {r: int(r.value) for r in Rank if r.value.isdigit()}
CARD_POINTS = FACE | {Rank.JACK: 20, Rank.QUEEN: 10, Rank.KING: 10, Rank.ACE: 11}


class Scoring(Rule):
    """Base class of the scoring rules."""

    roles = frozenset((Role.SCORING,))
    higher_wins = True
    #: Whether a match is won by hands won (MR-14) rather than by points.
    counts_hands: ClassVar[bool] = False
    #: What the scores are called (an i18n key): "points" unless the rule says more.
    score_key: ClassVar[str] = "term.points"

    def card_points(self, card: Card) -> int:
        return 0

    def hand_scores(self, state: GameState) -> list[int]:
        """What each seat adds to its total for this hand (a blocked hand scores nothing, C-7)."""
        return [0] * state.players

    def eliminated(self, totals: list[int]) -> list[bool]:
        return [False] * len(totals)

    def match_over(self, totals: list[int], alive: list[bool]) -> bool:
        return sum(alive) <= 1

    def goal(self) -> Goal:
        """How a match under this scoring is won: the key of its sentence and the values it names."""
        return "goal.last", {}

    def winners(self, totals: list[int], alive: list[bool]) -> tuple[int, ...]:
        seats = [i for i, a in enumerate(alive) if a]
        best = (max if self.higher_wins else min)(totals[i] for i in seats)
        return tuple(i for i in seats if totals[i] == best)


class _Wins(Scoring):
    target_option = "target"

    def __init__(self, target: int = 1) -> None:
        if target < 1:
            raise ValueError(f"{self.target_option} must be at least 1, not {target}")
        self.target = target

    def goal(self) -> Goal:
        if self.counts_hands:
            return ("goal.hands_1", {}) if self.target == 1 else ("goal.hands", {"target": self.target})
        return "goal.points", {"target": self.target}

    def options(self) -> dict[str, Any]:
        return {self.target_option: self.target}

    def hand_scores(self, state: GameState) -> list[int]:
        scores = [0] * state.players
        if state.winner is not None:
            scores[state.winner] = 1
        return scores

    def match_over(self, totals: list[int], alive: list[bool]) -> bool:
        return max(totals) >= self.target or sum(alive) <= 1


class VictoryPoints(_Wins):
    """Going out scores 1 victory point; the first player to reach 2 wins the match (LM-14)."""

    name = "victory_points"
    score_key = "ui.score.victory_points"
    rule_id = "LM-14"
    target_option = "points_to_win"

    def __init__(self, points_to_win: int = 2) -> None:
        super().__init__(points_to_win)


class HandsWon(_Wins):
    """Going out wins the hand; the match goes to the first player to win hands_to_win hands (MR-14)."""

    name = "hands_won"
    rule_id = "MR-14"
    counts_hands = True
    score_key = "ui.score.hands_won"
    target_option = "hands_to_win"

    def __init__(self, hands_to_win: int = 1) -> None:
        super().__init__(hands_to_win)


class CardPoints(Scoring):
    """Others score their cards (2-10 face, J 20, Q/K 10, A 11); ≥ L eliminates; the last left wins (MK-11, MK-12)."""

    name = "card_points"
    score_key = "ui.score.card_points"
    rule_id = "MK-11"
    higher_wins = False

    def __init__(self, limit: int = 100, strict: bool = False) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        self.limit = limit
        self.strict = strict  # RULES.md §6.18: '>' instead of '>='

    def goal(self) -> Goal:
        return "goal.limit", {"limit": self.limit}

    def options(self) -> dict[str, Any]:
        return {"limit": self.limit, "strict": self.strict}

    def card_points(self, card: Card) -> int:
        return 0 if card.rank is None else CARD_POINTS[card.rank]

    def hand_scores(self, state: GameState) -> list[int]:
        if state.winner is None:
            return [0] * state.players
        return [0 if seat == state.winner or not state.active[seat]
                else sum(self.card_points(c) for c in hand)
                for seat, hand in enumerate(state.hands)]

    def eliminated(self, totals: list[int]) -> list[bool]:
        return [(t > self.limit) if self.strict else (t >= self.limit) for t in totals]


class JokerCardPoints(Scoring):
    """Others score 7-10 face, J 20, Q/K 10, A 11, Joker 20, ×2 after a final Joker; at T lowest wins (JM-11, JM-12)."""

    name = "joker_card_points"
    score_key = "ui.score.joker_card_points"
    rule_id = "JM-11"
    higher_wins = False

    def __init__(self, threshold: int = 100, jacks: bool = False) -> None:
        if threshold < 1:
            raise ValueError(f"threshold must be at least 1, not {threshold}")
        self.threshold = threshold
        self.jacks = jacks  # JM-1: with jokers=0 a final Jack doubles like a Joker

    def goal(self) -> Goal:
        return "goal.threshold", {"threshold": self.threshold}

    def options(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "jacks": self.jacks}

    def card_points(self, card: Card) -> int:
        return 20 if card.rank is None else CARD_POINTS[card.rank]

    def doubles(self, last: Card) -> bool:
        return last.is_joker or (self.jacks and last.rank is Rank.JACK)

    def hand_scores(self, state: GameState) -> list[int]:
        if state.winner is None:
            return [0] * state.players
        factor = 2 if self.doubles(state.top) else 1
        return [0 if seat == state.winner else factor * sum(self.card_points(c) for c in hand)
                for seat, hand in enumerate(state.hands)]

    def match_over(self, totals: list[int], alive: list[bool]) -> bool:
        return max(totals) >= self.threshold or sum(alive) <= 1


class JoinAndLeave(Rule):
    """Players may join before a hand, up to 5, at the worst total, and may leave at any time (MK-13, MK-14)."""

    name = "join_and_leave"
    roles = frozenset((Role.JOIN_AND_LEAVE,))
    rule_id = "MK-13"
    max_players = 5
