"""The platforms' public keys: a launch's id_token is signed by its platform, whose key set
(JWKS) is at the ``jwks_url`` the teacher registered.

A platform's key set is fetched when first needed and kept ``LIFESPAN`` seconds.  A token signed
with a key id the kept set does not have means the platform rotated its key: the set is fetched
again at once, once, and the token checked against the new set; the old set is gone with it, so a
key the platform withdrew signs nothing more.  A made-up key id cannot make the server ask the
platform again and again: after a fetch, the next waits ``cooldown`` seconds.  PyJWT's
``PyJWKClient`` fetches (no redirects, http and https only) and parses the set.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from .platforms import Platform
from .words import LtiRefusal

__all__ = ["PlatformKeys", "KeyRefused", "LIFESPAN", "COOLDOWN"]

#: Seconds a fetched key set is used before it is fetched again.
LIFESPAN = 600.0
#: Seconds between two fetches of one platform's key set asked for by unknown key ids.
COOLDOWN = 10.0


class KeyRefused(LtiRefusal):
    """No key of the platform's set signed this token (or the set could not be fetched)."""


class PlatformKeys:
    """The key sets of the registered platforms, by JWKS URL."""

    def __init__(self, lifespan: float = LIFESPAN, cooldown: float = COOLDOWN, timeout: float = 5.0) -> None:
        self.lifespan, self.cooldown, self.timeout = lifespan, cooldown, timeout
        self._clients: dict[str, Any] = {}
        self._fetched: dict[str, float] = {}  # JWKS URL -> when its set was last fetched
        self._lock = threading.Lock()
        #: How many times a key set was fetched (the tests read it: a rotation costs one fetch).
        self.fetches = 0

    def key(self, platform: Platform, kid: str) -> Any:
        """The public key ``kid`` of ``platform`` (a ``jwt.PyJWK``); KeyRefused saying why not."""
        from jwt.exceptions import PyJWTError

        with self._lock:
            client = self._client(platform.jwks_url)
            try:
                found = self._match(client, kid, refresh=False)
                if found is None and time.monotonic() - self._fetched.get(platform.jwks_url, 0.0) >= self.cooldown:
                    found = self._match(client, kid, refresh=True)  # the platform rotated its key
            except PyJWTError as err:  # unreachable, not JSON, no usable key
                raise KeyRefused("the platform's keys could not be fetched from {url} ({why})", url=platform.jwks_url,
                                 why=str(err)[:200]) from None
        if found is None:
            raise KeyRefused("the token is signed with a key the platform does not publish")
        return found

    def _client(self, url: str) -> Any:
        from jwt import PyJWKClient

        if url not in self._clients:
            self._clients[url] = PyJWKClient(url, cache_keys=False, cache_jwk_set=True, lifespan=self.lifespan,
                                             timeout=self.timeout, headers={"User-Agent": "maumau-lti"})
        return self._clients[url]

    def _match(self, client: Any, kid: str, refresh: bool) -> Any:
        """The key ``kid`` of the client's set (fetched anew with ``refresh``, or when the kept
        one is older than ``lifespan``), or None."""
        cached = client.jwk_set_cache is not None and client.jwk_set_cache.get() is not None
        if refresh or not cached:
            self.fetches += 1
            self._fetched[client.uri] = time.monotonic()
        keys = client.get_signing_keys(refresh=refresh)
        return next((key for key in keys if key.key_id == kid), None)
