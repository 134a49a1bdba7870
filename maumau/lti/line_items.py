"""One grade column (AGS line item) per exercise and LMS course: found, or created once, never twice.

The LMS's grade columns for maumau's exercises are line items with the exercise as their
``resourceId`` (and ``maumau`` as their ``tag``).  Before one is made, the course's line items
are read (every page) for one with that ``resourceId``: a rerun, another class server, a column
deep linking made or the teacher made with that resource id: it is used, not doubled.  The line
item's URL is kept in the class server's database (``lti_line_items``).

Two runs at once (two teachers, a cron job and a click) must not both create one: the run that
would create one first claims the exercise in the database (a row without URL, in one short
transaction); a run that finds the claim waits for the URL.  A claim left by a run that died is
taken over after ``STALE`` seconds, and the course's line items are read again before anything
is created.  Claims are rows in SQLite, not locks held across the LMS's slow answers, so the
class server's writes never wait on the LMS.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from .contexts import LINEITEM_SCOPE, RESULT_SCOPE, SCORE_SCOPE, LmsCourse, service_url
from .database import transaction
from .platforms import Platform
from .services import ServiceError, Services

__all__ = ["LineItems", "TAG", "STALE", "WAIT", "LINEITEM", "LINEITEMS", "sub_url", "ags_scopes"]

TAG = "maumau"
#: Seconds after which a claim to create a line item is taken to be a dead run's.
STALE = 60.0
#: Seconds a run waits for the line item another live run is making.
WAIT = 30.0
LINEITEM = "application/vnd.ims.lis.v2.lineitem+json"
LINEITEMS = "application/vnd.ims.lis.v2.lineitemcontainer+json"
_SCHEMA = ("CREATE TABLE IF NOT EXISTS lti_line_items (issuer TEXT NOT NULL, client_id TEXT NOT NULL, "
           "context_id TEXT NOT NULL, exercise TEXT NOT NULL, url TEXT, owner TEXT, claimed REAL NOT NULL, "
           "PRIMARY KEY (issuer, client_id, context_id, exercise))")


def sub_url(url: str, tail: str, query: dict[str, str] | None = None) -> str:
    """``url`` with ``tail`` added to its path, its query kept (Moodle's line item URLs carry
    ``?type_id=``): a line item's ``/scores`` and ``/results``, the line items with a filter."""
    parts = urlsplit(url)
    extra = urlencode(query or {})
    joined = "&".join(q for q in (parts.query, extra) if q)
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + tail, joined, ""))


