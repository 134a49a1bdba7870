"""The LMS courses (LTI "contexts") maumau was launched from, and who is in them.

A launch names its course and, when the LMS offers them, the services of that course: the
Assignment and Grade Services' line items URL and the scopes the tool may ask for (the AGS
claim), the Names and Roles memberships URL (the NRPS claim).  Every launch records them (the
latest launch wins: an LMS may move its URLs), and the learner as a member of the course, so the
grades go to the course the learner launched from (``scores``) and the roster can be read
(``roster``) long after the launch, from the command line.  A launch without the services'
claims (a link whose grades the LMS does not take) keeps the URLs an earlier launch recorded.

A course is known by its platform's issuer and client id and its context id (two LMSes may both
have a course "7").  The URLs come in the platform's signed token; the tool sends its access
token to them, so they must be https (or http on this machine, a test platform) like the
registered ones: anything else is not recorded.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .database import transaction
from .launch import Launch
from .learners import _SCHEMA as _USERS
from .platforms import Platform

__all__ = ["LmsCourse", "Courses", "AGS_CLAIM", "NRPS_CLAIM", "LINEITEM_SCOPE", "SCORE_SCOPE", "RESULT_SCOPE",
           "MEMBERSHIP_SCOPE", "service_url"]

AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
RESULT_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
MEMBERSHIP_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS lti_contexts (issuer TEXT NOT NULL, client_id TEXT NOT NULL, context_id TEXT NOT NULL, "
    "deployment_id TEXT NOT NULL, title TEXT NOT NULL, lineitems TEXT, scopes TEXT NOT NULL, memberships TEXT, "
    "seen REAL NOT NULL, PRIMARY KEY (issuer, client_id, context_id))",
    "CREATE TABLE IF NOT EXISTS lti_members (issuer TEXT NOT NULL, client_id TEXT NOT NULL, context_id TEXT NOT NULL, "
    "learner TEXT NOT NULL, roles TEXT NOT NULL, status TEXT NOT NULL, PRIMARY KEY (issuer, client_id, context_id, "
    "learner))",
)
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class LmsCourse:
    """An LMS course maumau was launched from, with its services' URLs (None: not offered)."""

    issuer: str
    client_id: str
    context_id: str
    deployment_id: str
    title: str
    lineitems: str | None
    scopes: frozenset[str]
    memberships: str | None

    @property
    def label(self) -> str:
        """How a sentence names the course: its title and id."""
        return f'"{self.title}" ({self.context_id})' if self.title else f"course {self.context_id}"


def service_url(value: Any) -> str | None:
    """``value`` if it is a URL the tool may send its access token to (https, or http on this
    machine), else None."""
    if not isinstance(value, str):
        return None
    parts = urlsplit(value)
    if parts.netloc and (parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in _LOOPBACK)):
        return value
    return None


class Courses:
    """The courses and their members in the class server's database ``db``."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        with transaction(self.db) as con:
            for statement in (*_SCHEMA, _USERS):
                con.execute(statement)

    def record(self, launch: Launch, learner: str) -> None:
        """The launch's course with its services, and its user as a member of it."""
        if not launch.context_id:  # a launch outside a course: no grades, no roster to keep
            return
        ags, nrps = _claim(launch, AGS_CLAIM), _claim(launch, NRPS_CLAIM)
        scopes = [s for s in ags.get("scope", []) if isinstance(s, str)] if isinstance(ags.get("scope"), list) else []
        p = launch.platform
        with transaction(self.db) as con:
            con.execute(
                "INSERT INTO lti_contexts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (issuer, client_id, context_id) DO UPDATE SET deployment_id = excluded.deployment_id, "
                "title = excluded.title, seen = excluded.seen, "
                # a link launched without the services' claims keeps the course's URLs an earlier launch gave
                "lineitems = COALESCE(excluded.lineitems, lti_contexts.lineitems), "
                "scopes = CASE WHEN excluded.lineitems IS NULL THEN lti_contexts.scopes ELSE excluded.scopes END, "
                "memberships = COALESCE(excluded.memberships, lti_contexts.memberships)",
                (p.issuer, p.client_id, launch.context_id, launch.deployment_id, launch.context_title,
                 service_url(ags.get("lineitems")), json.dumps(sorted(scopes)),
                 service_url(nrps.get("context_memberships_url")), time.time()))
            self._member(con, self.find(p, launch.context_id, con), learner, launch.roles, "Active")

    def _member(self, con: Any, course: LmsCourse | None, learner: str, roles: tuple[str, ...] | list[str],
                status: str) -> None:
        if course is None:
            return
        con.execute("INSERT INTO lti_members VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (issuer, client_id, context_id, "
                    "learner) DO UPDATE SET roles = excluded.roles, status = excluded.status",
                    (course.issuer, course.client_id, course.context_id, learner, json.dumps(list(roles)), status))

    def add_member(self, course: LmsCourse, learner: str, roles: list[str], status: str) -> None:
        """``learner`` is a member of ``course`` with ``roles`` (the roster says so)."""
        with transaction(self.db) as con:
            self._member(con, course, learner, roles, status)

    def find(self, platform: Platform, context_id: str, con: Any = None) -> LmsCourse | None:
        """The course ``context_id`` of ``platform``, or None if no launch came from it."""
        query = "SELECT * FROM lti_contexts WHERE issuer = ? AND client_id = ? AND context_id = ?"
        args = (platform.issuer, platform.client_id, context_id)
        if con is not None:
            row = con.execute(query, args).fetchone()
        else:
            with transaction(self.db) as fresh:
                row = fresh.execute(query, args).fetchone()
        return _course(row) if row is not None else None

    def all(self) -> list[LmsCourse]:
        """Every course a launch came from, by title."""
        with transaction(self.db) as con:
            rows = con.execute("SELECT * FROM lti_contexts ORDER BY title, context_id").fetchall()
        return [_course(row) for row in rows]

    def members(self, course: LmsCourse) -> list[dict[str, Any]]:
        """The course's members: learner, issuer, sub, name, e-mail, roles, status (by learner)."""
        with transaction(self.db) as con:
            rows = con.execute(
                "SELECT m.learner, u.sub, u.name, u.email, m.roles, m.status FROM lti_members m JOIN lti_users u "
                "ON u.learner = m.learner WHERE m.issuer = ? AND m.client_id = ? AND m.context_id = ? "
                "ORDER BY m.learner", (course.issuer, course.client_id, course.context_id)).fetchall()
        return [{"learner": r[0], "sub": r[1], "name": r[2], "email": r[3], "roles": json.loads(r[4]),
                 "status": r[5]} for r in rows]


def _claim(launch: Launch, name: str) -> dict[str, Any]:
    found = launch.claims.get(name)
    return found if isinstance(found, dict) else {}


def _course(row: Any) -> LmsCourse:
    issuer, client_id, context_id, deployment_id, title, lineitems, scopes, memberships, _ = row
    return LmsCourse(issuer, client_id, context_id, deployment_id, title, lineitems, frozenset(json.loads(scopes)),
                  memberships)
