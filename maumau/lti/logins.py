"""The OIDC login a platform starts (LTI 1.3, "third-party initiated login"), before a launch.

The platform sends the browser to ``/lti/login`` with its issuer, a ``login_hint`` and the link's
``target_link_uri`` (GET or POST).  The tool answers with a redirect to the platform's
authorization endpoint carrying a fresh ``state`` and ``nonce``; the state is also set in a
cookie of this browser, and both are kept here until the platform's form posts the id_token
back to ``/lti/launch``.  There the state must be the one this browser's cookie holds, and the
token's nonce the one kept for that state; the kept login is taken away at its first use, so
the same launch cannot be posted twice.

The state cookie goes with the platform's cross-site form post only as ``SameSite=None;
Secure``: browsers keep such a cookie over https, and over http on this machine only.  Anyone
may start a login, so what is kept is bounded as for the hub's login (``classroom.hub_login``):
``STATE_SECONDS`` each, ``PENDING_PER_CLIENT`` per client address, ``MOST_PENDING`` in all.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from .platforms import Platform, Registrations
from .words import LtiRefusal

__all__ = ["Logins", "PendingLogin", "LoginRefused", "STATE_COOKIE", "STATE_SECONDS", "PENDING_PER_CLIENT",
           "MOST_PENDING"]

#: The state cookie's name starts so; the state follows (two launches in two tabs keep two cookies).
STATE_COOKIE = "maumau_lti_state_"
#: Seconds between the login's start and its launch.
STATE_SECONDS = 300
PENDING_PER_CLIENT = 200
MOST_PENDING = 2000


class LoginRefused(LtiRefusal):
    """A login or a launch that is not one this tool started for this browser: one sentence."""


@dataclass(frozen=True)
class PendingLogin:
    """A login started and not yet launched: for which platform, its nonce, since when, by whom."""

    platform: Platform
    nonce: str
    started: float  # wall clock: compared with the token's iat
    until: float    # monotonic
    client: str


class Logins:
    """The logins started and not yet launched, by state."""

    def __init__(self, registrations: Registrations) -> None:
        self.registrations = registrations
        self._pending: dict[str, PendingLogin] = {}

    def start(self, params: dict[str, str], launch_url: str, client: str = "?") -> tuple[str, str, str]:
        """A login the platform starts with ``params``: the URL of the platform's authorization
        endpoint to send the browser to, the state, and the state cookie to set.  LoginRefused
        for a platform that is not registered or a request without what the spec requires."""
        issuer, hint = params.get("iss", ""), params.get("login_hint", "")
        if not issuer or not hint or not params.get("target_link_uri"):
            raise LoginRefused("this is not an LTI login: it needs iss, login_hint and target_link_uri")
        platform = self.registrations.find(issuer, params.get("client_id"))
        if platform is None:
            raise LoginRefused("no LMS with issuer {issuer} (and this client id) is registered with this maumau: the "
                               "teacher adds it to the LTI registrations", issuer=repr(issuer[:200]))
        deployment = params.get("lti_deployment_id")
        if deployment and deployment not in platform.deployment_ids:
            raise LoginRefused("deployment {deployment} of this LMS is not registered with this maumau: the teacher "
                               "adds it to the registration's deployment_ids", deployment=repr(deployment[:80]))
        now = time.monotonic()
        self._make_room(client, now)
        state, nonce = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self._pending[state] = PendingLogin(platform, nonce, time.time(), now + STATE_SECONDS, client)
        query = {"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
                 "client_id": platform.client_id, "redirect_uri": launch_url, "login_hint": hint,
                 "state": state, "nonce": nonce}
        if params.get("lti_message_hint"):
            query["lti_message_hint"] = params["lti_message_hint"]
        joiner = "&" if "?" in platform.login_url else "?"
        cookie = f"{STATE_COOKIE}{state}={state}; Path=/lti/; Max-Age={STATE_SECONDS}; HttpOnly; SameSite=None; Secure"
        return f"{platform.login_url}{joiner}{urlencode(query)}", state, cookie

    def take(self, state: str, cookies: dict[str, str]) -> PendingLogin:
        """The login of a launch's ``state``, taken away (a launch is used once); LoginRefused
        unless this browser's state cookie holds that state and the login is still open."""
        if not state or not secrets.compare_digest(cookies.get(STATE_COOKIE + state, ""), state):
            raise LoginRefused("this launch is not the one this browser started (its state cookie is missing or "
                               "different): open the link in the LMS again")
        pending = self._pending.pop(state, None)
        if pending is None:
            raise LoginRefused("this launch was used already: open the link in the LMS again")
        if pending.until < time.monotonic():
            raise LoginRefused("this login took too long: open the link in the LMS again")
        return pending

    def _make_room(self, client: str, now: float) -> None:
        """Room for one more login: the stale go, then this client's oldest beyond its share,
        then the oldest of all beyond ``MOST_PENDING``."""
        if len(self._pending) >= MOST_PENDING // 2:
            self._pending = {k: v for k, v in self._pending.items() if v.until > now}
        mine = [k for k, v in self._pending.items() if v.client == client]
        for key in mine[:max(0, len(mine) - PENDING_PER_CLIENT + 1)]:
            del self._pending[key]
        while len(self._pending) >= MOST_PENDING:
            del self._pending[next(iter(self._pending))]

    def __len__(self) -> int:
        return len(self._pending)


def clear_cookie(state: str) -> str:
    """The ``Set-Cookie`` value that removes a launch's state cookie."""
    return f"{STATE_COOKIE}{state}=; Path=/lti/; Max-Age=0; HttpOnly; SameSite=None; Secure"


def form_params(arguments: dict[str, Any]) -> dict[str, str]:
    """A request's parameters (tornado's ``request.arguments``: name -> list of bytes): the first of
    each, as text; a value that is not UTF-8 is dropped."""
    found = {}
    for key, values in arguments.items():
        try:
            found[key] = values[0].decode("utf-8") if values else ""
        except UnicodeDecodeError:
            continue
    return found
