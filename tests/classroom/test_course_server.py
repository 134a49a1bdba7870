"""A course run end to end through a real class server (issue 26): three learners hand in (one late,
one with an extension, one twice), the teacher grades the hand-ins, exports Canvas and Moodle files
and reads the course page; and the hostile hand-ins: another seat's token, a time chosen by the
client, a notebook of 50 MB, a compressed bomb, a name with a path in it."""

from __future__ import annotations

import csv
import gzip
import io
import json
import shutil
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from maumau import classroom  # noqa: E402
from maumau.classroom import ClassroomError, Course, hand_in  # noqa: E402
from maumau.cli import main  # noqa: E402
from maumau.grading.submissions import HandIns, safe_folder_name  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
EX = "01_matching"


@pytest.fixture
def course_server(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy(EXERCISES / f"{EX}.ipynb", source)
    db = tmp_path / "class.sqlite"
    (tmp_path / "roster.csv").write_text("learner,name,id,sis_user_id,email\nanna,Anna A,11,A-1,anna@s.example\n"
                                         "ben,Ben B,12,B-1,ben@s.example\ncleo,Cleo C,13,C-1,cleo@s.example\n"
                                         "../../mallory,Mallory,14,M-1,m@s.example\n")
    server = classroom.Server(db=db, port=0, teacher_token="t-secret", computer_delay=0, pause=60,
                              course=Course(source), roster=tmp_path / "roster.csv")
    server.start()
    try:
        code = server.create_table("mau_mau_runde", seats=4, computers=0)
        yield server, code, source, db, tmp_path
    finally:
        server.stop()


def _notebook(tmp_path: Path, text: str = "") -> Path:
    path = tmp_path / f"{EX}.ipynb"
    nb = json.loads((EXERCISES / f"{EX}.ipynb").read_text(encoding="utf-8"))
    nb["metadata"]["note"] = text  # a second version differs from the first
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def _codes(server) -> dict[str, str]:
    """The roster's personal codes, as the teacher reads them (``maumau table codes``)."""
    from maumau.classroom.identity import codes_answer

    return {line["learner"]: line["code"] for line in codes_answer(server.roster, None)["codes"]}


def _raw_hand_in(server, hello: dict, payload: bytes | None) -> dict:
    from websockets.sync.client import connect

    with connect(server.url.replace("http", "ws") + "/handin", max_size=2**20) as ws:
        ws.send(json.dumps(hello))
        answer = json.loads(ws.recv(10))
        if answer.get("type") == "ready" and payload is not None:
            try:
                ws.send(payload)
                answer = json.loads(ws.recv(10))
            except Exception as err:  # the server closed the connection (message too big)
                return {"type": "closed", "message": str(err)}
        return answer


def test_a_course_through_the_server_hand_in_grade_export_and_the_course_page(course_server):
    server, code, source, db, tmp = course_server
    codes = _codes(server)
    seats = {name: classroom.join(server.url, code, name=name, personal=codes[name])
             for name in ("anna", "ben", "cleo")}
    try:
        first = hand_in(server.url, code, _notebook(tmp, "v1"), token=seats["anna"].token)
        again = hand_in(server.url, code, _notebook(tmp, "v2"), token=seats["anna"].token)
        assert (first["version"], again["version"]) == (1, 2) and first["learner"] == "anna"
        for name in ("ben", "cleo"):
            hand_in(server.url, code, _notebook(tmp, name), token=seats[name].token)
    finally:
        for seat in seats.values():
            seat.leave()
    assert len(HandIns(db).receipts()) == 4

    # every hand-in was received just now: a due time before now makes ben late, cleo has an extension
    received = HandIns(db).receipts()[-1].received
    due = (datetime.now(timezone.utc) - timedelta(hours=36)).isoformat(timespec="seconds")  # 2 started days ago
    (tmp / "ext.csv").write_text("student,exercise,days\ncleo,*,3\n")
    (tmp / "roster.csv").write_text("learner,name,id,sis_user_id,email\nanna,Anna A,11,A-1,anna@s.example\n"
                                    "ben,Ben B,12,B-1,ben@s.example\ncleo,Cleo C,13,C-1,cleo@s.example\n")
    out = io.StringIO()
    argv = ["grade", "--source", str(source), "--handins", str(db), "--out", str(tmp / "grades"), "-j", "2",
            "--due", f"{EX}={due}",
            "--late", "10%/day, 0 after 7 days", "--extensions", str(tmp / "ext.csv"), "--gradebook", str(db),
            "--cell-timeout", "20"]
    assert main(argv, out=out, err=out) == 0, out.getvalue()
    rows = {r["student"]: r for r in csv.DictReader((tmp / "grades" / "grades.csv").open(encoding="utf-8"))}
    assert set(rows) == {"anna", "ben", "cleo"} and all(r["score"] == "6" for r in rows.values())
    assert rows["ben"]["submitted"] == received and (rows["ben"]["late_days"], rows["ben"]["final"]) == ("2", "4.8")
    assert (rows["cleo"]["late_days"], rows["cleo"]["final"]) == ("0", "6")

    for fmt in ("canvas", "moodle"):
        argv = ["export", fmt, "--gradebook", str(db), "--roster", str(tmp / "roster.csv"), "--out",
                str(tmp / f"{fmt}.csv")]
        assert main(argv, out=out, err=out) == 0, out.getvalue()
    canvas = list(csv.reader((tmp / "canvas.csv").open()))
    assert canvas[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert ["Anna A", "11", "A-1", "", "", "4.8"] in canvas and ["Cleo C", "13", "C-1", "", "", "6"] in canvas
    moodle = list(csv.reader((tmp / "moodle.csv").open()))
    assert moodle[0][:4] == ["First name", "Last name", "ID number", "Email address"]

    # the course page: the teacher's only
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(server.url + "/course?lang=hu")
    assert refused.value.code == 403
    login = urllib.request.Request(server.url + "/login", headers={"Authorization": "Teacher t-secret"},
                                   method="POST")
    cookie = urllib.request.urlopen(login).headers["Set-Cookie"].split(";")[0]
    page = urllib.request.urlopen(urllib.request.Request(server.url + "/course?lang=hu",
                                                         headers={"Cookie": cookie})).read().decode()
    assert '<html lang="hu">' in page and "A kurzus jegyei" in page and "Beadások" in page
    assert page.count('<th scope="row">anna') == 3  # the class table and anna's two versions
    assert 'href="course/feedback?learner=ben&amp;lang=hu"' in page
    link = server.url + "/course/feedback?learner=ben&lang=de"
    feedback = urllib.request.urlopen(urllib.request.Request(link, headers={"Cookie": cookie})).read().decode()
    assert "<h1>Rückmeldung für ben</h1>" in feedback and "2 Tage zu spät" in feedback  # a page, not Markdown
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(link)


def test_hostile_hand_ins_are_refused_and_nothing_is_stored(course_server):
    server, code, source, db, tmp = course_server
    codes = _codes(server)
    anna = classroom.join(server.url, code, personal=codes["anna"])
    mallory = classroom.join(server.url, code, name="Mal", personal=codes["../../mallory"])
    try:
        data = _notebook(tmp).read_bytes()
        # another seat's token is not anna's: a made-up one is refused, and costs a try
        answer = _raw_hand_in(server, {"type": "hand_in", "code": code, "token": "not-a-token", "exercise": EX,
                                       "size": len(data)}, data)
        assert answer["type"] == "error" and "no seat at that table has this token" in answer["message"]
        # a time the client sends is not the receipt time
        hello = {"type": "hand_in", "code": code, "token": anna.token, "exercise": EX, "size": len(data),
                 "received": "2000-01-01T00:00:00+00:00", "learner": "ben"}
        receipt = _raw_hand_in(server, hello, data)
        assert receipt["type"] == "receipt" and receipt["received"] > "2026" and receipt["learner"] == "anna"
        # 50 MB: refused on the size it says, and a notebook larger than it said closes the connection
        answer = _raw_hand_in(server, {**hello, "size": 50 * 2**20}, None)
        assert answer["type"] == "error" and "up to" in answer["message"]
        answer = _raw_hand_in(server, {**hello, "size": 1000}, b" " * 200_000)
        assert answer["type"] in ("closed", "error")
        # a compressed bomb is no notebook (the server never inflates what it is sent)
        bomb = gzip.compress(b"0" * 20_000_000)
        answer = _raw_hand_in(server, {**hello, "size": len(bomb)}, bomb)
        assert answer["type"] == "error" and "not a notebook" in answer["message"]
        # another exercise's notebook, an unknown exercise
        other = (EXERCISES / "04_seven_chain.ipynb").read_bytes()
        answer = _raw_hand_in(server, {**hello, "size": len(other)}, other)
        assert answer["type"] == "error" and "is not the exercise 01_matching" in answer["message"]
        answer = _raw_hand_in(server, {**hello, "exercise": "../../etc/passwd"}, data)
        assert answer["type"] == "error" and "no exercise" in answer["message"]
        # a learner named like a path hands in; grading writes a folder that is only a name
        named = hand_in(server.url, code, _notebook(tmp), token=mallory.token)
    finally:
        anna.leave()
        mallory.leave()
    assert [r.learner for r in HandIns(db).receipts()] == ["anna", named["learner"]]
    folders = HandIns(db).write_folders(tmp / "in")
    assert all("/" not in name and name not in (".", "..") for name, _ in folders)
    assert (tmp / "in" / safe_folder_name(named["learner"]) / f"{EX}.ipynb").is_file()
    with pytest.raises(ClassroomError, match="no seat at that table"):
        hand_in(server.url, "NOCODE", _notebook(tmp), token=anna.token)
    with pytest.raises(ClassroomError, match="no learner of this course has that personal code"):
        hand_in(server.url, "AAAA-BBBB-CCCC-DDDD", _notebook(tmp))
