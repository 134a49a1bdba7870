"""The class table attacked from outside (issue 23): raw websocket clients, where the page and
``classroom.join`` would be too polite.  No secret leaves the server (the seed, the stock, other
hands: in no frame of a whole match, for seats, the projector and a rejoin); no input hurts a
table (a lone surrogate, unhashable types, ``{"draw": 1}``, bad names stored by an older
server); no client that stops reading slows the others; joins and guesses are bounded; every
error carries its request's ``id``; the teacher token is in no URL."""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from test_classroom import cards_in  # noqa: E402

from maumau import classroom  # noqa: E402
from maumau.classroom.store import Store  # noqa: E402
from maumau.classroom.table import ClassTable  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[classroom.Server]:
    with classroom.Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0, hold=0.3) as srv:
        yield srv


class Raw:
    """A raw websocket client that keeps every frame it receives, as the text that came."""

    def __init__(self, server: classroom.Server, headers: dict[str, str] | None = None,
                 source: str | None = None) -> None:
        from websockets.sync.client import connect

        sock = None if source is None else socket.create_connection((server.host, server.port), 10, (source, 0))
        self.ws = connect(server.ws_url, legacy=True, max_size=2 ** 22, additional_headers=headers, sock=sock)
        self.frames: list[str] = []
        self.closed = False
        self.ids = iter(range(1, 10 ** 9))
        self.cond = threading.Condition()
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        try:
            for raw in self.ws:
                with self.cond:
                    self.frames.append(str(raw))
                    self.cond.notify_all()
        except Exception:  # noqa: BLE001  the server closed the connection: recorded below
            pass
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def ask(self, request: dict[str, Any], limit: float = 10) -> dict[str, Any]:
        """Sends ``request`` with a fresh id and returns the answer carrying that id."""
        request_id = next(self.ids)
        self.send({**request, "id": request_id})
        return self.answer(request_id, limit)

    def answer(self, request_id: int, limit: float = 10) -> dict[str, Any]:
        end = time.monotonic() + limit
        with self.cond:
            while True:
                for raw in self.frames:
                    message = json.loads(raw)
                    if message.get("id") == request_id:
                        return dict(message)
                assert not self.closed, "the server closed the connection"
                assert self.cond.wait(max(0.0, end - time.monotonic())), f"no answer to request {request_id}"

    def table(self) -> dict[str, Any] | None:
        with self.cond:
            tables = [json.loads(f) for f in self.frames if f.startswith('{"type": "table"')]
        return tables[-1] if tables else None

    def close(self) -> None:
        self.ws.close()


def play(seats: list[Raw], done: Any, limit: float = 60) -> int:
    """Each raw seat plays its first legal move when the latest frame says it is its turn."""
    moves, end = 0, time.monotonic() + limit
    while not done():
        assert time.monotonic() < end, "the table stopped moving"
        for seat in seats:
            table = seat.table()
            view = table and table["view"]
            if not view or "hand" not in view or view["over"] or not view["legal"]:
                continue
            if view["to_move"] != view["seat"]:
                continue
            answer = seat.ask({"type": "move", "move": view["legal"][0], "seq": table["n"]})
            if answer["type"] == "ok":
                moves += 1
            else:
                assert answer["code"] in ("stale", "not_your_turn"), answer
        time.sleep(0.002)
    return moves


# --- 1. nothing secret leaves the server ---------------------------------------------------------------
SEED = 73104977251  # an explicit seed: the teacher asked for a reproducible deal


def _replay_states(server: classroom.Server, code: str) -> tuple[dict[int, Any], dict[int, set[str]]]:
    """The table as each action left it, and the cards shown face up by then (from the database)."""
    table = server.table(code)
    replay = ClassTable(code, table.spec)
    states: dict[int, Any] = {0: (None, [])}
    public: dict[int, set[str]] = {0: set()}
    seen: set[str] = set()
    for n, kind, data in server.store.actions(code):
        replay.n += 1
        replay._apply(kind, data)
        states[n + 1] = (replay.state, list(replay.hand_seats))
        if replay.state is not None:
            seen |= {c.text for c in replay.state.discard}
        public[n + 1] = set(seen)
    return states, public


