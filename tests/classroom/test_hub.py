"""The class table on a real JupyterHub (issue 14): the hub starts ``maumau serve --hub`` as a
managed service behind configurable-http-proxy; learners are the hub's users, known by their
hub tokens alone.  Two users sit at one table and play; requests without a valid token, with a
service's token, with a token that may not use the service, or with another seat's secret do not
act for anyone.  Needs jupyterhub (pip) and configurable-http-proxy (npm, `make test` installs it
into .venv/chp)."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jupyterhub")
pytest.importorskip("websockets")

import processes  # noqa: E402  (tests/processes.py)

from maumau import classroom  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CHP = Path(os.environ.get("MAUMAU_CHP", ROOT / ".venv" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"))
pytestmark = pytest.mark.skipif(not CHP.exists(), reason=f"configurable-http-proxy is not installed at {CHP}")
TEACHER = "hub-test-teacher-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Hub:
    def __init__(self, run: Path) -> None:
        self.run = run
        self.port = free_port()
        self.admin = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.service = f"{self.url}/services/maumau-classroom"
        service = [sys.executable, "-m", "maumau", "serve", "--hub", "--db", str(run / "class.sqlite"),
                   "--computer-delay", "0", "--pause", "0", "--exercises", str(ROOT / "exercises")]
        env = dict(os.environ, MAUMAU_HUB_RUN=str(run), MAUMAU_HUB_PORT=str(self.port),
                   MAUMAU_HUB_API_PORT=str(free_port()), MAUMAU_PROXY_API_PORT=str(free_port()),
                   MAUMAU_SERVICE_PORT=str(free_port()), MAUMAU_CHP=str(CHP),
                   MAUMAU_SERVICE_COMMAND=json.dumps(service), MAUMAU_TEST_ADMIN_TOKEN=self.admin,
                   MAUMAU_TEACHER_TOKEN=TEACHER,
                   # maumau and jupyterhub-singleuser of this environment start a user's server
                   PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
        self.log = open(run / "hub.log", "w")  # noqa: SIM115  closed in stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(ROOT / "tests" / "hub" /
                                      "jupyterhub_config.py")], cwd=run, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def wait(self, limit: float = 60) -> None:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            assert self.proc.poll() is None, (self.run / "hub.log").read_text()[-3000:]
            try:
                with urllib.request.urlopen(self.service + "/", timeout=2) as page:
                    if page.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise AssertionError("the hub did not start:\n" + (self.run / "hub.log").read_text()[-3000:])

    def token(self, user: str, scopes: list[str] | None = None) -> str:
        body = json.dumps({} if scopes is None else {"scopes": scopes}).encode()
        request = urllib.request.Request(f"{self.url}/hub/api/users/{user}/tokens", data=body, method="POST",
                                         headers={"Authorization": f"token {self.admin}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return str(json.load(answer)["token"])

    def stop(self) -> None:
        """Stop the hub and all it started: its proxy and its service run in sessions of their own, which
        a signal to the hub's process group does not reach (they kept listening after the tests)."""
        processes.stop_tree(self.proc.pid)
        self.proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    running = Hub(tmp_path_factory.mktemp("hub"))
    try:
        running.wait()
        yield running
    finally:
        running.stop()


def teacher_creates_a_table(hub: Hub) -> str:
    from websockets.sync.client import connect

    with connect(hub.service.replace("http", "ws") + "/ws",
                 additional_headers={"Authorization": f"token {hub.token('teacher')}"}) as ws:
        ws.send(json.dumps({"type": "create", "teacher": TEACHER, "id": 1,
                            "table": {"variant": "mau_mau_runde", "seats": 3, "computers": 1, "seed": 2}}))
        while (answer := json.loads(ws.recv(timeout=10))).get("id") != 1:
            pass
    assert answer["type"] == "ok", answer
    return str(answer["code"])


