"""The class table as a JupyterHub service: learners are the hub's users.

The hub starts ``maumau serve --hub`` (``jupyterhub_config.py`` in docs/howto/jupyterhub.md, "The class
table as a hub service") with ``JUPYTERHUB_API_URL``, ``JUPYTERHUB_SERVICE_URL``, ``JUPYTERHUB_SERVICE_PREFIX``
and ``JUPYTERHUB_OAUTH_ACCESS_SCOPES`` in its environment.  Every websocket carries a hub API
token (``Authorization: token ...``, never in the URL) or, from a page, the session of its OAuth
login (``hub_login``); the server asks the hub whose it is
(``GET {api}/user`` with that very token) and seats that user, so nobody can act for anyone
else: the identity comes from the token alone.  Tokens of services, tokens without access to
this service and unknown tokens are refused at the handshake (401/403).

The hub's answers are kept ``cache_seconds`` (30 s), by the token's SHA-256 (no token is kept),
at most ``cache_size`` of them (1,000; the oldest go first), and only the hub users: a refusal is
never kept, so made-up tokens cost no memory; each costs the client address a try of its
``join`` bucket (``limits``), so nobody makes the server ask the hub without end.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

__all__ = ["HubUsers"]


@dataclass
class HubUsers:
    """Who a hub token belongs to (users cached for ``cache_seconds``, at most ``cache_size``)."""

    api_url: str
    prefix: str = "/"
    host: str = "127.0.0.1"
    port: int = 8765
    scopes: frozenset[str] = frozenset()
    cache_seconds: float = 30.0
    cache_size: int = 1000
    _cache: dict[str, tuple[float, dict[str, Any]]] = field(default_factory=dict)  # SHA-256 -> (when, user)

    @classmethod
    def from_environment(cls) -> HubUsers:
        env = os.environ
        if "JUPYTERHUB_API_URL" not in env:
            raise RuntimeError("--hub: JUPYTERHUB_API_URL is not set; JupyterHub starts the service with it "
                               "(docs: Run maumau on a JupyterHub)")
        where = urlsplit(env.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:8765"))
        return cls(api_url=env["JUPYTERHUB_API_URL"].rstrip("/"), prefix=env.get("JUPYTERHUB_SERVICE_PREFIX", "/"),
                   host=where.hostname or "127.0.0.1", port=where.port or 8765,
                   scopes=frozenset(json.loads(env.get("JUPYTERHUB_OAUTH_ACCESS_SCOPES", "[]"))))

    async def identify(self, request: Any) -> tuple[str | None, Any]:
        """The hub user of a websocket handshake, or None and the refusal to send."""
        from websockets.datastructures import Headers
        from websockets.http11 import Response

        def refuse(status: int, reason: str, text: str) -> tuple[None, Any]:
            return None, Response(status, reason, Headers([("Content-Type", "text/plain; charset=utf-8")]),
                                  text.encode())
        header = request.headers.get("Authorization", "")
        token = header.split(None, 1)[1].strip() if header.lower().startswith(("token ", "bearer ")) else ""
        if not token:
            return refuse(401, "Unauthorized", "a JupyterHub token is needed (Authorization: token ...)\n")
        try:
            user = await self.user_for_token(token)
        except OSError:
            return refuse(502, "Bad Gateway", "the hub does not answer\n")
        if user is None or user.get("kind", "user") != "user":
            return refuse(403, "Forbidden", "this token is not a hub user's token for this service\n")
        return str(user["name"]), None

    async def user_for_token(self, token: str) -> dict[str, Any] | None:
        """The hub's user of ``token`` (its ``name`` and ``kind``), or None if the hub refuses it."""
        now, key = time.monotonic(), hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
        cached = self._cache.get(key)
        if cached is not None and now - cached[0] < self.cache_seconds:
            return cached[1]
        answer = await asyncio.to_thread(self._ask_hub, token)
        if answer is None or (self.scopes and not self.scopes & set(answer.get("scopes", ()))):
            self._cache.pop(key, None)
            return None  # unknown, or a valid token without access to this service: never kept
        user = {"name": str(answer.get("name", "")), "kind": str(answer.get("kind", "user"))}
        self._keep(key, now, user)
        return user

    def _keep(self, key: str, now: float, user: dict[str, Any]) -> None:
        """Keep one answer: the stale ones go, then the oldest while the cache is full."""
        self._cache.pop(key, None)
        if len(self._cache) >= self.cache_size:
            self._cache = {k: v for k, v in self._cache.items() if now - v[0] < self.cache_seconds}
        while len(self._cache) >= self.cache_size:
            del self._cache[next(iter(self._cache))]
        self._cache[key] = (now, user)

    def _ask_hub(self, token: str) -> dict[str, Any] | None:
        request = urllib.request.Request(self.api_url + "/user", headers={"Authorization": f"token {token}"})
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                data: dict[str, Any] = json.load(answer)
                return data
        except urllib.error.HTTPError as err:
            if err.code in (401, 403, 404):
                return None
            raise
