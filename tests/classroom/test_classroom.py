"""The class table (issue 14): learners play each other at tables a server holds, through real
websockets on loopback.  A full match of 3 learners and a computer; every message audited for
hidden cards; joining, leaving and coming back; requests that must change nothing."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("websockets")

import maumau as mm  # noqa: E402
from maumau import classroom  # noqa: E402
from maumau.classroom.store import Store  # noqa: E402
from maumau.classroom.table import ClassTable, TableSpec  # noqa: E402


@pytest.fixture
def server(tmp_path: Path) -> Iterator[classroom.Server]:
    with classroom.Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0, hold=0.3) as srv:
        yield srv


def play_until(seats: list[classroom.Seat], done, limit: float = 60.0) -> int:  # type: ignore[no-untyped-def]
    """Each seat plays its first legal move when it is its turn, until ``done()``."""
    moves, end = 0, time.monotonic() + limit
    while not done():
        assert time.monotonic() < end, "the table stopped moving"
        for seat in seats:
            if seat.my_turn:
                try:
                    seat.move(seat.legal_moves()[0])
                    moves += 1
                except classroom.ClassroomError as err:  # the table moved on (a computer): look again
                    assert err.code in ("stale", "not_your_turn"), err
        time.sleep(0.002)
    return moves


# --- a whole match ---------------------------------------------------------------------------------
def test_three_learners_and_a_computer_play_a_whole_match(server):
    code = server.create_table("makao", seats=4, computers=1, seed=3)
    seats = [classroom.join(server.url, code, name=name) for name in ("Anna", "Ben", "Cleo")]
    assert [s.number for s in seats] == [0, 1, 2] and len({s.token for s in seats}) == 3
    # Cleo's first table has everyone in it (the others' may still be on their way)
    assert [s["kind"] for s in seats[2].table["seats"]] == ["human", "human", "human", "computer"]
    moves = play_until(seats, lambda: seats[0].match_over)
    assert moves > 50
    table = server.table(code)
    assert table.match.is_over
    _until(lambda: seats[1].scores == table.match.scores)
    # every move is in the database, in order: replayed, it gives the same match
    again = ClassTable.resume(code, table.spec, server.store)
    assert again.n == table.n and again.match.scores == table.match.scores
    assert [h.winner for h in again.match.hands] == [h.winner for h in table.match.hands]


def test_a_seat_sees_a_view_and_can_play_with_a_computer_player(server):
    code = server.create_table("mau_mau_runde", seats=2, computers=1, seed=5)
    seat = classroom.join(server.url, code, name="Anna")
    player = mm.players.Heuristic(seed=1)
    end = time.monotonic() + 30
    while not seat.hand_over:
        assert time.monotonic() < end
        view = seat.wait(timeout=10)
        if seat.my_turn and view is not None:
            assert view.hand == server.table(code).state.hands[view.seat]
            seat.move(player.choose(view))
    assert server.table(code).hand_over


# --- hidden information ------------------------------------------------------------------------------
CARD = re.compile(r"^(?:10|[2-9JQKA])[CDHS]$|^JOKER$")
SYMBOL = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
SUIT_OF = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_in(message) -> set[str]:  # type: ignore[no-untyped-def]
    """Every card a message names: a card string, or a card told in words ("7♥")."""
    found: set[str] = set()

    def walk(value) -> None:  # type: ignore[no-untyped-def]
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            if CARD.match(value):
                found.add(value)
            found.update(rank + SUIT_OF[suit] for rank, suit in SYMBOL.findall(value))
    walk(message)
    return found


def test_no_message_of_a_whole_match_names_a_hidden_card(server):
    """mau_mau_runde has a 32-card deck with every card once, so a card string is one card."""
    code = server.create_table("mau_mau_runde", seats=4, computers=1, seed=11)
    seats = [classroom.join(server.url, code, name=name) for name in ("Anna", "Ben", "Cleo")]
    heard: dict[int, list[dict]] = {s.number: [] for s in seats}
    for s in seats:
        s.on_change(lambda seat: heard[seat.number].append(seat.table))
    projector_messages: list[dict] = []
    projector = _watch(server, code, projector_messages)
    play_until(seats, lambda: seats[0].match_over or seats[0].table["hands"] >= 3)
    time.sleep(0.2)
    projector.close()
    # the table as each action left it, from the database
    table = server.table(code)
    replay = ClassTable(code, table.spec)
    states = {0: None}
    public_until: dict[int, set[str]] = {0: set()}
    seen: set[str] = set()
    for n, kind, data in server.store.actions(code):
        replay.n += 1
        replay._apply(kind, data)
        states[n + 1] = (replay.state, list(replay.hand_seats))
        if replay.state is not None:
            seen |= {c.text for c in replay.state.discard}
        public_until[n + 1] = set(seen)
    checked = 0
    for number, messages in [*heard.items(), (None, projector_messages)]:
        for message in messages:
            state, hand_seats = states[message["n"]] or (None, [])
            if state is None:
                assert message["view"] is None
                continue
            mine: set[str] = set()
            if number is not None and number in hand_seats:
                mine = {c.text for c in state.hands[hand_seats.index(number)]}
                assert set(message["view"]["hand"]) == mine
            leaked = cards_in(message) - mine - public_until[message["n"]]
            assert not leaked, f"seat {number} was told {sorted(leaked)} (action {message['n']})"
            if number is None:
                assert "hand" not in message["view"] and "hands" not in message["view"]
            checked += 1
    assert checked > 100


def _watch(server, code, into):  # type: ignore[no-untyped-def]
    import threading

    from websockets.sync.client import connect

    ws = connect(server.ws_url, legacy=True)
    ws.send(json.dumps({"type": "watch", "code": code}))

    def listen() -> None:
        try:
            for raw in ws:
                message = json.loads(raw)
                if message.get("type") == "table":
                    into.append(message)
        except Exception:  # noqa: BLE001  closed at the end of the test
            return
    threading.Thread(target=listen, daemon=True).start()
    return ws


def test_the_teachers_projector_sees_every_hand_and_a_wrong_token_is_refused(server):
    from websockets.sync.client import connect

    code = server.create_table("makao", seats=2, computers=2, seed=1)
    server.start_table(code)
    with connect(server.ws_url) as ws:
        ws.send(json.dumps({"type": "watch", "code": code, "teacher": "guess", "id": 1}))
        answer = json.loads(ws.recv())
        assert answer["type"] == "error" and answer["code"] == "forbidden"
        ws.send(json.dumps({"type": "watch", "code": code, "teacher": server.teacher_token, "id": 2}))
        first = _next_table(ws)
        assert len(first["view"]["hands"]) == 2


def _next_table(ws) -> dict:  # type: ignore[no-untyped-def]
    while True:
        message = json.loads(ws.recv(timeout=5))
        if message.get("type") == "table":
            return message


# --- people come and go ----------------------------------------------------------------------------------
def test_a_dropped_seat_is_held_then_played_by_a_computer_until_its_learner_comes_back(server):
    code = server.create_table("mau_mau_runde", seats=2, seed=2)
    anna = classroom.join(server.url, code, name="Anna")
    ben = classroom.join(server.url, code, name="Ben")
    table = server.table(code)
    assert table.state is not None
    hand = table.state.hands[table.hand_seat(ben.number)]
    ben.close()
    _until(lambda: not table.seats[1].connected)
    assert not table.seats[1].robot  # held for `hold` seconds
    _until(lambda: table.seats[1].robot, 5)
    n = table.n
    play_until([anna], lambda: table.hand_over or table.n >= n + 6, limit=30)  # Ben's seat plays on
    back = classroom.join(server.url, code, token=ben.token)
    assert back.number == ben.number and not table.seats[1].robot and table.seats[1].connected
    assert back.table["seats"][1]["name"] == "Ben"
    assert hand is not None


def _until(ready, limit: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + limit
    while not ready():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_leaving_makao_mid_hand_removes_the_player_mk14(server):
    code = server.create_table("makao", seats=3, seed=4)
    seats = [classroom.join(server.url, code, name=n) for n in ("Anna", "Ben", "Cleo")]
    table = server.table(code)
    seats[2].leave()
    _until(lambda: table.seats[2].kind == "left")
    assert table.state is not None and not table.state.active[table.hand_seat(2)]
    play_until(seats[:2], lambda: table.hand_over)
    assert table.match.alive[2] is False or table.match.is_over


def test_joining_makao_after_the_start_waits_for_the_next_hand_with_the_worst_score_mk13(server):
    code = server.create_table("makao", seats=2, seed=6)
    seats = [classroom.join(server.url, code, name=n) for n in ("Anna", "Ben")]
    late = classroom.join(server.url, code, name="Cleo")
    table = server.table(code)
    assert late.number == 2 and table.seats[2].kind == "waiting" and late.view is None
    play_until(seats, lambda: table.match.hands and len(table.hand_seats) == 3 or table.match.is_over)
    if not table.match.is_over:
        assert table.match.scores[2] == max(table.match.scores[:2])  # MK-13: the highest total
        assert table.seats[2].kind == "human"
        _until(lambda: late.view is not None and len(late.view.hand) > 0)
        play_until([*seats, late], lambda: table.hand_over or table.match.is_over)


def test_leaving_another_variant_hands_the_seat_to_a_computer(server):
    code = server.create_table("lite_macau", seats=2, seed=7)
    anna = classroom.join(server.url, code, name="Anna")
    ben = classroom.join(server.url, code, name="Ben")
    ben.leave()
    table = server.table(code)
    _until(lambda: table.seats[1].kind == "computer")
    play_until([anna], lambda: table.hand_over)


def test_a_seat_a_computer_holds_can_be_taken(server):
    code = server.create_table("lite_macau", seats=3, computers=2, seed=8)
    anna = classroom.join(server.url, code, name="Anna")
    ben = classroom.join(server.url, code, name="Ben")
    assert (anna.number, ben.number) == (0, 1)
    assert server.table(code).seats[1].kind == "human"


# --- nobody acts for anyone else; nothing changes on a bad request --------------------------------------
BAD = [
    ("not json", b"{nope", "malformed"),
    ("a list", b"[1, 2]", "malformed"),
    ("unknown type", {"type": "shuffle"}, "unknown"),
    ("extra field", {"type": "move", "move": {"draw": True}, "seq": 0, "seat": 1}, "malformed"),
    ("wrong type", {"type": "move", "move": {"draw": True}, "seq": "0"}, "malformed"),
    ("bad move", {"type": "move", "move": {"play": ["XX"]}, "seq": 0}, "malformed"),
    ("huge", {"type": "ping", "id": 1, "pad": "x" * 5000}, "too_big"),
    ("teacher request without the token", {"type": "create", "teacher": "nope", "table": {}}, "forbidden"),
    ("close without the token", {"type": "close", "teacher": "nope", "code": "X"}, "forbidden"),
]


@pytest.mark.parametrize("what, message, code", BAD, ids=[b[0] for b in BAD])
def test_a_bad_message_gets_a_clear_error_and_changes_nothing(server, what, message, code):
    from websockets.sync.client import connect

    table_code = server.create_table("makao", seats=2, computers=1, seed=9)
    anna = classroom.join(server.url, table_code, name="Anna")
    table = server.table(table_code)
    before = (table.n, table.state)
    with connect(server.ws_url) as ws:
        ws.send(json.dumps({"type": "join", "code": table_code, "token": anna.token}))
        _next_table(ws)
        ws.send(message if isinstance(message, bytes) else json.dumps(message))
        answer = _next_error(ws)
        assert answer["code"] == code and answer["message"]
    assert (table.n, table.state) == before


def _next_error(ws) -> dict:  # type: ignore[no-untyped-def]
    while True:
        message = json.loads(ws.recv(timeout=5))
        if message.get("type") == "error":
            return message


def test_moves_out_of_turn_stale_or_illegal_are_refused(server):
    code = server.create_table("makao", seats=2, seed=12)
    anna = classroom.join(server.url, code, name="Anna")
    ben = classroom.join(server.url, code, name="Ben")
    table = server.table(code)
    _until(lambda: anna.table["n"] == ben.table["n"] == table.n)  # both have seen the deal
    mover, other = (anna, ben) if anna.my_turn else (ben, anna)
    n = table.n
    with pytest.raises(classroom.ClassroomError, match="not this seat's turn"):
        other.move(mm.Draw())
    illegal = next(mm.Play(c) for c in mover.view.hand if mm.Play(c) not in mover.legal_moves()
                   and mm.Play(c, mau=True) not in mover.legal_moves())
    with pytest.raises(mm.IllegalMove):
        mover.move(illegal)
    assert table.n == n
    mover.move(mover.legal_moves()[0])
    assert table.n == n + 1
    # the same message again (a replay): its seq is old now, so nothing happens
    from websockets.sync.client import connect

    with connect(server.ws_url) as ws:
        ws.send(json.dumps({"type": "join", "code": code, "token": other.token}))
        _next_table(ws)
        ws.send(json.dumps({"type": "move", "move": {"draw": True}, "seq": n, "id": 5}))
        assert _next_error(ws)["code"] in ("stale", "not_your_turn")
    assert table.n == n + 1


def test_a_wrong_token_or_code_takes_no_seat(server):
    code = server.create_table("makao", seats=2, seed=13)
    with pytest.raises(classroom.ClassroomError, match="no seat at this table has that token"):
        classroom.join(server.url, code, token="not-a-token")
    with pytest.raises(classroom.ClassroomError, match="no open table"):
        classroom.join(server.url, "ZZZZZZ", name="Eve")


def test_a_full_table_says_so(server):
    code = server.create_table("lite_macau", seats=2, seed=14)
    classroom.join(server.url, code, name="Anna")
    classroom.join(server.url, code, name="Ben")
    with pytest.raises(classroom.ClassroomError, match="every seat"):
        classroom.join(server.url, code, name="Cleo")


# --- nothing is lost -------------------------------------------------------------------------------------
def test_tokens_are_stored_hashed(server, tmp_path):
    code = server.create_table("makao", seats=2, seed=15)
    anna = classroom.join(server.url, code, name="Anna")
    raw = (tmp_path / "class.sqlite").read_bytes() + (tmp_path / "class.sqlite-wal").read_bytes()
    assert anna.token.encode() not in raw and server.teacher_token.encode() not in raw


def test_a_table_spec_is_checked(server):
    with pytest.raises(classroom.TableError, match="played by 2 to 4 players"):
        server.create_table("mau_mau_runde", seats=6)
    with pytest.raises(classroom.TableError, match="strength"):
        server.create_table("makao", strength="godlike")
    with pytest.raises(classroom.TableError):
        server.create_table("makao", without=("no_such_rule",))


def test_a_store_replays_a_table_to_the_same_action(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    spec = TableSpec("makao", 3, 3, "easy", (), 21)
    table = ClassTable("ABCDEF", spec, store)
    store.add_table("ABCDEF", spec.to_json())
    table.start()
    while table.computer_move() is not None:
        pass
    again = ClassTable.resume("ABCDEF", spec, store)
    assert again.n == table.n and again.state == table.state


def _serve(db: Path, token: str):  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "maumau", "serve", "--db", str(db), "--port", "0",
                             "--computer-delay", "0", "--pause", "0"],
                            stdout=subprocess.PIPE, text=True, env=dict(os.environ, MAUMAU_TEACHER_TOKEN=token))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("Serving class tables at "), line
    return proc, line.split()[4]


def test_a_server_killed_with_sigkill_resumes_every_table_at_the_same_move(tmp_path):
    import subprocess
    import sys

    db, token = tmp_path / "class.sqlite", "teacher-secret-for-the-test"
    proc, url = _serve(db, token)
    try:
        (tmp_path / "token").write_text(token + "\n")
        made = subprocess.run([sys.executable, "-m", "maumau", "table", "create", "makao", "--url", url,
                               "--teacher-token-file", str(tmp_path / "token"), "--seats", "3", "--computers", "1",
                               "--seed", "5"], capture_output=True, text=True, check=True)
        code = made.stdout.split()[1].rstrip(":")
        seats = [classroom.join(url, code, name=n) for n in ("Anna", "Ben")]
        play_until(seats, lambda: seats[0].table["n"] >= 25)
        _until(lambda: any(s.my_turn for s in seats))  # the computer has moved: the table waits for a learner
        n, views = seats[0].table["n"], [s.view for s in seats]
        proc.kill()  # SIGKILL: no goodbye, no flush
        proc.wait(10)
        for s in seats:
            s.close()
        proc, url = _serve(db, token)
        again = [classroom.join(url, code, token=s.token) for s in seats]
        assert [s.number for s in again] == [0, 1]
        assert again[0].table["n"] == n and [s.view for s in again] == views
        play_until(again, lambda: again[0].hand_over or again[0].table["hands"] >= 1)
    finally:
        proc.kill()
        proc.wait(10)


@pytest.mark.parametrize("lang, you", [("en", "You "), ("de", "Du "), ("hu", "")])  # hu: "7♥ lapot raksz"
def test_a_learner_reads_their_own_moves_in_the_second_person_and_the_projector_reads_names(tmp_path, lang, you):
    """Issue 24 item 5 on the class page: the log a seat receives tells that learner's moves as the
    notebook's table does ("You play 7♥", "Du legst 7♥"); the other seats and the projector read
    the learner's name (and Ben reads "you move next" where the projector reads "Ben moves next").
    Each connection gets its own line; the cache keeps one per learner."""
    from maumau.classroom.frames import table_frame

    table = ClassTable("ABCDEF", TableSpec("makao", 2, 0, "easy", (), 7, lang), Store(tmp_path / "s.sqlite"))
    anna, _ = table.take("Anna")
    ben, _ = table.take("Ben")  # the table is full: it starts
    for _ in range(6):
        state = table.state
        assert state is not None and not table.hand_over
        seat = table.to_move()
        assert seat is not None
        table.move(seat, state.legal_moves()[0])
    mine = [s for s in table_frame(table, anna.number, lang, False, 0)[0]["said"] if s["seat"] == anna.number]
    theirs = [s for s in table_frame(table, ben.number, lang, False, 0)[0]["said"] if s["seat"] == anna.number]
    shown = [s for s in table_frame(table, None, lang, False, 0)[0]["said"] if s["seat"] == anna.number]
    assert len(mine) == len(theirs) == len(shown) >= 3
    assert all("Anna" not in line["text"] and line["text"].startswith(you) for line in mine), mine
    assert all(line["text"].startswith("Anna") for line in theirs + shown), theirs
    # Ben reads "Anna plays 6♣: you move next", the projector "...: Ben moves next"
    assert all("Ben" not in a["text"] for a in theirs) and any("Ben" in b["text"] for b in shown)