def test_two_hub_users_sit_at_one_table_under_their_hub_names(hub):
    code = teacher_creates_a_table(hub)
    alice = classroom.join(hub.service, code, name="Mallory", hub_token=hub.token("alice"))
    bob = classroom.join(hub.service, code, name="alice", hub_token=hub.token("bob"))
    names = [s["name"] for s in bob.table["seats"]]  # Bob's first table already has him in it
    assert names[:2] == ["alice", "bob"]  # the hub's names, whatever a learner calls themselves
    end = time.monotonic() + 30
    moves = 0
    while moves < 6 and not alice.hand_over:
        assert time.monotonic() < end
        for seat in (alice, bob):
            if seat.my_turn:
                try:
                    seat.move(seat.legal_moves()[0])
                    moves += 1
                except classroom.ClassroomError as err:  # the table moved on (the computer): look again
                    assert err.code in ("stale", "not_your_turn"), err
        time.sleep(0.01)
    # alice comes back on a new connection: the hub token, not a seat token, gives her seat back
    again = classroom.join(hub.service, code, hub_token=hub.token("alice"))
    assert again.number == alice.number


def _handshake_status(hub: Hub, headers: dict[str, str] | None) -> int:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    try:
        with connect(hub.service.replace("http", "ws") + "/ws", additional_headers=headers, open_timeout=10):
            return 101
    except InvalidStatus as err:
        return int(err.response.status_code)


def test_requests_without_a_users_token_for_this_service_are_refused(hub):
    assert _handshake_status(hub, None) == 401
    assert _handshake_status(hub, {"Authorization": "token not-a-token"}) == 403
    assert _handshake_status(hub, {"Authorization": f"token {hub.admin}"}) == 403  # a service's token
    narrow = hub.token("carol", scopes=["read:users:name!user=carol"])  # may not use the service
    assert _handshake_status(hub, {"Authorization": f"token {narrow}"}) == 403
    assert _handshake_status(hub, {"Authorization": f"token {hub.token('carol')}"}) == 101


def test_another_seats_secret_does_not_seat_a_hub_user_there(hub):
    code = teacher_creates_a_table(hub)
    alice = classroom.join(hub.service, code, hub_token=hub.token("alice"))
    # bob presents alice's seat secret: on the hub his token says who he is, so he gets his own seat
    bob = classroom.join(hub.service, code, token=alice.token or "anything", hub_token=hub.token("bob"))
    assert bob.number != alice.number and bob.table["seats"][bob.number]["name"] == "bob"


# --- the pages: the hub's OAuth login (issue 23) ---------------------------------------------------------
def browser_of(hub: Hub, user: str) -> tuple[Any, Any]:
    """A cookie-keeping HTTP client logged in at the hub as ``user`` (DummyAuthenticator's form)."""
    import http.cookiejar
    import re
    from urllib.parse import urlencode

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form = opener.open(hub.url + "/hub/login", timeout=10).read().decode()
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form)
    fields = {"username": user, "password": "any", **({"_xsrf": xsrf.group(1)} if xsrf else {})}
    opener.open(hub.url + "/hub/login?next=%2Fhub%2Fhome", data=urlencode(fields).encode(), timeout=10).read()
    return opener, jar


def page_session(hub: Hub, user: str, path: str) -> tuple[str, str, Any]:
    """``user`` opens a page of the service: the OAuth dance, then the page; returns the page's
    text, the Cookie header its websocket sends, and the session cookie."""
    opener, jar = browser_of(hub, user)
    with opener.open(hub.service + path, timeout=20) as answer:
        assert answer.status == 200 and answer.url.startswith(hub.service), answer.url
        text = answer.read().decode()
    session = next(c for c in jar if c.name == "maumau_hub_session")
    return text, f"maumau_hub_session={session.value}", session


def _ws(hub: Hub, cookie: str) -> Any:
    """The page's websocket, as a browser opens it: the session cookie, and the hub's own Origin."""
    from websockets.sync.client import connect

    return connect(hub.service.replace("http", "ws") + "/ws", additional_headers={"Cookie": cookie},
                   origin=hub.url, open_timeout=10)


