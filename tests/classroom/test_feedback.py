"""Feedback release through a real class server (issue 38 item 2): a learner's feedback is invisible
before its release, visible after the teacher releases it (the course page's button, the command
line) or after the close time plus the delay (a clock the test sets), follows a regrade, and is only
ever the asking learner's own: another learner's name in the request, a path for an exercise, the
teacher's pages without a login, a forged release button all change or show nothing."""

from __future__ import annotations

import html
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
from maumau.classroom import ClassroomError, Course  # noqa: E402
from maumau.cli import main  # noqa: E402
from maumau.grading.feedback_release import FeedbackRelease  # noqa: E402
from maumau.grading.gradebook import Gradebook, Row  # noqa: E402
from maumau.grading.gradebook import TestResult as Result  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EX, OTHER = "01_matching", "02_skip_on_eight"
TITLE, OTHER_DE = "01 Matching (C-3)", "02 Aussetzen bei der 8 (MK-5)"  # what learners and teachers read
CLOSE = datetime(2026, 12, 10, 22, 59, tzinfo=timezone.utc)
SECRET = "3 players: who moves next: expected 2"


class Clock:
    """The server's clock, set by the test."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def _grade(db: Path, learner: str, exercise: str, score: float, why: str = SECRET) -> None:
    """A grading run's row for ``learner`` (what ``maumau grade --gradebook`` records)."""
    row = Row(learner, exercise, score, 6, message="hidden test 'the hidden one'", tests=[
        Result("v", f"visible of {learner}", score, 4, score > 0, False),
        Result("h", "the hidden one", 0, 2, False, True, "", why)])
    Gradebook(db).record([(row, f"sha-{learner}-{score}", "src", False)], forced=False)


@pytest.fixture
def course(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in (EX, OTHER):
        shutil.copy(REPO / "exercises" / f"{name}.ipynb", source)
        for lang in ("de", "hu"):  # the translations: the pages call the exercises by their titles
            (source / lang).mkdir(exist_ok=True)
            shutil.copy(REPO / "exercises" / lang / f"{name}.ipynb", source / lang)
    (tmp_path / "roster.csv").write_text("learner,name,id\nanna,Anna A,11\nben,Ben B,12\n")
    db = tmp_path / "class.sqlite"
    clock = Clock(CLOSE - timedelta(hours=1))
    server = classroom.Server(db=db, port=0, teacher_token="t-secret", computer_delay=0, pause=60,
                              roster=tmp_path / "roster.csv",
                              course=Course(source, closes={EX: CLOSE}, feedback_delay=timedelta(hours=2),
                                            clock=clock))
    server.start()
    try:
        from maumau.classroom.identity import codes_answer

        codes = {line["learner"]: line["code"] for line in codes_answer(server.roster, None)["codes"]}
        yield server, db, clock, codes
    finally:
        server.stop()


def _ask(server, hello: dict) -> dict:
    from websockets.sync.client import connect

    with connect(server.url.replace("http", "ws") + "/feedback") as ws:
        ws.send(json.dumps({"type": "feedback", **hello}))
        return dict(json.loads(ws.recv(10)))


def _login(server) -> str:
    request = urllib.request.Request(server.url + "/login", headers={"Authorization": "Teacher t-secret"},
                                     method="POST")
    return urllib.request.urlopen(request).headers["Set-Cookie"].split(";")[0]


def _get(url: str, cookie: str = "") -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # the answer itself, not the page it points to
        return None


def _post(url: str, cookie: str, origin: str | None = None) -> tuple[int, str, str]:
    headers = {"Cookie": cookie, "Content-Length": "0", **({"Origin": origin} if origin else {})}
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, data=b"", headers=headers, method="POST")) as r:
            return r.status, r.read().decode(), r.headers.get("Location", "")
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode(), err.headers.get("Location", "")


def test_invisible_before_the_close_time_and_its_delay_visible_after_and_each_learner_sees_their_own(course):
    server, db, clock, codes = course
    _grade(db, "anna", EX, 4)
    _grade(db, "ben", EX, 0, "ben's own explanation")
    before = classroom.feedback(server.url, codes["anna"], EX)
    assert not before.released and before.text == "" and SECRET not in str(before)
    assert before.message == f"Your feedback on {TITLE} is released on 2026-12-11 00:59 UTC; until then it is " \
                             f"with your teacher."
    clock.now = CLOSE + timedelta(hours=1, minutes=59)  # the close time has passed, its delay not yet
    assert not classroom.feedback(server.url, codes["anna"], EX, lang="de").released
    clock.now = CLOSE + timedelta(hours=2)
    anna = classroom.feedback(server.url, codes["anna"], EX)
    assert anna.released and "4 of 6 points" in anna.text and SECRET in anna.text and "visible of anna" in anna.text
    assert "ben" not in anna.text and anna.at == "2026-12-11T00:59:00+00:00"
    assert "released on 2026-12-11 00:59 UTC" in anna._repr_markdown_()
    ben = classroom.feedback(server.url, codes["ben"], EX, lang="hu")
    assert ben.released and "ben's own explanation" in ben.text and "anna" not in ben.text
    assert "rejtett teszt" in ben.text
    # the other exercise has no close time: it waits for the teacher, whatever the clock says
    other = classroom.feedback(server.url, codes["anna"], OTHER, lang="de")
    assert not other.released and other.message == f"Deine Rückmeldung zu {OTHER_DE} liegt bei deiner Lehrkraft: " \
                                                    f"du siehst sie, sobald sie sie freigibt."


