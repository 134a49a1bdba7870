"""The Player protocol (given the state, choose a legal move) and the Random player."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from ..moves import Move
    from ..state import GameState


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose(state) -> Move`` can sit at the table.

    A fair player reads only what its seat may see (``maumau.players.View(state)``):
    its own hand, the discard pile, hand sizes, wish, pending effect, phase, never the
    other hands or the stock order.  The computer players always announce Mau (C-8).
    Optionally ``reseed(seed)`` restarts its random numbers (``mm.simulate`` calls it
    once per game, so results do not depend on how games are spread over workers).
    """

    def choose(self, state: GameState) -> Move: ...


class Random:
    """Plays a uniformly random legal move (always announcing Mau, C-8)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def reseed(self, seed: int | None) -> None:
        """Start the random number stream again from ``seed``."""
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Move:
        return self.rng.choice(state.legal_moves())

    def __repr__(self) -> str:
        return "Random()"
