"""The class table as a JupyterHub service: learners are the hub's users.

The hub starts ``maumau serve --hub`` (``jupyterhub_config.py`` in README, "Play together on
JupyterHub") with ``JUPYTERHUB_API_URL``, ``JUPYTERHUB_SERVICE_URL``, ``JUPYTERHUB_SERVICE_PREFIX``
and ``JUPYTERHUB_OAUTH_ACCESS_SCOPES`` in its environment.  Every websocket carries a hub API
token (``Authorization: token ...``, never in the URL) or, from a page, the session of its OAuth
login (``hub_login``); the server asks the hub whose it is
(``GET {api}/user`` with that very token) and seats that user, so nobody can act for anyone
else: the identity comes from the token alone.  Tokens of services, tokens without access to
this service and unknown tokens are refused at the handshake (401/403).
"""

from __future__ import annotations

import asyncio
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
    """Who a hub token belongs to (answers cached for ``cache_seconds``)."""

    api_url: str
    prefix: str = "/"
    host: str = "127.0.0.1"
    port: int = 8765
    scopes: frozenset[str] = frozenset()
    cache_seconds: float = 30.0
    _cache: dict[str, tuple[float, dict[str, Any] | None]] = field(default_factory=dict)

    @classmethod
    def from_environment(cls) -> HubUsers:
        env = os.environ
        if "JUPYTERHUB_API_URL" not in env:
            raise RuntimeError("--hub: JUPYTERHUB_API_URL is not set; JupyterHub starts the service with it "
                               "(see README, 'Play together on JupyterHub')")
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
        now = time.monotonic()
        cached = self._cache.get(token)
        if cached is not None and now - cached[0] < self.cache_seconds:
            return cached[1]
        user = await asyncio.to_thread(self._ask_hub, token)
        if user is not None and self.scopes and not self.scopes & set(user.get("scopes", ())):
            user = None  # a valid token, but without access to this service
        self._cache[token] = (now, user)
        return user

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
