"""The teacher's login for the pages: the token once, then a session cookie.

The lobby sends the token once, in a header of ``POST /login`` (``Authorization: Teacher
TOKEN``), never in a URL; the answer sets a session cookie (``HttpOnly``: no script reads it;
``SameSite=Strict``: no other site's page sends it; ``Path`` the server's prefix) that every
later page and websocket of that browser carries.  A websocket whose ``Origin`` is another
site's is not the teacher's, whatever cookie it has.  Sessions live in the server's memory
for ``SESSION_SECONDS`` (a restarted server asks the teacher to log in again).

Whatever changes state over HTTP is a ``POST`` (a ``GET`` is refused with 405: an ``<img
src=/logout>`` on another page changes nothing), from this site (``Origin``), and, once a
session is open, carries that session's CSRF token: the login sets it in a second cookie
(``maumau_csrf``, readable by the lobby's own script, ``SameSite=Strict``), the lobby sends it
back in the ``X-Maumau-CSRF`` header, and the server compares it with the one it keeps for the
session.  ``POST /logout`` ends a session.  Python and the command line send the token in the
request instead (``teacher``).
"""

from __future__ import annotations

import secrets
import time
from http.cookies import CookieError, SimpleCookie
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit

from .store import token_hash

__all__ = ["Sessions", "keep_session", "COOKIE", "CSRF_COOKIE", "CSRF_HEADER", "SESSION_SECONDS"]

COOKIE = "maumau_teacher"
CSRF_COOKIE = "maumau_csrf"
CSRF_HEADER = "X-Maumau-CSRF"
SESSION_SECONDS = 12 * 3600


class Sessions:
    """The teacher's open sessions, by the hash of their cookie."""

    def __init__(self, prefix: str = "/") -> None:
        self.prefix = prefix
        self._open: dict[str, tuple[float, str]] = {}  # hash of the session -> (until, its CSRF token)

    def open(self) -> list[str]:
        """A new session: the ``Set-Cookie`` headers' values (the session, its CSRF token)."""
        now = time.monotonic()
        self._open = {k: v for k, v in self._open.items() if v[0] > now}
        session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        self._open[token_hash(session)] = (now + SESSION_SECONDS, csrf)
        return [f"{COOKIE}={session}; Path={self.prefix}; Max-Age={SESSION_SECONDS}; HttpOnly; SameSite=Strict",
                f"{CSRF_COOKIE}={csrf}; Path={self.prefix}; Max-Age={SESSION_SECONDS}; SameSite=Strict"]

    def close(self, headers: Any) -> list[str] | None:
        """End the session of a ``POST /logout``: the ``Set-Cookie`` values that clear both cookies,
        or None when the request has a live session but not its CSRF token or not this site's
        ``Origin`` (another page's forged request: nothing ends)."""
        if self._live(headers) is not None and not self.checked(headers):
            return None
        session = _cookie(headers)
        if session is not None:
            self._open.pop(token_hash(session), None)
        return [f"{COOKIE}=; Path={self.prefix}; Max-Age=0; HttpOnly; SameSite=Strict",
                f"{CSRF_COOKIE}=; Path={self.prefix}; Max-Age=0; SameSite=Strict"]

    def is_teacher(self, headers: Any) -> bool:
        """Whether a request (a page's websocket handshake) comes from the logged-in teacher."""
        return same_site(headers) and self._live(headers) is not None

    def checked(self, headers: Any) -> bool:
        """A state-changing request of the logged-in teacher's own page: a live session, this
        site's ``Origin`` (or none: not a browser) and the session's CSRF token in ``X-Maumau-CSRF``."""
        csrf = self._live(headers)
        sent = str(headers.get(CSRF_HEADER, ""))
        return csrf is not None and same_site(headers) and bool(sent) and secrets.compare_digest(sent, csrf)

    def _live(self, headers: Any) -> str | None:
        """The CSRF token of the request's live session, or None."""
        session = _cookie(headers)
        found = self._open.get(token_hash(session)) if session is not None else None
        return found[1] if found is not None and found[0] > time.monotonic() else None


def _cookie(headers: Any) -> str | None:
    return _cookie_named(headers, COOKIE)


def _cookie_named(headers: Any, name: str) -> str | None:
    """The value of cookie ``name`` of a request (None if it has none, or the header is bad)."""
    jar: SimpleCookie = SimpleCookie()
    try:
        for value in headers.get_all("Cookie"):
            jar.load(value)
    except CookieError:
        return None
    morsel = jar.get(name)
    return None if morsel is None or not morsel.value else str(morsel.value)


def same_site(headers: Any) -> bool:
    """No ``Origin`` (not a browser page), or one whose host is the host asked (this server)."""
    origin = headers.get("Origin")
    if origin is None:
        return True
    return bool(urlsplit(origin).netloc.lower() == str(headers.get("Host", "")).lower())


def token_from(headers: Any) -> str | None:
    """The token of ``Authorization: Teacher TOKEN``, or None."""
    value = str(headers.get("Authorization", ""))
    kind, _, token = value.partition(" ")
    return token.strip() or None if kind.lower() == "teacher" else None


class _Ending(Protocol):
    @property
    def until(self) -> float: ...  # time.monotonic() when the session ends


S = TypeVar("S", bound=_Ending)


def keep_session(sessions: dict[str, S], session: str, found: S, most: int) -> None:
    """Keep a new session in ``sessions`` (a hub login's, an LTI launch's): when ``most`` are kept,
    the ended ones go, then the oldest."""
    if len(sessions) >= most:
        now = time.monotonic()
        for ended in [key for key, kept in sessions.items() if kept.until <= now]:
            del sessions[ended]
    while len(sessions) >= most:
        del sessions[next(iter(sessions))]
    sessions[session] = found
