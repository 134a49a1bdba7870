"""How ``mm.simulate`` spreads its hands over processes: never slower than a plain loop, every core busy.

A process pool is only worth it when the work outweighs starting it and sending hands and results
to and fro; how long a hand takes depends on the variant and the players (a random makao hand is
~250 decisions, a Search player thinks 1,000 times longer).  So the hands are not counted but timed:

1. This process plays the first hands itself, one at a time, until ``PROBE_SECONDS`` have passed:
   that measures a hand.  When what is left would take less than ``POOL_SECONDS``, it plays the
   rest too: no pool is started.
2. Otherwise it starts ``cores() - 1`` worker processes and plays on itself (so every core works,
   and the pool's start costs no time: this process is busy meanwhile).  Hands go out in chunks of
   about ``CHUNK_SECONDS`` of play (sending a chunk then costs little), but at least four chunks per
   process, so that the last chunks end close together.
3. When no chunk is left to take, this process takes back the chunks a worker has not started
   yet and plays them itself: a pool whose workers get no processor time (a busy shared machine)
   leaves this process playing on at the speed of the plain loop.

Every hand has its own seed, so who plays which hand never changes the result.
"""

from __future__ import annotations

import math
import os
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Generic, TypeVar

__all__ = ["cores", "probe", "chunk_size", "chunks_of", "plan", "run_shared", "PROBE_SECONDS", "POOL_SECONDS",
           "CHUNK_SECONDS"]

#: How long this process plays alone to time a hand.
PROBE_SECONDS = 0.1
#: Below this much estimated work left, no pool is started.
POOL_SECONDS = 0.3
#: About how long a chunk of hands sent to a worker plays.
CHUNK_SECONDS = 0.2

Job = tuple[int, int]  # hand number, seed
R = TypeVar("R")


def cores() -> int:
    """The processors this process may run on (its affinity, where the system says; else all)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS, Windows: no affinity
        return os.cpu_count() or 1


def probe(play: Callable[[list[Job]], list[R]], jobs: Sequence[Job],
          seconds: float = PROBE_SECONDS) -> tuple[list[R], float]:
    """Play ``jobs`` one at a time in this process for about ``seconds`` (at least one hand); return
    what was played and the seconds per hand."""
    done: list[R] = []
    start = time.perf_counter()
    for job in jobs:
        done += play([job])
        if time.perf_counter() - start >= seconds:
            break
    return done, (time.perf_counter() - start) / max(1, len(done))


def chunk_size(per_hand: float, hands: int, processes: int, seconds: float = CHUNK_SECONDS) -> int:
    """Hands per chunk: about ``seconds`` of play, and at least four chunks per process."""
    by_time = max(1, round(seconds / max(per_hand, 1e-9)))
    balanced = max(1, math.ceil(hands / (4 * processes)))
    return min(by_time, balanced)


def chunks_of(jobs: Sequence[Job], size: int) -> list[list[Job]]:
    return [list(jobs[i:i + size]) for i in range(0, len(jobs), size)]


def run_shared(pool: Executor, remote: Callable[[list[Job]], Future[list[R]]], local: Callable[[list[Job]], list[R]],
               chunks: list[list[Job]], workers: int, on_done: Callable[[list[R]], None],
               failed: Callable[[BaseException], BaseException], alone: float | None = None) -> dict[int, list[R]]:
    """Play ``chunks`` in ``pool`` (``remote(chunk)`` submits one) and in this process (``local``) at
    once; chunks not yet started by a worker are taken back at the end.  ``alone``: the hands per
    second this process played by itself; when the pool and this process together play fewer (a
    machine whose processors are all taken), no more chunks go to the pool.  Returns the results by
    the first hand number of each chunk; ``failed(err)`` turns a worker's exception into the one raised."""
    shared = _Shared(pool, remote, local, chunks, workers, on_done, failed, alone)
    try:
        shared.run()
    except BaseException:
        for future in shared.flying:
            future.cancel()
        raise
    return shared.results


#: The pool stops getting chunks when this process and the pool together play less than this share
#: of what this process played alone (measured after ``WATCH_SECONDS``).
RETREAT = 0.95
WATCH_SECONDS = 1.0


class _Shared(Generic[R]):
    """The bookkeeping of ``run_shared``."""

    def __init__(self, pool: Executor, remote: Callable[[list[Job]], Future[list[R]]],
                 local: Callable[[list[Job]], list[R]], chunks: list[list[Job]], workers: int,
                 on_done: Callable[[list[R]], None], failed: Callable[[BaseException], BaseException],
                 alone: float | None) -> None:
        self.pool, self.remote, self.local, self.workers = pool, remote, local, workers
        self.on_done, self.failed, self.alone = on_done, failed, alone
        self.queue = deque(chunks)
        self.flying: dict[Future[list[R]], list[Job]] = {}
        self.results: dict[int, list[R]] = {}
        self.started, self.hands, self.retreated = time.perf_counter(), 0, False

    def keep(self, chunk: list[Job], part: list[R]) -> None:
        self.results[chunk[0][0]] = part
        self.hands += len(part)
        self.on_done(part)

    def collect(self, block: bool) -> None:
        done, _ = wait(list(self.flying), timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for future in done:
            chunk = self.flying.pop(future)
            try:
                self.keep(chunk, future.result())
            except BaseException as err:
                for other in self.flying:
                    other.cancel()
                told = self.failed(err)
                if told is err:
                    raise
                raise told from err

    def take_back(self) -> None:
        """Play here every chunk no worker has started."""
        for future, chunk in list(self.flying.items()):
            if future.cancel():
                del self.flying[future]
                self.keep(chunk, self.local(chunk))

    def watch(self) -> None:
        """Retreat from the pool when sharing the work is slower than this process alone."""
        elapsed = time.perf_counter() - self.started
        if self.alone and not self.retreated and elapsed >= WATCH_SECONDS:
            self.retreated = self.hands / elapsed < RETREAT * self.alone

    def run(self) -> None:
        while self.queue or self.flying:
            while self.queue and not self.retreated and len(self.flying) < 2 * self.workers:
                chunk = self.queue.popleft()  # the pool always has its next chunk waiting
                self.flying[self.remote(chunk)] = chunk
            if self.queue:  # this process takes chunks from the other end
                chunk = self.queue.pop()
                self.keep(chunk, self.local(chunk))
                self.watch()
            else:
                self.take_back()
                if self.flying:
                    self.collect(block=True)
            if self.flying:
                self.collect(block=False)


def plan(per_hand: float, left: int) -> tuple[int, int]:
    """(workers, hands per chunk) for ``left`` hands of ``per_hand`` seconds each: a worker per core but
    this process's, chunks sized by time; (0, 0) when the rest is too little to start a pool for."""
    workers = cores() - 1
    if workers < 1 or per_hand * left < POOL_SECONDS:
        return 0, 0
    return workers, chunk_size(per_hand, left, workers + 1)
