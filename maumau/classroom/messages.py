"""The class table's wire: every message declared once, encoded and decoded here and nowhere else.

One websocket carries JSON objects.  A client (the page, ``maumau.classroom.client``, the
``maumau table`` command) sends one of the requests below (at most ``MAX_MESSAGE`` bytes); ``id``,
a whole number the client chooses, may be added to any request and comes back in the answer, and
``v`` (optional) names the protocol version the client speaks (``PROTOCOL_VERSION``)::

    {"type": "join", "code": "K7QX2M", "name": "Anna"}        take a free seat
    {"type": "join", "code": "K7QX2M", "token": "..."}         take back one's own seat
    {"type": "join", "code": "K7QX2M", "personal": "ABCD-..."}  sit as the roster learner of that code
    {"type": "watch", "code": "K7QX2M", "open": true}          the projector (open: the teacher's)
    {"type": "move", "move": {"play": ["7H"]}, "seq": 12}      a move, made on the table as of action 12
    {"type": "leave"}  {"type": "ping"}
    {"type": "create", "table": {...}}  {"type": "start" | "restart" | "close", "code": "..."}
    {"type": "tables"}  {"type": "codes", "renew": "alice"}   the teacher's requests

The server answers ``{"type": "ok", "id": ..., ...}`` or ``{"type": "error", "code": ..., "message":
..., "id": ...}`` and, whenever the table changes, sends every connection a ``table`` frame
(``TableFrame``, built by ``frames``; a seat's carries its ``SeatModel``, ``maumau.play.seat_model``).
Every server message carries ``"v": PROTOCOL_VERSION``.

A move on the wire is ``{"play": ["7H", "8H"], "wish": "H", "mau": true, "runde": true}``,
``{"draw": true}`` or ``{"pass": true}``.  ``decode_request`` turns the bytes of a request into
one typed request, its move already a ``Move``: the server decodes a move once, and the engine
checks it once (``Game.apply``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypedDict, cast

from ..core.cards import CardError
from ..core.moves import Move, move_from_dict

__all__ = ["PROTOCOL_VERSION", "MAX_MESSAGE", "ProtocolError", "Request", "Join", "Watch", "MoveRequest",
           "Leave", "Ping", "Create", "Start", "Restart", "Close", "Tables", "Codes", "decode_request",
           "encode_request", "request_id", "error", "ok", "encode", "decode_server", "WireMove", "move_to_wire",
           "move_from_wire", "check_text", "TableFrame", "SeatInfo", "Said", "Answer"]

#: The version of these messages: a client that names another one is told so.
PROTOCOL_VERSION = 1

#: The largest message a client may send (bytes): a move is well under 200.
MAX_MESSAGE = 4096

_LONGEST_TEXT = 200
_LONGEST_NUMBER = 2 ** 53  # what a browser's JavaScript holds exactly


class ProtocolError(ValueError):
    """A request the server refuses, with a short machine code and a sentence for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- the requests ------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Request:
    """A checked request: ``TYPE`` is its ``type`` on the wire, ``id`` the client's (or None)."""

    TYPE: ClassVar[str] = ""
    id: int | None = None

    def get(self, name: str, default: Any = None) -> Any:
        """A field by name (None when this kind of request has no such field)."""
        value = getattr(self, name, None)
        return default if value is None else value


@dataclass(frozen=True, kw_only=True)
class Join(Request):
    TYPE: ClassVar[str] = "join"
    code: str
    name: str | None = None
    token: str | None = None
    personal: str | None = None  # the learner's personal code (``roster``): the seat is that learner's
    lang: str = "en"


@dataclass(frozen=True, kw_only=True)
class Watch(Request):
    TYPE: ClassVar[str] = "watch"
    code: str
    teacher: str | None = None
    open: bool = False
    lang: str = "en"


@dataclass(frozen=True, kw_only=True)
class MoveRequest(Request):
    TYPE: ClassVar[str] = "move"
    move: Move
    seq: int


@dataclass(frozen=True, kw_only=True)
class Leave(Request):
    TYPE: ClassVar[str] = "leave"


@dataclass(frozen=True, kw_only=True)
class Ping(Request):
    TYPE: ClassVar[str] = "ping"