def test_the_teacher_releases_by_hand_a_regrade_shows_and_a_hold_takes_it_back(course):
    server, db, clock, codes = course
    _grade(db, "anna", OTHER, 0)
    assert not classroom.feedback(server.url, codes["anna"], OTHER).released
    cookie = _login(server)
    status, page = _get(server.url + "/course?lang=de", cookie)
    assert status == 200 and "Rückmeldungen an die Lernenden" in page and "Jetzt freigeben" in page
    assert "ab 2026-12-11 00:59 UTC (Abgabeschluss und Wartezeit)" in page  # EX: scheduled
    action = next(line for line in page.split("<tr>") if f">{OTHER_DE}<" in line and "do=release" in line)
    assert f"exercise={OTHER}&amp;" in action  # the title is read, the name is posted
    form = action.split('action="')[1].split('"')[0].replace("&amp;", "&")
    status, _, where = _post(server.url + "/" + form, cookie, origin=server.url)
    assert status == 303 and where.endswith("/course?lang=de")
    released = classroom.feedback(server.url, codes["anna"], OTHER)
    assert released.released and "0 of 6 points" in released.text and SECRET in released.text
    assert "since" in _get(server.url + "/course", cookie)[1]  # the page says so, with a hold button
    # a regrade after the release: the learner sees the new feedback at once
    _grade(db, "anna", OTHER, 4, "the fixed hidden test's words")
    again = classroom.feedback(server.url, codes["anna"], OTHER)
    assert "4 of 6 points" in again.text and "the fixed hidden test's words" in again.text and SECRET not in again.text
    # the command line on the same database, while the server runs: held back, then released again
    out = io.StringIO()
    assert main(["feedback", "hold", OTHER, "--db", str(db)], out=out, err=out) == 0, out.getvalue()
    assert not classroom.feedback(server.url, codes["anna"], OTHER).released
    assert main(["feedback", "release", OTHER, "--db", str(db)], out=out, err=out) == 0, out.getvalue()
    assert classroom.feedback(server.url, codes["anna"], OTHER).released
    # a learner who was never graded: released, and said so
    ben = classroom.feedback(server.url, codes["ben"], OTHER)
    assert ben.released and ben.text == "" and "not graded yet" in ben.message


def test_a_learner_never_sees_another_learners_feedback(course):
    server, db, clock, codes = course
    _grade(db, "anna", EX, 4, "anna's secret explanation")
    clock.now = CLOSE + timedelta(days=1)
    # another learner's name in the request: refused, in the learner's language; any other field is no one's name
    forged = _ask(server, {"code": codes["ben"], "exercise": EX, "learner": "anna", "lang": "de"})
    assert forged["type"] == "error" and "anna" not in json.dumps(forged)
    assert forged["message"].startswith("Du kannst nur deine eigene Rückmeldung lesen")
    other = _ask(server, {"code": codes["ben"], "exercise": EX, "student": "anna"})
    assert other["type"] == "feedback" and "anna" not in json.dumps(other)
    # a wrong or missing code, a seat token of nobody's, a path for an exercise, no request at all
    for hello, words in (({"code": "AAAA-BBBB-CCCC-DDDD", "exercise": EX}, "No learner of this course"),
                         ({"code": "anna", "exercise": EX}, "No learner of this course"),
                         ({"code": "anna", "exercise": EX, "lang": "hu"}, "senkinek sincs ilyen személyes kódja"),
                         ({"code": "NOCODE", "token": "made-up", "exercise": EX}, "No seat at that table"),
                         ({"code": codes["anna"], "exercise": "../../etc/passwd"}, "no exercise"),
                         ({"code": codes["anna"], "exercise": ["x"]}, "no exercise")):
        answer = _ask(server, hello)
        assert answer["type"] == "error" and words in answer["message"], answer
        assert "anna's secret" not in json.dumps(answer)
    with pytest.raises(ClassroomError, match="No learner of this course has that personal code") as refused:
        classroom.feedback(server.url, "anna", EX)
    assert refused.value._render_traceback_()[0].endswith(str(refused.value))  # a notebook shows the sentence alone
    from websockets.sync.client import connect

    with connect(server.url.replace("http", "ws") + "/feedback") as ws:
        ws.send("not json")
        assert json.loads(ws.recv(10))["code"] == "bad_request"
    # the teacher's pages and the learner's page without a login
    for path in ("/course/feedback?learner=anna&lang=en", "/course/feedback?learner=../anna", "/course",
                 "/my-feedback", "/my-feedback?learner=anna"):
        status, body = _get(server.url + path)
        assert status == 403 and "anna's secret" not in body and body.count("\n") == 1, (path, body)
    assert "open it from your course in the LMS" in _get(server.url + "/my-feedback")[1]


