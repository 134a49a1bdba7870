"""What passes between the referee and a bot's sandbox: a seat's View as data in, a Move out.

A View is sent as a whole GameState that agrees with it: the hidden cards (the other hands,
the order of the stock, the reshuffle seed) are dealt at random by the referee's own random
numbers, never the game's (``View.sample``).  The bot's process rebuilds ``View(state, seat)``
from it, which equals the true View field by field.  So whatever a bot digs out of its
interpreter (frames, ``gc``) it finds a guess, never the real hands or seed.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..core.moves import Move, move_from_dict
from ..core.state import GameState
from ..play.serialize import state_from_dict, state_to_dict
from ..players.view import View

__all__ = ["view_message", "view_from_message", "move_message", "move_from_message", "encode", "decode",
           "MAX_LINE"]

#: The longest line a bot may answer with (a move is a few dozen bytes).
MAX_LINE = 64 * 1024


def view_message(state: GameState, seat: int, rng: random.Random, request: int) -> dict[str, Any]:
    """The request for ``seat``'s move in ``state``: its View, the hidden cards guessed by ``rng``."""
    guess = View(state, seat).sample(rng)
    return {"id": request, "seat": seat, "state": state_to_dict(guess)}


def view_from_message(message: dict[str, Any]) -> View:
    """The View a request carries (in the bot's process)."""
    return View(state_from_dict(message["state"]), int(message["seat"]))


def move_message(request: int, move: Any) -> dict[str, Any]:
    """A bot's answer: the move, or what it returned instead of one."""
    if not isinstance(move, Move):
        return {"id": request, "error": f"choose returned {_short(repr(move))}, not a move"}
    return {"id": request, "move": move.to_dict()}


def move_from_message(message: Any) -> Move:
    """The move of an answer; ValueError (with what is wrong) for anything else."""
    if not isinstance(message, dict) or not isinstance(message.get("move"), dict):
        raise ValueError(f"the answer is not a move: {_short(repr(message))}")
    return move_from_dict(message["move"])


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def decode(line: bytes) -> Any:
    return json.loads(line)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
