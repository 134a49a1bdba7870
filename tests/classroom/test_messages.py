"""The class table's wire (issue 27): every request declared once in ``maumau.classroom.messages``,
encoded and decoded there; a move decoded once into a Move and checked once, by the engine."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau.classroom.messages import (
    PROTOCOL_VERSION,
    REQUESTS,
    Codes,
    Create,
    Join,
    MoveRequest,
    ProtocolError,
    Watch,
    decode_request,
    decode_server,
    encode,
    encode_request,
    move_from_wire,
    move_to_wire,
)
from maumau.classroom.spec import TableError, TableSpec
from maumau.classroom.table import ClassTable


def _some_states(seed: int) -> list[mm.GameState]:
    rng = random.Random(seed)
    state = mm.deal(rng.choice(["makao", "joker_mau_mau", "lite_macau", "mau_mau_runde"]), players=3, seed=seed)
    states = [state]
    while not state.is_over and len(states) < 60:
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_every_legal_move_crosses_the_wire_and_comes_back_the_same_move(seed: int) -> None:
    for state in _some_states(seed):
        for move in state.legal_moves():
            raw = encode_request(MoveRequest(move=move, seq=7, id=3))
            request = decode_request(raw)
            assert isinstance(request, MoveRequest)
            assert (request.move, request.seq, request.id) == (move, 7, 3)
            assert move_from_wire(json.loads(json.dumps(move_to_wire(move)))) == move


def test_each_request_is_one_declared_type_and_round_trips() -> None:
    assert set(REQUESTS) == {"join", "watch", "move", "leave", "ping", "create", "start", "restart", "close",
                             "tables", "codes"}
    for request in (Join(code="K7QX2M", name="Anna", lang="de"), Join(code="K7QX2M", token="t" * 40),
                    Join(code="K7QX2M", personal="ABCD-EFGH-JKLM-NPQR"), Codes(renew="anna", teacher="x"),
                    Watch(code="ABCDEF", open=True), Create(table={"variant": "makao"}, teacher="x", id=9)):
        again = decode_request(encode_request(request))
        assert again == request and type(again) is type(request)
    assert json.loads(encode_request(Join(code="ABCDEF", name="Anna")))["v"] == PROTOCOL_VERSION


@pytest.mark.parametrize(("raw", "code", "says"), [
    ('{"type": "ping", "v": 2, "id": 4}', "version", "version 1"),
    ('{"type": "join", "id": 4}', "malformed", "needs code"),
    ('{"type": "move", "move": {"play": []}, "seq": 0}', "malformed", "a move is"),
    ('{"type": "move", "move": [], "seq": 0}', "malformed", "wrong type"),
    ('{"type": "join", "code": "A", "seat": 2}', "malformed", "no field 'seat'"),
    ('{"type": "teleport"}', "unknown", "one of join"),
])
def test_a_bad_request_is_refused_with_what_is_wrong(raw: str, code: str, says: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_request(raw)
    assert refused.value.code == code and says in refused.value.message


def test_the_server_speaks_its_version_and_a_client_refuses_another() -> None:
    assert json.loads(encode({"type": "ok"}))["v"] == PROTOCOL_VERSION
    assert decode_server(encode({"type": "ok", "id": 1})) == {"type": "ok", "id": 1, "v": PROTOCOL_VERSION}
    with pytest.raises(ProtocolError):
        decode_server('{"type": "ok", "v": 99}')


def test_an_illegal_move_is_refused_with_the_engines_sentence_and_records_nothing() -> None:
    spec = TableSpec("mau_mau_runde", 2, 1, "easy", (), 5, "en", {}, None, fixed_seed=True).check()
    table = ClassTable("ABCDEF", spec)
    table.take("Anna")
    state = table.state
    assert state is not None
    seat = table.hand_seats[state.to_move]
    while table.seats[seat].played_by_computer:  # until it is Anna's turn
        table.computer_move()
        state = table.state
        assert state is not None
        seat = table.hand_seats[state.to_move]
    illegal = next((mm.Play(c) for c in state.hands[state.to_move] if not state.is_legal(mm.Play(c))), mm.Pass())
    n, before = table.n, table.state
    with pytest.raises(TableError) as refused:
        table.move(seat, illegal, n)
    assert refused.value.code == "illegal" and refused.value.message == state.why_illegal(illegal)
    assert table.n == n and table.state is before
    table.move(seat, state.legal_moves()[0], n)
    assert table.n == n + 1


@pytest.mark.parametrize(("raw", "code", "request_id"), [
    ('{"type": "teleport", "id": 4}', "unknown", 4),
    ('{"type": "join", "id": 5}', "malformed", 5),
    ('{"type": "ping", "id": 6, "pad": "' + "x" * 5000 + '"}', "too_big", 6),
    ('{"type": "ping", "id": "7"}', "malformed", None),
    ('{"type": "ping", "id": 1e400}', "malformed", None),
    ("[1, 2]", "malformed", None),
])
def test_a_refused_request_names_its_id_read_with_its_bytes_once(raw: str, code: str, request_id: int | None,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The error about a bad request carries the request's good ``id``: ``decode_request`` reads the
    bytes once and hands the id on with the ProtocolError (nothing parses them a second time)."""
    parsed = []
    real_loads = json.loads
    monkeypatch.setattr(json, "loads", lambda text, **kw: parsed.append(text) or real_loads(text, **kw))
    with pytest.raises(ProtocolError) as refused:
        decode_request(raw)
    assert (refused.value.code, refused.value.request_id) == (code, request_id)
    assert parsed == [raw]


def test_the_teachers_requests_share_their_type_and_a_tables_request_names_its_table() -> None:
    from maumau.classroom.messages import Close, Restart, Start, TableRequest, TeacherRequest

    teachers = {kind for kind, cls in REQUESTS.items() if issubclass(cls, TeacherRequest)}
    assert teachers == {"create", "start", "restart", "close", "tables", "codes"}
    assert {cls for cls in REQUESTS.values() if issubclass(cls, TableRequest)} == {Start, Restart, Close}
    assert not issubclass(Restart, Start) and not issubclass(Close, Start)  # each is matched by its own class
