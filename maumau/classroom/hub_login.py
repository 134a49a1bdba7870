"""The pages on JupyterHub: a browser logs in through the hub's OAuth (``HubOAuth``).

With ``maumau serve --hub`` a page (the lobby, a table's page, the projector) opened without a
session is redirected to the hub's ``/hub/api/oauth2/authorize`` (with a one-time ``state``,
bound to the browser by an ``HttpOnly`` cookie, and PKCE); the hub sends the browser back to
``oauth_callback`` with a code, which the server exchanges for the user's token
(``HubOAuth.token_for_code``) and asks the hub whose it is.  The browser then holds only a
random session id (``HttpOnly``, ``SameSite=Strict``); the hub token stays on the server.  The
page's websocket carries that cookie, and the server seats the hub user it names.

The teacher is a hub role, not a pasted token: a hub admin, or a member of the group named by
``--hub-teachers`` (default ``teachers``), asked of the hub with the service's own token (the
service needs the ``read:users`` scope; docs/howto/jupyterhub.md).

Anyone may start a login (a page opened without a session), so what a started login keeps is
bounded: it lives ``STATE_SECONDS``, one client (address) keeps at most ``PENDING_PER_CLIENT``
(its oldest go first), the whole server at most ``MOST_PENDING``; sessions are kept until they
end, at most ``MOST_SESSIONS`` (the oldest go first).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from ..extras import need
from .login import _cookie_named, keep_session, same_site

__all__ = ["HubLogin", "HubSession", "StartedLogin", "SESSION_COOKIE", "STATE_COOKIE", "PENDING_PER_CLIENT",
           "MOST_PENDING", "MOST_SESSIONS"]

SESSION_COOKIE = "maumau_hub_session"
STATE_COOKIE = "maumau_hub_state"
SESSION_SECONDS = 8 * 3600
STATE_SECONDS = 600
#: Logins one client address may have started and not finished (a school behind one router, each
#: learner typing their password on the hub's login page).
PENDING_PER_CLIENT = 200
#: Logins started and not finished on the whole server (a class of hundreds opening the page).
MOST_PENDING = 2000
#: Open sessions on the whole server.
MOST_SESSIONS = 10_000


@dataclass(frozen=True)
class StartedLogin:
    """A login started and not yet finished: where to go after it, its PKCE verifier, by whom."""
    next_path: str
    verifier: str
    until: float
    client: str


@dataclass(frozen=True)
class HubSession:
    user: str
    teacher: bool
    until: float


class HubLogin:
    """The OAuth login of the pages and the sessions it opens (see the module docstring)."""

    def __init__(self, prefix: str, teachers_group: str = "teachers") -> None:
        auth = need("jupyterhub.services.auth", "classroom.Server(hub=True)")  # the extra maumau[hub]
        self.auth = auth.HubOAuth(cache_max_age=30)
        self.prefix, self.teachers_group = prefix, teachers_group
        self._states: dict[str, StartedLogin] = {}  # the state sent to the hub -> the login it belongs to
        self._sessions: dict[str, HubSession] = {}

    # --- the steps of the login -------------------------------------------------------------------------
    def redirect_to_hub(self, next_path: str, client: str = "?") -> tuple[str, str]:
        """Where to send a browser without a session, and the state cookie to set; ``client``
        (the address) counts against ``PENDING_PER_CLIENT``."""
        now = time.monotonic()
        self._make_room(client, now)
        state = secrets.token_urlsafe(24)
        verifier, challenge, method = self.auth.generate_pkce_code_challenge()
        self._states[state] = StartedLogin(next_path[:2048], verifier, now + STATE_SECONDS, client)
        query = urllib.parse.urlencode({
            "client_id": self.auth.oauth_client_id, "redirect_uri": self.auth.oauth_redirect_uri,
            "response_type": "code", "state": state, "code_challenge": challenge,
            "code_challenge_method": method})
        cookie = f"{STATE_COOKIE}={state}; Path={self.prefix}; Max-Age={STATE_SECONDS}; HttpOnly; SameSite=Lax"
        return f"{self.auth.oauth_authorization_url}?{query}", cookie

    def _make_room(self, client: str, now: float) -> None:
        """Room for one more started login: the stale go, then this client's oldest beyond its
        share, then the oldest of all beyond ``MOST_PENDING``."""
        if len(self._states) >= MOST_PENDING // 2:
            self._states = {k: v for k, v in self._states.items() if v.until > now}
        mine = [k for k, v in self._states.items() if v.client == client]
        for key in mine[:max(0, len(mine) - PENDING_PER_CLIENT + 1)]:
            del self._states[key]
        while len(self._states) >= MOST_PENDING:
            del self._states[next(iter(self._states))]

    async def finish(self, query: str, headers: Any) -> tuple[str, str] | str:
        """The hub sent the browser back (``oauth_callback?code=...&state=...``): the page to go
        to and the session cookie, or the sentence saying why not."""
        found = urllib.parse.parse_qs(query)
        code, state = found.get("code", [""])[0], found.get("state", [""])[0]
        pending = self._states.pop(state, None) if state else None
        if not code or pending is None or _cookie_named(headers, STATE_COOKIE) != state:
            return "this login is not the one this browser started: open the page again"
        next_path, verifier, until = pending.next_path, pending.verifier, pending.until
        if until < time.monotonic():
            return "this login took too long: open the page again"
        try:
            token = await asyncio.to_thread(self.auth.token_for_code, code, code_verifier=verifier)
            user = await asyncio.to_thread(self.auth.user_for_token, token, False)
        except Exception:  # noqa: BLE001  the hub refused the code or does not answer: say so
            return "the hub did not confirm this login: open the page again"
        if not user or user.get("kind", "user") != "user":
            return "the hub did not name a user for this login"
        name = str(user["name"])
        session = secrets.token_urlsafe(32)
        teacher = await asyncio.to_thread(self.is_teacher, name)
        self._keep_session(session, HubSession(name, teacher, time.monotonic() + SESSION_SECONDS))
        cookie = f"{SESSION_COOKIE}={session}; Path={self.prefix}; Max-Age={SESSION_SECONDS}; HttpOnly; SameSite=Strict"
        return next_path if next_path.startswith(self.prefix) else self.prefix, cookie

    def _keep_session(self, session: str, found: HubSession) -> None:
        """Keep a new session: ended ones go, then the oldest beyond ``MOST_SESSIONS``."""
        keep_session(self._sessions, session, found, MOST_SESSIONS)

    def session(self, headers: Any) -> HubSession | None:
        """The hub user of a request that carries a live session cookie (from this site)."""
        session_id = _cookie_named(headers, SESSION_COOKIE)
        found = self._sessions.get(session_id or "")
        if found is None or found.until < time.monotonic() or not same_site(headers):
            return None
        return found

    def is_teacher(self, user: str) -> bool:
        """A hub admin, or a member of the teachers' group (asked with the service's own token)."""
        api = self.auth.api_url.rstrip("/")
        request = urllib.request.Request(f"{api}/users/{urllib.parse.quote(user)}",
                                         headers={"Authorization": f"token {self.auth.api_token}"})
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                model: dict[str, Any] = json.load(answer)
        except (urllib.error.URLError, OSError, ValueError):
            return False
        return bool(model.get("admin")) or self.teachers_group in (model.get("groups") or ())
