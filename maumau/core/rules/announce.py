"""The Mau / Macau / Makaó announcement and what forgetting it costs (C-8, LM-13,
MR-7, MK-9, JM-9)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar

from ..moves import Move
from ..refusal import Either, Refusal, refuse
from .base import Role, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState
    from ..turn import Turn


class MauPenalty(Rule):
    """A move that leaves one card without Mau stands, and the player draws 2 cards at once (MR-7, MK-9)."""

    name = "mau_penalty"
    roles = frozenset((Role.ANNOUNCEMENT,))
    rule_id = "MK-9"
    call = "Mau"
    cards = 2

    def on_missing_announcement(self, turn: Turn) -> None:
        turn.draw(turn.player, self.cards, "penalty")


class MacauPenalty(MauPenalty):
    """A missing "Macau" costs 5 cards (LM-13)."""

    name = "macau_penalty"
    rule_id = "LM-13"
    call = "Macau"
    cards = 5


class MauLocksLastCard(Rule):
    """Without Mau the move stands but the last card is locked until the player receives a card (JM-9)."""

    name = "mau_lock"
    roles = frozenset((Role.ANNOUNCEMENT, Role.LOCK))
    rule_id = "JM-9"
    call = "Mau"
    #: The lock's memory: the seats whose last card is locked, sorted (``state.locked`` reads it).
    remembers = True
    memory_at_deal: ClassVar[Hashable] = ()

    def check_memory(self, value: Any, state: GameState) -> str | None:
        if not isinstance(value, tuple) or any(type(seat) is not int for seat in value):
            return f"the locked seats are a tuple of seat numbers, not {value!r}"
        if list(value) != sorted(set(value)):
            return f"the locked seats are sorted and different, not {value!r}"
        return None

    def on_missing_announcement(self, turn: Turn) -> None:
        turn.lock(turn.player)

    def why_not(self, state: GameState, move: Move) -> Refusal | None:
        if state.to_move not in state.locked:
            return None
        return refuse("illegal.locked", self.rule_id, call=state.variant.call, moves=Either(state.legal_moves()))
