"""The Player protocol (given what its seat sees, choose a legal move), ``ask``, and Random.

Everything in maumau that needs a move from a player (``mm.simulate``, ``Game.play`` and so
``Match.play_hand``, the card table's computers, the terminal game, the rules explorer) asks
through ``ask(player, state)``.  A player receives only its seat's ``View``: its own hand, the
discard pile, hand sizes, the wish, a pending effect, the phase, ``legal_moves``; never the
other hands, the order of the stock or the reshuffle seed.  The exception is maumau's own
players (Random, Heuristic, Search, the terminal's human): they are written to read only
what their seat may see, and get the GameState itself to save building a View per move.

What this does and does not guard against: a player that reads ``view.hands`` or
``view.stock`` gets an AttributeError, and a View holds no reference to the GameState.  It is
not a sandbox: Python code can still dig the state out of the interpreter (the ``gc`` module,
the caller's frame via ``inspect`` or ``sys._getframe``), or give its class a maumau module
name.  That is deliberate cheating, which a grader finds by reading the code.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..core.moves import Move, Play
from ..core.state import IllegalMove
from .view import View

if TYPE_CHECKING:  # pragma: no cover
    from ..core.state import GameState

__all__ = ["Player", "Random", "ask", "sees_state", "IllegalChoice"]


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose(view) -> Move`` can sit at the table.

    ``view`` is a ``maumau.players.View`` of the player's seat (``ask`` makes it): its own
    ``hand``, ``top`` and ``discard``, ``hand_sizes``, ``stock_size``, ``wish``, ``pending``,
    ``phase``, ``seat``, ``to_move``, ``variant``, ... and ``legal_moves``; ``choose`` returns
    one of ``view.legal_moves``.  The computer players always announce Mau (C-8).
    Optionally ``reseed(seed)`` restarts its random numbers (``mm.simulate`` calls it
    once per game, so results do not depend on how games are spread over workers).
    """

    def choose(self, view: View) -> Move: ...


class IllegalChoice(IllegalMove):
    """A player's ``choose`` returned a move the rules do not allow here (or no move at all):
    a bug in that player.  The message names the player, its seat and the move."""


def sees_state(player: Any) -> bool:
    """True for maumau's own players, which are handed the GameState itself: their class
    sets ``sees_state = True`` and is defined in a maumau module (so a class written in a
    notebook, or a subclass of Random written there, gets a View whatever it sets)."""
    cls = type(player)
    return getattr(cls, "sees_state", False) is True and cls.__module__.startswith("maumau.")


def label(player: Any) -> str:
    """The player's repr, or its class name where the class has no repr of its own."""
    cls = type(player)
    own_repr: object = cls.__repr__
    if own_repr is object.__repr__:
        return cls.__qualname__
    try:
        return repr(player)
    except Exception:  # a broken __repr__ must not hide the real error
        return cls.__qualname__


def ask(player: Any, state: GameState) -> Move:
    """``player``'s move in ``state`` (for the seat to move): maumau's own players are asked
    with the state, any other with ``View(state)`` only, and what it returns must be a legal
    move, else ``IllegalChoice`` names the player, the seat and the move.  A move that only
    forgets to announce Mau is legal (it is penalised as the variant says, C-8)."""
    if sees_state(player):
        chosen: Move = player.choose(state)
        return chosen
    view = View(state)
    move = player.choose(view)
    legal = view.legal_moves
    if isinstance(move, Move) and (move in legal or (type(move) is Play and not move.mau
                                                     and move.replace(mau=True) in legal)):
        return move
    seat = view.seat
    if not isinstance(move, Move):
        raise IllegalChoice(f"{label(player)} at seat {seat} returned {move!r}, not a move: choose(view) "
                            f"must return one of view.legal_moves: {_listed(legal)}", None)
    try:
        reason = state.why_illegal(move) or "it is not one of view.legal_moves"
    except Exception:  # a move the engine cannot even explain (a card not in the deck, ...)
        reason = "it is not one of view.legal_moves"
    raise IllegalChoice(f"{label(player)} at seat {seat} chose an illegal move {move!r}: {reason.rstrip('.')}; "
                        f"the legal moves are {_listed(legal)}", move)


def _listed(moves: tuple[Move, ...]) -> str:
    shown = ", ".join(map(repr, moves[:8]))
    return shown + (f" and {len(moves) - 8} more" if len(moves) > 8 else "")


class Random:
    """Plays a uniformly random legal move (always announcing Mau, C-8)."""

    name = "random"

    #: maumau's own code, trusted to read only what its seat may see: ``ask`` hands it the
    #: GameState itself (no View to build).  Honoured only for classes defined in maumau.
    sees_state = True

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def reseed(self, seed: int | None) -> None:
        """Start the random number stream again from ``seed``."""
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: GameState | View) -> Move:
        return self.rng.choice(state.legal_moves())

    def __repr__(self) -> str:
        return "Random()"