def test_a_release_button_works_only_from_the_teachers_own_page(course):
    server, db, clock, codes = course
    cookie = _login(server)
    page = _get(server.url + "/course", cookie)[1]
    form = page.split(f'action="course/release?exercise={OTHER}')[1].split('"')[0].replace("&amp;", "&")
    good = f"{server.url}/course/release?exercise={OTHER}{form}"
    assert "form=" in good and "do=release" in good
    bare = good.split("&form=")[0]
    for url, who, origin, status, words in (
            (bare, cookie, server.url, 403, "form token is missing or wrong"),
            (bare + "&form=" + "0" * 64, cookie, server.url, 403, "form token"),
            (good, "", server.url, 403, "Only the logged-in teacher"),
            (good, cookie, "https://evil.example", 403, "Only the logged-in teacher"),
            (good.replace(OTHER, "..%2F..%2Fetc"), cookie, server.url, 400, "no exercise")):
        answer = _post(url, who, origin)
        assert answer[0] == status and words in answer[1] and answer[1].count("\n") == 1, answer
    assert FeedbackRelease(db).all().get(OTHER) is None  # nothing changed
    assert _get(good)[0] in (403, 405)  # a GET (a link, an image) changes nothing either
    assert _get(good, cookie)[0] == 405
    assert FeedbackRelease(db).all().get(OTHER) is None
    other_session = _login(server)  # another session's token is not this one's
    assert _post(good, other_session, server.url)[0] == 403
    assert _post(good, cookie, server.url)[0] == 303 and FeedbackRelease(db).of(OTHER).how == "hand"


def test_a_restarted_server_keeps_what_was_released(course, tmp_path):
    server, db, clock, codes = course
    _grade(db, "anna", OTHER, 4)
    FeedbackRelease(db).release(OTHER, clock.now)
    FeedbackRelease(db).hold(EX, clock.now)
    server.stop()
    again = classroom.Server(db=db, port=0, teacher_token="t-secret", roster=tmp_path / "roster.csv",
                             course=Course(tmp_path / "source", closes={EX: CLOSE}, feedback_delay=timedelta(0),
                                           clock=Clock(CLOSE + timedelta(days=9))))
    again.start()
    try:
        assert classroom.feedback(again.url, codes["anna"], OTHER).released
        assert not classroom.feedback(again.url, codes["anna"], EX).released  # held by hand: the schedule waits
    finally:
        again.stop()


def test_a_real_grading_run_gives_the_hidden_tests_explanation_and_only_the_release_shows_it(course, tmp_path):
    server, db, clock, codes = course
    folder = tmp_path / "subs" / "anna"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "tests" / "submissions" / "buggy_matching" / f"{EX}.ipynb", folder)
    out = io.StringIO()
    argv = ["grade", "--source", str(tmp_path / "source"), str(tmp_path / "subs"), "--exercise", EX,
            "--out", str(tmp_path / "grades"), "--gradebook", str(db), "-j", "1", "--cell-timeout", "20"]
    assert main(argv, out=out, err=out) == 0, out.getvalue()
    explained = "hidden: a wish lasts through a draw: legal moves of seat 1: the legal moves are ['draw', 'play 3H']"
    assert explained not in (tmp_path / "grades" / "feedback" / "anna.md").read_text()  # grade's own files: no
    before = classroom.feedback(server.url, codes["anna"], EX)
    assert not before.released and explained not in str(before)
    cookie = _login(server)
    teacher = _get(server.url + "/course/feedback?learner=anna", cookie)[1]
    assert html.escape(explained) in teacher  # the teacher: always
    FeedbackRelease(db).release(EX, clock.now)
    after = classroom.feedback(server.url, codes["anna"], EX)
    assert after.released and explained in after.text and "2 of 6 points" in after.text


def test_a_server_without_a_course_says_so(tmp_path):
    with classroom.Server(db=tmp_path / "class.sqlite", port=0) as bare:
        with pytest.raises(ClassroomError, match="has no course, so no feedback"):
            classroom.feedback(bare.url, "ABCD-EFGH-JKLM-NPQR", EX)
        status, body = _get(bare.url + "/my-feedback?lang=de")
        assert status == 404 and "keinen Kurs" in body and body.count("\n") == 1