def _ask(ws: Any, request: dict[str, Any], before: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The answer to ``request``; the frames that came first go to ``before``."""
    ws.send(json.dumps({**request, "id": 7}))
    while (answer := json.loads(ws.recv(timeout=10))).get("id") != 7:
        if before is not None:
            before.append(answer)
    return dict(answer)


def test_a_page_logs_in_through_the_hubs_oauth_and_seats_the_hub_user(hub):
    code = teacher_creates_a_table(hub)
    text, cookie, session = page_session(hub, "alice", f"/t/{code}")
    assert "table.js" in text  # the table's page itself, after the hub's login
    assert session.has_nonstandard_attr("HttpOnly") and session.path.startswith("/services/maumau-classroom")
    with _ws(hub, cookie) as ws:
        assert _ask(ws, {"type": "ping"})["user"] == "alice"  # the page sits down under it, no form
        frames: list[dict[str, Any]] = []
        answer = _ask(ws, {"type": "join", "code": code, "name": "Mallory"}, frames)
        assert answer["type"] == "ok", answer
        table = next(f for f in frames if f["type"] == "table")
        assert table["seats"][answer["seat"]]["name"] == "alice"  # the hub's name, not the one typed


def test_a_page_without_a_hub_login_goes_to_the_hubs_login(hub):
    with urllib.request.urlopen(hub.service + "/", timeout=20) as answer:  # no hub login: the hub's form
        assert "/hub/login" in answer.url and 'name="username"' in answer.read().decode()


def test_the_teacher_is_a_hub_role_not_a_pasted_token(hub):
    code = teacher_creates_a_table(hub)
    for user, teacher in (("teacher", True), ("tina", True), ("bob", False)):  # an admin, the group, a learner
        _, cookie, _ = page_session(hub, user, "/")
        with _ws(hub, cookie) as ws:
            listing = _ask(ws, {"type": "tables"})
            assert (listing["type"] == "ok") is teacher, (user, listing)
            projector = _ask(ws, {"type": "watch", "code": code, "open": True})
            assert (projector["type"] == "ok") is teacher, (user, projector)
    # a page of another site cannot use a teacher's session: the handshake is refused
    _, cookie, _ = page_session(hub, "tina", "/")
    assert _handshake_status(hub, {"Cookie": cookie, "Origin": "http://evil.example"}) == 401


def test_a_hub_user_hands_in_under_their_hub_name_and_a_forged_one_gets_nothing(hub):
    """On the hub the learner of a hand-in is the hub user of the notebook's token: a name, a seat
    token or a time in the request changes nothing, and a token the hub does not know is refused
    at the handshake (issue 26)."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from maumau.grading.submissions import HandIns

    notebook = ROOT / "exercises" / "01_matching.ipynb"
    receipt = classroom.hand_in(hub.service, "ANY", notebook, token="a-seat-of-bob", hub_token=hub.token("alice"))
    assert receipt["learner"] == "alice" and receipt["version"] == 1
    data = notebook.read_bytes()
    with connect(hub.service.replace("http", "ws") + "/handin", open_timeout=10,
                 additional_headers={"Authorization": f"token {hub.token('carol')}"}) as ws:
        ws.send(json.dumps({"type": "hand_in", "exercise": "01_matching", "size": len(data), "learner": "bob",
                            "user": "bob", "received": "2000-01-01T00:00:00+00:00"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "ready"
        ws.send(data)
        forged = json.loads(ws.recv(timeout=10))
    assert forged["learner"] == "carol" and forged["received"] > "2026"
    with pytest.raises(InvalidStatus, match="HTTP 40[13]"):
        classroom.hand_in(hub.service, "ANY", notebook, hub_token="not-a-token")
    assert {r.learner for r in HandIns(hub.run / "class.sqlite").receipts()} == {"alice", "carol"}


def _hub_api(hub: Hub, method: str, path: str) -> Any:
    request = urllib.request.Request(f"{hub.url}/hub/api{path}", method=method,
                                     headers={"Authorization": f"token {hub.admin}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        body = answer.read()
    return json.loads(body) if body else None


@pytest.mark.slow
def test_a_users_server_starts_with_the_course_in_their_home(hub):
    """tests/hub/jupyterhub_config.py's Spawner.cmd: `maumau course ~/maumau --student` (a learner's folder:
    no instructor exercise), then the server."""
    _hub_api(hub, "POST", "/users/carol/server")
    try:
        end = time.monotonic() + 150
        while not (_hub_api(hub, "GET", "/users/carol").get("servers", {}).get("", {}).get("ready")):
            assert time.monotonic() < end, (hub.run / "hub.log").read_text()[-3000:]
            time.sleep(0.5)
        course = hub.run / "home" / "carol" / "maumau"
        record = json.loads((course / ".maumau-course.json").read_text())
        assert (record["language"], record["for"]) == ("en", "learners")
        assert not (course / "exercises").exists() and (course / "student/02_skip_on_eight.ipynb").is_file()
        request = urllib.request.Request(f"{hub.url}/user/carol/api/contents/maumau/notebooks/01_start_here.ipynb"
                                         "?content=0", headers={"Authorization": f"token {hub.token('carol')}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert json.load(answer)["type"] == "notebook"
    finally:
        _hub_api(hub, "DELETE", "/users/carol/server")
        end = time.monotonic() + 60
        while _hub_api(hub, "GET", "/users/carol").get("servers"):
            assert time.monotonic() < end
            time.sleep(0.5)


def test_a_hub_user_shares_their_checks_under_their_hub_name_and_a_forged_one_is_refused(hub):
    """The live view on the hub (issue 38): the learner of a report is the hub user of the notebook's
    token; a report naming another learner is refused, and nothing of it is stored."""
    import sqlite3

    from websockets.sync.client import connect

    from maumau.grading import checks

    sharing = classroom.share_progress(hub.service, hub_token=hub.token("bob"), exercise="02_skip_on_eight")
    try:
        with checks.scenario("3 players, seat 0 plays 8♥"):
            checks.check("who moves next", 2, 2)
        for _ in range(100):
            if sharing.last_answer is not None:
                break
            time.sleep(0.05)
        assert sharing.last_answer is not None and sharing.last_answer["type"] == "stored", sharing.last_answer
    finally:
        sharing.stop()
        checks._results.clear()
    with connect(hub.service.replace("http", "ws") + "/live/ws", open_timeout=10,
                 additional_headers={"Authorization": f"token {hub.token('carol')}"}) as ws:
        ws.send(json.dumps({"type": "hello", "code": "ANY"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send(json.dumps({"type": "checks", "exercise": "02_skip_on_eight", "learner": "bob",
                            "checks": [{"scenario": "3 players, seat 0 plays 8♥", "ok": False}]}))
        assert json.loads(ws.recv(timeout=10))["code"] == "not_yours"
    with sqlite3.connect(hub.run / "class.sqlite") as db:
        rows = db.execute("SELECT learner, checks FROM live_checks").fetchall()
    assert rows == [("bob", '{"skip_on_eight_test1#0": true}')]


def test_the_live_page_on_the_hub_is_the_teachers(hub):
    """/live through the hub's login: tina (the teachers' group) reads it and watches its socket, bob
    (a learner) is refused both (issue 38)."""
    from websockets.sync.client import connect

    text, cookie, _ = page_session(hub, "tina", "/live")
    assert "live.js" in text
    for user, teacher in (("tina", True), ("bob", False)):
        _, cookie, _ = page_session(hub, user, "/")
        with connect(hub.service.replace("http", "ws") + "/live/ws", additional_headers={"Cookie": cookie},
                     origin=hub.url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "watch", "projector": True, "idle": 5, "lang": "en"}))
            answer = json.loads(ws.recv(timeout=10))
            assert (answer["type"] == "live") is teacher, (user, answer)
    opener, _ = browser_of(hub, "bob")
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(hub.service + "/live", timeout=20)
    assert refused.value.code == 403


# --- feedback release (issue 38 item 2) ---------------------------------------------------------------

FEEDBACK_EX = "03_reverse_on_nine"
FEEDBACK_SECRET = "alice's hidden explanation"


class _NoFollow(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _post_button(url: str, cookie: str, origin: str) -> int:
    request = urllib.request.Request(url, data=b"", method="POST",
                                     headers={"Cookie": cookie, "Origin": origin, "Content-Length": "0"})
    try:
        with urllib.request.build_opener(_NoFollow).open(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def test_a_hub_teacher_releases_feedback_and_each_hub_user_reads_only_their_own(hub):
    """Feedback release on the hub (issue 38 item 2): a hub user reads their own feedback with their
    hub token or on their page after the hub's login; a hub teacher releases it with the course
    page's button; a learner's session, or another site's post, cannot press it."""
    from maumau.grading.gradebook import Gradebook, Row
    from maumau.grading.gradebook import TestResult as Result

    row = Row("alice", FEEDBACK_EX, 1, 6, tests=[Result("h", "hidden", 0, 2, False, True, "", FEEDBACK_SECRET)])
    Gradebook(hub.run / "class.sqlite").record([(row, "sub", "src", False)], forced=False)
    before = classroom.feedback(hub.service, "ANY", FEEDBACK_EX, hub_token=hub.token("alice"))
    assert not before.released and "when your teacher releases it" in before.message
    # a learner's session cannot press the teacher's button, not even with the teacher's form token
    _, tina, _ = page_session(hub, "tina", "/")  # the hub's login on the lobby, then the course page
    request = urllib.request.Request(hub.service + "/course", headers={"Cookie": tina})
    with urllib.request.urlopen(request, timeout=10) as answer:
        page = answer.read().decode()
    action = page.split(f'action="course/release?exercise={FEEDBACK_EX}&amp;do=release')[1].split('"')[0]
    button = f"{hub.service}/course/release?exercise={FEEDBACK_EX}&do=release" + action.replace("&amp;", "&")
    _, bob, _ = page_session(hub, "bob", "/my-feedback")
    assert _post_button(button, bob, hub.url) == 403
    assert _post_button(button, tina, "http://evil.example") == 403
    assert not classroom.feedback(hub.service, "ANY", FEEDBACK_EX, hub_token=hub.token("alice")).released
    assert _post_button(button, tina, hub.url) == 303
    after = classroom.feedback(hub.service, "ANY", FEEDBACK_EX, hub_token=hub.token("alice"))
    assert after.released and FEEDBACK_SECRET in after.text
    theirs = classroom.feedback(hub.service, "alice", FEEDBACK_EX, hub_token=hub.token("bob"))  # "alice": bob
    assert theirs.released and theirs.text == "" and FEEDBACK_SECRET not in str(theirs)
    alices_page, _, _ = page_session(hub, "alice", "/my-feedback")
    bobs_page, _, _ = page_session(hub, "bob", "/my-feedback")
    assert "alice&#x27;s hidden explanation" in alices_page and "alice&#x27;s" not in bobs_page


def test_the_browser_courses_feedback_request_is_not_served_on_the_hub(hub):
    """/feedback.json answers the JupyterLite course (a learner's code in a header, CORS for any site);
    on the hub a notebook runs in the hub and reads its feedback under its hub name, so that path is a
    404 there, with no CORS header and nothing of the gradebook, whatever code or origin is sent."""
    from maumau.grading.gradebook import Gradebook, Row
    from maumau.grading.gradebook import TestResult as Result

    row = Row("alice", FEEDBACK_EX, 1, 6, tests=[Result("h", "hidden", 0, 2, False, True, "", FEEDBACK_SECRET)])
    Gradebook(hub.run / "class.sqlite").record([(row, "sub", "src", False)], forced=False)
    for method in ("GET", "OPTIONS"):
        request = urllib.request.Request(f"{hub.service}/feedback.json?exercise={FEEDBACK_EX}", method=method,
                                         headers={"Authorization": "Learner alice", "Origin": "https://site.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code in (404, 405), method
        assert refused.value.headers.get("Access-Control-Allow-Origin") is None
        assert FEEDBACK_SECRET not in refused.value.read().decode(errors="replace")
