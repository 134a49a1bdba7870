"""No learner locks the others out (issue 34, item 6), tried with raw clients against a real server
on loopback (two "addresses" are two source addresses of 127/8): hand-ins are capped per learner
(rate, versions, bytes) with a sentence and nothing lost; the teacher's projector is let in when
learners' projectors fill a table; one address cannot hold every connection, and the server
raises its own open-file limit; no page can be framed; a GET changes nothing, and a log-out needs
the page's CSRF token; on JupyterHub made-up tokens and started logins keep bounded memory."""

from __future__ import annotations

import asyncio
import http.client
import json
import resource
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from test_classroom_attacks import Raw  # noqa: E402

from maumau import classroom  # noqa: E402
from maumau.classroom import ClassroomError, Course, hand_in  # noqa: E402
from maumau.grading.submissions import MAX_LEARNER_BYTES, MAX_VERSIONS, HandIns  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EX = "01_matching"
TEACHER = "t-secret"


def _course_server(tmp_path: Path, **kwargs: Any) -> classroom.Server:
    source = tmp_path / "source"
    source.mkdir(exist_ok=True)
    shutil.copy(REPO / "exercises" / f"{EX}.ipynb", source)
    roster = tmp_path / "roster.csv"  # hand-ins need a learner's identity: the roster's personal codes
    roster.write_text("learner,name,id\nanna,Anna A,1\nben,Ben B,2\ncleo,Cleo C,3\n", encoding="utf-8")
    return classroom.Server(db=tmp_path / "class.sqlite", port=0, teacher_token=TEACHER, computer_delay=0,
                            pause=60, course=Course(source), roster=roster, **kwargs)


def _sit(server: classroom.Server, code: str, learner: str) -> classroom.Seat:
    """``learner`` of the roster sits down at ``code`` with their personal code."""
    from maumau.classroom.identity import codes_answer

    codes = {line["learner"]: line["code"] for line in codes_answer(server.roster, None)["codes"]}
    return classroom.join(server.url, code, name=learner, personal=codes[learner])


def _notebook(tmp_path: Path, note: str, pad: int = 0) -> Path:
    """The exercise's notebook, made different by ``note`` and ``pad`` bytes larger."""
    nb = json.loads((REPO / "exercises" / f"{EX}.ipynb").read_text(encoding="utf-8"))
    nb["metadata"]["note"] = note
    nb["metadata"]["pad"] = "x" * pad
    path = tmp_path / f"{note}" / f"{EX}.ipynb"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


# --- hand-ins: rate, versions, bytes -------------------------------------------------------------------
def test_twenty_one_hand_ins_of_five_mb_in_a_second_are_refused_beyond_the_learners_rate(tmp_path):
    big = _notebook(tmp_path, "big", pad=5 * 2**20 - 40_000)
    with _course_server(tmp_path) as server:
        code = server.create_table("mau_mau_runde", seats=3)
        anna, ben = _sit(server, code, "anna"), _sit(server, code, "ben")
        try:
            answers: list[Any] = []
            began = time.monotonic()
            for _ in range(21):
                try:
                    answers.append(hand_in(server.url, code, big, token=anna.token))
                except ClassroomError as err:
                    answers.append(str(err))
            taken = [a for a in answers if isinstance(a, dict)]
            refused = [a for a in answers if isinstance(a, str)]
            elapsed = time.monotonic() - began
            assert 5 <= len(taken) <= 5 + elapsed / 6, (elapsed, answers)  # five at once, then one every six seconds
            assert len(refused) == 21 - len(taken)
            assert "too often" in refused[0] and "wait" in refused[0] and "earlier versions are all kept" in refused[0]
            kept = HandIns(server.store.path).receipts("anna")
            assert [r.version for r in kept] == list(range(1, len(taken) + 1))  # nothing lost
            # another learner is not slowed by anna
            assert hand_in(server.url, code, big, token=ben.token)["version"] == 1
        finally:
            anna.close()
            ben.close()


