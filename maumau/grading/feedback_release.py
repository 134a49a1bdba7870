"""When each exercise's feedback reaches its learners: it stays with the teacher until it is released.

Feedback is the gradebook's row of a learner and exercise (score, tests, lateness, the hidden tests'
own explanations).  Learners see it only once its exercise is released:

- by hand: ``maumau feedback release EXERCISE --db class.sqlite``, or the course page's button;
- at the exercise's close time plus a delay: ``maumau serve --close EXERCISE=TIME --feedback-delay 2h``
  schedules it (``schedule``), and it is released when the server's clock passes that moment.

``maumau feedback hold EXERCISE`` takes a release back (or stops a schedule).  Everything is kept in
the class database (table ``feedback_release``), so a restarted server releases what it released
before; a decision by hand (release or hold) wins over a schedule, so a server started again with
its ``--close`` and ``--feedback-delay`` never undoes it.  Until then the feedback stays in the
gradebook, where the teacher reads it; a regrade changes what a released exercise shows at once.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

__all__ = ["FeedbackRelease", "Release", "FeedbackReleaseError", "HAND", "DEADLINE", "HELD", "parse_delay",
           "utc_now", "when", "check_exercise_name", "EXERCISE_NAME"]

#: How a release was decided: by hand, by the close time and its delay, or held back by hand.
HAND, DEADLINE, HELD = "hand", "deadline", "held"
#: What an exercise's name looks like (the notebooks' stems): nothing else is stored or looked up.
EXERCISE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}")
_DELAY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d|days?)?\s*$")
_UNIT = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "day": 86400, "days": 86400}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS feedback_release (
    exercise TEXT PRIMARY KEY, how TEXT NOT NULL, at TEXT, changed TEXT NOT NULL);
"""


class FeedbackReleaseError(ValueError):
    """A release that cannot be made (a name that is no exercise's, a delay that cannot be read)."""


def utc_now() -> datetime:
    """The server's clock (a course's ``clock`` replaces it in a test)."""
    return datetime.now(timezone.utc)


def when(moment: datetime) -> str:
    """A moment as learners and teachers read it: ``2026-12-11 09:30 UTC``."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def parse_delay(text: str) -> timedelta:
    """``2h``, ``30m``, ``1d``, ``90s``, ``0`` (a bare number: hours) as a time span; FeedbackReleaseError
    for anything else."""
    found = _DELAY.match(text.lower())
    if found is None:
        raise FeedbackReleaseError(f"the feedback delay {text!r} is not like 2h, 30m, 1d or 0")
    seconds = float(found[1]) * _UNIT.get(found[2] or "h", 3600)
    if seconds > 366 * 86400:
        raise FeedbackReleaseError(f"the feedback delay {text!r} is longer than a year")
    return timedelta(seconds=seconds)


@dataclass(frozen=True)
class Release:
    """One exercise's release: ``how`` (HAND, DEADLINE, HELD, or None: nothing decided, so held) and
    ``at``, the moment from which learners see it (None while held)."""

    exercise: str
    how: str | None = None
    at: datetime | None = None

    def visible(self, now: datetime) -> bool:
        """Whether learners see the exercise's feedback at ``now``."""
        return self.how in (HAND, DEADLINE) and self.at is not None and now >= self.at


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise FeedbackReleaseError(f"a release time needs its time zone, not {moment.isoformat()}")
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def check_exercise_name(exercise: str) -> str:
    """``exercise`` if it looks like an exercise's name, else FeedbackReleaseError (nothing stored)."""
    if not isinstance(exercise, str) or not EXERCISE_NAME.fullmatch(exercise):
        raise FeedbackReleaseError(f"{str(exercise)[:80]!r} is no exercise name (letters, digits, _ . -): "
                                   f"nothing changed")
    return exercise


class FeedbackRelease:
    """The releases of a course, in the class database ``db`` (created when missing)."""

    def __init__(self, db: str | Path) -> None:
        self.path = Path(db)
        with self._db() as con:
            con.executescript(_SCHEMA)

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=30)) as con, con:
            yield con

    def of(self, exercise: str) -> Release:
        """The release of ``exercise`` (held when nothing was decided)."""
        with self._db() as con:
            found = con.execute("SELECT how, at FROM feedback_release WHERE exercise=?", (exercise,)).fetchone()
        return Release(exercise) if found is None else Release(exercise, found[0], _moment(found[1]))

    def all(self) -> dict[str, Release]:
        """Every exercise something was decided for, by name."""
        with self._db() as con:
            rows = con.execute("SELECT exercise, how, at FROM feedback_release ORDER BY exercise").fetchall()
        return {name: Release(name, how, _moment(at)) for name, how, at in rows}

    def release(self, exercise: str, now: datetime) -> Release:
        """Release ``exercise`` by hand from ``now`` on (one released by hand already keeps its moment)."""
        if self.of(check_exercise_name(exercise)).how == HAND:
            return self.of(exercise)
        return self._set(exercise, HAND, _iso(now), now)

    def hold(self, exercise: str, now: datetime) -> Release:
        """Hold ``exercise`` back until it is released by hand (a schedule no longer releases it)."""
        return self._set(check_exercise_name(exercise), HELD, None, now)

    def schedule(self, exercise: str, at: datetime, now: datetime) -> Release:
        """Release ``exercise`` at ``at`` (its close time plus the delay), unless the teacher decided by hand."""
        check_exercise_name(exercise)
        with self._db() as con:
            con.execute("INSERT INTO feedback_release (exercise, how, at, changed) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (exercise) DO UPDATE SET at=excluded.at, changed=excluded.changed "
                        "WHERE how=?", (exercise, DEADLINE, _iso(at), _iso(now), DEADLINE))
        return self.of(exercise)

    def _set(self, exercise: str, how: str, at: str | None, now: datetime) -> Release:
        with self._db() as con:
            con.execute("INSERT INTO feedback_release (exercise, how, at, changed) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (exercise) DO UPDATE SET how=excluded.how, at=excluded.at, "
                        "changed=excluded.changed", (exercise, how, at, _iso(now)))
        return self.of(exercise)
