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

Each request is a class below; the server dispatches it by its class (``connections``).  The
teacher's requests are ``TeacherRequest``s (``teacher``: the token, unless the browser is logged in),
those about one table ``TableRequest``s (``code``).

The server answers ``{"type": "ok", "id": ..., ...}`` or ``{"type": "error", "code": ..., "message":
..., "id": ...}`` and, whenever the table changes, sends every connection a ``table`` frame
(``TableFrame``, built by ``frames``): a seat's ``view`` is a ``SeatView`` and its ``model`` a
``WireModel`` (its ``maumau.play.seat_model.SeatModel``), the projector's view a ``ProjectorView``
and no model.  ``frame_schema()`` is the JSON Schema of the frame, made from these types; the
page's script (``pages/table.js``) is tested against it.  Every server message carries
``"v": PROTOCOL_VERSION``.

A move on the wire is ``{"play": ["7H", "8H"], "wish": "H", "mau": true, "runde": true}``,
``{"draw": true}`` or ``{"pass": true}`` (``WireMove``).  ``decode_request`` reads the bytes of a
request once into one typed request, its move already a ``Move`` (or a ProtocolError that names the
request's ``id``): the server decodes a move once, the engine checks it once (``Game.apply``) and
the table records that Move.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypedDict, cast, final

from ..core.cards import CardError
from ..core.moves import Move, move_from_dict
from .schema import json_schema

__all__ = ["PROTOCOL_VERSION", "MAX_MESSAGE", "ProtocolError", "Request", "TeacherRequest", "TableRequest",
           "Join", "Watch", "MoveRequest", "Leave", "Ping", "Create", "Start", "Restart", "Close", "Tables", "Codes",
           "decode_request", "encode_request", "error", "ok", "encode", "decode_server", "WireMove", "move_to_wire",
           "move_from_wire", "check_text", "TableFrame", "SeatInfo", "Said", "Answer", "PublicView", "SeatView",
           "ProjectorView", "WirePending", "WireModel", "WireCard", "WireChoice", "frame_schema"]

#: The version of these messages: a client that names another one is told so.
PROTOCOL_VERSION = 1

#: The largest message a client may send (bytes): a move is well under 200.
MAX_MESSAGE = 4096

_LONGEST_TEXT = 200
_LONGEST_NUMBER = 2 ** 53  # what a browser's JavaScript holds exactly


class ProtocolError(ValueError):
    """A request the server refuses, with a short machine code and a sentence for people;
    ``request_id``: the ``id`` of the request it refuses, when the request had a good one (read
    from the bytes once, by ``decode_request``), so that even the error names its request.
    ``values``: what the sentence was filled with, so that it can be said in another language
    (``maumau.classroom.words.refusal_words``)."""

    def __init__(self, code: str, message: str, request_id: int | None = None,
                 values: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id
        self.values = values


# --- the requests ------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Request:
    """A checked request: ``TYPE`` is its ``type`` on the wire, ``id`` the client's (or None)."""

    TYPE: ClassVar[str] = ""
    id: int | None = None


@dataclass(frozen=True, kw_only=True)
class TeacherRequest(Request):
    """A request only the teacher may make: their browser is logged in, or ``teacher`` is the
    teacher token."""

    teacher: str | None = None


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
class Create(TeacherRequest):
    TYPE: ClassVar[str] = "create"
    table: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class TableRequest(TeacherRequest):
    """A teacher's request about one open table, the one of ``code``."""

    code: str


@dataclass(frozen=True, kw_only=True)
class Start(TableRequest):
    TYPE: ClassVar[str] = "start"


@dataclass(frozen=True, kw_only=True)
class Restart(TableRequest):
    TYPE: ClassVar[str] = "restart"


@dataclass(frozen=True, kw_only=True)
class Close(TableRequest):
    TYPE: ClassVar[str] = "close"


@dataclass(frozen=True, kw_only=True)
class Tables(TeacherRequest):
    TYPE: ClassVar[str] = "tables"


@dataclass(frozen=True, kw_only=True)
class Codes(TeacherRequest):
    """The teacher's list of the roster's personal codes; ``renew``: a learner (or ``*``) first
    gets a new one."""

    TYPE: ClassVar[str] = "codes"
    renew: str | None = None


#: Every request, by its ``type`` on the wire.
REQUESTS: dict[str, type[Request]] = {r.TYPE: r for r in (Join, Watch, MoveRequest, Leave, Ping, Create, Start,
                                                          Restart, Close, Tables, Codes)}
#: What each field holds on the wire (``move`` is a WireMove object, decoded into a Move).
_WIRE_TYPES: dict[str, type] = {"code": str, "name": str, "token": str, "personal": str, "renew": str,
                                "lang": str, "teacher": str,
                                "open": bool, "move": dict, "seq": int, "table": dict}


def decode_request(raw: str | bytes) -> Request:
    """The request in the bytes a client sent, or ProtocolError saying what is wrong with them
    (with the request's ``id`` when it had a good one: the bytes are read once, even those of a
    message too big to be done, which the server's socket bounds at 64 KiB)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        data = None
    found_id = data.pop("id", None) if isinstance(data, dict) else None
    try:
        if len(raw) > MAX_MESSAGE:
            raise ProtocolError("too_big", f"a message may be at most {MAX_MESSAGE} bytes, not {len(raw)}")
        if not isinstance(data, dict):
            raise ProtocolError("malformed", "a message is one JSON object")
        return _request(data, found_id)
    except ProtocolError as err:
        err.request_id = found_id if _is_id(found_id) else None
        raise


def _is_id(value: Any) -> bool:
    """Whether ``value`` is a good ``id``: a whole number a browser's JavaScript holds exactly."""
    return type(value) is int and abs(value) <= _LONGEST_NUMBER


def _request(data: dict[str, Any], found_id: Any) -> Request:
    """The request that ``data`` (a JSON object; its ``id`` taken out: ``found_id``) declares, every
    field checked."""
    kind = data.pop("type", None)
    if not isinstance(kind, str) or kind not in REQUESTS:
        shown = _shown(kind) if isinstance(kind, str) else type(kind).__name__
        raise ProtocolError("unknown", f"unknown request type {shown}: one of {', '.join(REQUESTS)}")
    if found_id is not None and not _is_id(found_id):
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


# --- moves ---------------------------------------------------------------------------------------------
#: A move on the wire: ``play`` (cards one string each) with ``wish``, ``mau``, ``runde``; or
#: ``draw``; or ``pass`` (a Python keyword: hence the functional form of this TypedDict).
WireMove = TypedDict("WireMove", {"play": list[str], "wish": str, "mau": bool, "runde": bool, "draw": bool,
                                  "pass": bool}, total=False)


def move_to_wire(move: Move) -> WireMove:
    """A move for the wire: ``Move.to_dict()`` with the cards of a play one string each."""
    data: dict[str, Any] = move.to_dict()
    if "play" in data:
        data["play"] = data["play"].split()
    return cast(WireMove, data)


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


class WirePending(TypedDict):
    """The pending penalty or skip (C-5), with its sentence in the connection's language."""

    kind: str
    amount: int
    target: int
    resume: int | None
    rule: str
    text: str | None


class PublicView(TypedDict):
    """What everyone at a table sees of the hand (``views``): the state's fields but those
    ``views.HIDDEN`` keeps back, cards as text, rules by name, sentences in the connection's language."""

    hand_sizes: list[int]
    stock_size: int
    discard: list[str]
    top: str
    to_move: int
    direction: int
    wish: str | None
    wish_name: str | None
    pending: WirePending | None
    phase: str
    memory: list[list[Any]]          # [rule name, what it remembers], as ``play.serialize`` writes it
    memory_text: list[str]
    events: list[dict[str, Any]]     # {"event": its class in ``core.events``, its fields}
    locked: list[int]
    active: list[bool]
    dealer: int
    idle: int
    over: bool
    winner: int | None
    blocked: bool


@final  # a view with a "hand" is a seat's: a type checker tells the two apart by that key
class SeatView(PublicView):
    """What a seat sees (``views.seat_view``): the public view, its own hand, the card it just drew
    and its legal moves."""

    seat: int
    hand: list[str]
    drawn: str | None
    legal: list[WireMove]


@final
class ProjectorView(PublicView, total=False):
    """What the projector sees (``views.projector_view``): the public view; every hand only on the
    logged-in teacher's projector."""

    hands: list[list[str]]


class WireChoice(TypedDict):
    """One way to play a card (``maumau.play.seat_model.Choice``) and its button's label."""

    move: WireMove
    label: str


class WireCard(TypedDict):
    """A card of the seat's hand: its name, whether it was just drawn, the ways to play it, or why not."""

    card: str
    name: str
    drawn: bool
    why: str | None
    choices: list[WireChoice]


#: A seat's model (``maumau.play.seat_model.SeatModel``, ``views.model_to_wire``): whether it is to
#: move, each card of its hand, whether it may draw and pass (``pass`` is a Python keyword: hence
#: the functional form), the buttons' labels, why not, and the status sentence.
WireModel = TypedDict("WireModel", {"my_turn": bool, "cards": list[WireCard], "draw": bool, "pass": bool,
                                    "draw_label": str, "pass_label": str, "status": str,
                                    "draw_why": str | None, "pass_why": str | None})


class TableFrame(TypedDict):
    """The ``table`` frame (built by ``frames.table_frame``): what one connection may see of its
    table; a seat's ``view`` is a SeatView and its ``model`` a WireModel, the projector's a
    ProjectorView and no model (``views``)."""

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
    view: SeatView | ProjectorView | None
    model: WireModel | None
    names: dict[str, str]


def frame_schema() -> dict[str, Any]:
    """The JSON Schema of the ``table`` frame as sent, made from the types above (``TableFrame``,
    and the ``v`` that ``encode`` adds to every message): what the page's script
    (``pages/table.js``) may read of a frame, and what a frame holds, exactly."""
    schema = json_schema(TableFrame, title="The table frame of the class table's wire")
    frame = schema["$defs"]["TableFrame"]
    frame["properties"]["v"] = {"const": PROTOCOL_VERSION}
    frame["required"] = sorted([*frame["required"], "v"])
    return schema


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
