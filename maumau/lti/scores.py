"""Each learner's final score to the LMS (Assignment and Grade Services): ``maumau lti scores``.

The scores are ``grades.csv``'s ``final`` column, after deadlines and penalties (``maumau grade``
wrote it; ``grading.export.read_grades`` reads it).  For every LMS course a launch came from
(``contexts``) and every exercise, the score of each member of that course goes to the
exercise's line item (``line_items``) as a Score: ``scoreGiven`` of ``scoreMaximum``, activity
Completed, grading FullyGraded, with the time it is sent (a regrade is newer, so the LMS takes it).

What was sent is kept (``lti_scores_sent``): an unchanged score is not sent again, a regrade's
new score is; a score is kept as sent only once the LMS said yes, so a run that stopped half-way
(a timeout, a 500) is completed by the next.  Every learner's outcome is one sentence.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .contexts import SCORE_SCOPE, Courses, LmsCourse
from .database import transaction
from .line_items import LineItems, ags_scopes, sub_url
from .platforms import Registrations
from .services import ServiceError, Services

__all__ = ["Outcome", "send_scores", "results", "SCORE", "RESULTS"]

SCORE = "application/vnd.ims.lis.v1.score+json"
RESULTS = "application/vnd.ims.lis.v2.resultcontainer+json"
_SCHEMA = ("CREATE TABLE IF NOT EXISTS lti_scores_sent (issuer TEXT NOT NULL, client_id TEXT NOT NULL, "
           "context_id TEXT NOT NULL, exercise TEXT NOT NULL, learner TEXT NOT NULL, line_item TEXT NOT NULL, "
           "score REAL NOT NULL, maximum REAL NOT NULL, sent REAL NOT NULL, "
           "PRIMARY KEY (issuer, client_id, context_id, exercise, learner))")


@dataclass(frozen=True)
class Outcome:
    """What became of one learner's scores in one course: sent, unchanged, failed, or not sent."""

    learner: str
    state: str  # "sent", "unchanged", "failed", "not sent"
    sentence: str


def send_scores(db: str | Path, registrations: Registrations, scores: Mapping[str, Mapping[str, float]],
                points: Mapping[str, float], services: Services, context: str | None = None) -> list[Outcome]:
    """Send ``scores`` (learner -> exercise -> final score; ``points`` the exercises' maxima) to the
    courses the learners launched from (only ``context`` if given); one outcome per learner and course."""
    courses = Courses(db)
    with transaction(str(db)) as con:
        con.execute(_SCHEMA)
    chosen = [c for c in courses.all() if context is None or c.context_id == context]
    if not chosen:
        raise ServiceError(f"no launch came from an LMS course {context!r} yet" if context else
                           "no launch came from an LMS course yet: a learner or the teacher opens maumau's link "
                           "in the course first")
    outcomes: list[Outcome] = []
    members: set[str] = set()
    for course in chosen:
        sender: _Sender | None = None  # made (and its token asked for) once a member has scores
        for member in courses.members(course):
            members.add(member["learner"])
            if member["learner"] not in scores:
                continue
            if _instructor(member):  # a teacher's test hand-in: the LMS keeps no grade of instructors
                outcomes.append(Outcome(member["learner"], "not sent", f"{member['learner']}: not sent, an "
                                        f"instructor of {course.label}"))
                continue
            sender = sender or _Sender(db, registrations, course, services, points)
            outcomes.append(sender.learner(member, scores[member["learner"]]))
    for learner in sorted(set(scores) - members):
        outcomes.append(Outcome(learner, "not sent", f"{learner}: not sent, no LMS course knows them (they never "
                                                     f"launched maumau from the LMS, nor are on a course's roster)"))
    return outcomes


def _instructor(member: dict[str, object]) -> bool:
    from .roster import Member

    roles = member["roles"] if isinstance(member["roles"], list) else []
    return Member(str(member["learner"]), "", "", "", tuple(str(r) for r in roles), "Active").teacher


