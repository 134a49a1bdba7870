"""What passes between the referee and a bot's sandbox: a seat's View as data in, a Move out.

In: the seat's ``View`` (copies of public values only, no reference to the GameState),
pickled, in a JSON line.  Nothing else of the game is in the bot's process, so whatever it
digs out of its interpreter (frames, ``gc``) holds no other hand, no stock, no seed.  Out: the
move as ``Move.to_dict()`` in a JSON line.  The referee never unpickles anything a bot sent:
an answer is JSON, read within bounds (``read_answer``: at most ``MAX_ANSWER`` bytes, objects and
lists nested at most ``MAX_DEPTH`` deep, whole numbers of at most ``MAX_DIGITS`` digits) and
then with ``move_from_dict``, and checked against the legal moves.  Whatever else a bot sends
is its fault, never the referee's exception.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
from typing import Any

from ..core.moves import Move, move_from_dict
from ..core.state import GameState
from ..core.variants import Variant
from ..players.view import View

__all__ = ["view_message", "view_from_message", "move_message", "move_from_message", "encode", "decode",
           "read_answer", "BadAnswer", "MAX_LINE", "MAX_ANSWER", "MAX_DEPTH", "MAX_DIGITS"]

#: The most a bot may send without a line end (beyond it the wire is broken: the bot forfeits).
MAX_LINE = 64 * 1024
#: The longest answer read (a move is a few dozen bytes; the runner's error sentences a few hundred).
MAX_ANSWER = 8 * 1024
#: How deep objects and lists may nest in an answer (a move is an object in an object: 2).
MAX_DEPTH = 4
#: The most digits of a number in an answer (a request's id is a move number).
MAX_DIGITS = 15


class BadAnswer(ValueError):
    """An answer outside the bounds, or not JSON: the sentence says which (a fault of the bot's)."""


class _Pickler(pickle.Pickler):
    """Pickles a View without its variant and the variant's rules: the bot's process has them
    from the first request (they are the same all game), so a move's request stays small."""

    def __init__(self, file: io.BytesIO, variant: Variant) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.known = {id(variant): "variant", **{id(rule): i for i, rule in enumerate(variant.rules)}}

    def persistent_id(self, obj: Any) -> Any:
        return self.known.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, variant: Variant) -> None:
        super().__init__(file)
        self.variant = variant

    def persistent_load(self, pid: Any) -> Any:
        return self.variant if pid == "variant" else self.variant.rules[pid]


def _pickled(obj: Any, variant: Variant | None) -> str:
    buffer = io.BytesIO()
    if variant is None:
        pickle.dump(obj, buffer, protocol=pickle.HIGHEST_PROTOCOL)
    else:
        _Pickler(buffer, variant).dump(obj)
    return base64.b64encode(buffer.getvalue()).decode()


def view_message(state: GameState, seat: int, request: int, first: bool = True) -> dict[str, Any]:
    """The request for ``seat``'s move in ``state``: its View and nothing else (the variant
    too if ``first``, else a reference to the one sent before)."""
    message = {"id": request, "view": _pickled(View(state, seat), None if first else state.variant)}
    if not first:
        message["known"] = True
    return message


class Receiver:
    """The bot's end: Views from requests, the variant kept from the first."""

    def __init__(self) -> None:
        self.variant: Variant | None = None

    def view(self, message: dict[str, Any]) -> View:
        """The View a request carries (from the referee: trusted data)."""
        data = io.BytesIO(base64.b64decode(message["view"]))
        if message.get("known"):
            if self.variant is None:
                raise ValueError("a request refers to a variant never sent")
            view = _Unpickler(data, self.variant).load()
        else:
            view = pickle.load(data)
        if not isinstance(view, View):
            raise TypeError(f"a request carries a View, not {type(view).__name__}")
        self.variant = view.variant
        return view


def view_from_message(message: dict[str, Any]) -> View:
    """The View of a first request (with its variant)."""
    return Receiver().view(message)


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
    """A line of the referee's (trusted: the runner's end)."""
    return json.loads(line)


def read_answer(line: bytes) -> dict[str, Any]:
    """A bot's answer line as a JSON object, read within the bounds; BadAnswer saying what is wrong.

    The size and the nesting are checked on the bytes before any parsing (Python's JSON reader
    recurses once per bracket), the numbers while parsing (no NaN or Infinity, no fractions,
    no whole number of more than ``MAX_DIGITS`` digits)."""
    if len(line) > MAX_ANSWER:
        raise BadAnswer(f"it answered with {len(line)} bytes; an answer has at most {MAX_ANSWER}")
    depth = _depth(line) if line.count(b"[") + line.count(b"{") > MAX_DEPTH else 0  # (a move's has 2)
    if depth > MAX_DEPTH:
        raise BadAnswer(f"it answered with lists or objects nested {depth} deep; an answer nests at most {MAX_DEPTH}")
    try:
        answer = json.loads(line, parse_int=_whole, parse_float=_fraction, parse_constant=_constant)
    except BadAnswer:
        raise
    except ValueError:  # (UnicodeDecodeError and json's JSONDecodeError are ValueErrors)
        raise BadAnswer("it answered with something that is not JSON") from None
    if not isinstance(answer, dict):
        raise BadAnswer(f"it answered with a JSON {type(answer).__name__}, not an object")
    return answer


def _depth(line: bytes) -> int:
    """How deep brackets nest in ``line``, outside JSON strings (a bracket in a string is text)."""
    deepest = depth = 0
    quoted = escaped = False
    for byte in line:
        if quoted:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # double quote
                quoted = False
        elif byte == 0x22:
            quoted = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadAnswer(f"it answered with a number of {len(text.lstrip('-'))} digits; "
                        f"a number has at most {MAX_DIGITS}")
    return int(text)


def _fraction(text: str) -> float:
    raise BadAnswer(f"it answered with the number {_short(text, 40)}; an answer's numbers are whole")


def _constant(text: str) -> float:
    raise BadAnswer(f"it answered with {text}, which is no number")


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