def test_the_seed_and_every_hidden_card_are_in_no_frame_of_a_whole_match(server):
    code = server.create_table("mau_mau_runde", seats=3, seed=SEED)
    seats = [Raw(server) for _ in range(3)]
    answers = [s.ask({"type": "join", "code": code, "name": name})
               for s, name in zip(seats, ("Anna", "Ben", "Cleo"), strict=True)]
    assert all(a["type"] == "ok" for a in answers), answers
    projector = Raw(server)
    assert projector.ask({"type": "watch", "code": code})["type"] == "ok"
    numbers = [a["seat"] for a in answers]
    play(seats, lambda: (seats[0].table() or {}).get("hands", 0) >= 1)
    seats[1].close()  # Ben comes back on a new connection with his token
    again = Raw(server)
    assert again.ask({"type": "join", "code": code, "token": answers[1]["token"]})["type"] == "ok"
    seats[1] = again
    play(seats, lambda: (seats[0].table() or {}).get("match_over") or seats[0].table()["hands"] >= 3)
    time.sleep(0.3)
    states, public = _replay_states(server, code)
    checked = 0
    for number, client in [*zip([numbers[0], numbers[1], numbers[2], numbers[1]], [*seats[:3], again], strict=True),
                           (None, projector)]:
        for raw in client.frames:
            assert str(SEED) not in raw and "seed" not in raw, raw[:300]
            message = json.loads(raw)
            if message.get("type") != "table":
                continue
            state, hand_seats = states[message["n"]]
            mine: set[str] = set()
            if state is not None and number is not None and number in hand_seats:
                mine = {c.text for c in state.hands[hand_seats.index(number)]}
            leaked = cards_in(message) - mine - public[message["n"]]
            assert not leaked, f"seat {number} was told {sorted(leaked)} (action {message['n']})"
            checked += 1
    assert checked > 100


def test_a_table_without_a_seed_gets_a_secret_random_one_and_the_teacher_sees_an_explicit_one(server):
    codes = [server.create_table("makao", seats=2) for _ in range(3)]
    seeds = {server.table(c).spec.seed for c in codes}
    assert len(seeds) == 3 and 0 not in seeds  # from a secure source, not 0 for everyone
    fixed = server.create_table("makao", seats=2, seed=SEED)
    teacher = Raw(server)
    listing = teacher.ask({"type": "tables", "teacher": server.teacher_token})["tables"]
    shown = {t["code"]: t for t in listing}
    assert shown[fixed]["seed"] == SEED  # asked for: the lobby shows it
    assert all("seed" not in json.dumps(shown[c]) for c in codes)  # random: not even the teacher sees it


# --- 2. no input can hurt a table ---------------------------------------------------------------------
def test_a_lone_surrogate_name_cannot_kill_a_table(server, tmp_path):
    code = server.create_table("mau_mau_runde", seats=3, computers=1, seed=4)
    anna = Raw(server)
    assert anna.ask({"type": "join", "code": code, "name": "Anna"})["type"] == "ok"
    eve = Raw(server)
    eve.send('{"type": "join", "code": "' + code + '", "name": "Eve\\ud800\\u0007", "id": 9}')
    answer = eve.answer(9)
    assert answer["type"] in ("ok", "error")
    watcher = Raw(server)
    assert watcher.ask({"type": "watch", "code": code})["type"] == "ok"
    time.sleep(0.2)
    assert not anna.closed and not watcher.closed
    listing = Raw(server).ask({"type": "tables", "teacher": server.teacher_token})
    assert listing["type"] == "ok"
    names = [s["name"] for s in listing["tables"][0]["seats"]]
    assert all(n.encode("utf-8") is not None and "\x07" not in n for n in names), names


def test_a_bad_name_stored_by_an_older_server_is_cleaned_when_the_table_is_loaded(tmp_path):
    db = tmp_path / "old.sqlite"
    with classroom.Server(db=db, port=0, computer_delay=0, pause=0) as srv:
        code = srv.create_table("mau_mau_runde", seats=3, computers=1, seed=4)
    store = Store(db)  # an older server stored a name it should not have
    store.append(code, 0, "take", {"seat": 0, "name": "Eve\ud800\x1b[2J" + "x" * 500, "token_hash": "0" * 64,
                                   "user": None})
    store.close()
    with classroom.Server(db=db, port=0, computer_delay=0, pause=0) as srv:
        name = srv.table(code).seats[0].name
        assert "\x1b" not in name and len(name) <= 40 and name.encode("utf-8")
        anna = Raw(srv)
        assert anna.ask({"type": "join", "code": code, "name": "Anna"})["type"] == "ok"
        assert Raw(srv).ask({"type": "tables", "teacher": srv.teacher_token})["type"] == "ok"


