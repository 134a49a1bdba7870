"""The browser course's way to a learner's feedback (issue 38 item 2): ``GET /feedback.json`` of a real
class server, as a web worker's synchronous XMLHttpRequest sends it from another origin.  The same
identity and checks as the notebook's websocket: only the asker's own feedback, only after its
release; a wrong code, a made-up seat token, another learner's name, an unknown exercise refused
with a sentence in the learner's language (en, de, hu) and nothing of anyone's feedback in it; the
browser's CORS preflight answered, no cookie ever read."""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.request
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("websockets")

from maumau import classroom  # noqa: E402
from maumau.classroom import Course  # noqa: E402
from maumau.grading.feedback_release import FeedbackRelease  # noqa: E402
from maumau.grading.gradebook import Gradebook, Row  # noqa: E402
from maumau.grading.gradebook import TestResult as Result  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EX = "01_matching"
NOW = datetime(2026, 12, 10, 9, 0, tzinfo=timezone.utc)
SITE = "https://course.example"  # the browser course's origin: not the class server's


def _grade(db: Path, learner: str, why: str) -> None:
    row = Row(learner, EX, 4, 6, message="hidden test 'the hidden one'", tests=[
        Result("v", f"visible of {learner}", 4, 4, True, False),
        Result("h", "the hidden one", 0, 2, False, True, "", why)])
    Gradebook(db).record([(row, f"sha-{learner}", "src", False)], forced=False)


@pytest.fixture
def course(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy(REPO / "exercises" / f"{EX}.ipynb", source)
    (tmp_path / "roster.csv").write_text("learner,name,id\nanna,Anna A,11\nben,Ben B,12\n")
    db = tmp_path / "class.sqlite"
    server = classroom.Server(db=db, port=0, roster=tmp_path / "roster.csv",
                              course=Course(source, clock=lambda: NOW)).start()
    try:
        from maumau.classroom.identity import codes_answer

        codes = {line["learner"]: line["code"] for line in codes_answer(server.roster, None)["codes"]}
        _grade(db, "anna", "anna's secret explanation")
        _grade(db, "ben", "ben's own explanation")
        yield server, db, codes
    finally:
        server.stop()


def _ask(server, query: str, authorization: str | None, method: str = "GET",
         headers: dict[str, str] | None = None) -> tuple[int, dict, object]:
    sent = {"Origin": SITE, **({"Authorization": authorization} if authorization else {}), **(headers or {})}
    request = urllib.request.Request(f"{server.url}/feedback.json?{query}", headers=sent, method=method)
    try:
        with urllib.request.urlopen(request) as r:
            body = r.read().decode()
            return r.status, json.loads(body) if body else {}, r.headers
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read().decode()), err.headers


def test_the_learner_gets_their_own_feedback_only_after_its_release(course):
    server, db, codes = course
    status, before, headers = _ask(server, f"exercise={EX}&lang=de", f"Learner {codes['anna']}")
    assert status == 200 and before["type"] == "feedback" and not before["released"] and before["text"] == ""
    assert "liegt bei deiner Lehrkraft" in before["message"] and "secret" not in json.dumps(before)
    assert headers["Access-Control-Allow-Origin"] == "*" and headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in headers
    FeedbackRelease(db).release(EX, NOW)
    status, anna, _ = _ask(server, f"exercise={EX}", f"Learner {quote(codes['anna'])}")
    assert status == 200 and anna["released"] and "anna's secret explanation" in anna["text"]
    assert "ben" not in anna["text"] and anna == {"type": "feedback", **_websocket(server, codes["anna"])}
    status, ben, _ = _ask(server, f"exercise={EX}&lang=hu", f"Learner {codes['ben']}")
    assert "ben's own explanation" in ben["text"] and "anna" not in ben["text"] and "rejtett teszt" in ben["text"]


def _websocket(server, code: str) -> dict:
    """What JupyterLab's ``classroom.feedback`` gets for the same request."""
    got = classroom.feedback(server.url, code, EX)
    return {"exercise": got.exercise, "released": got.released, "at": got.at, "message": got.message,
            "text": got.text}


@pytest.mark.parametrize("lang, words", [("en", "No learner of this course has that personal code"),
                                         ("de", "Niemand in diesem Kurs hat diesen persönlichen Code"),
                                         ("hu", "senkinek sincs ilyen személyes kódja")])
def test_a_wrong_code_or_another_learners_name_is_refused_in_the_learners_language(course, lang, words):
    server, db, codes = course
    FeedbackRelease(db).release(EX, NOW)
    for authorization in ("Learner anna", "Learner AAAA-BBBB-CCCC-DDDD", "Learner", None, f"token {codes['anna']}"):
        status, answer, _ = _ask(server, f"exercise={EX}&lang={lang}", authorization)
        assert status == 403 and answer["type"] == "error" and words in answer["message"], (authorization, answer)
        assert "secret" not in json.dumps(answer) and answer["message"].count("\n") == 0
    status, forged, _ = _ask(server, f"exercise={EX}&lang={lang}&learner=anna", f"Learner {codes['ben']}")
    assert status == 403 and "anna" not in json.dumps(forged) and "explanation" not in json.dumps(forged)
    assert forged["message"].startswith(("You can read only your own", "Du kannst nur deine eigene",
                                         "Csak a saját"))
    status, own, _ = _ask(server, f"exercise={EX}&learner=ben", f"Learner {codes['ben']}")
    assert status == 200 and "ben's own explanation" in own["text"]  # naming oneself is no forgery
    status, seat, _ = _ask(server, f"exercise={EX}&lang={lang}", "Learner NOTABLE made-up-token")
    assert status == 403 and "secret" not in json.dumps(seat)
    for query in ("exercise=../../etc/passwd", "exercise=", "lang=de"):
        status, answer, _ = _ask(server, query, f"Learner {codes['anna']}")
        assert status == 403 and answer["code"] == "refused" and "secret" not in json.dumps(answer), answer


def test_the_browser_may_ask_from_another_origin_and_nothing_else_is_taken(course):
    server, db, codes = course
    status, _, headers = _ask(server, f"exercise={EX}", None, "OPTIONS", {
        "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization",
        "Access-Control-Request-Private-Network": "true"})
    assert status == 204 and headers["Access-Control-Allow-Origin"] == "*"
    assert headers["Access-Control-Allow-Headers"] == "Authorization"
    assert headers["Access-Control-Allow-Methods"] == "GET"
    assert headers["Access-Control-Allow-Private-Network"] == "true"  # Chromium: a public site asks a class's server
    status, answer, headers = _ask(server, f"exercise={EX}&lang=de", f"Learner {codes['anna']}", "POST",
                                   {"Content-Length": "0"})
    assert status == 405 and answer["code"] == "bad_request" and "GET" in headers["Allow"]
    assert "JSON" in answer["message"] and "Anfrage" in answer["message"]


def test_a_server_without_a_course_says_so_to_the_browser(tmp_path):
    with classroom.Server(db=tmp_path / "class.sqlite", port=0) as bare:
        status, answer, headers = _ask(bare, f"exercise={EX}&lang=de", "Learner ABCD-EFGH-JKLM-NPQR")
        assert status == 404 and "keinen Kurs" in answer["message"] and headers["Access-Control-Allow-Origin"] == "*"