@dataclass(frozen=True, kw_only=True)
class Create(Request):
    TYPE: ClassVar[str] = "create"
    table: dict[str, Any]
    teacher: str | None = None


@dataclass(frozen=True, kw_only=True)
class Start(Request):
    TYPE: ClassVar[str] = "start"
    code: str
    teacher: str | None = None


@dataclass(frozen=True, kw_only=True)
class Restart(Start):
    TYPE: ClassVar[str] = "restart"


@dataclass(frozen=True, kw_only=True)
class Close(Start):
    TYPE: ClassVar[str] = "close"


@dataclass(frozen=True, kw_only=True)
class Tables(Request):
    TYPE: ClassVar[str] = "tables"
    teacher: str | None = None


@dataclass(frozen=True, kw_only=True)
class Codes(Request):
    """The teacher's list of the roster's personal codes; ``renew``: a learner (or ``*``) first
    gets a new one."""

    TYPE: ClassVar[str] = "codes"
    teacher: str | None = None
    renew: str | None = None


#: Every request, by its ``type`` on the wire.
REQUESTS: dict[str, type[Request]] = {r.TYPE: r for r in (Join, Watch, MoveRequest, Leave, Ping, Create, Start,
                                                          Restart, Close, Tables, Codes)}
#: What each field holds on the wire (``move`` is a WireMove object, decoded into a Move).
_WIRE_TYPES: dict[str, type] = {"code": str, "name": str, "token": str, "personal": str, "renew": str,
                                "lang": str, "teacher": str,
                                "open": bool, "move": dict, "seq": int, "table": dict}


def decode_request(raw: str | bytes) -> Request:
    """The request in the bytes a client sent, or ProtocolError saying what is wrong with them."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError("too_big", f"a message may be at most {MAX_MESSAGE} bytes, not {len(raw)}")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is one JSON object")
    kind = data.pop("type", None)
    if not isinstance(kind, str) or kind not in REQUESTS:
        shown = _shown(kind) if isinstance(kind, str) else type(kind).__name__
        raise ProtocolError("unknown", f"unknown request type {shown}: one of {', '.join(REQUESTS)}")
    found_id = data.pop("id", None)
    if found_id is not None and (type(found_id) is not int or abs(found_id) > _LONGEST_NUMBER):
        raise ProtocolError("malformed", "id must be a whole number")
    version = data.pop("v", PROTOCOL_VERSION)
    if version != PROTOCOL_VERSION or type(version) is not int:
        raise ProtocolError("version", f"this server speaks version {PROTOCOL_VERSION} of the protocol")
    cls = REQUESTS[kind]
    declared = {f.name: f for f in fields(cls) if f.name != "id"}
    for name, value in data.items():
        if name not in declared:
            raise ProtocolError("malformed", f"a {kind} request has no field {_shown(name)}")
        _check_field(kind, name, value, _WIRE_TYPES[name])
    for name, field in declared.items():
        if name not in data and field.default is field.default_factory:  # both MISSING: required
            raise ProtocolError("malformed", f"a {kind} request needs {name}")
    if "move" in data:
        data["move"] = move_from_wire(data["move"])
    return cls(id=found_id, **data)


def encode_request(request: Request) -> str:
    """A request as the client sends it (fields left at their defaults are not sent)."""
    data: dict[str, Any] = {"type": request.TYPE, "v": PROTOCOL_VERSION}
    for field in fields(request):
        value = getattr(request, field.name)
        if value != field.default:
            data[field.name] = move_to_wire(value) if isinstance(value, Move) else value
    return json.dumps(data)


def _check_field(kind: str, name: str, value: Any, want: type) -> None:
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


def request_id(raw: str | bytes) -> int | None:
    """The ``id`` of a message, if it has a good one, so that even the error about a bad request
    names the request it answers."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if type(found) is int and abs(found) <= _LONGEST_NUMBER else None


# --- moves ---------------------------------------------------------------------------------------------
class WireMove(TypedDict, total=False):
    """A move on the wire: ``play`` (cards one string each) with ``wish``, ``mau``, ``runde``; or
    ``draw``; or ``pass`` (a Python keyword, so this TypedDict is total=False and read by key)."""

    play: list[str]
    wish: str
    mau: bool
    runde: bool
    draw: bool


