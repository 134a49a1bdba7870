"""One identity per learner, course-wide (issue 34): a roster and personal codes without a hub, names
that look alike are one name, and a hand-in is the learner's the server knows, never a typed name.
Raw websocket clients against a real server (real sockets, real SQLite)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("websockets")

from maumau import classroom  # noqa: E402
from maumau.classroom import Course, hand_in  # noqa: E402
from maumau.classroom.names import NameError_, check_name, looks_like_a_seat, same_name, skeleton  # noqa: E402
from maumau.classroom.roster import looks_like_a_personal_code, normal_code  # noqa: E402
from maumau.cli import main  # noqa: E402
from maumau.grading.submissions import HandIns  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EX = "01_matching"
ROSTER = ("learner,name,id\nanna,Anna Smith,11\nbob,Bob Builder,12\njose,José García,13\n")


def _server(tmp_path: Path, roster: bool = True) -> classroom.Server:
    source = tmp_path / "source"
    source.mkdir(exist_ok=True)
    shutil.copy(REPO / "exercises" / f"{EX}.ipynb", source)
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    return classroom.Server(db=tmp_path / "class.sqlite", port=0, teacher_token="t-secret", computer_delay=0,
                            pause=60, course=Course(source), roster=tmp_path / "roster.csv" if roster else None)


def _ask(server: classroom.Server, *requests: dict) -> list[dict]:
    """Each request's answer on one raw websocket (frames the server pushes in between are skipped)."""
    from websockets.sync.client import connect

    answers = []
    with connect(server.ws_url, open_timeout=10) as ws:
        for n, request in enumerate(requests, 1):
            ws.send(json.dumps({**request, "id": n}))
            while (answer := json.loads(ws.recv(10))).get("id") != n:
                pass
            answers.append(answer)
    return answers


def _hand_in_raw(server: classroom.Server, hello: dict, data: bytes) -> dict:
    from websockets.sync.client import connect

    with connect(server.url.replace("http", "ws") + "/handin", max_size=2**20) as ws:
        ws.send(json.dumps({"type": "hand_in", "exercise": EX, "size": len(data), **hello}))
        answer = json.loads(ws.recv(10))
        if answer.get("type") == "ready":
            ws.send(data)
            answer = json.loads(ws.recv(10))
    return answer


def _codes(server: classroom.Server) -> dict[str, str]:
    (answer,) = _ask(server, {"type": "codes", "teacher": "t-secret"})
    assert answer["type"] == "ok", answer
    return {line["learner"]: line["code"] for line in answer["codes"]}


def test_a_learner_sitting_as_anna_elsewhere_cannot_hand_in_as_anna(tmp_path):
    server = _server(tmp_path).start()
    try:
        first, second = server.create_table("makao", seats=3), server.create_table("makao", seats=3)
        codes = _codes(server)
        assert set(codes) == {"anna", "bob", "jose"} and all(looks_like_a_personal_code(c) for c in codes.values())
        data = (REPO / "exercises" / f"{EX}.ipynb").read_bytes()
        # anna sits down with her code; mallory (no code) cannot take her name at another table, in any script
        anna, = _ask(server, {"type": "join", "code": first, "personal": codes["anna"], "name": "Annie"})
        assert anna["type"] == "ok" and "token" in anna
        for name in ("anna", "ANNA", "Ａｎｎａ", "Аnnа", "A\u034fnna", "Anna Smith", "Bob Builder"):
            refused, = _ask(server, {"type": "join", "code": second, "name": name})
            assert refused["type"] == "error" and "another learner of this course" in refused["message"], name
        # bob with his own code may not take anna's name either
        refused, = _ask(server, {"type": "join", "code": second, "personal": codes["bob"], "name": "anna"})
        assert refused["type"] == "error" and "another learner" in refused["message"]
        # mallory plays under a name of her own, but her seat is nobody's: her hand-in is refused
        mallory, = _ask(server, {"type": "join", "code": second, "name": "mallory"})
        assert mallory["type"] == "ok"
        answer = _hand_in_raw(server, {"code": second, "token": mallory["token"]}, data)
        assert answer["type"] == "error" and "without your personal code" in answer["message"]
        # a made-up personal code is refused (and counted as a wrong guess)
        answer = _hand_in_raw(server, {"code": "ABCD-EFGH-JKLM-NPQR"}, data)
        assert answer["type"] == "error" and "no learner of this course has that personal code" in answer["message"]
        # anna hands in from her seat, and with her code itself (lower case, without dashes): both are anna's
        by_seat = _hand_in_raw(server, {"code": first, "token": anna["token"]}, data)
        by_code = hand_in(server.url, normal_code(codes["anna"]).replace("-", "").lower(), _copy(tmp_path, data))
        assert (by_seat["type"], by_seat["learner"], by_code["learner"]) == ("receipt", "anna", "anna")
        # bob's code names bob, whatever name he shows
        bob, = _ask(server, {"type": "join", "code": second, "personal": codes["bob"], "name": "The Builder"})
        receipt = hand_in(server.url, second, _copy(tmp_path, data), token=bob["token"])
        assert receipt["learner"] == "bob"
        # bob joins again with his code: his own seat, no second one
        again, = _ask(server, {"type": "join", "code": second, "personal": codes["bob"]})
        assert again["seat"] == bob["seat"] and "token" not in again
    finally:
        server.stop()
    assert [r.learner for r in HandIns(tmp_path / "class.sqlite").receipts()] == ["anna", "anna", "bob"]


