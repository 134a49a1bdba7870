"""What passes between the referee and a bot's sandbox: a seat's View as data in, a Move out.

In: the seat's ``View`` (copies of public values only, no reference to the GameState),
pickled, in a JSON line.  Nothing else of the game is in the bot's process, so whatever it
digs out of its interpreter (frames, ``gc``) holds no other hand, no stock, no seed.  Out: the
move as ``Move.to_dict()`` in a JSON line.  The referee never unpickles anything a bot sent:
an answer is JSON, read with ``move_from_dict`` and then checked against the legal moves.
"""

from __future__ import annotations

import base64
import json
import pickle
from typing import Any

from ..core.moves import Move, move_from_dict
from ..core.state import GameState
from ..players.view import View

__all__ = ["view_message", "view_from_message", "move_message", "move_from_message", "encode", "decode",
           "MAX_LINE"]

#: The longest line a bot may answer with (a move is a few dozen bytes).
MAX_LINE = 64 * 1024


def view_message(state: GameState, seat: int, request: int) -> dict[str, Any]:
    """The request for ``seat``'s move in ``state``: its View and nothing else."""
    view = base64.b64encode(pickle.dumps(View(state, seat), protocol=pickle.HIGHEST_PROTOCOL)).decode()
    return {"id": request, "view": view}


def view_from_message(message: dict[str, Any]) -> View:
    """The View a request carries (in the bot's process, from the referee: trusted data)."""
    view = pickle.loads(base64.b64decode(message["view"]))
    if not isinstance(view, View):
        raise TypeError(f"a request carries a View, not {type(view).__name__}")
    return view


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
