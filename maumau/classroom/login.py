"""The teacher's login for the pages: the token once, then a session cookie.

The lobby sends the token once, in a header of ``GET /login`` (``Authorization: Teacher
TOKEN``), never in a URL; the answer sets a session cookie (``HttpOnly``: no script reads it;
``SameSite=Strict``: no other site's page sends it; ``Path`` the server's prefix) that every
later page and websocket of that browser carries.  A websocket whose ``Origin`` is another
site's is not the teacher's, whatever cookie it has.  Sessions live in the server's memory
for ``SESSION_SECONDS`` (a restarted server asks the teacher to log in again); ``GET /logout``
ends one.  Python and the command line send the token in the request instead (``teacher``).
"""

from __future__ import annotations

import secrets
import time
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from .store import token_hash

__all__ = ["Sessions", "COOKIE", "SESSION_SECONDS"]

COOKIE = "maumau_teacher"
SESSION_SECONDS = 12 * 3600


class Sessions:
    """The teacher's open sessions, by the hash of their cookie."""

    def __init__(self, prefix: str = "/") -> None:
        self.prefix = prefix
        self._until: dict[str, float] = {}

    def open(self) -> str:
        """A new session: the ``Set-Cookie`` header's value."""
        now = time.monotonic()
        self._until = {k: v for k, v in self._until.items() if v > now}
        session = secrets.token_urlsafe(32)
        self._until[token_hash(session)] = now + SESSION_SECONDS
        return (f"{COOKIE}={session}; Path={self.prefix}; Max-Age={SESSION_SECONDS}; HttpOnly; "
                f"SameSite=Strict")

    def close(self, headers: Any) -> str:
        session = _cookie(headers)
        if session is not None:
            self._until.pop(token_hash(session), None)
        return f"{COOKIE}=; Path={self.prefix}; Max-Age=0; HttpOnly; SameSite=Strict"

    def is_teacher(self, headers: Any) -> bool:
        """Whether a request (a page's websocket handshake) comes from the logged-in teacher."""
        session = _cookie(headers)
        if session is None or not same_site(headers):
            return False
        return self._until.get(token_hash(session), 0.0) > time.monotonic()


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
