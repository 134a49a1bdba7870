"""keep_session: the bounded session table of the hub login and the LTI launch (maumau/classroom/login.py)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from maumau.classroom.login import keep_session


@dataclass(frozen=True)
class Held:
    until: float


def test_below_the_bound_every_session_stays() -> None:
    sessions: dict[str, Held] = {"old": Held(time.monotonic() - 1)}
    keep_session(sessions, "new", Held(time.monotonic() + 60), most=3)
    assert list(sessions) == ["old", "new"]


def test_at_the_bound_the_ended_go_first_then_the_oldest() -> None:
    now = time.monotonic()
    sessions = {"a": Held(now + 60), "ended": Held(now - 1), "b": Held(now + 60)}
    keep_session(sessions, "c", Held(now + 60), most=3)
    assert list(sessions) == ["a", "b", "c"]  # the ended one made room
    keep_session(sessions, "d", Held(now + 60), most=3)
    assert list(sessions) == ["b", "c", "d"]  # none ended: the oldest made room