def move_to_wire(move: Move) -> WireMove:
    """A move for the wire: ``Move.to_dict()`` with the cards of a play one string each."""
    data: dict[str, Any] = move.to_dict()
    if "play" in data:
        data["play"] = data["play"].split()
    wire: WireMove = {}
    wire.update(data)  # type: ignore[typeddict-item]  # "pass" is a key, not an identifier
    return wire


_MOVE_SHAPE = ('a move is {"play": ["7H", ...], "wish"?, "mau"?, "runde"?}, {"draw": true} or {"pass": true}; '
               '"wish" a suit or rank as text, "mau" and "runde" true or false')


def move_from_wire(data: Any) -> Move:
    """The move a client sent, or ProtocolError: every field its type (``draw`` is ``true``, not
    ``1``); whether it may be played is the engine's to say."""
    if not isinstance(data, dict):
        raise ProtocolError("malformed", _MOVE_SHAPE)
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


# --- the server's answers --------------------------------------------------------------------------------
class Answer(TypedDict, total=False):
    """The answer to a request: ``type`` "ok" or "error" and the request's ``id``; an error has its
    ``code`` and ``message``; an ok what the request asked for: a ``join`` or ``watch`` the table's
    ``code``, ``variant``, ``rules`` (enough to build the same Variant, never the seed), the
    ``seat`` and, on a first join, its secret ``token``; a ``move`` or ``leave`` the action count
    ``n``; a ``ping`` on JupyterHub the hub ``user``; the teacher's ``create``, ``start``,
    ``restart`` and ``close`` the ``code``, ``tables`` the ``tables``."""

    type: str
    id: int
    v: int
    code: str
    message: str
    variant: str
    rules: dict[str, Any]
    seat: int
    token: str
    n: int
    user: str
    tables: list[dict[str, Any]]


def ok(request: Request, **answer: Any) -> Answer:
    """The answer to a request done."""
    done: dict[str, Any] = {"type": "ok", **answer, **({} if request.id is None else {"id": request.id})}
    return cast(Answer, done)


def error(code: str, message: str, request_id: int | None = None) -> Answer:
    """The answer to a refused request (or, without an id, news: the table closed, the seat moved)."""
    answer: Answer = {"type": "error", "code": code, "message": message}
    if request_id is not None:
        answer["id"] = request_id
    return answer


# --- the table frame ---------------------------------------------------------------------------------------
class SeatInfo(TypedDict):
    """A seat of the table as every connection sees it."""

    seat: int
    name: str
    kind: str
    connected: bool
    computer: bool


class Said(TypedDict):
    """One line of the table's log, in the connection's language."""

    n: int
    seat: int | None
    text: str


class TableFrame(TypedDict):
    """The ``table`` frame (built by ``frames.table_frame``): what one connection may see of its
    table; ``view`` and ``model`` are written and read by ``views``."""

    type: str
    code: str
    n: int
    variant: str
    title: str
    call: str
    score: str
    goal: str
    clock: float | None
    you: int | None
    seats: list[SeatInfo]
    hand_seats: list[int]
    scores: list[int]
    hands: int
    hand_over: bool
    match_over: bool
    winner: int | list[int] | None
    said: list[Said]
    view: dict[str, Any] | None
    model: dict[str, Any] | None
    names: dict[str, str]


def decode_server(raw: str | bytes) -> dict[str, Any]:
    """A server message as a client reads it (``ok``, ``error`` or a ``table`` frame), or
    ProtocolError if the server speaks another version of the protocol."""
    message = json.loads(raw)
    if not isinstance(message, dict) or message.get("v", PROTOCOL_VERSION) != PROTOCOL_VERSION:
        raise ProtocolError("version", f"the server does not speak version {PROTOCOL_VERSION} of the protocol")
    return message


def encode(message: Answer | TableFrame | dict[str, Any]) -> str:
    """A server message as sent: JSON with the protocol version; never fails on text that is not
    valid UTF-8 (a learner's lone surrogate is escaped)."""
    versioned = {**message, "v": PROTOCOL_VERSION}
    text = json.dumps(versioned, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(versioned)
    return text