HOSTILE = [
    ("unhashable type", '{"type": [], "id": 3}', "unknown"),
    ("object type", '{"type": {"a": 1}, "id": 3}', "unknown"),
    ("draw is 1", '{"type": "move", "move": {"draw": 1}, "seq": 0, "id": 3}', "malformed"),
    ("pass is a string", '{"type": "move", "move": {"pass": "yes"}, "seq": 0, "id": 3}', "malformed"),
    ("draw and play", '{"type": "move", "move": {"draw": true, "play": ["7H"]}, "seq": 0, "id": 3}', "malformed"),
    ("a field with the wrong type", '{"type": "join", "code": 5, "id": 3}', "malformed"),
    ("an unknown field", '{"type": "ping", "hello": 1, "id": 3}', "malformed"),
    ("a lone surrogate code", '{"type": "watch", "code": "\\udfff", "id": 3}', "malformed"),
    ("deep nesting", '{"type": "move", "seq": 0, "id": 3, "move": ' + "[" * 500 + "]" * 500 + "}", "malformed"),
    ("float seq", '{"type": "move", "move": {"draw": true}, "seq": 1e400, "id": 3}', "malformed"),
    ("NaN seq", '{"type": "move", "move": {"draw": true}, "seq": NaN, "id": 3}', "malformed"),
    ("a huge seq", '{"type": "move", "move": {"draw": true}, "seq": 1' + "0" * 30 + ', "id": 3}', "malformed"),
    ("wish of the wrong type", '{"type": "move", "move": {"play": ["JH"], "wish": 7}, "seq": 0, "id": 3}',
     "malformed"),
    ("open is 1", '{"type": "watch", "code": "ABCDEF", "open": 1, "id": 3}', "malformed"),
    ("invalid UTF-8", b'{"type": "join", "code": "\xff\xfe", "id": 3}', "malformed"),
]


