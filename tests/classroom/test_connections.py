"""The connections (``maumau.classroom.connections``, issue 35): every request dispatched by its type,
the server reached through its public face (``Host``) only, so a connection runs with any host."""

from __future__ import annotations

import ast
import asyncio
import inspect
import json
from pathlib import Path
from typing import Any

from maumau.classroom import connections
from maumau.classroom.connections import Connection, OpenTables
from maumau.classroom.limits import RateLimits
from maumau.classroom.messages import REQUESTS
from maumau.classroom.roster import Roster
from maumau.classroom.spec import TableError
from maumau.classroom.store import Store

SOURCE = ast.parse(inspect.getsource(connections))


def test_every_request_is_dispatched_by_its_class():
    """Each request type of the wire has a ``case`` of its own class (no compare of type strings)."""
    matched = {node.cls.id for node in ast.walk(SOURCE) if isinstance(node, ast.MatchClass)
               and isinstance(node.cls, ast.Name)}
    leaves = {cls.__name__ for cls in REQUESTS.values()}
    assert leaves <= matched, leaves - matched
    compares = [ast.unparse(node) for node in ast.walk(SOURCE) if isinstance(node, ast.Compare)
                and "TYPE" in ast.unparse(node.left)]
    assert not compares, compares


def test_a_connection_reaches_no_private_member_of_its_host_and_imports_no_server():
    private = [ast.unparse(node) for node in ast.walk(SOURCE) if isinstance(node, ast.Attribute)
               and node.attr.startswith("_") and not node.attr.startswith("__")
               and ast.unparse(node.value) in ("self.host", "host", "self.server", "server")]
    assert not private, private
    imported = {node.module for node in ast.walk(SOURCE) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"server", "pages", "course", "league_page"}, imported


class _Socket:
    """A websocket that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.request = None

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


class _Host:
    """The least a connection needs of a server (``connections.Host``): no Server at all."""

    def __init__(self, db: Path) -> None:
        self.tables = OpenTables(Store(db), hold=60, computer_delay=0, pause=0)
        self.limits = RateLimits()
        self.roster: Roster | None = None
        self.stall = 5.0

    def check_teacher(self, token: str | None) -> None:
        if token != "the teacher":
            raise TableError("forbidden", "only the teacher may do that")


def test_a_connection_serves_any_host_through_its_public_face(tmp_path: Path) -> None:
    async def talk() -> list[dict[str, Any]]:
        host, socket = _Host(tmp_path / "c.sqlite"), _Socket()
        conn = Connection(socket, host, client="10.0.0.1")
        table = {"variant": "mau_mau_runde", "seats": 2, "computers": 1, "seed": 4, "lang": "en"}
        conn.receive(json.dumps({"type": "create", "teacher": "nope", "table": table, "id": 1}))
        conn.receive(json.dumps({"type": "create", "teacher": "the teacher", "table": table, "id": 2}))
        await asyncio.sleep(0.05)
        code = socket.sent[-1]["code"]
        conn.receive(json.dumps({"type": "tables", "teacher": "the teacher", "id": 3}))
        conn.receive(json.dumps({"type": "join", "code": code, "name": "Anna", "id": 4}))
        conn.receive(json.dumps({"type": "ping", "id": 5}))
        await asyncio.sleep(0.2)
        conn.outbox.close()
        host.tables.cancel_timers()
        host.tables.store.close()
        return socket.sent

    sent = asyncio.run(talk())
    answers = {m["id"]: m for m in sent if "id" in m}
    assert answers[1]["type"] == "error" and answers[1]["code"] == "forbidden"
    assert answers[2]["type"] == "ok" and len(answers[2]["code"]) == 6
    assert [t["code"] for t in answers[3]["tables"]] == [answers[2]["code"]]
    assert answers[4]["type"] == "ok" and answers[4]["seat"] == 0 and answers[4]["token"]
    assert answers[5] == {"type": "ok", "id": 5, "v": 1}
    frames = [m for m in sent if m["type"] == "table"]
    assert frames and frames[-1]["you"] == 0 and frames[-1]["model"] is not None