def _copy(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / f"{EX}.ipynb"
    path.write_bytes(data)
    return path


def test_without_a_roster_tables_play_by_name_and_a_hand_in_says_what_the_teacher_must_do(tmp_path):
    server = _server(tmp_path, roster=False).start()
    try:
        code = server.create_table("makao", seats=3)
        anna, = _ask(server, {"type": "join", "code": code, "name": "anna"})
        assert anna["type"] == "ok"
        data = (REPO / "exercises" / f"{EX}.ipynb").read_bytes()
        answer = _hand_in_raw(server, {"code": code, "token": anna["token"]}, data)
        assert answer["type"] == "error" and "--roster roster.csv" in answer["message"] and "--hub" in answer["message"]
        refused, = _ask(server, {"type": "codes", "teacher": "t-secret"})
        assert refused["type"] == "error" and "no roster" in refused["message"]
    finally:
        server.stop()
    assert HandIns(tmp_path / "class.sqlite").receipts() == []


def test_look_alike_names_at_one_table_are_one_name(tmp_path):
    server = _server(tmp_path, roster=False).start()
    try:
        code = server.create_table("makao", seats=5)
        assert _ask(server, {"type": "join", "code": code, "name": "Cleo"})[0]["type"] == "ok"
        for name in ("CLEO", "Ｃｌｅｏ", "Сlео", "C\ufe00leo", "Cl\u3164eo", "Cléo"):
            refused, = _ask(server, {"type": "join", "code": code, "name": name})
            assert refused["type"] == "error" and "sits at this table already" in refused["message"], name
        for name in ("Sеat 1", "Cоmputer", "Ｓｅａｔ　２", "Platz 3", "Teacher", "Tеacher", "\u2800", "\u3164\u3164",
                     "\u0301"):
            refused, = _ask(server, {"type": "join", "code": code, "name": name})
            assert refused["type"] == "error" and refused["code"] == "bad_name", name
    finally:
        server.stop()


def test_personal_codes_are_stored_only_hashed_and_kept_across_a_restart(tmp_path):
    server = _server(tmp_path).start()
    try:
        codes = _codes(server)
    finally:
        server.stop()
    raw = (tmp_path / "class.sqlite").read_bytes() + b"".join(
        p.read_bytes() for p in tmp_path.glob("class.sqlite-*") if p.is_file())
    assert not any(code.encode() in raw for code in codes.values())
    server = _server(tmp_path).start()
    try:
        again = _codes(server)
        assert set(again.values()) == {None}  # not kept in plain: only the issuing process knew them
        table = server.create_table("makao", seats=3)
        anna, = _ask(server, {"type": "join", "code": table, "personal": codes["anna"]})
        assert anna["type"] == "ok"
        assert server.table(table).seats[anna["seat"]].name == "Anna Smith"
        (renewed,) = _ask(server, {"type": "codes", "teacher": "t-secret", "renew": "anna"})
        new = {line["learner"]: line["code"] for line in renewed["codes"]}["anna"]
        assert new and new != codes["anna"]
        old, = _ask(server, {"type": "join", "code": server.create_table("makao", seats=3), "personal": codes["anna"]})
        assert old["type"] == "error" and old["code"] == "bad_code"
        forbidden, = _ask(server, {"type": "codes"})
        assert forbidden["type"] == "error"
    finally:
        server.stop()


def test_guessing_personal_codes_is_slow(tmp_path):
    server = _server(tmp_path).start()
    try:
        table = server.create_table("makao", seats=3)
        codes = _codes(server)
        guesses = _ask(server, *({"type": "join", "code": table, "personal": f"AAAA-BBBB-CCCC-{n:04d}"}
                                 for n in range(10)))
        assert all(g["type"] == "error" and g["code"] == "bad_code" for g in guesses)
        right, = _ask(server, {"type": "join", "code": table, "personal": codes["anna"]})
        assert right["type"] == "error" and right["code"] == "rate_limited"  # while guessing is barred, every try is
        data = (REPO / "exercises" / f"{EX}.ipynb").read_bytes()
        answer = _hand_in_raw(server, {"code": codes["anna"]}, data)  # the hand-in counts the same address
        assert answer["type"] == "error" and "too many wrong codes" in answer["message"]
    finally:
        server.stop()
    assert HandIns(tmp_path / "class.sqlite").receipts() == []


def test_the_teacher_prints_the_codes_with_maumau_table_codes(tmp_path, monkeypatch):
    server = _server(tmp_path).start()
    try:
        monkeypatch.setenv("MAUMAU_TEACHER_TOKEN", "t-secret")
        out = io.StringIO()
        assert main(["table", "codes", "--url", server.url], out=out, err=out) == 0, out.getvalue()
        lines = {line.split()[0]: line.split()[1] for line in out.getvalue().splitlines()}
        assert set(lines) == {"anna", "bob", "jose"}
        seat = classroom.join(server.url, server.create_table("makao", seats=3), personal=lines["jose"])
        try:
            assert seat.table["seats"][seat.number]["name"] == "José García"
        finally:
            seat.leave()
        out = io.StringIO()
        assert main(["table", "codes", "--url", server.url, "--renew", "nobody"], out=out, err=out) == 1
        assert "not on the roster" in out.getvalue()
    finally:
        server.stop()


def test_a_roster_the_server_cannot_use_is_refused_with_what_is_wrong(tmp_path):
    from maumau.classroom.roster import RosterError

    for text, says in (("name,id\nAnna,1\n", "no learner column"), ("learner,id\nanna,1\nanna,2\n", "twice"),
                       ("learner,id\n", "names no learner")):
        (tmp_path / "bad.csv").write_text(text, encoding="utf-8")
        with pytest.raises(RosterError, match=says):
            classroom.Server(db=tmp_path / "c.sqlite", port=0, roster=tmp_path / "bad.csv")


def test_a_roster_and_a_hub_together_are_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_API_URL", "http://127.0.0.1:9/hub/api")
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    with pytest.raises(ValueError, match="hub user"):
        classroom.Server(db=tmp_path / "c.sqlite", port=0, hub=True, roster=tmp_path / "roster.csv")


# --- names, without a server ---------------------------------------------------------------------------

_LETTERS = st.text(alphabet=st.characters(whitelist_categories=("Ll", "Lu")), min_size=1, max_size=12)
_LOOK_ALIKE = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "A": "Α", "B": "Β", "O": "Ο"}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ", min_size=1,
               max_size=20))
