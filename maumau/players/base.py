"""The Player protocol: given the state, choose a legal move."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from ..moves import Move
    from ..state import GameState


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose(state) -> Move`` can sit at the table."""

    def choose(self, state: GameState) -> Move: ...


class Random:
    """Plays a uniformly random legal move (always announcing Mau, C-8)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Move:
        return self.rng.choice(state.legal_moves())

    def __repr__(self) -> str:
        return "Random()"