def test_a_learner_hands_in_at_most_so_many_versions_and_bytes_and_keeps_every_earlier_one(tmp_path):
    with _course_server(tmp_path, limits={"handin": (1000.0, 1000.0)}) as server:  # the rate out of the way
        code = server.create_table("mau_mau_runde", seats=3)
        anna, ben = _sit(server, code, "anna"), _sit(server, code, "ben")
        try:
            small = _notebook(tmp_path, "small")
            for _ in range(MAX_VERSIONS):
                hand_in(server.url, code, small, token=anna.token)
            with pytest.raises(ClassroomError, match=f"{EX} {MAX_VERSIONS} times.*earlier versions are all kept"):
                hand_in(server.url, code, small, token=anna.token)
            big = _notebook(tmp_path, "big", pad=5 * 2**20 - 40_000)
            fits = MAX_LEARNER_BYTES // big.stat().st_size
            for _ in range(fits):
                hand_in(server.url, code, big, token=ben.token)
            with pytest.raises(ClassroomError, match="MB a learner may hand in: nothing was stored"):
                hand_in(server.url, code, big, token=ben.token)
            handins = HandIns(server.store.path)
            assert len(handins.receipts("anna")) == MAX_VERSIONS and len(handins.receipts("ben")) == fits
            assert sum(r.size for r in handins.receipts("ben")) <= MAX_LEARNER_BYTES
            # the caps are each learner's own
            cleo = _sit(server, code, "cleo")
            assert hand_in(server.url, code, big, token=cleo.token)["version"] == 1
            cleo.close()
        finally:
            anna.close()
            ben.close()


# --- projectors --------------------------------------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path) -> Iterator[classroom.Server]:
    with classroom.Server(db=tmp_path / "class.sqlite", port=0, teacher_token=TEACHER, computer_delay=0,
                          pause=0, hold=0.3) as srv:
        yield srv


def test_the_teachers_projector_is_let_in_when_learners_projectors_fill_the_table(server):
    from maumau.classroom.connections import MOST_WATCHERS, WATCHERS_PER_CLIENT

    code = server.create_table("makao", seats=2, computers=1, seed=8)
    learners = [Raw(server, source=f"127.0.3.{i + 1}") for i in range(MOST_WATCHERS + 1)]
    answers = [raw.ask({"type": "watch", "code": code}) for raw in learners]
    assert [a["type"] for a in answers] == ["ok"] * MOST_WATCHERS + ["error"]
    assert answers[-1]["code"] == "full"
    teacher = Raw(server, source="127.0.3.1")  # even from the address of a learner's projector
    assert teacher.ask({"type": "watch", "code": code, "teacher": TEACHER})["type"] == "ok"
    cookie = _login(server)
    browser = Raw(server, headers={"Cookie": cookie["session"]})
    assert browser.ask({"type": "watch", "code": code, "open": True})["type"] == "ok"
    # one client may not take every learner's place: its share, then a sentence
    code2 = server.create_table("makao", seats=2, computers=1, seed=9)
    mine = [Raw(server, source="127.0.4.1").ask({"type": "watch", "code": code2})
            for _ in range(WATCHERS_PER_CLIENT + 1)]
    assert [a["type"] for a in mine] == ["ok"] * WATCHERS_PER_CLIENT + ["error"]
    assert mine[-1]["code"] == "full" and "close one first" in mine[-1]["message"]
    assert Raw(server, source="127.0.4.2").ask({"type": "watch", "code": code2})["type"] == "ok"


# --- connections per address, open files ----------------------------------------------------------------------
def _idle(server: classroom.Server, source: str) -> socket.socket:
    return socket.create_connection((server.host, server.port), 5, (source, 0))


