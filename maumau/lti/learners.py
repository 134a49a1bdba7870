"""Who a launch signs in: the LMS user as a learner of the class server, and their session.

A learner of a launch is named by the platform's short name and the user's ``sub``, which the
LMS keeps for that user for good (``moodle-42``); a ``sub`` that is not a plain word is replaced
by its hash.  An LMS user keeps the name they got first, and two LMS users never share one.
That name is the learner everywhere the class server names one: their seat at a table (shown
with the LMS's name for them), their hand-ins, the gradebook.  Every launch records
the learner with the LMS's issuer, ``sub``, name and e-mail in the database (``lti_users``), so
grades can go back to that LMS user.

The launch opens a session: an ``HttpOnly``, ``SameSite=Strict`` cookie (``maumau_lti``) whose
pages' websockets the server seats as that learner, like the hub's users (no name typed, no
roster).  A cookie is per host, not per port: the LTI endpoints and the class pages are on one
host name.  A launch of a course's instructor also opens the teacher's session (``classroom.login``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..classroom.login import _cookie_named, keep_session, same_site
from .database import transaction
from .launch import Launch
from .platforms import Platform

__all__ = ["LearnerSessions", "LmsLearner", "learner_name", "record_user", "SESSION_COOKIE", "SESSION_SECONDS",
           "MOST_SESSIONS"]

SESSION_COOKIE = "maumau_lti"
SESSION_SECONDS = 8 * 3600
MOST_SESSIONS = 10_000
_PLAIN = re.compile(r"[A-Za-z0-9._-]{1,40}")
_SCHEMA = ("CREATE TABLE IF NOT EXISTS lti_users (learner TEXT PRIMARY KEY, issuer TEXT NOT NULL, sub TEXT NOT NULL, "
           "name TEXT NOT NULL, email TEXT NOT NULL, seen REAL NOT NULL, UNIQUE (issuer, sub))")


@dataclass(frozen=True)
class LmsLearner:
    """A signed-in LMS user: the learner's name on this server, the name to show, the teacher?"""

    learner: str
    display: str
    teacher: bool
    until: float


def learner_name(launch: Launch) -> str:
    """The learner of a launch: ``PLATFORM-SUB`` (a hash of the sub unless it is a plain word)."""
    return _name_of(launch.platform.name, launch.sub)


def _name_of(platform_name: str, sub: str) -> str:
    sub = sub.strip()
    if not _PLAIN.fullmatch(sub) or sub.startswith("."):
        sub = hashlib.sha256(sub.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{platform_name}-{sub}"


def record_user(con: sqlite3.Connection, platform: Platform, sub: str, name: str, email: str) -> str:
    """The learner of the LMS user ``sub`` of ``platform``, recorded with their name and e-mail
    now (in the open transaction ``con``).  A launch and the platform's roster (``roster``) name
    a user the same way.  An LMS user keeps the learner name they got first (the teacher may
    rename the platform in ``lti.json``: their hand-ins stay theirs); a name another LMS user has
    already gets the issuer's hash added, so two people are never one learner."""
    con.execute(_SCHEMA)
    issuer = platform.issuer
    row = con.execute("SELECT learner FROM lti_users WHERE issuer = ? AND sub = ?", (issuer, sub)).fetchone()
    learner = str(row[0]) if row is not None else _name_of(platform.name, sub)
    if row is None and con.execute("SELECT 1 FROM lti_users WHERE learner = ?", (learner,)).fetchone():
        learner += "-" + hashlib.sha256(issuer.encode()).hexdigest()[:6]
    con.execute("INSERT INTO lti_users (learner, issuer, sub, name, email, seen) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (learner) DO UPDATE SET seen = excluded.seen, "
                "name = CASE WHEN excluded.name != '' THEN excluded.name ELSE lti_users.name END, "
                "email = CASE WHEN excluded.email != '' THEN excluded.email ELSE lti_users.email END",
                (learner, issuer, sub, name, email, time.time()))  # a roster without names keeps the launch's
    return learner


class LearnerSessions:
    """The sessions launches opened, by cookie; the LMS users, in the database ``db``."""

    def __init__(self, db: str | Path, prefix: str = "/") -> None:
        self.db, self.prefix = str(db), prefix
        self._sessions: dict[str, LmsLearner] = {}
        with transaction(self.db) as con:
            con.execute(_SCHEMA)

    def open(self, launch: Launch) -> tuple[LmsLearner, str]:
        """A session for the user of ``launch`` (recorded): the learner and the ``Set-Cookie`` value."""
        from ..classroom.names import clean_name

        learner = self._record(launch)
        display = clean_name(launch.name)[:40].strip() or learner
        found = LmsLearner(learner, display, launch.teacher, time.monotonic() + SESSION_SECONDS)
        session = secrets.token_urlsafe(32)
        self._keep(session, found)
        return found, (f"{SESSION_COOKIE}={session}; Path={self.prefix}; Max-Age={SESSION_SECONDS}; HttpOnly; "
                       f"SameSite=Strict")

    def _record(self, launch: Launch) -> str:
        """The learner of the launch's LMS user, recorded with their name and e-mail now."""
        with transaction(self.db) as con:
            return record_user(con, launch.platform, launch.sub, launch.name, launch.email)

    def _keep(self, session: str, found: LmsLearner) -> None:
        """Keep a new session: ended ones go, then the oldest beyond ``MOST_SESSIONS``."""
        keep_session(self._sessions, session, found, MOST_SESSIONS)

    def session(self, headers: Any, cookie: str | None = None) -> LmsLearner | None:
        """The learner of a request with a live session cookie, from this site (a page's websocket;
        a page of the LTI app gives tornado's ``cookie`` value)."""
        found = self._sessions.get(cookie if cookie is not None else _cookie_named(headers, SESSION_COOKIE) or "")
        if found is None or found.until < time.monotonic() or not same_site(headers):
            return None
        return found

    def users(self) -> list[dict[str, Any]]:
        """Every LMS user a launch signed in: learner, issuer, sub, name, e-mail."""
        with transaction(self.db) as con:
            rows = con.execute("SELECT learner, issuer, sub, name, email FROM lti_users ORDER BY learner").fetchall()
        return [dict(zip(("learner", "issuer", "sub", "name", "email"), row, strict=True)) for row in rows]
