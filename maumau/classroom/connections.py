"""Who is connected to which table, and what each connection is sent.

A Connection is one websocket: a seat (after ``join``), a projector (after ``watch``) or a
teacher's lobby.  After every change of a table, each connection at it gets a ``table`` message
with what it may see (``maumau.classroom.views``); the computers then move, one by one, and a
finished hand is followed by the next after a pause.  A learner whose connection drops keeps the
seat for ``hold`` seconds; then a computer plays it until they come back with their token.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from ..core.moves import Move
from ..text.explain import narrate
from ..text.i18n import name_seats, t, use_language
from .protocol import ProtocolError, Request, error, move_from_json, parse
from .table import ClassTable, TableError, TableSpec
from .views import projector_view, seat_view

if TYPE_CHECKING:  # pragma: no cover
    from .server import Server
    from .store import Store

__all__ = ["Connection", "Tables"]


class Connection:
    """One websocket and what it is at the table."""

    def __init__(self, websocket: Any, server: Server, hub_user: str | None = None) -> None:
        self.websocket, self.server = websocket, server
        self.hub_user = hub_user              # on JupyterHub: who the hub says this is
        self.code: str | None = None
        self.seat: int | None = None         # a match seat, or None for a projector
        self.open_hands = False
        self.lang = "en"
        self.heard = -1                      # the last line of the table's log sent to this connection

    async def send(self, message: dict[str, Any]) -> None:
        try:
            await self.websocket.send(json.dumps(message, ensure_ascii=False))
        except Exception:  # noqa: BLE001  a connection closing under us: it is being removed
            return

    async def receive(self, raw: str | bytes) -> None:
        request_id = None
        try:
            request = parse(raw)
            request_id = request.id
            answer = self.handle(request)
        except ProtocolError as err:
            await self.send(error(err.code, err.message, request_id))
            return
        await self.server.tables.flush()
        reply: dict[str, Any] = {"type": "ok", **answer}
        if request_id is not None:
            reply["id"] = request_id
        await self.send(reply)

    # --- requests ---------------------------------------------------------------------------------------
    def handle(self, request: Request) -> dict[str, Any]:
        tables, kind = self.server.tables, request.type
        if kind == "ping":
            return {}
        if kind in ("create", "start", "close", "tables"):
            return self.teacher(request)
        if kind in ("join", "watch"):
            return self.sit(request)
        if self.code is None or self.seat is None:
            raise ProtocolError("not_seated", "join a table first")
        table = tables.get(self.code)
        if kind == "move":
            move: Move = move_from_json(request.get("move"))
            table.move(self.seat, move, request.get("seq"))
        else:  # leave
            table.leave(self.seat)
            tables.detach(self)
        tables.changed(table)
        return {"n": table.n}

    def sit(self, request: Request) -> dict[str, Any]:
        tables = self.server.tables
        table = tables.get(request.get("code", ""))
        lang = request.get("lang", "en")
        if lang not in ("en", "de", "hu"):
            raise ProtocolError("malformed", "lang is en, de or hu")
        if self.code is not None:
            raise ProtocolError("seated", "this connection is at a table already")
        answer: dict[str, Any] = {"code": table.code, "variant": table.variant.name, "spec": table.spec.to_json()}
        if request.type == "watch":
            teacher = request.get("teacher")
            if teacher is not None:
                self.server.check_teacher(teacher)
            self.open_hands = teacher is not None
        elif self.hub_user is not None:  # on JupyterHub a learner is their hub user: one seat each
            seat = table.seat_of_user(self.hub_user)
            if seat is None:
                seat, _ = table.take(self.hub_user, user=self.hub_user)
            self.seat = seat.number
        elif request.get("token") is not None:
            self.seat = table.seat_by_token(request.get("token")).number
        else:
            seat, token = table.take(request.get("name", ""))
            self.seat = seat.number
            answer["token"] = token
        self.code, self.lang = table.code, lang
        if self.seat is not None:
            answer["seat"] = self.seat
        tables.attach(self, table)
        return answer

    def teacher(self, request: Request) -> dict[str, Any]:
        server = self.server
        server.check_teacher(request.get("teacher"))
        if request.type == "create":
            spec = TableSpec.from_json(request.get("table"))
            return {"code": server._create(spec)}
        if request.type == "tables":
            return {"tables": [t.summary() for t in server.tables.by_code.values()]}
        code = request.get("code")
        if request.type == "start":
            server._start(code)
        else:
            server.tables.close(code)
        return {"code": code}


class Tables:
    """Every open table, the connections at each, and the timers that keep the tables moving."""

    def __init__(self, store: Store, *, hold: float, computer_delay: float, pause: float) -> None:
        self.store, self.hold, self.computer_delay, self.pause = store, hold, computer_delay, pause
        self.by_code: dict[str, ClassTable] = {}
        self.at: dict[str, set[Connection]] = {}
        self._dirty: set[str] = set()
        self._timers: dict[tuple[str, Any], asyncio.Task[None]] = {}

    def add(self, table: ClassTable) -> None:
        self.by_code[table.code] = table
        self.at.setdefault(table.code, set())

    def get(self, code: str) -> ClassTable:
        table = self.by_code.get(code) if isinstance(code, str) else None
        if table is None:
            raise TableError("unknown_table", f"there is no open table with the code {str(code)[:12]!r}")
        return table

    def close(self, code: str) -> None:
        table = self.get(code)
        self.store.close_table(code)
        del self.by_code[code]
        for conn in self.at.pop(code, set()):
            conn.code = conn.seat = None
            self._spawn(conn.send(error("closed", f"the teacher closed table {code}")))
        del table

    # --- who is where -------------------------------------------------------------------------------------
    def attach(self, conn: Connection, table: ClassTable) -> None:
        for other in list(self.at[table.code]):
            if conn.seat is not None and other.seat == conn.seat:  # the same seat, a new connection
                self.at[table.code].discard(other)
                other.code = other.seat = None
                self._spawn(other.send(error("replaced", "this seat was taken up by a new connection")))
        self.at[table.code].add(conn)
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
        """The table changed: tell everyone at it (``flush``) and let the computers move."""
        self._dirty.add(table.code)
        self._spawn(self.flush())
        self._later((table.code, "computers"), self.computer_delay if table.to_move() is not None else 0,
                    lambda: self._step(table))

    async def flush(self) -> None:
        dirty, self._dirty = self._dirty, set()
        for code in dirty:
            table = self.by_code.get(code)
            if table is None:
                continue
            for conn in list(self.at.get(code, ())):
                await conn.send(self.message(table, conn))

    def message(self, table: ClassTable, conn: Connection) -> dict[str, Any]:
        state = table.state
        said = [{"n": n, **told} for n, kind, what in table.log if n > conn.heard
                for told in [tell(table, kind, what, conn.lang)]]
        conn.heard = table.told - 1
        view = None
        if state is not None:
            hand_seat = None if conn.seat is None else table.hand_seat(conn.seat)

            def name_of(seat: int) -> str:
                return table.seats[table.hand_seats[seat]].name
            view = (seat_view(state, hand_seat, conn.lang, name_of) if hand_seat is not None
                    else projector_view(state, conn.lang, conn.open_hands, name_of))
        match = table.match
        return {"type": "table", "code": table.code, "n": table.n, "variant": table.variant.name,
                "title": table.variant.title, "call": table.variant.call,
                "score": _say(conn.lang, table.variant.scoring.score_key),
                "goal": _say(conn.lang, None, table.variant.scoring.goal),
                "you": conn.seat, "seats": [s.public() for s in table.seats], "hand_seats": table.hand_seats,
                "scores": list(match.scores), "hands": len(match.hands), "hand_over": table.hand_over,
                "match_over": match.is_over, "winner": _winner(match.winner), "said": said, "view": view}

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

    def _spawn(self, coroutine: Any) -> None:
        try:
            asyncio.get_running_loop().create_task(coroutine)
        except RuntimeError:  # no loop yet (a table made before the server started): nothing to tell
            coroutine.close()

    def kick(self) -> None:
        """Set every table moving (when the server starts: resumed tables, tables made before)."""
        for table in list(self.by_code.values()):
            self.changed(table)

    def cancel_timers(self) -> None:
        for task in self._timers.values():
            task.cancel()
        self._timers.clear()


def tell(table: ClassTable, kind: str, what: Any, lang: str) -> dict[str, Any]:
    """One line of the table's log, in ``lang``, with the players' names for the seat numbers."""
    with use_language(lang):
        if kind == "move":
            before, move, after, hand_seats = what
            names = {i: table.seats[s].name for i, s in enumerate(hand_seats)}
            text = name_seats(narrate(before, move, after), names, lang)
            return {"seat": hand_seats[before.to_move], "text": text}
        if kind == "dealt":
            return {"seat": None, "text": t("class.dealt", hand=what[0], name=what[1])}
        return {"seat": None, "text": t("class." + kind, name=what)}


def _say(lang: str, key: str | None, call: Any = None) -> str:
    with use_language(lang):
        return str(call()) if key is None else t(key)


def _winner(winner: int | tuple[int, ...] | None) -> Any:
    return list(winner) if isinstance(winner, tuple) else winner
