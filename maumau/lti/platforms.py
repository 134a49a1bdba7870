"""The platforms the teacher registered maumau with: a JSON file, ``lti.json`` (docs/howto/lti.md).

An LMS that registers a tool shows the teacher a few values; the file holds them, one entry per
registration (one LMS may register maumau more than once, each with its own client id)::

    {"platforms": [{"name": "moodle",
                    "issuer": "https://moodle.school.example",
                    "client_id": "kN3uR8pQ",
                    "deployment_ids": ["1"],
                    "jwks_url": "https://moodle.school.example/mod/lti/certs.php",
                    "login_url": "https://moodle.school.example/mod/lti/auth.php",
                    "token_url": "https://moodle.school.example/mod/lti/token.php"}],
     "tool_url": "https://maumau.school.example"}

``name`` is a short word of the teacher's: it starts the learner names of that platform
(``moodle-42``).  ``tool_url`` is where the LMS reaches maumau's LTI endpoints (``/lti/login``,
``/lti/launch``, ``/lti/jwks``); without it, the address ``maumau serve`` listens on.  A file is
the teacher's (kept with the course, reviewed, copied to the next term) and JSON needs nothing
that Python 3.10 lacks.  Every URL is ``https``, or ``http`` on this machine (a test platform):
the platform's keys fetched over plain HTTP from elsewhere could be anyone's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from . import LtiError

__all__ = ["Platform", "Registrations", "load_registrations"]

_NAME = re.compile(r"[a-z][a-z0-9]{0,15}")
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
_URLS = ("jwks_url", "login_url", "token_url")


@dataclass(frozen=True)
class Platform:
    """One registration of maumau in an LMS."""

    name: str
    issuer: str
    client_id: str
    deployment_ids: frozenset[str]
    jwks_url: str
    login_url: str
    token_url: str


@dataclass(frozen=True)
class Registrations:
    """Every registration, found by issuer and client id; and where the tool is reached."""

    platforms: tuple[Platform, ...]
    tool_url: str | None = None

    def find(self, issuer: str, client_id: str | None) -> Platform | None:
        """The registration of ``issuer`` with ``client_id``; without a client id, the issuer's
        only registration (an LMS that registered maumau once need not send it)."""
        mine = [p for p in self.platforms if p.issuer == issuer]
        if client_id:
            return next((p for p in mine if p.client_id == client_id), None)
        return mine[0] if len(mine) == 1 else None


def load_registrations(source: str | Path | dict[str, Any]) -> Registrations:
    """The registrations of a file (or of its parsed JSON); LtiError saying what is wrong."""
    if isinstance(source, dict):
        data: Any = source
    else:
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except OSError as err:
            raise LtiError(f"cannot read the LTI registrations {source}: {err.strerror or err}") from None
        except (ValueError, UnicodeDecodeError) as err:
            raise LtiError(f"the LTI registrations {source} are not JSON: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("platforms"), list) or not data["platforms"]:
        raise LtiError('the LTI registrations need a list "platforms" with one entry per LMS registration')
    platforms = tuple(_platform(entry, n) for n, entry in enumerate(data["platforms"], 1))
    seen: set[tuple[str, str]] = set()
    for p in platforms:
        if (p.issuer, p.client_id) in seen:
            raise LtiError(f"the LTI registrations name issuer {p.issuer} with client id {p.client_id} twice")
        seen.add((p.issuer, p.client_id))
    names = [p.name for p in platforms]
    for p in platforms:
        if names.count(p.name) > 1 and len({q.issuer for q in platforms if q.name == p.name}) > 1:
            raise LtiError(f'two LMSes are both named "{p.name}": give each its own name (it starts their '
                           f"learners' names)")
    tool_url = data.get("tool_url")
    if tool_url is not None:
        tool_url = _url(tool_url, "tool_url", "the registrations").rstrip("/")
    return Registrations(platforms, tool_url)


def _platform(entry: Any, n: int) -> Platform:
    where = f"platform {n} of the LTI registrations"
    if not isinstance(entry, dict):
        raise LtiError(f"{where} is not an object with issuer, client_id, deployment_ids and the URLs")
    name = entry.get("name", "lms")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise LtiError(f'{where}: "name" is a short word of small letters and digits (moodle, canvas, lms2)')
    texts = {}
    for key in ("issuer", "client_id"):
        value = entry.get(key)
        if not isinstance(value, str) or not value.strip():
            raise LtiError(f'{where} has no "{key}": copy it from the LMS\'s page of the tool')
        texts[key] = value.strip()
    deployments = entry.get("deployment_ids")
    if (not isinstance(deployments, list) or not deployments
            or not all(isinstance(d, str) and d.strip() for d in deployments)):
        raise LtiError(f'{where}: "deployment_ids" is a list of the deployment ids the LMS shows (["1"])')
    urls = {key: _url(entry.get(key), key, where) for key in _URLS}
    _url(texts["issuer"], "issuer", where)
    return Platform(name, texts["issuer"], texts["client_id"], frozenset(d.strip() for d in deployments), **urls)


def _url(value: Any, key: str, where: str) -> str:
    """``value`` if it is an https URL (or http on this machine); LtiError otherwise."""
    if not isinstance(value, str) or not value.strip():
        raise LtiError(f'{where} has no "{key}": copy it from the LMS\'s page of the tool')
    parts = urlsplit(value.strip())
    local = parts.scheme == "http" and parts.hostname in _LOOPBACK
    if not parts.netloc or (parts.scheme != "https" and not local):
        raise LtiError(f'{where}: "{key}" must be an https URL (http only on this machine), not {value[:80]!r}')
    return value.strip()
