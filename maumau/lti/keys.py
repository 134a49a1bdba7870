"""The tool's own key pair: RSA, made once, kept in the class server's database, rotatable.

The platform verifies what the tool signs (its requests for a service token, its deep-linking
answers) with the public keys the tool publishes at ``/lti/jwks``.  The private key lives in the
same SQLite file as the tables and the hand-ins (the one file a teacher already guards and backs
up); it never leaves it except as a signature.  ``rotate()`` makes a new key the one that signs;
the old one stays published for ``GRACE`` seconds, so a platform that cached the key set still
accepts what was signed just before (``maumau lti rotate --db class.sqlite``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
from pathlib import Path
from typing import Any

from .database import transaction

__all__ = ["ToolKeys", "GRACE", "thumbprint"]

#: Seconds a replaced key stays in the published key set.
GRACE = 24 * 3600

_SCHEMA = "CREATE TABLE IF NOT EXISTS lti_keys (kid TEXT PRIMARY KEY, pem TEXT NOT NULL, created REAL NOT NULL, " \
          "retired REAL)"


def thumbprint(jwk: dict[str, Any]) -> str:
    """The key's RFC 7638 thumbprint (its kid): the same key always has the same id."""
    members = json.dumps({k: jwk[k] for k in ("e", "kty", "n")}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(hashlib.sha256(members.encode()).digest()).rstrip(b"=").decode()


class ToolKeys:
    """The tool's keys in the SQLite file ``db`` (a key is made the first time one is needed)."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        with transaction(self.db) as con:
            con.execute(_SCHEMA)

    def signing_key(self) -> tuple[str, Any]:
        """The key that signs now: its kid and its private key (made and stored if there is none)."""
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        with transaction(self.db) as con:
            row = con.execute("SELECT kid, pem FROM lti_keys WHERE retired IS NULL "
                              "ORDER BY created DESC LIMIT 1").fetchone()
        if row is None:
            return self.rotate()
        return str(row[0]), load_pem_private_key(str(row[1]).encode(), password=None)

    def rotate(self) -> tuple[str, Any]:
        """A new key signs from now on; the one before is retired (published for ``GRACE`` more)."""
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
        kid = thumbprint(_public_jwk(key.public_key()))
        now = time.time()
        with transaction(self.db) as con:  # one transaction: there is always exactly one key that signs
            con.execute("UPDATE lti_keys SET retired = ? WHERE retired IS NULL", (now,))
            con.execute("INSERT INTO lti_keys (kid, pem, created) VALUES (?, ?, ?)", (kid, pem, now))
        return kid, key

    def jwks(self) -> dict[str, Any]:
        """The published key set: the key that signs and those retired less than ``GRACE`` ago."""
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        self.signing_key()  # a tool asked for its keys before its first launch has one now
        with transaction(self.db) as con:
            rows = con.execute("SELECT kid, pem FROM lti_keys WHERE retired IS NULL OR retired > ? "
                               "ORDER BY created DESC", (time.time() - GRACE,)).fetchall()
        keys = []
        for kid, pem in rows:
            public = load_pem_private_key(str(pem).encode(), password=None).public_key()
            keys.append({**_public_jwk(public), "kid": str(kid), "alg": "RS256", "use": "sig"})
        return {"keys": keys}


def _public_jwk(public_key: Any) -> dict[str, Any]:
    from jwt.algorithms import RSAAlgorithm

    jwk: dict[str, Any] = RSAAlgorithm.to_jwk(public_key, as_dict=True)
    return {k: jwk[k] for k in ("kty", "n", "e")}  # what every platform reads (no key_ops: some refuse it)
