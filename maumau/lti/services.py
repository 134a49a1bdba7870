"""Speaking to the LMS's services (grades, roster) as the tool: an access token, then requests.

The token comes from the platform's token URL by the OAuth 2 client credentials grant, the tool
proving who it is with a JWT signed by its own key (IMS Security Framework 4.1, "Using JSON Web
Tokens with OAuth 2.0 Client Credentials Grant"): ``iss`` and ``sub`` the client id, ``aud`` the
token URL, a fresh ``jti``, five minutes to live.  The platform checks the signature against the
tool's published key set (``/lti/jwks``).  A token is kept until a minute before it expires, one
per platform and set of scopes, so a run that sends a class's grades asks once.

Every request has a timeout (``TIMEOUT``): a platform that hangs costs seconds, not the run.
Whatever goes wrong is one sentence (``ServiceError``): which service, what it answered.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from . import LtiError
from .keys import ToolKeys
from .platforms import Platform

__all__ = ["ServiceError", "Services", "TIMEOUT", "ASSERTION_TYPE", "MOST_PAGES"]

#: Seconds to connect and to wait for an answer.
TIMEOUT = (5.0, 20.0)
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
#: The most pages a list (line items, members) is followed for: a platform whose "next" never ends.
MOST_PAGES = 200


class ServiceError(LtiError):
    """An LMS service refused or failed: one sentence saying which and what it answered."""

    def __init__(self, sentence: str, status: int | None = None, said: str = "") -> None:
        super().__init__(sentence)
        self.status, self.said = status, said


@dataclass
class _Token:
    value: str
    until: float


class Services:
    """Requests to the services of the registered platforms, signed with the tool's ``keys``."""

    def __init__(self, keys: ToolKeys, timeout: tuple[float, float] = TIMEOUT) -> None:
        import requests

        self.keys, self.timeout = keys, timeout
        self._tokens: dict[tuple[str, str, frozenset[str]], _Token] = {}
        self._http = requests.Session()
        self._http.headers["User-Agent"] = "maumau-lti"
        #: How many tokens were asked for (the tests read it: one run, one token).
        self.token_requests = 0

    # --- the token ------------------------------------------------------------------------------------------
    def token(self, platform: Platform, scopes: frozenset[str]) -> str:
        """An access token for ``scopes`` at ``platform`` (kept until a minute before it expires)."""
        key = (platform.token_url, platform.client_id, scopes)
        kept = self._tokens.get(key)
        if kept is not None and kept.until > time.monotonic():
            return kept.value
        self.token_requests += 1
        try:
            answer = self._send("POST", platform.token_url, "the LMS's token URL", data={
                "grant_type": "client_credentials", "client_assertion_type": ASSERTION_TYPE,
                "client_assertion": self.assertion(platform), "scope": " ".join(sorted(scopes))},
                headers={"Accept": "application/json"})
        except ServiceError as err:
            if err.status not in (400, 401):
                raise
            raise ServiceError(
                f"the LMS at {platform.token_url} refused maumau's request for an access token ({err.said}): it "
                f"does not accept maumau's key; the LMS reads it at maumau's /lti/jwks (maumau serve running and "
                f"reachable there) or has it pasted (paste the output of maumau lti keys again after a rotate)",
                err.status) from None
        body = _json(answer, "the LMS's token URL")
        value, lifetime = body.get("access_token"), body.get("expires_in", 3600)
        if not isinstance(value, str) or not value:
            raise ServiceError(f"the LMS's token URL {platform.token_url} answered without an access token")
        seconds = float(lifetime) if isinstance(lifetime, (int, float)) else 3600.0
        self._tokens[key] = _Token(value, time.monotonic() + max(0.0, seconds - 60))
        return value

    def assertion(self, platform: Platform) -> str:
        """The JWT by which the tool proves who it is to the token URL (signed by its key)."""
        import jwt

        kid, private = self.keys.signing_key()
        now = int(time.time())
        claims = {"iss": platform.client_id, "sub": platform.client_id, "aud": platform.token_url, "iat": now,
                  "exp": now + 300, "jti": secrets.token_urlsafe(16)}
        return str(jwt.encode(claims, private, algorithm="RS256", headers={"kid": kid}))

    def forget_tokens(self) -> None:
        self._tokens.clear()

    # --- the requests ---------------------------------------------------------------------------------------
    def get(self, platform: Platform, scopes: frozenset[str], url: str, accept: str, what: str) -> Any:
        """``url``'s JSON (one page) and the next page's URL, or None."""
        from .contexts import service_url

        answer = self._send("GET", url, what, headers=self._auth(platform, scopes, accept))
        # the next page gets the token too: only at a URL the token may go to (https, or this machine)
        return _json(answer, what), service_url(answer.links.get("next", {}).get("url"))

    def pages(self, platform: Platform, scopes: frozenset[str], url: str, accept: str, what: str) -> Iterator[Any]:
        """Every page of a list, following the ``Link: <...>; rel="next"`` headers."""
        seen: set[str] = set()
        next_url: str | None = url
        while next_url is not None and next_url not in seen and len(seen) < MOST_PAGES:
            seen.add(next_url)
            page, next_url = self.get(platform, scopes, next_url, accept, what)
            yield page

    def post(self, platform: Platform, scopes: frozenset[str], url: str, body: dict[str, Any], content_type: str,
             accept: str, what: str) -> Any:
        """POST ``body`` as JSON of ``content_type``; the answer's JSON (None when it has none)."""
        headers = {**self._auth(platform, scopes, accept), "Content-Type": content_type}
        answer = self._send("POST", url, what, json=body, headers=headers)
        return _json(answer, what) if answer.content.strip() else None

    def _auth(self, platform: Platform, scopes: frozenset[str], accept: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(platform, scopes)}", "Accept": accept}

    def _send(self, method: str, url: str, what: str, **kwargs: Any) -> Any:
        import requests

        try:
            answer = self._http.request(method, url, timeout=self.timeout, allow_redirects=False, **kwargs)
        except requests.Timeout:
            raise ServiceError(f"{what} {url} did not answer within {self.timeout[1]:g} s (whether it took the "
                               f"request is not known: the next run sends it again)") from None
        except requests.RequestException as err:
            raise ServiceError(f"{what} {url} cannot be reached: {_reason(err)}") from None
        if answer.status_code >= 400:
            said = _said(answer)
            raise ServiceError(f"{what} {url} answered {answer.status_code}: {said}", answer.status_code, said)
        if answer.status_code >= 300:
            raise ServiceError(f"{what} {url} answered {answer.status_code} (a redirect, which maumau does not "
                               f"follow with its access token)", answer.status_code)
        return answer


def _json(answer: Any, what: str) -> Any:
    try:
        return answer.json()
    except ValueError:
        raise ServiceError(f"{what} {answer.url} answered something that is not JSON") from None


def _said(answer: Any) -> str:
    """The platform's reason in a few words: its error fields if JSON, else its text."""
    try:
        body = answer.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        parts = [str(body[k]) for k in ("error", "error_description", "message", "reason") if body.get(k)]
        if parts:
            return ": ".join(parts)[:200]
    text = " ".join(answer.text.split())[:200]
    return text or answer.reason or "no reason given"


def _reason(err: Exception) -> str:
    text = str(err)
    return text[text.rfind(":") + 1:].strip()[:160] if ":" in text else text[:160]