class LineItems:
    """The line items of maumau's exercises in the LMS courses, kept in the database ``db``."""

    def __init__(self, db: str | Path, services: Services, wait: float | None = None) -> None:
        self.db, self.services, self.wait = str(db), services, WAIT if wait is None else wait
        with transaction(self.db) as con:
            con.execute(_SCHEMA)

    def url(self, platform: Platform, course: LmsCourse, exercise: str, points: float, label: str) -> str:
        """The URL of the line item of ``exercise`` in ``course``: kept, found there, or made."""
        key = (course.issuer, course.client_id, course.context_id, exercise)
        deadline = time.monotonic() + self.wait
        while True:
            with transaction(self.db) as con:
                row = con.execute("SELECT url, owner, claimed FROM lti_line_items WHERE issuer = ? AND client_id = ? "
                                  "AND context_id = ? AND exercise = ?", key).fetchone()
            if row is not None and row[0]:
                return str(row[0])
            if row is None:
                found = self.find(platform, course, exercise)
                if found is not None:
                    self._keep(key, found)
                    return found
            mine = self._claim(key, row)
            if mine is not None:
                return self._create(platform, course, exercise, points, label, key, mine)
            if time.monotonic() > deadline:
                raise ServiceError(f"another run is making the grade column of {exercise} in {course.label}: "
                                   f"run the command again in a minute")
            time.sleep(0.2)

    def forget(self, course: LmsCourse, exercise: str) -> None:
        """The kept URL is wrong (the LMS answered 404: the teacher deleted the column)."""
        with transaction(self.db) as con:
            con.execute("DELETE FROM lti_line_items WHERE issuer = ? AND client_id = ? AND context_id = ? AND "
                        "exercise = ? AND url IS NOT NULL",
                        (course.issuer, course.client_id, course.context_id, exercise))

    def find(self, platform: Platform, course: LmsCourse, exercise: str) -> str | None:
        """The URL of the course's first line item whose ``resourceId`` is ``exercise``, or None."""
        assert course.lineitems is not None
        listing = sub_url(course.lineitems, "", {"resource_id": exercise})
        for page in self.services.pages(platform, ags_scopes(course), listing, LINEITEMS,
                                        f"the line items of {course.label}"):
            for item in page if isinstance(page, list) else []:  # a platform may ignore the filter
                if isinstance(item, dict) and item.get("resourceId") == exercise and service_url(item.get("id")):
                    return str(item["id"])
        return None

    def _claim(self, key: tuple[str, ...], row: Any) -> str | None:
        """Claim the making of the line item (a row without URL); the claim's owner, or None when
        another live run holds it."""
        mine = secrets.token_hex(8)
        now = time.time()
        with transaction(self.db) as con:
            if row is None:
                done = con.execute("INSERT OR IGNORE INTO lti_line_items VALUES (?, ?, ?, ?, NULL, ?, ?)",
                                   (*key, mine, now)).rowcount
            elif now - float(row[2]) > STALE:  # a dead run's claim: taken over, once, by one run
                done = con.execute("UPDATE lti_line_items SET owner = ?, claimed = ? WHERE issuer = ? AND "
                                   "client_id = ? AND context_id = ? AND exercise = ? AND owner = ? AND url IS NULL",
                                   (mine, now, *key, row[1])).rowcount
            else:
                done = 0
        return mine if done == 1 else None

    def _create(self, platform: Platform, course: LmsCourse, exercise: str, points: float, label: str,
                key: tuple[str, ...], mine: str) -> str:
        """With the claim held: read the line items once more (the claim's dead owner may have made
        it), else make it; the claim becomes the URL, or goes if anything failed."""
        try:
            found = self.find(platform, course, exercise)
            if found is None:
                if LINEITEM_SCOPE not in course.scopes:
                    raise ServiceError(f"{course.label} lets maumau read but not make grade columns: add one with "
                                       f"resource id {exercise} in the LMS, or allow the tool to manage them")
                assert course.lineitems is not None
                made = self.services.post(platform, ags_scopes(course), course.lineitems,
                                          {"scoreMaximum": points, "label": label, "resourceId": exercise,
                                           "tag": TAG}, LINEITEM, LINEITEM, f"the line items of {course.label}")
                if not isinstance(made, dict) or not service_url(made.get("id")):
                    raise ServiceError(f"the LMS made the grade column of {exercise} in {course.label} but did not "
                                       f"say its URL")
                found = str(made["id"])
        except BaseException:
            with transaction(self.db) as con:
                con.execute("DELETE FROM lti_line_items WHERE issuer = ? AND client_id = ? AND context_id = ? AND "
                            "exercise = ? AND owner = ? AND url IS NULL", (*key, mine))
            raise
        self._keep(key, found)
        return found

    def _keep(self, key: tuple[str, ...], url: str) -> None:
        with transaction(self.db) as con:
            con.execute("INSERT INTO lti_line_items VALUES (?, ?, ?, ?, ?, NULL, ?) ON CONFLICT (issuer, client_id, "
                        "context_id, exercise) DO UPDATE SET url = excluded.url", (*key, url, time.time()))


def ags_scopes(course: LmsCourse) -> frozenset[str]:
    """The AGS scopes the course offers that maumau uses (one token for all its requests)."""
    wanted = {LINEITEM_SCOPE, SCORE_SCOPE, RESULT_SCOPE, LINEITEM_SCOPE + ".readonly"}
    return frozenset(course.scopes & wanted)
