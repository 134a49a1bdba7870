"""The table server: asyncio and ``websockets``, one authoritative ClassTable per table, every
action in SQLite before anyone hears of it.

``Server(db=..., port=...)`` serves the lobby page at ``/``, a table's page at ``/t/CODE`` and the
websocket at ``/ws``.  ``start()`` runs it on a thread of its own (for a notebook or a test);
``run()`` runs it in the foreground (``maumau serve``).  A teacher's Python calls
(``create_table``, ``start_table``, ``close_table``) run on the server's loop, so the tables are
only ever touched from one thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import sqlite3
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .capacity import Capacity, capped_connection, raise_open_files
from .connections import Connection, OpenTables
from .course import COURSE_PAGE, HANDIN_SOCKET, Course, CourseDesk
from .feedback_desk import FEEDBACK_SOCKET, LEARNER_PAGE
from .feedback_http import FEEDBACK_HTTP, feedback_http
from .hub import HubUsers
from .hub_login import SESSION_COOKIE as HUB_COOKIE
from .hub_login import STATE_COOKIE, HubLogin
from .league_page import SOCKET, Leagues
from .limits import RateLimits
from .live import LIVE_SOCKET, LiveDesk
from .login import COOKIE, Sessions, _cookie_named, same_site, token_from
from .outbox import STALL
from .pages import html_page, http_response, no_frames, plain, query_lang, query_value, redirect
from .progress_page import LIVE_PAGES, live_http, live_links
from .release_form import RELEASE_PATH
from .roster import Roster, RosterError
from .spec import TableError, TableSpec
from .store import Store, new_token, same_token
from .table import ClassTable

if TYPE_CHECKING:  # pragma: no cover
    from ..grading.export import RosterEntry
    from ..lti.app import LtiTool

__all__ = ["Server", "ServerError"]

T = TypeVar("T")
log = logging.getLogger("maumau.classroom")


class ServerError(RuntimeError):
    """The server cannot start: its port is taken, its address is not this machine's, its database
    cannot be opened.  The message says which, and what to do."""


def cannot_listen(err: OSError, host: str, port: int) -> ServerError:
    """The sentence for a port the server could not open."""
    if err.errno == errno.EADDRINUSE:
        return ServerError(f"port {port} on {host} is in use (another maumau serve, or another program): "
                           f"stop that one, or choose another port (0 takes any free one)")
    if err.errno == errno.EACCES:
        return ServerError(f"port {port} on {host} may not be opened by this user (ports below 1024 need root): "
                           f"choose a port from 1024 up")
    if err.errno == errno.EADDRNOTAVAIL or isinstance(err, socket.gaierror):
        return ServerError(f"cannot listen on {host}: it is not an address of this machine "
                           f"(127.0.0.1 for this machine only, 0.0.0.0 for every network it is on)")
    return ServerError(f"cannot listen on {host} port {port}: {err.strerror or err}")


class Server:
    """A class table server (see the module docstring and docs/howto/class-table.md).

    ``hold`` is how long (seconds) a dropped learner's seat waits before a computer plays it;
    ``computer_delay`` the pause before each computer move (so people can follow); ``pause``
    the time between the end of a hand and the next deal.
    """

    def __init__(self, db: str | Path = "class.sqlite", host: str = "127.0.0.1", port: int = 8765, *,
                 teacher_token: str | None = None, hold: float = 60.0, computer_delay: float = 0.6,
                 pause: float = 5.0, hub: bool = False, keepalive: float = 10.0, stall: float = STALL,
                 handshake: float = 10.0, hub_teachers: str = "teachers",
                 limits: dict[str, tuple[float, float]] | None = None, course: Course | None = None,
                 per_address: int | None = None,
                 roster: str | Path | Mapping[str, RosterEntry] | None = None,
                 lti: str | Path | dict[str, Any] | None = None, lti_port: int | None = None) -> None:
        self.host, self.port = host, port
        #: On JupyterHub: learners are the hub's users (``maumau.classroom.hub``), else None.
        self.hub = HubUsers.from_environment() if hub else None
        if self.hub is not None:
            self.host, self.port = self.hub.host, self.hub.port
        self.prefix = "/" if self.hub is None else self.hub.prefix
        #: On JupyterHub: the pages' OAuth login through the hub (``hub_login``), else None.
        self.hub_login = HubLogin(self.prefix, hub_teachers) if hub else None
        #: Called (on the server's thread) once the port is open: ``maumau serve`` prints the address.
        self.on_ready: Callable[[], None] | None = None
        #: Seconds between keepalive pings; a ping not answered within as long drops the connection.
        self.keepalive = keepalive
        #: Seconds one frame may wait for a client that does not read (``outbox``).
        self.stall = stall
        #: Seconds a client has to finish the websocket handshake (slowloris: a trickle of bytes).
        self.handshake = handshake
        self.limits = RateLimits(limits)
        #: Connections one client address may hold at once (``capacity``; None: ``PER_ADDRESS``).
        self.per_address = per_address
        self.capacity = Capacity()
        self.sessions = Sessions(self.prefix)
        #: The LTI 1.3 tool (``maumau.lti``): an LMS's launch signs its learners in, else None
        #: (checked before the database is opened: a wrong file changes nothing).
        self.lti = self._lti(lti, db)
        #: The LTI endpoints' port (None: the class server's port + 1, or any free port with port 0).
        self.lti_port = lti_port
        try:
            self.store = Store(db)
        except sqlite3.Error as err:  # a folder that is not there, a file that is no database
            raise ServerError(f"cannot open the database {db}: {err}") from None
        self.teacher_token = teacher_token or new_token()
        self.store.set_teacher(self.teacher_token)
        self.tables = OpenTables(self.store, hold=hold, computer_delay=computer_delay, pause=pause)
        #: The course whose notebooks learners hand in here (``course``), else None.
        self.course = CourseDesk(course, db) if course is not None else None
        #: Who the learners are without a hub: the roster and their personal codes (``roster``), else None.
        self.roster = self._roster(roster, db)
        #: The live view of the course's checks (``live``: /live for the teacher), else None.
        self.live = LiveDesk(course.source, db, self.roster, variants=course.variants) if course is not None else None
        #: The class leagues of this server: ``leagues.create(...)``, pages at /league/CODE (league_page).
        self.leagues = Leagues(db, hub=self.hub is not None, roster=self.roster, limits=self.limits)
        for code, spec in self.store.open_tables():
            try:
                self.tables.add(ClassTable.resume(code, TableSpec.from_json(spec), self.store))
            except Exception:  # one table an older server left broken must not stop the others
                log.exception("table %s cannot be resumed: it is left closed", code)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None
        self._ready = threading.Event()
        #: Why the server thread of ``start()`` could not open its port (handed to ``start()``).
        self._failed: BaseException | None = None

    def _roster(self, roster: str | Path | Mapping[str, RosterEntry] | None, db: str | Path) -> Roster | None:
        """The roster of ``roster`` (a file ``maumau export`` reads, or its entries), or None."""
        if roster is None:
            return None
        if self.hub is not None:
            raise RosterError("--roster and --hub: on JupyterHub a learner is their hub user; give the roster "
                              "to maumau export instead")
        return Roster.load(roster, db)

    def _lti(self, lti: str | Path | dict[str, Any] | None, db: str | Path) -> LtiTool | None:
        """The LTI tool of the registrations ``lti`` (a file, or its parsed JSON), or None."""
        if lti is None:
            return None
        from ..lti import LtiError

        if self.hub is not None:
            raise LtiError("--lti and --hub: on JupyterHub a learner is their hub user; run the LTI tool on a "
                           "class server of its own")
        from ..extras import need

        for module in ("jwt", "cryptography", "tornado", "requests"):  # the extra's packages, asked for once, here
            need(module, "maumau serve --lti")
        from ..lti import platforms
        from ..lti.app import LtiTool

        registrations = platforms.load_registrations(lti)
        if registrations.tool_url is None and self.host not in ("127.0.0.1", "localhost", "::1"):
            raise LtiError(f"with --host {self.host} an LMS reaches maumau at its https address, not at this "
                           f"machine's: give it as tool_url in the LTI registrations")
        return LtiTool(registrations, db, self.sessions.open, lambda: self.url, self.prefix,
                       exercises=self._exercise_points, hand_in=self._lti_hand_in, titles=self._exercise_titles,
                       feedback=self._lti_feedback, own_copy=self._lti_own_copy)

    def _lti_hand_in(self, learner: str, exercise: str, data: bytes) -> Any:
        """A launched learner's upload on their exercise page (``lti.exercise_page``): the course's
        hand-in with its checks; HandInError when the server has no course."""
        from ..grading.submissions import HandInError

        if self.course is None:
            raise HandInError("this class server takes no hand-ins (it was started without a course)")
        return self.course.hand_in(self, learner, exercise, data)

    def _lti_own_copy(self, learner: str, exercise: str, lang: str) -> str:
        """A launched learner's copy of ``exercise`` (``course.own_copy``) in ``lang`` where the
        exercise has it, else in English; HandInError when the server has no course."""
        from ..grading.submissions import HandInError

        if self.course is None:
            raise HandInError("this class server has no course (it was started without --exercises)")
        return str(self.course.own_copy(self, learner, {"exercise": exercise, "lang": lang}, fallback=True)["notebook"])

    def _lti_feedback(self, learner: str, exercise: str, lang: str) -> str:
        """A launched learner's feedback on ``exercise`` for their exercise page (``classroom.feedback_desk``):
        only once released; nothing when the server has no course."""
        if self.course is None or exercise not in self.course.exercises:
            return ""
        return self.course.feedback_desk.section(learner, exercise, lang)

    def _exercise_points(self) -> dict[str, float]:
        """The course's exercises and their points (an LMS's deep linking offers them), or none."""
        if self.course is None:
            return {}
        from ..grading.exercise import load_exercises

        return {e.name: e.max_score for e in load_exercises(self.course.course.source)}

    def _exercise_titles(self, lang: str) -> dict[str, str]:
        """The course's exercises as an LMS column or page calls them, in ``lang`` where translated."""
        return {} if self.course is None else self.course.titles_in(lang)

    # --- where ------------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}{self.prefix.rstrip('/')}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}{self.prefix}ws"

    # --- running ------------------------------------------------------------------------------------------
    def start(self) -> Server:
        """Serve on a background thread; returns when the port is open.  ``ServerError`` at once when
        it cannot be opened (the port in use, an address not this machine's), saying why."""
        self._thread = threading.Thread(target=self._serve_thread, name="maumau-classroom", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise ServerError("the class table server did not start within 10 s")
        if self._failed is not None:
            self._thread.join(10)
            self._close()
            raise self._failed
        return self

    def _serve_thread(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as err:
            if self._ready.is_set():
                raise  # it had served: the thread's own report (threading.excepthook)
            self._failed = err  # start() is waiting: it raises this at once
            self._ready.set()

    def run(self) -> None:
        """Serve in the foreground until interrupted (``maumau serve``)."""
        asyncio.run(self._serve())

    def stop(self) -> None:
        """Close every connection and the database; the tables stay in it."""
        if self._loop is not None and not self._loop.is_closed() and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
        if self._thread is not None:
            self._thread.join(10)
        self._close()

    def _close(self) -> None:
        self.store.close()
        if self.live is not None:
            self.live.close()
        if self.roster is not None:
            self.roster.close()

    async def _serve(self) -> None:
        from websockets.asyncio.server import serve

        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        self.capacity = Capacity.under(raise_open_files(), self.per_address)
        try:
            listening = await serve(
                self._connection, self.host, self.port, process_request=self._http, process_response=no_frames,
                create_connection=capped_connection(self.capacity), max_size=64 * 1024, max_queue=16,
                ping_interval=self.keepalive, ping_timeout=self.keepalive, open_timeout=self.handshake,
                close_timeout=2, compression=None)  # frames of a few KB: deflating them costs more than it saves
        except OSError as err:
            raise cannot_listen(err, self.host, self.port) from None  # the sentence says what the error was
        async with listening as server:
            asked, self.port = self.port, server.sockets[0].getsockname()[1]
            if self.lti is not None:  # the launch is a form POST: its endpoints are a tornado app (lti.app)
                await self._listen_lti(asked)
            self.tables.kick()
            self._ready.set()
            if self.on_ready is not None:
                self.on_ready()
            await self._stopped.wait()
            if self.lti is not None:
                self.lti.stop()
        self.tables.cancel_timers()

    async def _listen_lti(self, asked: int) -> None:
        """The LTI endpoints on their port (``lti_port``, else the port asked for + 1, else any free one)."""
        assert self.lti is not None
        wanted = self.lti_port if self.lti_port is not None else (asked + 1 if asked else 0)
        try:
            self.lti_port = await self.lti.listen(self.host, wanted)
        except OSError as err:
            raise ServerError(f"the LTI endpoints: {cannot_listen(err, self.host, wanted)} (--lti-port)") from None

    async def _http(self, connection: Any, request: Any) -> Any:
        path = request.path
        if not path.startswith(self.prefix):
            return http_response("/missing")
        path = "/" + path[len(self.prefix):]
        where = path.split("?")[0]
        if where in ("/login", "/logout") and self.hub_login is None:
            return self._login(connection, request, where)
        if where == RELEASE_PATH:  # the course page's release buttons: a POST of the teacher's own page
            return self._release(request, path)
        if where == FEEDBACK_HTTP and self.hub_login is None:  # the browser course's notebook: its own CORS
            desk = self.course.feedback_desk if self.course is not None else None
            return feedback_http(desk, self, request, path, _address(connection))
        if request.method != "GET":  # nothing else changes state over HTTP: the pages are only read
            return plain(405, f"{where} is a page: it is only read (GET)\n", [("Allow", "GET")])
        if self.hub_login is not None:
            return await self._hub_http(connection, request, path)
        if where in (COURSE_PAGE, COURSE_PAGE + "/feedback"):
            return self._course_page(self.sessions.is_teacher(request.headers), path,
                                     _cookie_named(request.headers, COOKIE))
        if where in LIVE_PAGES and self.live is not None:
            return live_http(path, self.sessions.is_teacher(request.headers))
        if where in (HANDIN_SOCKET, FEEDBACK_SOCKET) and self.course is not None:
            self._lms_learner(connection, request)
            return None  # a hand-in or a feedback request: the learner says who they are (or the LMS did)
        if where == LEARNER_PAGE:
            found = self.lti.learners.session(request.headers) if self.lti is not None else None
            return self._learner_page(None if found is None else (found.learner, found.display), path)
        if self.leagues.handles(path) and where != SOCKET:
            return self.leagues.http(path)
        if where not in ("/ws", SOCKET, *self._live_socket):
            return http_response(path)
        connection.teacher = self.sessions.is_teacher(request.headers)
        self._lms_learner(connection, request)
        return None  # the websocket handshake goes on

    @property
    def _live_socket(self) -> tuple[str, ...]:
        """The live view's socket, where the server has one (``live``)."""
        return (LIVE_SOCKET,) if self.live is not None else ()

    def _lms_learner(self, connection: Any, request: Any) -> None:
        """A page of a learner an LMS launched in (``lti.learners``): the connection is that
        learner, as a hub user is on JupyterHub (one seat each, their hand-ins theirs)."""
        found = self.lti.learners.session(request.headers) if self.lti is not None else None
        if found is not None:
            connection.hub_user, connection.display = found.learner, found.display

    async def _hub_http(self, connection: Any, request: Any, path: str) -> Any:
        """On JupyterHub: pages need the hub's OAuth login; a websocket is the hub user of its
        session cookie (a page) or of its hub token (a notebook)."""
        assert self.hub is not None and self.hub_login is not None
        where, _, query = path.partition("?")
        if where == "/oauth_callback":
            done = await self.hub_login.finish(query, request.headers)
            if isinstance(done, str):
                return plain(403, done + "\n")
            return redirect(done[0], [done[1], f"{STATE_COOKIE}=; Path={self.prefix}; Max-Age=0; HttpOnly"])
        session = self.hub_login.session(request.headers)
        if where in (COURSE_PAGE, COURSE_PAGE + "/feedback"):
            return self._course_page(session is not None and session.teacher, path,
                                     _cookie_named(request.headers, HUB_COOKIE))
        if where in LIVE_PAGES and self.live is not None:
            if session is None and where in ("/live", "/live/projector"):
                location, cookie = self.hub_login.redirect_to_hub(self.prefix + path.lstrip("/"), _address(connection))
                return redirect(location, [cookie])
            return live_http(path, session is not None and session.teacher)
        if where == LEARNER_PAGE and session is not None:
            return self._learner_page((session.user, session.user), path)
        page = where in ("/", "", LEARNER_PAGE) or where.startswith("/t/")
        if page or (self.leagues.handles(path) and where != SOCKET):
            if session is None:
                location, cookie = self.hub_login.redirect_to_hub(self.prefix + path.lstrip("/"), _address(connection))
                return redirect(location, [cookie])
            return self.leagues.http(path) if self.leagues.handles(path) else http_response(path)
        if where not in ("/ws", HANDIN_SOCKET, FEEDBACK_SOCKET, SOCKET, *self._live_socket):
            return http_response(path)
        if session is not None:
            connection.hub_user, connection.teacher = session.user, session.teacher
            return None
        refused = self.limits.bucket("join", _address(connection))
        if not refused.has():  # each token the hub refuses costs a question to the hub: so many, then wait
            return plain(429, "too many tokens the hub refused came from here: wait a minute\n")
        user, refusal = await self.hub.identify(request)  # a notebook: the hub says who, from the token alone
        if user is None:
            if refusal.status_code == 403:
                refused.take()
            return refusal
        connection.hub_user = user
        return None  # the websocket handshake goes on

    async def _connection(self, websocket: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        if websocket.request.path.split("?")[0].endswith(SOCKET):  # a bot entered in a league
            await self.leagues.serve(websocket, getattr(websocket, "hub_user", None))
            return
        address = websocket.remote_address[0] if websocket.remote_address else "?"
        if self.live is not None and websocket.request.path.split("?")[0].endswith(LIVE_SOCKET):
            with contextlib.suppress(ConnectionClosed):
                await self.live.serve(websocket, self, str(address), getattr(websocket, "hub_user", None),
                                      getattr(websocket, "teacher", False), getattr(websocket, "display", None))
            return
        if self.course is not None and websocket.request.path.split("?")[0].endswith(HANDIN_SOCKET):
            with contextlib.suppress(ConnectionClosed):
                await self.course.serve(websocket, self, str(address), getattr(websocket, "hub_user", None))
            return
        if self.course is not None and websocket.request.path.split("?")[0].endswith(FEEDBACK_SOCKET):
            desk = self.course.feedback_desk
            with contextlib.suppress(ConnectionClosed):
                await desk.serve(websocket, self, str(address), getattr(websocket, "hub_user", None))
            return
        conn = Connection(websocket, self, getattr(websocket, "hub_user", None), getattr(websocket, "teacher", False),
                          str(address), display=getattr(websocket, "display", None))
        try:
            async for raw in websocket:
                await conn.throttle()
                conn.receive(raw)
        except ConnectionClosed:  # a dropped connection is no error of the server's: its seat is held
            pass
        finally:
            conn.outbox.close()
            self.tables.gone(conn)

    def _course_page(self, teacher: bool, path: str, session: str | None) -> Any:
        """``/course``: the class's grades and hand-ins, and ``/course/feedback?learner=NAME`` one
        learner's feedback, for the logged-in teacher only (``session``: their session cookie, which
        the release buttons' form token is made from)."""
        if self.course is None:
            return plain(404, "this server has no course: maumau serve --exercises DIR\n")
        if not teacher or session is None:
            return plain(403, "the course page is the teacher's: log in on the lobby page first\n")
        lang = query_lang(path)
        if path.split("?")[0].endswith("/feedback"):
            return html_page(self.course.feedback(query_value(path, "learner"), lang))
        from ..text.i18n import check_language

        page = self.course.page(lang, session)
        if self.live is not None:  # the class right now, one click from its grades
            page = live_links(page, check_language(lang))
        if self.lti is not None:  # the LMS courses' members: the class the grades go to
            from ..lti.roster_page import roster_section

            start, end, tail = page.rpartition("</main>")
            page = start + roster_section(self.lti.db, check_language(lang)) + end + tail
        return html_page(page)

    def _release(self, request: Any, path: str) -> Any:
        """``POST /course/release?exercise=NAME&do=release|hold&form=TOKEN``: a release button of the
        teacher's own course page (``release_form``); anything else changes nothing."""
        from ..grading.feedback_release import FeedbackReleaseError
        from ..text.locale.feedback import said

        lang = query_lang(path)
        if request.method != "POST":
            return plain(405, f"{RELEASE_PATH} takes a POST from the course page's buttons\n", [("Allow", "POST")])
        if self.course is None:
            return plain(404, said("no_course", lang) + "\n")
        if self.hub_login is not None:
            found = self.hub_login.session(request.headers)
            teacher, session = found is not None and found.teacher, _cookie_named(request.headers, HUB_COOKIE)
        else:
            teacher, session = self.sessions.is_teacher(request.headers), _cookie_named(request.headers, COOKIE)
        if not teacher or not same_site(request.headers):
            return plain(403, said("refused_teacher", lang) + "\n")
        if not self.course.release_form.checked(session, query_value(path, "form")):
            return plain(403, said("refused_csrf", lang) + "\n")
        exercise, do = query_value(path, "exercise"), query_value(path, "do")
        if exercise not in self.course.exercises or do not in ("release", "hold"):
            return plain(400, said("unknown_exercise", lang, exercise=repr(exercise[:60])) + "\n")
        try:
            self.course.release_form.change(exercise, do, self.course.course.clock())
        except FeedbackReleaseError as err:
            return plain(400, f"{err}\n")
        return plain(303, "the course page\n", [("Location", f"{self.prefix}course?lang={lang}")])

    def _learner_page(self, who: tuple[str, str] | None, path: str) -> Any:
        """``/my-feedback``: the signed-in learner's own feedback (a hub or LMS sign-in; ``who`` is
        their name and the name to show), never anyone else's."""
        from ..text.locale.feedback import said

        lang = query_lang(path)
        if self.course is None:
            return plain(404, said("no_course", lang) + "\n")
        if who is None:
            return plain(403, said("no_login", lang) + "\n")
        return html_page(self.course.feedback_desk.page(who[0], who[1], lang))

    def _login(self, connection: Any, request: Any, where: str) -> Any:
        """``POST /login`` with ``Authorization: Teacher TOKEN`` (``login``): a session cookie and
        its CSRF token; ``POST /logout`` with that token ends the session.  A GET changes nothing."""
        if request.method != "POST":
            return plain(405, f"{where} takes a POST from the lobby page: a link or an image cannot log "
                              f"anyone in or out\n", [("Allow", "POST")])
        if where == "/logout":
            cleared = self.sessions.close(request.headers)
            if cleared is None:
                return plain(403, "this log-out did not come from the teacher's own page (its CSRF token "
                                  "is missing or wrong): nothing changed\n")
            return plain(200, "logged out\n", [("Set-Cookie", cookie) for cookie in cleared])
        wrong = self.limits.bucket("wrong", _address(connection))
        if not wrong.has():
            return plain(429, "too many tries from here: wait a minute\n")
        token = token_from(request.headers)
        if not same_site(request.headers) or not self.is_teacher(token):
            wrong.take()
            return plain(403, "the teacher token is wrong\n")
        return plain(200, "logged in\n", [("Set-Cookie", cookie) for cookie in self.sessions.open()])

    # --- the teacher's calls (from any thread) --------------------------------------------------------
    def _on_loop(self, call: Callable[[], T]) -> T:
        if self._loop is None or not self._loop.is_running():
            return call()
        future: Future[T] = Future()

        def run() -> None:
            try:
                future.set_result(call())
            except BaseException as err:  # handed to the caller's thread
                future.set_exception(err)
        self._loop.call_soon_threadsafe(run)
        return future.result(10)

    def create_table(self, variant: str = "makao", seats: int = 4, computers: int = 0, strength: str = "medium",
                     seed: int | None = None, without: tuple[str, ...] | list[str] = (), lang: str | None = None,
                     clock: float | None = None, **options: Any) -> str:
        """A new table; returns its join code (six letters and digits).  ``options`` are the
        variant's (``limit=50`` for makao, ...); ``without`` names rules to leave out.  Without a
        ``seed`` the deal is a secret random one; ``clock`` is the turn clock in seconds (None:
        a learner may think as long as they like); ``lang``, the table's language for the lobby (None:
        the course's)."""
        from ..text.i18n import check_language

        lang = check_language(lang)
        spec = TableSpec(variant, seats, computers, strength, tuple(without), seed, lang, options, clock,
                         fixed_seed=seed is not None).check()
        return self._on_loop(lambda: self.tables.open(spec))

    def start_table(self, code: str) -> None:
        """Computers take the open seats and the first hand is dealt."""
        self._on_loop(lambda: self.tables.start(code))

    def restart_table(self, code: str) -> None:
        """A new match at a finished table (any variant), the same people at it."""
        self._on_loop(lambda: self.tables.restart(code))

    def close_table(self, code: str) -> None:
        """The table ends; everyone at it is told, and it is not resumed."""
        self._on_loop(lambda: self.tables.close(code))

    def table(self, code: str) -> ClassTable:
        """The table itself (for a teacher's notebook: read it, do not change it)."""
        return self.tables.get(code)

    def is_teacher(self, token: str | None) -> bool:
        return token is not None and same_token(token, self.store.teacher_hash())

    def check_teacher(self, token: str | None) -> None:
        if not self.is_teacher(token):
            raise TableError("forbidden", "only the teacher may do that (the teacher token is wrong)")

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self.stop()


def _address(connection: Any) -> str:
    """The client address of a connection ("?" when the socket does not say)."""
    return str(connection.remote_address[0]) if connection.remote_address else "?"
