"""How often a class server takes bots: per learner and per address (token buckets).

Entering a bot costs a trial in a sandbox and a seat in every later round, so the class server
(``classroom.league_page``) asks ``EntryLimits.admit`` before each trial.  A learner (their hub
name, or the name of the bot their token owns, or the name they enter under) may enter
``PER_LEARNER.burst`` times at once and once more every ``PER_LEARNER.seconds``; an address
(a classroom behind one router shares one) ``PER_ADDRESS.burst`` times at once and once more
every ``PER_ADDRESS.seconds``.  A refusal is a ``LeagueError`` that says when to try again;
nothing is stored or changed by it.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from .errors import LeagueError

__all__ = ["Rate", "EntryLimits", "PER_LEARNER", "PER_ADDRESS"]


@dataclass(frozen=True)
class Rate:
    """``burst`` entries at once, then one more every ``seconds``."""

    burst: int
    seconds: float


#: A learner: a few tries in a row (a bot that fails its trial, fixed, entered again), then one
#: every 20 seconds (each entry replaces their bot, so more would only cost trials).
PER_LEARNER = Rate(3, 20.0)
#: An address: a group behind one router enters ten at once, then ten a minute.
PER_ADDRESS = Rate(10, 6.0)
#: More buckets than this and the full ones are forgotten (a full bucket is a fresh one).
_KEPT = 10_000


class _Bucket:
    """Up to ``rate.burst`` entries, one more every ``rate.seconds``."""

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate, self.tokens, self.at = rate, float(rate.burst), now

    def fill(self, now: float) -> None:
        self.tokens = min(float(self.rate.burst), self.tokens + (now - self.at) / self.rate.seconds)
        self.at = now

    def wait(self) -> float:
        """Seconds until it holds an entry (0: it holds one now)."""
        return max(0.0, (1 - self.tokens) * self.rate.seconds)

    @property
    def full(self) -> bool:
        return self.tokens >= self.rate.burst


class EntryLimits:
    """The entry buckets of one class server's leagues (thread-safe: entries are checked on
    worker threads)."""

    def __init__(self, per_learner: Rate = PER_LEARNER, per_address: Rate = PER_ADDRESS) -> None:
        self.rates = {"learner": per_learner, "address": per_address}
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._lock = threading.Lock()

    def admit(self, learner: str, address: str) -> None:
        """Count one entry of ``learner`` from ``address``; LeagueError (nothing counted) when
        either has entered too often lately."""
        with self._lock:
            now = time.monotonic()
            addresses = self._bucket("address", address, now)  # first: a refused address makes no learner's bucket
            if addresses.wait() > 0:
                rate = addresses.rate
                raise LeagueError(f"{rate.burst} bots were entered from your address in a row: one more every "
                                  f"{rate.seconds:g} seconds; try again in {_seconds(addresses.wait())}")
            learners = self._bucket("learner", learner, now)
            if learners.wait() > 0:
                rate = learners.rate
                raise LeagueError(f"{learner!r} has entered a bot {rate.burst} times in a row: one bot per "
                                  f"learner, entered again at most every {rate.seconds:g} seconds; try again in "
                                  f"{_seconds(learners.wait())}")
            learners.tokens -= 1
            addresses.tokens -= 1

    def _bucket(self, kind: str, key: str, now: float) -> _Bucket:
        found = self._buckets.get((kind, key))
        if found is None:
            if len(self._buckets) >= _KEPT:
                self._forget_full(now)
            found = self._buckets[(kind, key)] = _Bucket(self.rates[kind], now)
        found.fill(now)
        return found

    def _forget_full(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            bucket.fill(now)
            if bucket.full:
                del self._buckets[key]


def _seconds(wait: float) -> str:
    whole = math.ceil(wait)
    return "1 second" if whole == 1 else f"{whole} seconds"