def test_a_name_and_its_full_width_confusable_and_invisible_variants_are_one_name(name):
    full_width = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)
    look_alike = "".join(_LOOK_ALIKE.get(c, c) for c in name)
    hidden = "\u034f".join(name) + "\ufe0f\u3164"
    assert skeleton(name) == skeleton(full_width) == skeleton(look_alike) == skeleton(hidden)
    assert same_name(name, name.upper()) and same_name(look_alike, name)


@settings(max_examples=200, deadline=None)
@given(_LETTERS)
def test_a_taken_name_is_refused_in_every_variant_and_a_fresh_one_is_kept(name):
    try:
        kept = check_name(name, [])
    except NameError_:
        return  # a seat's or a reserved name, or one that shows nothing
    with pytest.raises(NameError_):
        check_name("\u200b" + name.upper() + "\u034f", [kept])
    assert same_name(kept, name)


def test_reserved_and_seat_names_in_every_script():
    for name in ("Seat 1", "Sеat 1", "ＳＥＡＴ　１", "Cоmputer", "Computer 7", "2. játékos", "Platz 4", "TEACHER",
                 "Tеаcher", "Lehrerin", "Tanár"):
        assert looks_like_a_seat(name), name
    for name in ("Anna", "Seatbelt", "Computers are fun", "Tea"):
        assert not looks_like_a_seat(name), name
