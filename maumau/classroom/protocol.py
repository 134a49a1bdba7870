"""The class table's messages: JSON objects over one websocket, checked field by field.

A client sends (at most ``MAX_MESSAGE`` bytes; ``id``, a whole number the client chooses, may be
added to any request and comes back in the answer)::

    {"type": "join", "code": "K7QX2M", "name": "Anna"}        take a free seat
    {"type": "join", "code": "K7QX2M", "token": "..."}         take back one's own seat
    {"type": "watch", "code": "K7QX2M"}                        the projector (every hand hidden;
    {"type": "watch", "code": "K7QX2M", "teacher": "..."}      open hands with the teacher token)
    {"type": "move", "move": {"play": ["7H"]}, "seq": 12}      a move, made on the table as of
                                                               action 12 (an older seq is refused)
    {"type": "leave"}
    {"type": "ping"}
    {"type": "create", "teacher": "...", "table": {...}}       the teacher's requests
    {"type": "start" | "close", "teacher": "...", "code": "..."}
    {"type": "tables", "teacher": "..."}

A move is ``{"play": ["7H", "8H"], "wish": "H", "mau": true, "runde": true}``, ``{"draw": true}``
or ``{"pass": true}``: cards one string each.  The server answers ``{"type": "ok", "id": ...}`` or
``{"type": "error", "code": ..., "message": ..., "id": ...}`` and, whenever the table changes,
sends every connection a ``{"type": "table", ...}`` message with what that connection may see
(``maumau.classroom.views``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..core.cards import CardError
from ..core.moves import Move, move_from_dict

__all__ = ["MAX_MESSAGE", "ProtocolError", "Request", "parse", "move_to_json", "move_from_json", "error"]

#: The largest message a client may send (bytes): a move is well under 200.
MAX_MESSAGE = 4096

_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "join": {"code": str, "name": str, "token": str, "lang": str},
    "watch": {"code": str, "teacher": str, "lang": str},
    "move": {"move": dict, "seq": int},
    "leave": {},
    "ping": {},
    "create": {"teacher": str, "table": dict},
    "start": {"teacher": str, "code": str},
    "close": {"teacher": str, "code": str},
    "tables": {"teacher": str},
}
_REQUIRED = {"join": ("code",), "watch": ("code",), "move": ("move", "seq"), "create": ("teacher", "table"),
             "start": ("teacher", "code"), "close": ("teacher", "code"), "tables": ("teacher",)}
_LONGEST_TEXT = 200


class ProtocolError(ValueError):
    """A request the server refuses, with a short machine code and a sentence for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Request:
    """One checked request: its type, its fields, and the client's ``id`` (or None)."""

    type: str
    fields: dict[str, Any]
    id: int | None = None

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def parse(raw: str | bytes) -> Request:
    """A request from the bytes a client sent, or ProtocolError saying what is wrong with them."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError("too_big", f"a message may be at most {MAX_MESSAGE} bytes, not {len(raw)}")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is one JSON object")
    kind = data.pop("type", None)
    if kind not in _FIELDS:
        raise ProtocolError("unknown", f"unknown request type {str(kind)[:40]!r}: one of {', '.join(_FIELDS)}")
    request_id = data.pop("id", None)
    if request_id is not None and type(request_id) is not int:
        raise ProtocolError("malformed", "id must be a whole number")
    allowed = _FIELDS[kind]
    for name, value in data.items():
        if name not in allowed:
            raise ProtocolError("malformed", f"a {kind} request has no field {str(name)[:40]!r}")
        want = allowed[name]
        if type(value) is bool or not isinstance(value, want):
            raise ProtocolError("malformed", f"{name} of a {kind} request has the wrong type")
        if isinstance(value, str) and len(value) > _LONGEST_TEXT:
            raise ProtocolError("malformed", f"{name} is too long")
    for name in _REQUIRED.get(kind, ()):
        if name not in data:
            raise ProtocolError("malformed", f"a {kind} request needs {name}")
    return Request(kind, data, request_id)


def move_to_json(move: Move) -> dict[str, Any]:
    """A move for the wire: ``Move.to_dict()`` with the cards of a play one string each."""
    data = move.to_dict()
    if "play" in data:
        data["play"] = data["play"].split()
    return data


def move_from_json(data: dict[str, Any]) -> Move:
    """The move a client sent (``move_from_dict`` of the saved games, after the wire's own
    checks), or ProtocolError; the move's legality is the engine's to say."""
    cards = data.get("play")
    if "play" in data and (not isinstance(cards, list) or not 1 <= len(cards) <= 8
                           or not all(isinstance(c, str) for c in cards)
                           or any(type(data.get(k, False)) is not bool for k in ("mau", "runde"))
                           or not isinstance(data.get("wish", ""), str)):
        raise ProtocolError("malformed", 'a play is {"play": ["7H", ...]}, with "wish" a suit or rank as text, '
                                         '"mau" and "runde" true or false')
    try:
        return move_from_dict({**data, "play": " ".join(cards)} if cards is not None else data)
    except (CardError, ValueError):
        raise ProtocolError("malformed", 'a move is {"play": ["7H", ...], "wish"?, "mau"?, "runde"?}, '
                                         '{"draw": true} or {"pass": true}') from None


def error(code: str, message: str, request_id: int | None = None) -> dict[str, Any]:
    """The answer to a refused request."""
    answer: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if request_id is not None:
        answer["id"] = request_id
    return answer