@pytest.mark.parametrize("what, raw, code", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_request_gets_an_error_with_its_id_and_changes_nothing(server, what, raw, code):
    table_code = server.create_table("makao", seats=2, computers=1, seed=9)
    client = Raw(server)
    assert client.ask({"type": "join", "code": table_code, "name": "Anna"})["type"] == "ok"
    table = server.table(table_code)
    time.sleep(0.1)
    before = table.n
    client.send(raw)
    answer = client.answer(3) if what != "invalid UTF-8" else _first_error(client)
    assert answer["type"] == "error" and answer["code"] == code and answer["message"], answer
    assert client.ask({"type": "ping"})["type"] == "ok"  # the connection is still open
    assert table.n == before or what == "unhashable type"


def _first_error(client: Raw) -> dict[str, Any]:
    """The error that answers a request whose id cannot be read (it is not valid UTF-8)."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        errors = [m for m in map(json.loads, list(client.frames)) if m.get("type") == "error"]
        if errors:
            return dict(errors[-1])
        time.sleep(0.01)
    raise AssertionError("no error came")


def test_names_are_unique_and_a_computers_name_or_a_seat_label_is_not_a_learners(server):
    code = server.create_table("lite_macau", seats=4, computers=1, seed=3)
    first = Raw(server)
    assert first.ask({"type": "join", "code": code, "name": "Anna"})["type"] == "ok"
    for name in ("anna", " Anna ", "Seat 1", "Computer 3", "Platz 2", "2. játékos", "\u200b", ""):
        answer = Raw(server).ask({"type": "join", "code": code, "name": name})
        assert answer["type"] == "error" and answer["code"] == "bad_name", (name, answer)


# --- 3. no connection can stop a table ----------------------------------------------------------------
def _non_reading_socket(server: classroom.Server, request: dict[str, Any]) -> socket.socket:
    """A websocket that sends ``request`` and then never reads again (a phone gone to sleep)."""
    sock = socket.create_connection((server.host, server.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {server.prefix}ws HTTP/1.1\r\nHost: {server.host}:{server.port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += sock.recv(1)
    assert b" 101 " in reply.split(b"\r\n")[0]
    payload, mask = json.dumps(request).encode(), os.urandom(4)
    header = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else \
        bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return sock


def test_a_client_that_stops_reading_slows_nobody_and_is_dropped(tmp_path):
    with classroom.Server(db=tmp_path / "c.sqlite", port=0, computer_delay=0, pause=0, hold=60,
                          keepalive=0.5) as server:
        code = server.create_table("mau_mau_runde", seats=3, seed=5)
        seats = [Raw(server) for _ in range(3)]
        for s, name in zip(seats, ("Anna", "Ben", "Cleo"), strict=True):
            assert s.ask({"type": "join", "code": code, "name": name})["type"] == "ok"
        sleepers = [_non_reading_socket(server, {"type": "watch", "code": code}) for _ in range(3)]
        table = server.table(code)
        _until(lambda: len(server.tables.at[code]) == 6)
        slowest, moves, end = 0.0, 0, time.monotonic() + 60
        while moves < 150 and not table.match.is_over:
            assert time.monotonic() < end, "the table stopped moving"
            for s in seats:
                view = (s.table() or {}).get("view")
                if view and "hand" in view and view["to_move"] == view["seat"] and view["legal"] and not view["over"]:
                    began = time.monotonic()
                    answer = s.ask({"type": "move", "move": view["legal"][0], "seq": s.table()["n"]}, limit=5)
                    slowest = max(slowest, time.monotonic() - began)
                    moves += answer["type"] == "ok"
            time.sleep(0.002)
        assert slowest < 1.0, f"an honest move waited {slowest:.2f} s"
        _until(lambda: len(server.tables.at.get(code, ())) == 3, 10)  # the sleepers are dropped
        for sock in sleepers:
            sock.close()


def test_a_seat_that_does_not_move_in_its_turn_clock_is_played_by_a_computer_and_the_log_says_so(server):
    code = server.create_table("lite_macau", seats=2, seed=6, clock=0.5)
    anna, ben = Raw(server), Raw(server)
    for s, name in ((anna, "Anna"), (ben, "Ben")):
        assert s.ask({"type": "join", "code": code, "name": name})["type"] == "ok"
    table = server.table(code)
    n = table.n
    _until(lambda: table.n >= n + 3, 10)  # nobody moves: the clock moves for them
    said = [line["text"] for raw in anna.frames if raw.startswith('{"type": "table"')
            for line in json.loads(raw)["said"]]
    assert any("clock" in text or "time" in text for text in said), said


# --- 4. joins and guesses are bounded ---------------------------------------------------------------------
def test_sixty_joins_at_a_makao_table_seat_at_most_five_active_players_mk13(server):
    code = server.create_table("makao", seats=3, seed=8)
    clients = [Raw(server) for _ in range(60)]
    answers = [c.ask({"type": "join", "code": code, "name": f"P{i}"}) for i, c in enumerate(clients)]
    assert sum(a["type"] == "ok" for a in answers) == 5
    assert {a["code"] for a in answers if a["type"] == "error"} == {"full"}
    table = server.table(code)
    assert len([s for s in table.seats if s.kind in ("human", "waiting", "computer")]) <= 5


def test_wrong_codes_and_tokens_are_rate_limited(server):
    code = server.create_table("makao", seats=2, seed=8)
    guesser = Raw(server)
    codes = [guesser.ask({"type": "join", "code": f"AAAA{i:02d}", "name": "Eve"})["code"] for i in range(30)]
    assert codes[0] == "unknown_table" and "rate_limited" in codes
    # the guesser is slowed down for every request of that kind, the right code too
    assert Raw(server).ask({"type": "join", "code": code, "token": "guess"})["code"] == "rate_limited"


def test_a_flooding_client_is_slowed_to_its_rate_and_nobody_else_is(tmp_path):
    with classroom.Server(db=tmp_path / "c.sqlite", port=0, limits={"join": (120, 10), "wrong": (10, 0.2),
                                                                    "message": (10, 20)}) as server:
        flood, other = Raw(server), Raw(server)
        began = time.monotonic()
        for _ in range(50):
            flood.send({"type": "ping"})
        assert flood.ask({"type": "ping"}, limit=20)["type"] == "ok"
        assert time.monotonic() - began >= 1.5  # 10 at once, then 20 a second
        began = time.monotonic()
        assert other.ask({"type": "ping"})["type"] == "ok" and time.monotonic() - began < 0.5


# --- 4. the teacher token is in no URL ----------------------------------------------------------------------
def test_the_teacher_logs_in_with_a_cookie_and_the_token_is_in_no_url(server):
    login = {"Authorization": f"Teacher {server.teacher_token}"}
    request = urllib.request.Request(server.url + "/login", headers=login, method="POST")
    with urllib.request.urlopen(request, timeout=5) as answer:
        cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and server.teacher_token not in cookie
    session = cookie.split(";")[0]
    teacher = Raw(server, headers={"Cookie": session})
    assert teacher.ask({"type": "tables"})["type"] == "ok"
    stranger = Raw(server, headers={"Cookie": session, "Origin": "http://evil.example"})
    assert stranger.ask({"type": "tables"})["code"] == "forbidden"  # another site's page cannot use it
    wrong = urllib.request.Request(server.url + "/login", headers={"Authorization": "Teacher guess"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(wrong, timeout=5)
    assert refused.value.code == 403
    pages = "".join((ROOT / "maumau" / "classroom" / "pages" / name).read_text()
                    for name in ("lobby.js", "table.js", "lobby.html", "table.html"))
    assert not re.search(r"teacher=", pages), "a page puts the teacher token into a URL"
    for manual in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        assert not re.search(r"--teacher-token(?!-file)", manual.read_text()), \
            f"{manual.name} puts the token on a command line"


def _until(ready: Any, limit: float = 5.0) -> None:
    end = time.monotonic() + limit
    while not ready():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


# --- 5. the page tells why; a finished match starts again ------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_an_illegal_card_is_refused_with_the_engines_own_sentence_in_the_seats_language(server, lang):
    import maumau as mm
    from maumau.text.i18n import use_language

    code = server.create_table("mau_mau_runde", seats=2, computers=1, seed=12)
    anna = Raw(server)
    assert anna.ask({"type": "join", "code": code, "name": "Anna", "lang": lang})["type"] == "ok"
    table = server.table(code)
    _until(lambda: (anna.table() or {}).get("view") is not None and table.to_move() == 0
           and anna.table()["n"] == table.n)
    view = anna.table()["view"]
    legal = [m.get("play", [None])[0] for m in view["legal"]]
    card = next(c for c in view["hand"] if c not in legal)
    answer = anna.ask({"type": "move", "move": {"play": [card]}, "seq": table.n})
    with use_language(lang):
        expected = table.state.why_illegal(mm.Play(card))
    assert answer["code"] == "illegal" and answer["message"] == expected, answer
    assert "(C-" in answer["message"] or "(MR-" in answer["message"]


@pytest.mark.parametrize("variant", ["lite_macau", "mau_mau_runde", "joker_mau_mau", "makao"])
def test_the_teacher_starts_a_new_match_at_a_finished_table_of_any_variant(server, variant):
    code = server.create_table(variant, seats=2, computers=2)
    teacher = Raw(server)
    assert teacher.ask({"type": "restart", "code": code, "teacher": server.teacher_token})["code"] == "playing"
    server.start_table(code)
    table = server.table(code)
    _until(lambda: table.match.is_over, 60)
    seed = table.seed
    answer = teacher.ask({"type": "restart", "code": code, "teacher": server.teacher_token})
    assert answer["type"] == "ok", answer
    assert table.seed != seed and table.state is not None  # (the computers may have played on since)
    actions = server.store.actions(code)
    restarted = next(n for n, kind, _ in actions if kind == "restart")
    assert [kind for n, kind, _ in actions if n > restarted][:1] == ["move"]  # the new match's first hand
    server.close_table(code)  # the computers stop: the table holds still
    again = ClassTable.resume(code, table.spec, server.store)  # the restart is an action like any
    assert again.n == table.n and again.state == table.state and again.seed == table.seed


def test_a_slowloris_handshake_is_cut_off_and_the_table_plays_on(tmp_path):
    with classroom.Server(db=tmp_path / "c.sqlite", port=0, computer_delay=0, pause=0, handshake=1.0) as server:
        code = server.create_table("mau_mau_runde", seats=2, computers=1, seed=5)
        trickles = []
        for _ in range(20):
            sock = socket.create_connection((server.host, server.port))
            sock.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\n")  # and then nothing, ever
            trickles.append(sock)
        anna = Raw(server)
        assert anna.ask({"type": "join", "code": code, "name": "Anna"})["type"] == "ok"
        play([anna], lambda: server.table(code).n >= 10, limit=20)
        time.sleep(2.0)
        for sock in trickles:  # each was closed by the server (maybe after an error response)
            sock.settimeout(5)
            try:
                while sock.recv(1024):
                    pass
            except TimeoutError:
                raise AssertionError("the server still holds a half-sent handshake open") from None
            except ConnectionResetError:
                pass
            sock.close()


def test_a_table_takes_a_bounded_number_of_projectors(server):
    from maumau.classroom.connections import MOST_WATCHERS

    code = server.create_table("makao", seats=2, computers=1, seed=8)
    answers = [Raw(server, source=f"127.0.1.{i + 1}").ask({"type": "watch", "code": code})
               for i in range(MOST_WATCHERS + 3)]
    assert [a["type"] for a in answers] == ["ok"] * MOST_WATCHERS + ["error"] * 3
    assert answers[-1]["code"] == "full" and answers[-1]["message"]
