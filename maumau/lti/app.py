"""The LTI endpoints: ``/lti/login`` (the platform starts a login), ``/lti/launch`` (the platform's
form posts the id_token), ``/lti/jwks`` (the tool's public keys), ``/lti/deep-link`` (an
instructor's choice of activities goes back to the LMS) and ``/lti/exercise`` (a learner's page of
an exercise the LMS links to).

Why a tornado app beside the websocket server: the launch is a form POST, and the class server's
``websockets`` (17) reads no request body (a request with one is refused before the server sees
it), so it cannot take a launch.  tornado reads forms, runs on the same asyncio loop in the same
process (it shares the class server's sessions and database with no locks, no second process),
and comes with every Jupyter installation.  It listens on a port of its own (``--lti-port``,
default the class server's port + 1) on the same host: the session cookie a launch sets is the
class pages' too, since browsers keep cookies per host, not per port.  Behind a school's https
proxy both are one origin (``tool_url``): ``/lti/`` goes to this port, the rest to the class server.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from ..grading.submissions import MAX_HANDIN_BYTES
from .contexts import Courses
from .deep_linking import AUTO_SUBMIT, DeepLinkRefused, Picks, answer_page, choice_page, content_items, response_token
from .exercise_page import EXERCISE, exercise_page
from .frame import FRAMEABLE, in_a_frame, new_window_page
from .keys import ToolKeys
from .launch import DEEP_LINKING, Launch, LaunchRefused, check_launch
from .learners import SESSION_COOKIE, LearnerSessions
from .logins import LoginRefused, Logins, clear_cookie, form_params
from .platform_keys import COOLDOWN, PlatformKeys
from .platforms import Registrations
from .words import LtiRefusal, browser_language

__all__ = ["LtiTool", "LOGIN", "LAUNCH", "JWKS", "DEEP_LINK", "EXERCISE"]

LOGIN, LAUNCH, JWKS, DEEP_LINK = "/lti/login", "/lti/launch", "/lti/jwks", "/lti/deep-link"
#: The largest request the endpoints read (an id_token is a few kilobytes) ...
MAX_BODY = 64 * 1024
#: ... but a notebook handed in on its exercise page (the class server's own limit, and a form's overhead).
MAX_UPLOAD = MAX_HANDIN_BYTES + MAX_BODY
log = logging.getLogger("maumau.lti")

_HEADERS = [("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"), ("X-Frame-Options", "DENY"),
            ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")]
#: The pages' policy: their own inline style, no frames; the deep linking answer runs its one script.
_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(AUTO_SUBMIT.encode()).digest()).decode()


class LtiTool:
    """maumau's LTI tool on the class server: the registrations, the keys, the logins started,
    the sessions launches opened.  ``teacher_cookies`` opens a teacher's session of the class
    server (its ``Set-Cookie`` values); ``class_url`` says where the class pages are; ``exercises``
    the course's exercises and their points (deep linking offers them), ``titles`` their titles in a
    language (the LMS's columns and the pages show them); ``hand_in`` takes a launched learner's
    upload of an exercise (the class server's course); ``feedback`` gives a learner's feedback on an
    exercise as a part of its page (learner, exercise, language), only once the teacher released it;
    ``own_copy`` gives them their copy of its notebook (with the course's variants, their own positions)."""

    def __init__(self, registrations: Registrations, db: str | Path, teacher_cookies: Callable[[], list[str]],
                 class_url: Callable[[], str], prefix: str = "/", cooldown: float = COOLDOWN,
                 exercises: Callable[[], dict[str, float]] = dict,
                 hand_in: Callable[[str, str, bytes], Any] | None = None,
                 titles: Callable[[str], dict[str, str]] = lambda lang: {},
                 feedback: Callable[[str, str, str], str] | None = None,
                 own_copy: Callable[[str, str, str], str] | None = None) -> None:
        self.registrations = registrations
        self.keys = ToolKeys(db)
        self.platform_keys = PlatformKeys(cooldown=cooldown)
        self.logins = Logins(registrations)
        self.learners = LearnerSessions(db, prefix)
        self.courses = Courses(db)
        self.picks = Picks()
        self.db, self.exercises, self.hand_in, self.titles = str(db), exercises, hand_in, titles
        self.feedback = feedback
        self.own_copy = own_copy  # (learner, exercise, language) -> their copy of the notebook
        self.teacher_cookies, self._class_url, self.prefix = teacher_cookies, class_url, prefix
        self.port: int | None = None
        self.host = "127.0.0.1"
        self._server: Any = None

    # --- where ------------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """Where the LMS reaches the tool: ``tool_url``, else the address this app listens on."""
        if self.registrations.tool_url is not None:
            return self.registrations.tool_url
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def class_url(self) -> str:
        """The class pages: behind one https proxy the tool's URL, else the class server's."""
        return (self.registrations.tool_url or self._class_url()).rstrip("/")

    def columns(self, launch: Launch, exercises: list[str]) -> frozenset[str]:
        """Those of ``exercises`` that have their grade column in the launch's course already (asked
        of the LMS; when it cannot say, none: the LMS then makes the column with the link)."""
        from . import LtiError
        from .line_items import LineItems
        from .services import Services

        course = self.courses.find(launch.platform, launch.context_id) if launch.context_id else None
        if course is None or course.lineitems is None or not exercises:
            return frozenset()
        try:
            items = LineItems(self.db, Services(self.keys, timeout=(3.0, 5.0)))
            return frozenset(e for e in exercises if items.find(launch.platform, course, e) is not None)
        except (LtiError, ImportError):
            return frozenset()

    # --- running ------------------------------------------------------------------------------------------
    async def listen(self, host: str, port: int) -> int:
        """Serve the endpoints on ``host``:``port`` (0: any free port) on the running loop; the port."""
        from tornado.httpserver import HTTPServer
        from tornado.netutil import bind_sockets
        from tornado.web import Application

        login, launch, jwks, missing = _handlers()
        deep_link, exercise = _page_handlers()
        app = Application([(LOGIN, login, {"tool": self}), (LAUNCH, launch, {"tool": self}),
                           (JWKS, jwks, {"tool": self}), (DEEP_LINK, deep_link, {"tool": self}),
                           (EXERCISE, exercise, {"tool": self})], default_handler_class=missing,
                          default_handler_args={"tool": self})
        sockets = bind_sockets(port, host)  # OSError: the server says which port and why (ServerError)
        self._server = HTTPServer(app, max_body_size=MAX_UPLOAD, max_buffer_size=MAX_UPLOAD,
                                  idle_connection_timeout=30, body_timeout=30)
        self._server.add_sockets(sockets)
        self.host, self.port = host, int(sockets[0].getsockname()[1])
        return self.port

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()

    def no_teacher_cookies(self) -> list[str]:
        """The ``Set-Cookie`` values that end a teacher's session in this browser (``classroom.login``)."""
        from ..classroom.login import COOKIE, CSRF_COOKIE

        return [f"{COOKIE}=; Path={self.prefix}; Max-Age=0; HttpOnly; SameSite=Strict",
                f"{CSRF_COOKIE}=; Path={self.prefix}; Max-Age=0; SameSite=Strict"]

    # --- the steps ------------------------------------------------------------------------------------------
    def landing(self, launch: Launch) -> str:
        """Where a launch goes on: the exercise its link's custom parameter names (deep linking
        made the link), else the page its link names (the lobby, a table, the course page, the live
        view, the learner's feedback, a league) if it is one of this server's, else the lobby."""
        exercise = launch.custom.get("exercise", "")
        if exercise and exercise in self.exercises():
            return f"{self.url}{EXERCISE}?name={quote(exercise, safe='')}"
        base = self.class_url
        target = urlsplit(launch.target_link_uri)
        mine = {urlsplit(base).netloc, urlsplit(self.url).netloc}
        path = target.path or "/"
        # the lobby, the teacher's course and live view (which refuse anyone else), a learner's own feedback
        pages = ("/", "/course", "/live", "/live/projector", "/my-feedback")
        if target.netloc in mine and (path in pages or path.startswith(("/t/", "/league/"))):
            return base + path
        return base + "/"


class _Handler:  # the shared parts of the three handlers (mixed into tornado's RequestHandler)
    tool: LtiTool

    def initialize(self, tool: LtiTool) -> None:
        self.tool = tool

    def prepare(self) -> None:
        """Only a notebook's upload may be larger than an LTI message."""
        request = self.request  # type: ignore[attr-defined]
        upload = request.method == "POST" and request.path == EXERCISE
        if len(request.body or b"") > (MAX_UPLOAD if upload else MAX_BODY):
            self.refuse(413, "the request is too large")

    def set_default_headers(self) -> None:
        for name, value in _HEADERS:
            self.set_header(name, value)  # type: ignore[attr-defined]

    def refuse(self, status: int, refusal: LtiRefusal | str) -> None:
        """Answer ``status`` with the refusal's one sentence, in the browser's language."""
        headers = self.request.headers  # type: ignore[attr-defined]
        sentence = refusal.said(browser_language(headers.get("Accept-Language"))) \
            if isinstance(refusal, LtiRefusal) else refusal
        self.set_status(status)  # type: ignore[attr-defined]
        self.set_header("Content-Type", "text/plain; charset=utf-8")  # type: ignore[attr-defined]
        self.finish(sentence + "\n")  # type: ignore[attr-defined]

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")  # type: ignore[attr-defined]
        self.finish(f"{status_code}: the LTI endpoints are {LOGIN}, {LAUNCH} and {JWKS}\n")  # type: ignore[attr-defined]


def _handlers() -> tuple[type, type, type, type]:
    """The tornado handlers (tornado is imported when the app is made, not with this module)."""
    return (_login_handler(), _launch_handler(), *_key_handlers())


def _login_handler() -> type:
    """The OIDC login the platform starts: state and nonce, then off to the platform's authorisation."""
    from tornado.web import RequestHandler

    class Login(_Handler, RequestHandler):
        def get(self) -> None:
            self.start()

        def post(self) -> None:
            self.start()

        def start(self) -> None:
            params = form_params(self.request.arguments)
            if in_a_frame(self.request.headers):  # the LMS shows the tool in its page: a window of its own
                self.open_in_a_window(params)
                return
            try:
                location, _, cookie = self.tool.logins.start(params, self.tool.url + LAUNCH,
                                                             self.request.remote_ip or "?")
            except LoginRefused as err:
                self.refuse(400, err)
                return
            self.add_header("Set-Cookie", cookie)
            self.redirect(location, status=302)

        def open_in_a_window(self, params: dict[str, str]) -> None:
            for name, _ in _HEADERS:
                self.clear_header(name)
            for name, value in FRAMEABLE:
                self.set_header(name, value)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            lang = browser_language(self.request.headers.get("Accept-Language"))
            self.finish(new_window_page(self.tool.url + LOGIN, params, lang))

    return Login


def _launch_handler() -> type:
    """The launch the platform posts: every check of the id_token, then the learner is signed in."""
    from tornado.web import RequestHandler

    class LaunchHandler(_Handler, RequestHandler):
        async def post(self) -> None:
            params = form_params(self.request.body_arguments)
            cookies = {name: morsel.value for name, morsel in self.request.cookies.items()}
            state = params.get("state", "")
            try:
                login = self.tool.logins.take(state, cookies)
            except LoginRefused as err:
                self.refuse(403, err)
                return
            self.add_header("Set-Cookie", clear_cookie(state))
            try:
                launch = await asyncio.to_thread(check_launch, params.get("id_token", ""), login,
                                                 self.tool.platform_keys)
            except LaunchRefused as err:
                log.info("an LTI launch was refused: %s", err)
                self.refuse(403, err)
                return
            key = None
            if launch.message_type == DEEP_LINKING:  # the LMS's "add an activity": an instructor's only
                try:
                    key = self.tool.picks.keep(launch)
                except DeepLinkRefused as err:
                    self.refuse(403, err)
                    return
            learner, cookie = self.tool.learners.open(launch)
            self.tool.courses.record(launch, learner.learner)  # its grade and roster services, for later
            self.add_header("Set-Cookie", cookie)
            # a learner launched in a browser a teacher used before is that learner, not the teacher
            for value in self.tool.teacher_cookies() if learner.teacher else self.tool.no_teacher_cookies():
                self.add_header("Set-Cookie", value)
            if key is not None:
                lang = browser_language(self.request.headers.get("Accept-Language"))
                self.set_header("Content-Security-Policy", _PAGE_POLICY)
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.finish(choice_page(key, self.tool.url + DEEP_LINK, self.tool.exercises(),
                                        launch.deep_linking.get("accept_multiple") is not False, lang,
                                        self.tool.titles(lang)))
                return
            self.redirect(self.tool.landing(launch), status=303)

    return LaunchHandler


def _page_handlers() -> tuple[type, type]:
    """The instructor's choice of activities (back to the LMS, signed), and a learner's exercise page."""
    return _deep_link_handler(), _exercise_handler()


def _deep_link_handler() -> type:
    from tornado.web import RequestHandler

    class DeepLink(_Handler, RequestHandler):
        async def post(self) -> None:
            chosen = [c for c in self.get_body_arguments("item") if c]
            lang = browser_language(self.request.headers.get("Accept-Language"))
            try:
                if not chosen:  # the choice stays open: the instructor ticks one and adds again
                    raise DeepLinkRefused("choose at least one activity to add")
                launch = self.tool.picks.take(self.get_body_argument("pick", ""))
            except DeepLinkRefused as err:
                self.refuse(400, err)
                return
            if launch.deep_linking.get("accept_multiple") is False:
                chosen = chosen[:1]
            exercises = self.tool.exercises()
            have = await asyncio.to_thread(self.tool.columns, launch, [c for c in chosen if c in exercises])
            items = content_items(chosen, exercises, self.tool.url, lang, have, self.tool.titles(lang))
            token = response_token(launch, items, self.tool.keys)
            self.set_header("Content-Security-Policy", f"{_PAGE_POLICY}; script-src 'sha256-{_SCRIPT_HASH}'")
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(answer_page(str(launch.deep_linking["deep_link_return_url"]), token, lang))

    return DeepLink


def _exercise_handler() -> type:
    from tornado.web import RequestHandler

    class Exercise(_Handler, RequestHandler):
        def learner(self) -> tuple[Any, str, dict[str, float]] | None:
            """The launched learner, the exercise and the course's points; None once refused."""
            found = self.tool.learners.session(self.request.headers, self.get_cookie(SESSION_COOKIE) or "")
            name = self.get_query_argument("name", "")
            points = self.tool.exercises()
            if found is None:
                self.refuse(403, DeepLinkRefused("open maumau's link in the LMS to see this page"))
                return None
            if name not in points:
                self.refuse(404, DeepLinkRefused("this course has no exercise {name}", name=repr(name[:60])))
                return None
            return found, name, points

        def post(self) -> None:
            from ..grading.submissions import HandInError

            who = self.learner()
            if who is None:
                return
            found, name, _ = who
            files = self.request.files.get("notebook") or []
            try:
                if not files or not files[0].body:
                    raise HandInError("choose your notebook (.ipynb) to hand in")
                if self.tool.hand_in is None:
                    raise HandInError("this class server takes no hand-ins (it was started without a course)")
                self.tool.hand_in(found.learner, name, bytes(files[0].body))
            except HandInError as err:
                self.refuse(400, str(err))
                return
            self.redirect(f"{self.tool.url}{EXERCISE}?name={quote(name, safe='')}", status=303)  # with this version

        def get(self) -> None:
            who = self.learner()
            if who is None:
                return
            found, name, points = who
            lang = browser_language(self.request.headers.get("Accept-Language"))
            if self.get_query_argument("download", "") and self.tool.own_copy is not None:
                _send_own_copy(self, self.tool.own_copy, found.learner, name, lang)
                return
            self.set_header("Content-Security-Policy", _PAGE_POLICY)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            title = self.tool.titles(lang).get(name, name)
            feedback = self.tool.feedback(found.learner, name, lang) if self.tool.feedback is not None else ""
            self.finish(exercise_page(self.tool.db, name, points[name], found.learner, found.display,
                                      self.tool.class_url + "/", lang, title, feedback,
                                      download=self.tool.own_copy is not None))

    return Exercise


def _send_own_copy(page: Any, own_copy: Callable[[str, str, str], str], learner: str, name: str, lang: str) -> None:
    """The launched learner's own copy of the exercise's notebook, as a file to save (``page``: the
    exercise page's handler)."""
    from ..grading.submissions import HandInError

    try:
        text = own_copy(learner, name, lang)
    except HandInError as err:
        page.refuse(400, str(err))
        return
    page.set_header("Content-Type", "application/x-ipynb+json")
    page.set_header("Content-Disposition", f'attachment; filename="{name}.ipynb"')
    page.finish(text)


def _key_handlers() -> tuple[type, type]:
    """The tool's public keys (JWKS), and a plain refusal for any other path."""
    from tornado.web import RequestHandler

    class Jwks(_Handler, RequestHandler):
        def get(self) -> None:
            self.set_header("Content-Type", "application/json")
            self.set_header("Cache-Control", "max-age=300")
            self.finish(json.dumps(self.tool.keys.jwks()))

    class Missing(_Handler, RequestHandler):
        def prepare(self) -> None:
            self.refuse(404, f"not found: the LTI endpoints are {LOGIN}, {LAUNCH} and {JWKS}")

    return Jwks, Missing
