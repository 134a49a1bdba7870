"""The shape of a rule: a small class whose hooks the engine calls.

A variant is a tuple of rules.  Each rule overrides only the hooks it needs; the
variant notices which hooks a rule overrides and calls only those, so a rule that
does nothing for a card costs nothing for that card.

Hooks (all optional):

``allows(card, table)``
    True if this rule makes ``card`` playable on ``table`` (matching, wild cards).
``forbids(card, table)``
    A sentence saying why ``card`` may not be played on ``table``, or None.
    A veto beats any ``allows``.
``answers(card, pending)``
    True if ``card`` answers the pending penalty or skip (C-5).
``wish_kind(card)``
    ``Suit`` or ``Rank`` if playing ``card`` names a wish, else None.
``affects(card)`` / ``on_play(turn, card)``
    What playing ``card`` does (``turn`` is an ``engine.Turn``).
``on_last_card(turn, card)``
    What still happens when ``card`` was the last card of a hand (MK-10).
``extra_plays(state, card)``
    More moves that start with ``card`` (sets, opening a Runde).
``forces_play(state)``
    True if the player to move must play when they can (MR-4, MR-10).
``on_missing_announcement(turn)``
    The announcement penalty (C-8).
``prepare_upcard(deal)``
    Handle the turned-up card at the deal (LM-2, MR-2, MK-2, JM-2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from ..cards import Card, Rank, Suit
from ..moves import Move, Play

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Deal, Turn
    from ..state import GameState

__all__ = ["Rule", "Table", "Pending", "HOOKS"]


class Table(NamedTuple):
    """What a card is played onto: the top card, the wish, the pending effect, the Runde."""

    top: Card
    wish: Suit | Rank | None
    pending: Pending | None
    runde: Rank | None


class Pending(NamedTuple):
    """A draw penalty or skip waiting for its target's answer (C-5).

    ``kind`` is ``"draw"`` or ``"skip"``; ``amount`` is the cards to draw or the
    players to skip; ``rule`` is the rule that started it; ``resume`` is the seat
    that moves once it is settled, when that is not ``next(target)`` (LM-9).
    """

    kind: str
    amount: int
    target: int
    rule: Rule
    resume: int | None = None


class Rule:
    """Base class: a rule does nothing until it overrides a hook."""

    name: ClassVar[str] = "rule"
    rule_id: ClassVar[str] = ""
    #: How a player's turn goes on after drawing: "none", "drawn" (that card) or "any".
    after_draw: ClassVar[str | None] = None
    #: Whether accepting this rule's draw penalty ends the turn (LM-6, MK-4) or not.
    accept_ends_turn: ClassVar[bool] = True
    #: "draw" or "skip" for rules that start a pending effect.
    pending_kind: ClassVar[str | None] = None
    #: False for a house rule under which the pile is never reshuffled into the stock (C-6).
    reshuffles: ClassVar[bool] = True
    #: For a rule that gives an extra play (MK-8, JM-8): the move that closes it instead of a card.
    closer: ClassVar[Move | None] = None
    #: How the narration tells the cards this rule makes another player draw at once (i18n key).
    penalty_words: ClassVar[str] = "then.draws"

    @property
    def summary(self) -> str:
        """The rule in one line: the first line of the class docstring."""
        doc = type(self).__doc__ or self.name
        return doc.strip().splitlines()[0]

    @property
    def response_id(self) -> str:
        """The id of the rule that says how this rule's pending effect may be answered (C-5):
        its own, unless the rulebook has a separate one (LM-8 for the kings)."""
        return self.rule_id

    def cite(self, rule_id: str) -> Rule:
        """This rule, cited by the id it has in a variant's own section of RULES.md
        (the same 8-skip is MK-5 in makao and MR-6 in mau_mau_runde)."""
        self.rule_id = rule_id  # type: ignore[misc]
        return self

    def options(self) -> dict[str, Any]:
        """The settings that distinguish this rule object from another of its class."""
        return {}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        return f"{type(self).__name__}({opts})"

    def __eq__(self, other: object) -> bool:
        if self is other:  # the usual case, and cheap: a variant's rules are made once
            return True
        return type(self) is type(other) and self.options() == other.options()

    def __hash__(self) -> int:
        # Rules do not change once made, so the hash is computed once.
        h = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = hash((type(self), tuple(sorted(self.options().items()))))
        return h

    # --- hooks ---------------------------------------------------------------
    def allows(self, card: Card, table: Table) -> bool:
        return False

    def forbids(self, card: Card, table: Table) -> str | None:
        return None

    def answers(self, card: Card, pending: Pending) -> bool:
        return False

    def wish_kind(self, card: Card) -> type | None:
        return None

    def affects(self, card: Card) -> bool:
        return False

    def on_play(self, turn: Turn, card: Card) -> None:
        return None

    def on_last_card(self, turn: Turn, card: Card) -> None:
        return None

    def extra_plays(self, state: GameState, card: Card) -> list[Play]:
        return []

    def forces_play(self, state: GameState) -> bool:
        return False

    def on_missing_announcement(self, turn: Turn) -> None:
        return None

    def prepare_upcard(self, deal: Deal) -> None:
        return None


HOOKS = (
    "allows", "forbids", "answers", "wish_kind", "on_play", "on_last_card",
    "extra_plays", "forces_play", "on_missing_announcement", "prepare_upcard",
)


def overrides(rule: Rule, hook: str) -> bool:
    """Whether ``rule`` has its own version of ``hook``."""
    return getattr(type(rule), hook) is not getattr(Rule, hook)