class _Sender:
    """The scores of one course."""

    def __init__(self, db: str | Path, registrations: Registrations, course: LmsCourse, services: Services,
                 points: Mapping[str, float]) -> None:
        self.db, self.course, self.services, self.points = str(db), course, services, points
        self.platform = registrations.find(course.issuer, course.client_id)
        self.items = LineItems(db, services)
        self.problem = self._problem()

    def _problem(self) -> str | None:
        """Why nothing can be sent to this course, or None."""
        if self.platform is None:
            return f"the LTI registrations no longer name the LMS of {self.course.label} ({self.course.issuer})"
        if self.course.lineitems is None or SCORE_SCOPE not in self.course.scopes:
            return (f"{self.course.label} offers maumau no grade service: turn on Assignment and Grade Services in "
                    f"the LMS's settings of the tool, then open maumau's link in the course once")
        try:  # a refused token is the course's one problem, not one per score
            self.services.token(self.platform, ags_scopes(self.course))
        except ServiceError as err:
            return str(err)
        return None

    def learner(self, member: dict[str, object], exercises: Mapping[str, float]) -> Outcome:
        learner = str(member["learner"])
        if self.problem is not None:
            return Outcome(learner, "failed", f"{learner}: not sent, {self.problem}")
        if member["status"] != "Active":
            return Outcome(learner, "not sent", f"{learner}: not sent, no longer active in {self.course.label}")
        sent: list[str] = []
        kept: list[str] = []
        failed: list[str] = []
        for exercise, score in sorted(exercises.items()):
            try:
                (sent if self._send(learner, str(member["sub"]), exercise, score) else kept).append(exercise)
            except ServiceError as err:
                failed.append(f"{exercise} ({err})")
        return _outcome(learner, self.course, sent, kept, failed, exercises)

    def _send(self, learner: str, sub: str, exercise: str, score: float) -> bool:
        """Send one score unless the LMS has it already; whether it was sent."""
        assert self.platform is not None
        maximum = float(self.points.get(exercise, 0.0)) or 1.0
        url = self.items.url(self.platform, self.course, exercise, maximum, exercise)
        key = (self.course.issuer, self.course.client_id, self.course.context_id, exercise, learner)
        with transaction(self.db) as con:
            row = con.execute("SELECT line_item, score, maximum FROM lti_scores_sent WHERE issuer = ? AND "
                              "client_id = ? AND context_id = ? AND exercise = ? AND learner = ?", key).fetchone()
        if row is not None and (row[0], row[1], row[2]) == (url, score, maximum):
            return False
        try:
            self._post(url, sub, score, maximum)
        except ServiceError as err:
            if err.status != 404:
                raise
            self.items.forget(self.course, exercise)  # the column is gone: found or made again, once
            url = self.items.url(self.platform, self.course, exercise, maximum, exercise)
            self._post(url, sub, score, maximum)
        with transaction(self.db) as con:
            con.execute("INSERT OR REPLACE INTO lti_scores_sent VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (*key, url, score, maximum, time.time()))
        return True

    def _post(self, url: str, sub: str, score: float, maximum: float) -> None:
        assert self.platform is not None
        body = {"userId": sub, "scoreGiven": max(0.0, score), "scoreMaximum": maximum,
                "activityProgress": "Completed", "gradingProgress": "FullyGraded",
                "timestamp": datetime.now(timezone.utc).isoformat(timespec="milliseconds")}
        self.services.post(self.platform, ags_scopes(self.course), sub_url(url, "/scores"), body, SCORE,
                           "application/json", f"the grade column of {self.course.label}")


def _outcome(learner: str, course: LmsCourse, sent: list[str], kept: list[str], failed: list[str],
             exercises: Mapping[str, float]) -> Outcome:
    """The learner's one sentence."""
    def listed(names: list[str]) -> str:
        return ", ".join(f"{n} {exercises[n]:g}" for n in names)

    parts = []
    if sent:
        parts.append(f"sent {listed(sent)}")
    if kept:
        parts.append(f"unchanged {listed(kept)}")
    if failed:
        parts.append(f"failed {'; '.join(failed)}")
    state = "failed" if failed else "sent" if sent else "unchanged"
    return Outcome(learner, state, f"{learner} in {course.label}: {', '.join(parts)}")


def results(db: str | Path, registrations: Registrations, course: LmsCourse, exercise: str,
            services: Services) -> dict[str, float | None]:
    """The LMS's results of ``exercise``'s line item in ``course``: user id (sub) -> score."""
    platform = registrations.find(course.issuer, course.client_id)
    if platform is None:
        raise ServiceError(f"the LTI registrations no longer name the LMS of {course.label}")
    items = LineItems(db, services)
    url = items.find(platform, course, exercise)
    if url is None:
        return {}
    found: dict[str, float | None] = {}
    for page in services.pages(platform, ags_scopes(course), sub_url(url, "/results"), RESULTS,
                               f"the results of {course.label}"):
        for result in page if isinstance(page, list) else []:
            if isinstance(result, dict) and isinstance(result.get("userId"), str):
                score = result.get("resultScore")
                found[result["userId"]] = float(score) if isinstance(score, (int, float)) else None
    return found

