"""Who is connected to which table, and what each connection is sent.

A Connection is one websocket: a seat (after ``join``), a projector (after ``watch``) or a
teacher's lobby.  After every change of a table, each connection at it is due a ``table`` frame
with what it may see (``frames``), sent by its own ``outbox`` when it is ready for it, so no
connection waits for another; the computers then move, one by one, and a finished hand is
followed by the next after a pause.  A learner whose connection drops keeps the seat for
``hold`` seconds; then a computer plays it until they come back with their token.  A connected
learner who does not move within the table's turn clock has a computer make that move for them.
Every request is answered with its ``id``; guesses and joins count against the client's rate
limits (``limits``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..text.i18n import LANGUAGES, use_language
from .frames import table_frame
from .identity import codes_answer, sit_down
from .limits import Bucket, RateLimits
from .messages import (
    Answer,
    Close,
    Codes,
    Create,
    Join,
    Leave,
    MoveRequest,
    Ping,
    ProtocolError,
    Request,
    Restart,
    Start,
    TableFrame,
    Tables,
    TeacherRequest,
    Watch,
    decode_request,
    error,
    ok,
)
from .outbox import Outbox
from .spec import TableError, TableSpec
from .table import ClassTable
from .words import refusal_words

if TYPE_CHECKING:  # pragma: no cover
    from .roster import Roster
    from .store import Store

__all__ = ["Connection", "OpenTables", "Host"]

T = TypeVar("T")
log = logging.getLogger("maumau.classroom")

#: Learners' projectors (watching connections) one table may have; the teacher's are never
#: counted among them, so the teacher's own projector is always let in.
MOST_WATCHERS = 16
#: Learners' projectors of one table from one client (an address, or a hub user).
WATCHERS_PER_CLIENT = 4
_CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, no 1/I


class Host(Protocol):
    """What a connection asks of the server that holds it (``Server`` is one), and no more: its
    open tables, its rate limits, its roster, how long a frame may wait, who the teacher is."""

    @property
    def tables(self) -> OpenTables: ...

    @property
    def limits(self) -> RateLimits: ...

    @property
    def roster(self) -> Roster | None: ...

    @property
    def stall(self) -> float: ...

    def check_teacher(self, token: str | None) -> None: ...


class Connection:
    """One websocket and what it is at the table."""

    def __init__(self, websocket: Any, host: Host, hub_user: str | None = None, teacher: bool = False,
                 client: str = "?", display: str | None = None) -> None:
        self.websocket, self.host = websocket, host
        self.hub_user = hub_user              # on JupyterHub: who the hub says this is (or an LMS's launch: lti)
        self.display = display                # the name an LMS gives this learner, shown at the table
        self.teacher = teacher                # the logged-in teacher's browser (``login``)
        self.client = hub_user or client      # who the rate limits count: the hub user, or the address
        self.code: str | None = None
        self.seat: int | None = None         # a match seat, or None for a projector
        self.open_hands = False
        self.lang = "en"
        self.heard = -1                      # the last line of the table's log sent to this connection
        self.outbox = Outbox(websocket, self._table_frame, stall=host.stall)
        self.messages = Bucket(*host.limits.limits["message"])

    def send(self, message: Answer) -> None:
        self.outbox.put(message)

    def table_changed(self) -> None:
        self.outbox.table_changed()

    def _table_frame(self) -> TableFrame | None:
        table = self.host.tables.by_code.get(self.code or "")
        if table is None:
            return None
        frame, self.heard = table_frame(table, self.seat, self.lang, self.open_hands, self.heard)
        return frame

    async def throttle(self) -> None:
        """Wait (reading nothing more from this client) until its next request is within its rate."""
        while not self.messages.take():
            await asyncio.sleep(1 / self.messages.per_second)

    def receive(self, raw: str | bytes) -> None:
        """One request: answered (``ok`` or ``error``, with the request's ``id``) after the table
        frames it caused, in this connection's order."""
        try:
            request = decode_request(raw)
        except ProtocolError as err:  # it names the id the bytes held, if a good one: they are read once
            self.send(error(err.code, err.message, err.request_id))
            return
        try:
            answer = self.handle(request)
        except ProtocolError as err:  # said in the language of this page or notebook
            self.send(error(err.code, refusal_words(err.message, self._lang_for(request), err.values), request.id))
            return
        except Exception:  # a fault of the server's own must not close the connection or stop the table
            log.exception("a request failed")
            self.send(error("server_error", refusal_words("the server could not do that", self._lang_for(request)),
                            request.id))
            return
        self.send(ok(request, **answer))

    def _lang_for(self, request: Request) -> str:
        """The language to refuse ``request`` in: the table's language of this connection, or the
        one a join asks for (the connection has none before it sits down)."""
        if self.code is None and isinstance(request, (Join, Watch)) and request.lang in LANGUAGES:
            return request.lang
        return self.lang

    # --- requests, by their type ----------------------------------------------------------------------
    def handle(self, request: Request) -> dict[str, Any]:
        """Do what ``request`` asks; the fields of its ``ok`` answer."""
        match request:
            case Ping():  # on JupyterHub the answer names the hub user: the page then needs no name
                return {} if self.hub_user is None else {"user": self.hub_user}
            case TeacherRequest():
                self.guarded(lambda: self.check_teacher(request.teacher), "teacher", request)
                return self.as_teacher(request)
            case Join() | Watch():
                return self.guarded(lambda: self.sit(request), "join", request)
            case MoveRequest():  # decoded once (messages), checked once (Game.apply)
                table, seat = self.seated()
                with use_language(self.lang):  # the engine's reason for an illegal move, in this page's language
                    table.move(seat, request.move, request.seq)
            case Leave():
                table, seat = self.seated()
                table.leave(seat)
                self.host.tables.detach(self)
            case _:
                raise ProtocolError("unknown", f"no request of type {request.TYPE!r} is served here")
        self.host.tables.changed(table)
        return {"n": table.n}

    def seated(self) -> tuple[ClassTable, int]:
        """The table and the seat of this connection; ProtocolError for a projector or nobody."""
        if self.code is None or self.seat is None:
            raise ProtocolError("not_seated", "join a table first")
        return self.host.tables.get(self.code), self.seat

    def guarded(self, call: Callable[[], T], kind: str, request: Request) -> T:
        """``call()`` within the rate limits of this client: ``kind`` tries, and wrong guesses
        (codes, seat tokens, teacher tokens) counted; while guessing is barred, every try is."""
        limits = self.host.limits
        wrong = limits.bucket("wrong", self.client)
        if not wrong.has() or (kind == "join" and not limits.bucket("join", self.client).take()):
            raise TableError("rate_limited", "too many tries from here: wait a minute")
        try:
            return call()
        except TableError as err:  # a guess, if a code or a token was wrong (not a page asking who it is)
            guess = err.code in ("unknown_table", "bad_token", "bad_code")  # bad_code: a personal code (roster)
            sent_token = isinstance(request, (TeacherRequest, Watch)) and bool(request.teacher)
            if guess or (err.code == "forbidden" and sent_token):
                wrong.take()
            raise

    def sit(self, request: Join | Watch) -> dict[str, Any]:
        tables = self.host.tables
        table = tables.get(request.code)
        lang = request.lang
        if lang not in ("en", "de", "hu"):
            raise ProtocolError("malformed", "lang is en, de or hu")
        if self.code is not None:
            raise ProtocolError("seated", "this connection is at a table already")
        answer: dict[str, Any] = {"code": table.code, "variant": table.variant.name, "rules": table.spec.public_rules()}
        if isinstance(request, Watch):
            token = request.teacher
            if token is not None or request.open:
                self.check_teacher(token)
                self.open_hands = True
            else:
                self.room_to_watch(table.code)
        elif self.hub_user is not None:  # on JupyterHub a learner is their hub user: one seat each
            seat = table.seat_of_user(self.hub_user)
            if seat is None:
                seat = self._take(table, self.hub_user)
            self.seat = seat.number
        elif request.token is not None:
            self.seat = table.seat_by_token(request.token).number
        else:  # a personal code or a display name (``identity``)
            self.seat, token = sit_down(table, request, self.host.roster)
            if token is not None:
                answer["token"] = token
        self.code, self.lang = table.code, lang
        if self.seat is not None:
            answer["seat"] = self.seat
        tables.attach(self, table)
        return answer

    def _take(self, table: ClassTable, user: str) -> Any:
        """A seat for a learner the server knows: under the LMS's name for them, or their learner
        name where that name is taken at this table (two learners may share a name) or refused."""
        if self.display is not None:
            try:
                return table.take(self.display, user=user)[0]
            except TableError as err:
                if err.code != "bad_name":
                    raise
        return table.take(user, user=user)[0]

    def room_to_watch(self, code: str) -> None:
        """TableError unless a learner's projector may watch table ``code``: every watcher costs a
        frame per move (a table is not a broadcast), and one client may not take every place."""
        learners = [conn for conn in self.host.tables.at.get(code, ()) if conn.seat is None and not conn.open_hands]
        if len(learners) >= MOST_WATCHERS:
            raise TableError("full", f"table {code} has {MOST_WATCHERS} projectors already",
                             values={"code": code, "most": MOST_WATCHERS})
        if sum(conn.client == self.client for conn in learners) >= WATCHERS_PER_CLIENT:
            raise TableError("full", f"you watch table {code} on {WATCHERS_PER_CLIENT} projectors already: "
                                     f"close one first", values={"code": code, "most": WATCHERS_PER_CLIENT})

    def check_teacher(self, token: str | None) -> None:
        """TableError unless this is the teacher: the logged-in browser, or the token sent along."""
        if token is None and self.teacher:
            return
        self.host.check_teacher(token)

    def as_teacher(self, request: TeacherRequest) -> dict[str, Any]:
        """A teacher's request (the teacher checked), by its type."""
        tables = self.host.tables
        match request:
            case Create():
                return {"code": tables.open(TableSpec.from_json(request.table))}
            case Tables():
                return {"tables": [t.summary() for t in tables.by_code.values()]}
            case Codes():
                return codes_answer(self.host.roster, request.renew)
            case Start(code=code):
                tables.start(code)
            case Restart(code=code):
                tables.restart(code)
            case Close(code=code):
                tables.close(code)
            case _:
                raise ProtocolError("unknown", f"no teacher's request of type {request.TYPE!r} is served here")
        return {"code": code}


class OpenTables:
    """Every open table, the connections at each, and the timers that keep the tables moving."""

    def __init__(self, store: Store, *, hold: float, computer_delay: float, pause: float) -> None:
        self.store, self.hold, self.computer_delay, self.pause = store, hold, computer_delay, pause
        self.by_code: dict[str, ClassTable] = {}
        self.at: dict[str, set[Connection]] = {}
        self._clocks: dict[str, tuple[int, int]] = {}
        self._timers: dict[tuple[str, Any], asyncio.Task[None]] = {}

    def add(self, table: ClassTable) -> None:
        self.by_code[table.code] = table
        self.at.setdefault(table.code, set())

    def open(self, spec: TableSpec) -> str:
        """A new table of ``spec``, kept in the store; its join code (six letters and digits)."""
        code = self._new_code()
        self.store.add_table(code, spec.to_json())
        table = ClassTable(code, spec, self.store)
        self.add(table)
        self.changed(table)
        return code

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(_CODE_LETTERS) for _ in range(6))
            if code not in self.by_code:
                return code

    def start(self, code: str) -> None:
        """Computers take the open seats of table ``code`` and the first hand is dealt."""
        table = self.get(code)
        table.start()
        self.changed(table)

    def get(self, code: str) -> ClassTable:
        table = self.by_code.get(code) if isinstance(code, str) else None
        if table is None:
            shown = repr(str(code)[:12])
            raise TableError("unknown_table", f"there is no open table with the code {shown}", values={"code": shown})
        return table

    def close(self, code: str) -> None:
        table = self.get(code)
        self.store.close_table(code)
        del self.by_code[code]
        for conn in self.at.pop(code, set()):
            conn.code = conn.seat = None
            conn.send(error("closed", f"the teacher closed table {code}"))
        del table

    def restart(self, code: str) -> None:
        """A new match at a finished table: everyone keeps their place (their seat's new number)."""
        table = self.get(code)
        numbers = table.restart()
        for conn in self.at.get(code, set()):
            if conn.seat is not None:
                conn.seat = numbers.get(conn.seat)
        self.changed(table)

    # --- who is where -------------------------------------------------------------------------------------
    def attach(self, conn: Connection, table: ClassTable) -> None:
        for other in list(self.at[table.code]):
            if conn.seat is not None and other.seat == conn.seat:  # the same seat, a new connection
                self.at[table.code].discard(other)
                other.code = other.seat = None
                other.send(error("replaced", "this seat was taken up by a new connection"))
        self.at[table.code].add(conn)
        conn.table_changed()
        if conn.seat is not None:
            seat = table.seats[conn.seat]
            seat.connected, seat.robot = True, False
            self._cancel((table.code, conn.seat))
        self.changed(table)

    def detach(self, conn: Connection) -> None:
        if conn.code is not None:
            self.at.get(conn.code, set()).discard(conn)
        conn.code = conn.seat = None

    def gone(self, conn: Connection) -> None:
        """A connection closed: its seat waits ``hold`` seconds for its learner, then a computer plays it."""
        code, seat = conn.code, conn.seat
        self.detach(conn)
        table = self.by_code.get(code or "")
        if code is None or table is None or seat is None or table.seats[seat].kind != "human":
            return
        table.seats[seat].connected = False
        self.changed(table)
        self._later((code, seat), self.hold, lambda: self._hand_to_computer(table, seat))

    def _hand_to_computer(self, table: ClassTable, seat: int) -> None:
        if table.seats[seat].kind == "human" and not table.seats[seat].connected:
            table.seats[seat].robot = True
            self.changed(table)

    # --- telling everyone -------------------------------------------------------------------------------
    def changed(self, table: ClassTable) -> None:
        """The table changed: everyone at it is due a new frame, the computers (or the clock) move."""
        for conn in self.at.get(table.code, ()):
            conn.table_changed()
        self._later((table.code, "computers"), self.computer_delay if table.to_move() is not None else 0,
                    lambda: self._step(table))
        self._wind_clock(table)

    def _wind_clock(self, table: ClassTable) -> None:
        """A learner to move, connected, at a table with a turn clock: the clock runs for this very
        action (a watcher coming in or a rejoin does not wind it back)."""
        seat = table.to_move()
        if table.spec.clock is None or seat is None or table.seats[seat].played_by_computer:
            return
        key = (table.code, "clock")
        if self._clocks.get(table.code) == (table.n, seat) and key in self._timers:
            return
        self._clocks[table.code] = (table.n, seat)
        n = table.n

        def run_out() -> None:
            if table.code in self.by_code and table.n == n and table.to_move() == seat \
                    and not table.seats[seat].played_by_computer:
                table.clock_move(seat)
                self.changed(table)
        self._later(key, table.spec.clock, run_out)

    # --- keeping the table moving ---------------------------------------------------------------------------
    def _step(self, table: ClassTable) -> None:
        if table.code not in self.by_code:
            return
        if table.computer_move() is not None:
            self.changed(table)
        elif table.hand_over and not table.match.is_over:
            self._later((table.code, "deal"), self.pause, lambda: self._deal(table))

    def _deal(self, table: ClassTable) -> None:
        if table.code in self.by_code and table.hand_over and not table.match.is_over:
            table.deal()
            self.changed(table)

    def _later(self, key: tuple[str, Any], delay: float, call: Any) -> None:
        self._cancel(key)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not serving yet: kick() moves every table when the server starts
            return

        async def wait_then_call() -> None:
            await asyncio.sleep(delay)
            self._timers.pop(key, None)
            call()
        self._timers[key] = loop.create_task(wait_then_call())

    def _cancel(self, key: tuple[str, Any]) -> None:
        task = self._timers.pop(key, None)
        if task is not None:
            task.cancel()

    def kick(self) -> None:
        """Set every table moving (when the server starts: resumed tables, tables made before)."""
        for table in list(self.by_code.values()):
            self.changed(table)

    def cancel_timers(self) -> None:
        for task in self._timers.values():
            task.cancel()
        self._timers.clear()
