"""What the class has done right now: each learner's latest checks of each exercise, kept in the
class database, and the teacher's frame made from them.

A report (``live_wire.Report``) replaces the learner's checks of that exercise: the latest run is
what counts, as in the learner's own ``summary()``.  Its time is the server's.  *Progress* is a
report with more checks passed than the one before it in that exercise (or the first one); a
learner's notebook connecting (its hello) starts their clock too, so one who connected and never
got a check to run counts: a learner whose last progress is older than the page's N minutes is
named as stuck (``idle``).

Each report is written (one row per learner and exercise, WAL) before the teacher hears of it, so a
restarted server shows the latest state at once.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .live_wire import ExerciseCount, FailingCheck, FailingRule, LiveCell, LiveFrame, LiveRow

if TYPE_CHECKING:  # pragma: no cover
    from .live_checks import ExerciseChecks

__all__ = ["Progress", "Latest", "FAILING_SHOWN"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS live_checks (
    learner TEXT NOT NULL, exercise TEXT NOT NULL, checks TEXT NOT NULL, at REAL NOT NULL, progress REAL NOT NULL,
    PRIMARY KEY (learner, exercise));
CREATE TABLE IF NOT EXISTS live_learners (learner TEXT PRIMARY KEY, since REAL NOT NULL);
"""

#: The checks (and rule ids) the page lists as failed by most of the class.
FAILING_SHOWN = 8


@dataclass
class Latest:
    """One learner's latest checks of one exercise: check id → passed, and the server's times."""
    checks: dict[str, bool]
    at: float
    progress: float

    @property
    def passed(self) -> int:
        return sum(self.checks.values())


