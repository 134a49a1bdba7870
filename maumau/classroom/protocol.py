"""The class table's messages: JSON objects over one websocket, checked field by field.

A client sends (at most ``MAX_MESSAGE`` bytes; ``id``, a whole number the client chooses, may be
added to any request and comes back in the answer)::

    {"type": "join", "code": "K7QX2M", "name": "Anna"}        take a free seat
    {"type": "join", "code": "K7QX2M", "token": "..."}         take back one's own seat
    {"type": "watch", "code": "K7QX2M"}                        the projector (every hand hidden;
    {"type": "watch", "code": "K7QX2M", "open": true}          open hands: the teacher's, logged in)
    {"type": "move", "move": {"play": ["7H"]}, "seq": 12}      a move, made on the table as of
                                                               action 12 (an older seq is refused)
    {"type": "leave"}
    {"type": "ping"}
    {"type": "create", "table": {...}}                         the teacher's requests: on a
    {"type": "start" | "restart" | "close", "code": "..."}     connection of the logged-in
    {"type": "tables"}                                         teacher (README), or each with
                                                               "teacher": the token (Python)

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
    "watch": {"code": str, "teacher": str, "open": bool, "lang": str},
    "move": {"move": dict, "seq": int},
    "leave": {},
    "ping": {},
    "create": {"teacher": str, "table": dict},
    "start": {"teacher": str, "code": str},
    "restart": {"teacher": str, "code": str},
    "close": {"teacher": str, "code": str},
    "tables": {"teacher": str},
}
_REQUIRED = {"join": ("code",), "watch": ("code",), "move": ("move", "seq"), "create": ("table",),
             "start": ("code",), "restart": ("code",), "close": ("code",)}
_LONGEST_TEXT = 200
_LONGEST_NUMBER = 2 ** 53  # what a browser's JavaScript holds exactly


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


def request_id(raw: str | bytes) -> int | None:
    """The ``id`` of a message, if it has a good one, so that even the error about a bad request
    names the request it answers."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if type(found) is int and abs(found) <= _LONGEST_NUMBER else None


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
    if not isinstance(kind, str) or kind not in _FIELDS:
        shown = _shown(kind) if isinstance(kind, str) else type(kind).__name__
        raise ProtocolError("unknown", f"unknown request type {shown}: one of {', '.join(_FIELDS)}")
    found_id = data.pop("id", None)
    if found_id is not None and (type(found_id) is not int or abs(found_id) > _LONGEST_NUMBER):
        raise ProtocolError("malformed", "id must be a whole number")
    allowed = _FIELDS[kind]
    for name, value in data.items():
        if name not in allowed:
            raise ProtocolError("malformed", f"a {kind} request has no field {_shown(name)}")
        _check_field(kind, name, value, allowed[name])
    for name in _REQUIRED.get(kind, ()):
        if name not in data:
            raise ProtocolError("malformed", f"a {kind} request needs {name}")
    return Request(kind, data, found_id)


def _check_field(kind: str, name: str, value: Any, want: type | tuple[type, ...]) -> None:
    if want is bool:
        if type(value) is not bool:
            raise ProtocolError("malformed", f"{name} of a {kind} request is true or false")
        return
    if type(value) is bool or not isinstance(value, want):
        raise ProtocolError("malformed", f"{name} of a {kind} request has the wrong type")
    if isinstance(value, int) and abs(value) > _LONGEST_NUMBER:
        raise ProtocolError("malformed", f"{name} is too large")
    if isinstance(value, str):
        check_text(value, name)


def check_text(value: str, name: str) -> None:
    """ProtocolError for a string that is too long or not valid Unicode (a lone surrogate)."""
    if len(value) > _LONGEST_TEXT:
        raise ProtocolError("malformed", f"{name} is too long")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError("malformed", f"{name} is not valid Unicode text") from None


def _shown(text: str) -> str:
    """A client's string, safe to quote in an error."""
    return repr(text[:40].encode("utf-8", "replace").decode("utf-8"))


def move_to_json(move: Move) -> dict[str, Any]:
    """A move for the wire: ``Move.to_dict()`` with the cards of a play one string each."""
    data = move.to_dict()
    if "play" in data:
        data["play"] = data["play"].split()
    return data


_MOVE_SHAPE = ('a move is {"play": ["7H", ...], "wish"?, "mau"?, "runde"?}, {"draw": true} or {"pass": true}; '
               '"wish" a suit or rank as text, "mau" and "runde" true or false')


def move_from_json(data: dict[str, Any]) -> Move:
    """The move a client sent (``move_from_dict`` of the saved games, after the wire's own
    checks: every field its type, ``draw`` is ``true`` and not ``1``), or ProtocolError; the
    move's legality is the engine's to say."""
    if data in ({"draw": True}, {"pass": True}) and all(v is True for v in data.values()):
        return move_from_dict(data)
    cards = data.get("play")
    if (not isinstance(cards, list) or not set(data) <= {"play", "wish", "mau", "runde"}
            or not 1 <= len(cards) <= 8 or not all(isinstance(c, str) and len(c) <= 5 for c in cards)
            or any(type(data.get(k, False)) is not bool for k in ("mau", "runde"))
            or not isinstance(data.get("wish", ""), str) or len(data.get("wish", "")) > 10):
        raise ProtocolError("malformed", _MOVE_SHAPE)
    try:
        return move_from_dict({**data, "play": " ".join(cards)})
    except (CardError, ValueError, TypeError):
        raise ProtocolError("malformed", _MOVE_SHAPE) from None


def error(code: str, message: str, request_id: int | None = None) -> dict[str, Any]:
    """The answer to a refused request."""
    answer: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if request_id is not None:
        answer["id"] = request_id
    return answer
