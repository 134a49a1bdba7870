"""Deadlines: when each exercise is due, what lateness costs, and the extensions a teacher gives.

A due time always carries its time zone (``2026-12-10T23:59+01:00`` or
``2026-12-10T23:59[Europe/Budapest]``, the latter right across a change of summer time): a time
without one is refused, since "23:59" means another moment in every school's zone.

Lateness is counted in started days after the due time (a minute late is one day late, as most
course rules read), the late policy turns it into a share of the score lost::

    LatePolicy.parse("10%/day, 0 after 7 days")   # 10 % per started day; more than 7 days: nothing
    LatePolicy.parse("none")                      # late work keeps its score (lateness still shown)
    LatePolicy.parse("0 after 0 days")            # nothing after the deadline

An extension moves one learner's due time, for one exercise or for every exercise (``*``):
``extensions.csv`` has the columns ``student, exercise, due`` (a time with its zone) or
``student, exercise, days`` (days added to the exercise's due time).
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = [
    "DeadlineError", "LatePolicy", "Deadlines", "Lateness", "parse_time", "parse_due_options", "read_extensions",
    "ALL"
]


#: The exercise name of an extension for every exercise.
ALL = "*"
_DAY = timedelta(days=1)


class DeadlineError(ValueError):
    """A due time, late policy or extension that cannot be read: the sentence says what is wrong."""


def parse_time(text: str, what: str = "a time") -> datetime:
    """A moment with its time zone: ISO 8601 with an offset (``2026-12-10T23:59+01:00``, ``Z``),
    or a zone name in brackets or after a space (``2026-12-10T23:59[Europe/Budapest]``,
    ``2015-02-02 15:58:23.948203 America/Los_Angeles`` as nbgrader's timestamp.txt writes it;
    ``UTC``).  DeadlineError when it has no zone or cannot be read."""
    raw = " ".join(text.split())
    zone_name = ""
    if raw.endswith("]") and "[" in raw:
        raw, zone_name = raw[:-1].split("[", 1)
    elif " " in raw and re.search(r"[A-Za-z]", raw.rsplit(" ", 1)[1]):
        raw, zone_name = raw.rsplit(" ", 1)
    try:
        moment = datetime.fromisoformat(raw.strip().replace(" ", "T", 1))
    except ValueError:
        raise DeadlineError(f"{what} {text!r} is not a date and time like 2026-12-10T23:59+01:00") from None
    if zone_name:
        try:
            zone = timezone.utc if zone_name.upper() in ("UTC", "Z", "GMT") else ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            raise DeadlineError(f"{what} {text!r}: {zone_name!r} is no time zone") from None
        if moment.tzinfo is not None:
            raise DeadlineError(f"{what} {text!r} has both an offset and a zone name: give one")
        moment = moment.replace(tzinfo=zone)
    if moment.tzinfo is None:
        raise DeadlineError(f"{what} {text!r} has no time zone: add one, e.g. {raw}+01:00 or {raw}[Europe/Berlin]")
    return moment


_POLICY = re.compile(r"^(?:(?P<share>\d+(?:\.\d+)?)\s*%\s*(?:/|per)\s*day)?\s*,?\s*"
                     r"(?:0\s+after\s+(?P<cutoff>\d+(?:\.\d+)?)\s+days?)?$")


@dataclass(frozen=True)
class LatePolicy:
    """What lateness costs: ``per_day`` of the score for each started day late, and nothing at all
    more than ``cutoff_days`` late (None: no cut-off)."""

    per_day: float = 0.0
    cutoff_days: float | None = None

    @classmethod
    def parse(cls, text: str) -> LatePolicy:
        """``"10%/day, 0 after 7 days"``, ``"10% per day"``, ``"0 after 0 days"``, ``"none"``."""
        words = " ".join(text.lower().split())
        if words in ("", "none", "no penalty"):
            return cls()
        found = _POLICY.match(words)
        if not found or not (found["share"] or found["cutoff"]):
            raise DeadlineError(f"late policy {text!r} is not like '10%/day, 0 after 7 days' (or 'none')")
        share = float(found["share"] or 0) / 100
        if share > 1:
            raise DeadlineError(f"late policy {text!r}: a day cannot cost more than 100%")
        return cls(share, float(found["cutoff"]) if found["cutoff"] else None)

    def penalty(self, late_days: int) -> float:
        """The share of the score lost (0 to 1) when the work is ``late_days`` started days late."""
        if late_days <= 0:
            return 0.0
        if self.cutoff_days is not None and late_days > self.cutoff_days:
            return 1.0
        return min(1.0, round(self.per_day * late_days, 6))

    def describe(self) -> str:
        parts = [f"{self.per_day:.0%} per started day late"] if self.per_day else []
        if self.cutoff_days is not None:
            parts.append(f"nothing more than {self.cutoff_days:g} days late")
        return ", ".join(parts) or "no penalty for lateness"


@dataclass(frozen=True)
class Lateness:
    """How late one hand-in was and what it costs; ``submitted`` None: the time is not known."""

    submitted: datetime | None = None
    due: datetime | None = None
    late_days: int = 0
    penalty: float = 0.0
    extended: bool = False

    def final(self, score: float) -> float:
        return round(score * (1.0 - self.penalty), 6)


@dataclass
class Deadlines:
    """Due times by exercise, the late policy, and extensions by (student, exercise or ``*``)."""

    due: dict[str, datetime] = field(default_factory=dict)
    policy: LatePolicy = field(default_factory=LatePolicy)
    extensions: dict[tuple[str, str], datetime | timedelta] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.due)

    def due_for(self, student: str, exercise: str) -> tuple[datetime | None, bool]:
        """The due time of ``exercise`` for ``student``, and whether an extension gave it."""
        base = self.due.get(exercise)
        extra = self.extensions.get((student, exercise), self.extensions.get((student, ALL)))
        if extra is None:
            return base, False
        if isinstance(extra, timedelta):
            return (None, False) if base is None else (base + extra, True)
        return extra, True

    def lateness(self, student: str, exercise: str, submitted: datetime | None) -> Lateness:
        due, extended = self.due_for(student, exercise)
        if due is None or submitted is None:
            return Lateness(submitted, due, extended=extended)
        late = submitted - due
        days = math.ceil(late / _DAY) if late > timedelta(0) else 0
        return Lateness(submitted, due, days, self.policy.penalty(days), extended)


def parse_due_options(options: Iterable[str], known: Iterable[str]) -> dict[str, datetime]:
    """``--due NAME=TIME`` options (``--due TIME`` alone: every exercise) by exercise name;
    DeadlineError for an unknown exercise or a time without a zone."""
    names = sorted(known)
    due: dict[str, datetime] = {}
    for option in options:
        name, sep, when = option.partition("=")
        if not sep:
            for exercise in names:
                due.setdefault(exercise, parse_time(option, "the due time"))
            continue
        if name not in names:
            raise DeadlineError(f"--due {option!r}: there is no exercise {name!r} (known: {', '.join(names)})")
        due[name] = parse_time(when, f"the due time of {name}")
    return due


def read_extensions(path: str | Path, exercises: Iterable[str] = ()) -> dict[tuple[str, str], datetime | timedelta]:
    """The extensions of ``path`` (columns student, exercise and due or days); DeadlineError naming
    the line for a row that cannot be read, or an exercise that does not exist."""
    known = set(exercises)
    found: dict[tuple[str, str], datetime | timedelta] = {}
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise DeadlineError(f"cannot read the extensions file {path}: {err}") from None
    reader = csv.DictReader(text.splitlines())
    columns = {c.strip().lower() for c in reader.fieldnames or ()}
    if not {"student", "exercise"} <= columns or not columns & {"due", "days"}:
        raise DeadlineError(f"{path}: the first line must name the columns student, exercise and due or days")
    for n, raw in enumerate(reader, 2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items()}
        student, exercise = row.get("student", ""), row.get("exercise", "") or ALL
        if not student:
            raise DeadlineError(f"{path}, line {n}: no student")
        if known and exercise != ALL and exercise not in known:
            raise DeadlineError(f"{path}, line {n}: there is no exercise {exercise!r}")
        found[(student, exercise)] = _extension(row, f"{path}, line {n}")
    return found


def _extension(row: Mapping[str, str], where: str) -> datetime | timedelta:
    if row.get("due"):
        return parse_time(row["due"], f"{where}: the due time")
    try:
        days = float(row.get("days", ""))
    except ValueError:
        raise DeadlineError(f"{where}: days must be a number, not {row.get('days')!r}") from None
    if not 0 <= days <= 366:
        raise DeadlineError(f"{where}: an extension of {days:g} days is out of range (0 to 366)")
    return timedelta(days=days)