def test_idle_sockets_from_one_address_do_not_keep_another_from_joining_and_playing(tmp_path):
    from maumau.classroom.capacity import PER_ADDRESS, RESERVE, Capacity

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(512, hard), hard))  # as a server started with a low limit
    try:
        with classroom.Server(db=tmp_path / "c.sqlite", port=0, computer_delay=0, pause=0, per_address=20,
                              handshake=30) as server:
            now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            assert now == (hard if hard != resource.RLIM_INFINITY else 65_536)  # the server raised its own
            assert server.capacity.per_address == 20 and server.capacity.total == now - RESERVE
            idle = [_idle(server, "127.0.0.2") for _ in range(20)]
            time.sleep(0.2)
            assert server.capacity.open["127.0.0.2"] == 20
            one_more = _idle(server, "127.0.0.2")
            one_more.settimeout(5)
            refusal = b""
            while chunk := one_more.recv(4096):
                refusal += chunk
            assert refusal.startswith(b"HTTP/1.1 503") and b"too many connections from your address" in refusal
            assert b"frame-ancestors 'none'" in refusal
            code = server.create_table("makao", seats=2, computers=1, seed=8)
            learner = Raw(server, source="127.0.0.3")
            assert learner.ask({"type": "join", "code": code, "name": "anna"})["type"] == "ok"
            _one_move(learner)
            for sock in idle:
                sock.close()
            _until(lambda: "127.0.0.2" not in server.capacity.open)
            assert Raw(server, source="127.0.0.2").ask({"type": "ping"})["type"] == "ok"  # counted down again
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    # the default caps: an address never more than a quarter of the open files
    assert Capacity.under(1024).per_address == min(PER_ADDRESS, (1024 - RESERVE) // 4)
    assert Capacity.under(1_048_576).per_address == PER_ADDRESS


def _one_move(seat: Raw, limit: float = 30) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        table = seat.table()
        view = table and table["view"]
        if view and "hand" in view and view["legal"] and view["to_move"] == view["seat"]:
            answer = seat.ask({"type": "move", "move": view["legal"][0], "seq": table["n"]})
            if answer["type"] == "ok":
                return
        time.sleep(0.01)
    raise AssertionError("the learner never got to move")


def _until(ready: Any, limit: float = 5.0) -> None:
    end = time.monotonic() + limit
    while not ready():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


# --- framing ---------------------------------------------------------------------------------------------------
def _ask(server: classroom.Server, path: str, method: str = "GET",
         headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    conn.request(method, path, headers=headers or {})
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


def test_no_page_of_the_server_can_be_framed_by_another_site(tmp_path):
    with _course_server(tmp_path) as server:
        code = server.create_table("makao", seats=2, computers=1, seed=8)
        league = server.leagues.create("makao", players=2)
        session = _login(server)["session"]
        paths = ["/", f"/t/{code}", f"/t/{code}?lang=de", "/lobby.js", "/table.js", "/style.css", "/nowhere",
                 "/course", "/course/feedback?learner=anna", "/login", "/logout", "/ws", "/handin",
                 f"/league/{league}", "/league/NOPE", f"/league/{league}/1"]
        seen = set()
        for path in paths:
            for cookie in ({}, {"Cookie": session}):
                answer = _ask(server, path, headers=cookie)
                seen.add(answer.status)
                policies = answer.headers.get_all("Content-Security-Policy") or []
                assert any("frame-ancestors 'none'" in p for p in policies), (path, answer.status, policies)
                assert answer.headers["X-Frame-Options"] == "DENY", (path, answer.status)
        for path, method in (("/login", "POST"), ("/logout", "POST"), ("/", "POST")):
            answer = _ask(server, path, method)
            assert "frame-ancestors 'none'" in str(answer.headers.get("Content-Security-Policy")), (path, method)
        assert {200, 403, 404, 405} <= seen  # pages, refusals and the websocket's own answers alike


# --- POST and CSRF ----------------------------------------------------------------------------------------------
def _login(server: classroom.Server) -> dict[str, str]:
    """Log in as the teacher's lobby does: the session cookie and the CSRF token."""
    answer = _ask(server, "/login", "POST", {"Authorization": f"Teacher {TEACHER}"})
    assert answer.status == 200
    cookies = dict(c.split(";")[0].split("=", 1) for c in answer.headers.get_all("Set-Cookie"))
    return {"session": f"maumau_teacher={cookies['maumau_teacher']}", "csrf": cookies["maumau_csrf"]}


def _is_teacher(server: classroom.Server, session: str) -> bool:
    return Raw(server, headers={"Cookie": session}).ask({"type": "tables"})["type"] == "ok"


def test_a_get_changes_nothing_and_a_log_out_needs_the_pages_csrf_token(server):
    # a GET with the right token opens no session
    answer = _ask(server, "/login", "GET", {"Authorization": f"Teacher {TEACHER}"})
    assert answer.status == 405 and answer.headers["Allow"] == "POST" and not answer.headers.get("Set-Cookie")
    login = _login(server)
    session, csrf = login["session"], login["csrf"]
    assert _is_teacher(server, session)
    cookie = f"{session}; maumau_csrf={csrf}"
    # <img src=/logout> on another page: a GET, with the teacher's cookies
    assert _ask(server, "/logout", "GET", {"Cookie": cookie}).status == 405
    # a form on another page: a POST, with the cookies, without the token, or from another origin
    assert _ask(server, "/logout", "POST", {"Cookie": cookie}).status == 403
    assert _ask(server, "/logout", "POST", {"Cookie": cookie, "X-Maumau-CSRF": "guess"}).status == 403
    evil = {"Cookie": cookie, "X-Maumau-CSRF": csrf, "Origin": "http://evil.example"}
    assert _ask(server, "/logout", "POST", evil).status == 403
    form = http.client.HTTPConnection(server.host, server.port, timeout=10)  # a form's POST has a body
    form.request("POST", "/logout", body=b"x=1", headers={"Cookie": cookie,
                                                         "Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
        form.getresponse()  # websockets takes no request body: the connection is closed unanswered
    form.close()
    assert _is_teacher(server, session)  # still logged in
    # the lobby's own log-out
    own = {"Cookie": cookie, "X-Maumau-CSRF": csrf, "Origin": f"http://{server.host}:{server.port}",
           "Host": f"{server.host}:{server.port}"}
    answer = _ask(server, "/logout", "POST", own)
    assert answer.status == 200 and all("Max-Age=0" in c for c in answer.headers.get_all("Set-Cookie"))
    assert not _is_teacher(server, session)
    # nothing else takes a POST (or any method but GET)
    for path in ("/", "/course", f"/t/{server.create_table('makao', seats=2, computers=1)}"):
        for method in ("POST", "PUT", "DELETE"):
            assert _ask(server, path, method, {"Cookie": cookie}).status == 405, (path, method)


def test_the_lobby_logs_in_and_out_by_post_with_the_csrf_token():
    lobby = (REPO / "maumau" / "classroom" / "pages" / "lobby.js").read_text()
    calls = [line for line in lobby.splitlines() if "fetch(" in line]
    changes = [line for line in calls if "method:" in line]  # log in, log out
    assert len(changes) == 2 and all("method: 'POST'" in line for line in changes), calls
    # the only other request reads whether /live answers this browser (the teacher's links): a GET
    assert [line for line in calls if line not in changes] == [
        line for line in calls if "fetch(BASE + 'live', {" in line and "method" not in line], calls
    assert "'X-Maumau-CSRF': csrfToken()" in lobby


# --- the hub's caches -------------------------------------------------------------------------------------------
class _HubApi(BaseHTTPRequestHandler):
    """The hub's ``GET /user``: tokens that begin with ``good-`` are a user's, every other is refused."""

    def do_GET(self) -> None:  # noqa: N802
        token = self.headers.get("Authorization", "").split(None, 1)[-1]
        if self.path != "/user" or not token.startswith("good-"):
            self.send_response(403)
            self.end_headers()
            return
        body = json.dumps({"name": token[5:], "kind": "user", "scopes": ["access:services"],
                           "groups": ["x" * 500]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def hub_api() -> Iterator[str]:
    api = ThreadingHTTPServer(("127.0.0.1", 0), _HubApi)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{api.server_address[1]}"
    finally:
        api.shutdown()
        api.server_close()


def test_made_up_hub_tokens_are_not_kept_and_the_users_kept_are_bounded(hub_api):
    from maumau.classroom.hub import HubUsers

    hub = HubUsers(api_url=hub_api, cache_size=50)

    async def ask(tokens: list[str]) -> list[Any]:
        return [await hub.user_for_token(t) for t in tokens]

    refused = asyncio.run(ask([f"made-up-{i}" for i in range(300)]))
    assert refused == [None] * 300 and len(hub._cache) == 0  # a refusal is never kept
    users = asyncio.run(ask([f"good-u{i}" for i in range(120)]))
    assert [u["name"] for u in users] == [f"u{i}" for i in range(120)]
    assert len(hub._cache) == 50 and not any("good-" in key for key in hub._cache)  # no token kept
    assert all(set(user) == {"name", "kind"} for _, user in hub._cache.values())


def test_logins_started_by_anyone_are_kept_bounded_per_client_and_in_all():
    pytest.importorskip("jupyterhub")
    from maumau.classroom.hub_login import MOST_PENDING, PENDING_PER_CLIENT, HubLogin

    login = HubLogin("/services/maumau/")
    for _ in range(4000):
        login.redirect_to_hub("/services/maumau/", "10.0.0.66")
    assert len(login._states) == PENDING_PER_CLIENT
    location, cookie = login.redirect_to_hub("/services/maumau/", "10.0.0.7")  # someone else still starts one
    state = cookie.split(";")[0].split("=", 1)[1]
    assert state in login._states and f"state={state}" in location
    for i in range(MOST_PENDING + 500):
        login.redirect_to_hub("/services/maumau/", f"10.1.{i // 250}.{i % 250}")
    assert len(login._states) == MOST_PENDING


def test_the_bounds_are_sane_for_a_class():
    from maumau.classroom.capacity import PER_ADDRESS
    from maumau.classroom.limits import LIMITS

    assert MAX_VERSIONS >= 20 and MAX_LEARNER_BYTES >= 8 * 5 * 2**20  # eight notebooks at the largest size
    burst, per_second = LIMITS["handin"]
    assert burst >= 3 and 1 / per_second <= 10  # a learner handing in again after a fix is never refused
    assert PER_ADDRESS >= 120  # a class of 40 behind one router, three sockets each


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_hub_service_asked_with_made_up_tokens_and_anonymous_logins_keeps_bounded_memory(
        hub_api, tmp_path, monkeypatch):
    pytest.importorskip("jupyterhub")
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from maumau.classroom.hub_login import PENDING_PER_CLIENT

    port = _free_port()
    monkeypatch.setenv("JUPYTERHUB_API_URL", hub_api)
    monkeypatch.setenv("JUPYTERHUB_SERVICE_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/services/maumau/")
    joins = 20  # a small join bucket that hardly refills, so a busy machine's slow loop still empties it
    with classroom.Server(db=tmp_path / "c.sqlite", hub=True, limits={"join": (joins, 0.01)}) as server:
        assert server.hub is not None and server.hub_login is not None
        statuses = []
        for i in range(joins + 10):
            try:
                connect(server.ws_url, additional_headers={"Authorization": f"token made-up-{i}"}).close()
            except InvalidStatus as err:
                statuses.append(err.response.status_code)
        assert statuses[0] == 403 and statuses[-1] == 429  # so many refusals, then the hub is asked no more
        assert len(server.hub._cache) == 0  # and none of them is kept
        other = socket.create_connection((server.host, server.port), 5, ("127.0.0.5", 0))  # another address
        with connect(server.ws_url, additional_headers={"Authorization": "token good-anna"}, sock=other) as anna:
            anna.send(json.dumps({"type": "ping", "id": 1}))
            assert json.loads(anna.recv(5))["user"] == "anna"
        for _ in range(PENDING_PER_CLIENT + 100):  # anonymous page views: each starts a login
            assert _ask(server, "/services/maumau/").status == 302
        assert len(server.hub_login._states) == PENDING_PER_CLIENT