class Progress:
    """Every learner's latest checks (see the module docstring)."""

    def __init__(self, db: str | Path, exercises: Mapping[str, ExerciseChecks],
                 own: Callable[[str, str], ExerciseChecks] | None = None) -> None:
        self.exercises = exercises
        #: A learner's own checks of an exercise (their draw's names; None: everyone's are the common ones).
        self.own = own
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(db), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self.latest: dict[str, dict[str, Latest]] = {}
        for learner, exercise, checks, at, progress in self._db.execute("SELECT * FROM live_checks"):
            self.latest.setdefault(learner, {})[exercise] = Latest(json.loads(checks), at, progress)
        #: When each learner's notebook last connected (the server's clock).
        self.since: dict[str, float] = dict(self._db.execute("SELECT learner, since FROM live_learners").fetchall())

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def record(self, learner: str, exercise: str, checks: Mapping[str, bool], now: float) -> Latest:
        """``learner``'s latest checks of ``exercise`` (ids of its visible checks), stored before it returns."""
        before = self.latest.get(learner, {}).get(exercise)
        merged = {**(before.checks if before is not None else {}), **checks}  # a cell run alone keeps the others
        gained = before is None or sum(merged.values()) > before.passed
        latest = Latest(merged, now, now if gained or before is None else before.progress)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO live_checks VALUES (?, ?, ?, ?, ?)",
                             (learner, exercise, json.dumps(merged), latest.at, latest.progress))
        self.latest.setdefault(learner, {})[exercise] = latest
        return latest

    def connected(self, learner: str, now: float) -> None:
        """``learner``'s notebook connected now: their clock starts again (stored before it returns)."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO live_learners VALUES (?, ?)", (learner, now))
        self.since[learner] = now

    def last_progress(self, learner: str) -> float | None:
        """The learner's last progress or connection, whichever is later (None: neither yet)."""
        times = [d.progress for d in self.latest.get(learner, {}).values()]
        if learner in self.since:
            times.append(self.since[learner])
        return max(times, default=None)

    # --- the teacher's frame -----------------------------------------------------------------------------
    def frame(self, now: float, lang: str, projector: bool, idle_minutes: float, names: Callable[[str], str],
              everyone: Iterable[str] = ()) -> LiveFrame:
        """The page's frame in ``lang``: with a row per learner (``everyone`` too, who has not
        reported yet; ``names`` says how each is shown), or for the projector without any name."""
        learners = sorted(set(self.latest) | set(self.since) | set(everyone),
                          key=lambda who: (names(who).casefold(), who))
        exercises = [name for name in self.exercises if any(name in self.latest.get(w, {}) for w in learners)]
        stuck = [who for who in learners if self._idle(who, now, idle_minutes)]
        failing, rules = self._failing(lang)
        rows: list[LiveRow] = [] if projector else [self._row(who, names(who), lang) for who in learners]
        return {"type": "live", "now": now, "projector": projector, "exercises": exercises, "rows": rows,
                "titles": {name: known.title(lang) for name, known in self.exercises.items()},
                "variants": self.own is not None,
                "failing": failing, "rules": rules, "counts": [self._count(name) for name in exercises],
                "idle": [] if projector else [names(who) for who in stuck], "idle_count": len(stuck),
                "idle_minutes": idle_minutes, "learners": len(learners)}

    def _idle(self, learner: str, now: float, minutes: float) -> bool:
        last = self.last_progress(learner)
        return last is not None and now - last >= minutes * 60

    def _row(self, learner: str, name: str, lang: str) -> LiveRow:
        done = self.latest.get(learner, {})
        cells: dict[str, LiveCell] = {}
        for exercise, latest in done.items():
            known = self.exercises.get(exercise)
            if known is not None and self.own is not None:  # named as the learner's own cells name them
                known = self.own(learner, exercise)
            by_id = known.by_id() if known is not None else {}
            failed = [by_id[c].name(lang) if c in by_id else c for c, ok in latest.checks.items() if not ok]
            total = max(len(by_id), len(latest.checks))  # every visible check: those not run yet are not passed
            cells[exercise] = {"passed": latest.passed, "total": total, "failed": failed,
                               "at": latest.at, "progress": latest.progress}
        return {"name": name, "cells": cells, "progress": self.last_progress(learner),
                "connected": learner in self.since}

    def _count(self, exercise: str) -> ExerciseCount:
        runs = [done[exercise] for done in self.latest.values() if exercise in done]
        total = len(self.exercises[exercise].checks) if exercise in self.exercises else 0
        return {"exercise": exercise, "tried": len(runs), "all_passed": sum(r.passed >= total for r in runs)}

    def _failing(self, lang: str) -> tuple[list[FailingCheck], list[FailingRule]]:
        """The checks most learners fail now, with their rule ids, and the rule ids by learners failing one."""
        from .live_checks import rule_sentence  # the rules' sentences: read with the course's checks

        checks: Counter[tuple[str, str]] = Counter()
        tried: Counter[str] = Counter()
        by_rule: dict[str, set[str]] = {}
        for learner, done in self.latest.items():
            for exercise, latest in done.items():
                tried[exercise] += 1
                known = self.exercises.get(exercise)
                by_id = known.by_id() if known is not None else {}
                for check_id, ok in latest.checks.items():
                    if ok:
                        continue
                    checks[(exercise, check_id)] += 1
                    for rule in by_id[check_id].rules if check_id in by_id else ():
                        by_rule.setdefault(rule, set()).add(learner)
        failing: list[FailingCheck] = []
        for (exercise, check_id), count in sorted(checks.items(), key=lambda c: (-c[1], c[0]))[:FAILING_SHOWN]:
            info = self.exercises[exercise].by_id().get(check_id) if exercise in self.exercises else None
            failing.append({"exercise": exercise, "check": info.name(lang) if info else check_id,
                            "rules": list(info.rules) if info else [], "learners": count, "tried": tried[exercise]})
        rules: list[FailingRule] = [{"rule": rule, "says": rule_sentence(rule, lang), "learners": len(who)}
                                    for rule, who in
                                    sorted(by_rule.items(), key=lambda r: (-len(r[1]), r[0]))[:FAILING_SHOWN]]
        return failing, rules
