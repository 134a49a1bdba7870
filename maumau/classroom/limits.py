"""How often a client may try: token buckets per client (its address, or its hub user).

A bucket holds up to ``burst`` tries and gains ``per_second`` back.  Three kinds:

* ``join``: joins and watches (a class behind one school router shares an address: generous),
* ``wrong``: wrong join codes, wrong seat tokens, wrong teacher tokens (guessing: tight; while
  it is empty, every join, watch and teacher request of that client is refused, the right one
  too, so guessing cannot go on between two right answers),
* ``message``: every request of one connection; beyond it the server reads that connection's
  next request only when it is within the rate again, so a flooding client slows itself alone,
* ``handin``: hand-ins of one learner (by who they are, not their address): five at once, then
  one every six seconds; beyond it a hand-in is refused before its bytes are read,
* ``report``: the live view's reports of one learner (``live``): thirty at once, then five a second.

A server made with ``limits`` of some kinds keeps the others' defaults.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

__all__ = ["Bucket", "RateLimits", "LIMITS"]

#: kind: (burst, per_second)
LIMITS = {"join": (120.0, 10.0), "wrong": (10.0, 0.2), "message": (100.0, 50.0), "handin": (5.0, 1 / 6),
          "report": (30.0, 5.0)}


@dataclass
class Bucket:
    burst: float
    per_second: float
    tokens: float = -1.0
    at: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def _fill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now

    def has(self) -> bool:
        self._fill()
        return self.tokens >= 1

    def wait(self) -> float:
        """Seconds until the next try."""
        self._fill()
        return max(0.0, (1 - self.tokens) / self.per_second)

    def take(self) -> bool:
        """One try, if there is one left."""
        self._fill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RateLimits:
    """The buckets of every client, by (kind, client); full buckets are forgotten now and then."""

    def __init__(self, limits: dict[str, tuple[float, float]] | None = None) -> None:
        self.limits = {**LIMITS, **(limits or {})}
        self.buckets: dict[tuple[str, str], Bucket] = {}

    def bucket(self, kind: str, client: str) -> Bucket:
        found = self.buckets.get((kind, client))
        if found is None:
            if len(self.buckets) > 10_000:
                self._forget_full()
            found = self.buckets[(kind, client)] = Bucket(*self.limits[kind])
        return found

    def _forget_full(self) -> None:
        for key, bucket in list(self.buckets.items()):
            bucket._fill()
            if bucket.tokens >= bucket.burst:
                del self.buckets[key]
