"""The roster of an LMS course from the LMS (Names and Role Provisioning Services): ``maumau lti roster``.

A launch names the course's memberships URL (``contexts``).  The tool asks it, with an access
token for the ``contextmembership.readonly`` scope, for every member, page after page (the
``Link: <...>; rel="next"`` header), and records each as the launch would: the same learner name
(``learners.record_user``: ``moodle-42``), their name and e-mail from the LMS, their roles and
status in the course.  So the teacher writes no roster: the gradebook's learners are the LMS's,
and a learner who never launched maumau is still on the roster (and still gets their grade
column, once they hand something in).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .contexts import MEMBERSHIP_SCOPE, Courses, LmsCourse
from .database import transaction
from .launch import INSTRUCTOR_ROLES
from .learners import record_user
from .platforms import Registrations
from .services import ServiceError, Services

__all__ = ["Member", "read_course_roster", "read_rosters", "roster_csv", "MEMBERSHIPS"]

MEMBERSHIPS = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"


@dataclass(frozen=True)
class Member:
    """A member of an LMS course, as maumau names them."""

    learner: str
    sub: str
    name: str
    email: str
    roles: tuple[str, ...]
    status: str
    sis_id: str = ""  # the LMS's SIS id for the user (lis_person_sourcedid), where it shares it

    @property
    def teacher(self) -> bool:
        return any(role in INSTRUCTOR_ROLES or role.rpartition("#")[2] in ("Instructor", "Administrator")
                   for role in self.roles)


def read_rosters(db: str | Path, registrations: Registrations, services: Services,
                 context: str | None = None) -> list[tuple[LmsCourse, list[Member]]]:
    """The roster of every course a launch came from (only ``context`` if given), recorded."""
    courses = [c for c in Courses(db).all() if context is None or c.context_id == context]
    if not courses:
        raise ServiceError(f"no launch came from an LMS course {context!r} yet" if context else
                           "no launch came from an LMS course yet: open maumau's link in the course first")
    return [(course, read_course_roster(db, registrations, services, course)) for course in courses]


def read_course_roster(db: str | Path, registrations: Registrations, services: Services,
                       course: LmsCourse) -> list[Member]:
    """Every member of ``course`` from its LMS, recorded in the database; ServiceError if it cannot be read."""
    platform = registrations.find(course.issuer, course.client_id)
    if platform is None:
        raise ServiceError(f"the LTI registrations no longer name the LMS of {course.label} ({course.issuer})")
    if course.memberships is None:
        raise ServiceError(f"{course.label} offers maumau no roster: turn on Names and Role Provisioning in the "
                           f"LMS's settings of the tool, then open maumau's link in the course once")
    found: dict[str, dict[str, Any]] = {}
    for page in services.pages(platform, frozenset({MEMBERSHIP_SCOPE}), course.memberships, MEMBERSHIPS,
                               f"the roster of {course.label}"):
        for entry in page.get("members", []) if isinstance(page, dict) else []:
            if isinstance(entry, dict) and isinstance(entry.get("user_id"), str) and entry["user_id"].strip():
                found[entry["user_id"]] = entry  # a member on two pages (the roster changed meanwhile): once
    members = []
    courses = Courses(db)
    for sub, entry in found.items():
        name, email = _name(entry), str(entry.get("email") or "")
        with transaction(str(db)) as con:
            learner = record_user(con, platform, sub, name, email)
        roles = tuple(r for r in entry.get("roles", []) if isinstance(r, str)) \
            if isinstance(entry.get("roles"), list) else ()
        status = str(entry.get("status") or "Active")
        courses.add_member(course, learner, list(roles), status)
        members.append(Member(learner, sub, name, email, roles, status, str(entry.get("lis_person_sourcedid") or "")))
    return sorted(members, key=lambda m: (m.teacher, m.name.lower(), m.learner))


def _name(entry: dict[str, Any]) -> str:
    name = entry.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    parts = [entry.get(k) for k in ("given_name", "family_name")]
    return " ".join(p.strip() for p in parts if isinstance(p, str) and p.strip())


def roster_csv(members: list[Member]) -> str:
    """The active learners as the roster ``maumau export --roster`` reads: learner, name, e-mail,
    SIS id (an LMS's gradebook import finds a learner by e-mail or SIS id)."""
    from ..grading.report import csv_table, csv_text

    rows: list[list[str]] = [["learner", "name", "email", "sis_user_id"]]
    rows += [[csv_text(m.learner), csv_text(m.name), csv_text(m.email), csv_text(m.sis_id)] for m in members
             if m.status == "Active" and not m.teacher]
    return csv_table(rows)
