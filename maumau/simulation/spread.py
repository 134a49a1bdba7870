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
from typing import Any, Generic, TypeVar

__all__ = ["cores", "probe", "chunk_size", "chunks_of", "plan", "run_shared", "timed", "pool_pays", "PROBE_SECONDS",
           "POOL_SECONDS", "CHUNK_SECONDS", "RETREAT", "WATCH_SECONDS", "RETRY_SECONDS"]

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


def timed(play: Callable[..., list[R]], *args: Any) -> tuple[float, list[R]]:
    """``play(*args)`` and the CPU seconds it took in the process that ran it (a worker sends its
    CPU time back with its hands: the only way to see how hard it worked, on any executor)."""
    start = time.process_time()
    done = play(*args)
    return time.process_time() - start, done


def run_shared(pool: Executor, remote: Callable[[list[Job]], Future[tuple[float, list[R]]]],
               local: Callable[[list[Job]], list[R]], chunks: list[list[Job]], workers: int,
               on_done: Callable[[list[R]], None], failed: Callable[[BaseException], BaseException],
               clock: Callable[[], float] = time.perf_counter,
               cpu: Callable[[], float] = time.process_time) -> dict[int, list[R]]:
    """Play ``chunks`` in ``pool`` and in this process (``local``) at once; chunks not yet started by
    a worker are taken back at the end.  ``remote(chunk)`` submits one, its future giving the worker's
    CPU seconds and the hands (``timed``).  Every ``WATCH_SECONDS`` (by ``clock``) the last window is
    judged (``pool_pays``): when sharing played fewer hands than this process would have alone, the
    pool gets no more chunks (those it has not started come back) and is tried again with one chunk
    per worker after ``RETRY_SECONDS``, twice as long after each failed try.  Returns the results by
    the first hand number of each chunk; ``failed(err)`` turns a worker's exception into the one raised."""
    shared = _Shared(pool, remote, local, chunks, workers, on_done, failed, clock, cpu)
    try:
        shared.run()
    except BaseException:
        for future in shared.flying:
            future.cancel()
        raise
    finally:
        last_verdicts[:] = shared.verdicts
    return shared.results


#: The judgements of the last ``run_shared`` in this process, one per window (True: the pool paid):
#: benchmarks/simulate.py prints them.
last_verdicts: list[bool] = []


#: The pool keeps getting chunks while sharing gains at least ``RETREAT - 1`` of what the pool's CPU time
#: would have played in this process (``pool_pays``): a tie, or a gain within the noise, goes to the loop.
RETREAT = 1.05
#: How long a window of play is before it is judged.
WATCH_SECONDS = 1.0
#: After a retreat, the pool is tried again after this long (doubled after each failed try).
RETRY_SECONDS = 4.0


def pool_pays(wall: float, here_hands: int, here_cpu: float, pool_hands: int, pool_cpu: float) -> bool:
    """Whether this process and the pool together played more hands in a window of ``wall`` seconds than
    this process would have played alone: at least ``RETREAT - 1`` (5%) of what the pool's CPU time would
    have played here more.

    Alone, this process would have played its own hands per CPU second (``here_hands / here_cpu``: its
    cost of a hand, sending chunks included) with the CPU time the whole run got, up to one core: Linux
    shares the processors between sessions (autogroup: a process pool shares its session's part), so on
    a busy machine the workers' CPU time is taken from this process's and gains nothing; on a machine
    with a free core it comes on top.  A tie goes to the plain loop.  The judgement is in CPU time within
    the window, not against a rate measured earlier: a load that comes or goes in mid-run changes both
    sides of the window alike."""
    if here_hands <= 0 or here_cpu <= 0 or wall <= 0:
        return True  # nothing to judge by yet
    rate = here_hands / here_cpu
    alone = rate * min(wall, here_cpu + pool_cpu)
    return here_hands + pool_hands >= alone + (RETREAT - 1) * rate * pool_cpu


class _Window:
    """What this process and the pool played since the window opened."""

    __slots__ = ("wall", "cpu", "here_hands", "pool_hands", "pool_cpu")

    def __init__(self, wall: float, cpu: float) -> None:
        self.wall, self.cpu = wall, cpu
        self.here_hands, self.pool_hands, self.pool_cpu = 0, 0, 0.0


class _Shared(Generic[R]):
    """The bookkeeping of ``run_shared``."""

    def __init__(self, pool: Executor, remote: Callable[[list[Job]], Future[tuple[float, list[R]]]],
                 local: Callable[[list[Job]], list[R]], chunks: list[list[Job]], workers: int,
                 on_done: Callable[[list[R]], None], failed: Callable[[BaseException], BaseException],
                 clock: Callable[[], float], cpu: Callable[[], float]) -> None:
        self.pool, self.remote, self.local, self.workers = pool, remote, local, workers
        self.on_done, self.failed, self.clock, self.cpu = on_done, failed, clock, cpu
        self.queue = deque(chunks)
        self.flying: dict[Future[tuple[float, list[R]]], list[Job]] = {}
        self.results: dict[int, list[R]] = {}
        self.window = _Window(clock(), cpu())
        self.retreated, self.retry_at, self.retry_wait, self.trial = False, 0.0, RETRY_SECONDS, False
        self.verdicts: list[bool] = []  # each window's judgement, for tests and benchmarks

    def keep(self, chunk: list[Job], part: list[R]) -> None:
        self.results[chunk[0][0]] = part
        self.on_done(part)

    def play_here(self, chunk: list[Job]) -> None:
        part = self.local(chunk)
        self.window.here_hands += len(part)
        self.keep(chunk, part)

    def collect(self, block: bool) -> None:
        done, _ = wait(list(self.flying), timeout=None if block else 0, return_when=FIRST_COMPLETED)
        for future in done:
            chunk = self.flying.pop(future)
            try:
                used, part = future.result()
            except BaseException as err:
                for other in self.flying:
                    other.cancel()
                told = self.failed(err)
                if told is err:
                    raise
                raise told from err
            self.window.pool_hands += len(part)
            self.window.pool_cpu += used
            self.keep(chunk, part)

    def take_back(self, play: bool) -> None:
        """Every chunk no worker has started: played here (``play``) or put back in the queue."""
        for future, chunk in list(self.flying.items()):
            if future.cancel():
                del self.flying[future]
                if play:
                    self.play_here(chunk)
                else:
                    self.queue.appendleft(chunk)

    def watch(self) -> None:
        """Judge the window when it is long enough; retreat from the pool or try it again."""
        now, w = self.clock(), self.window
        if now - w.wall < WATCH_SECONDS:
            return
        if self.trial and w.pool_hands == 0:
            return  # a trial is judged on its chunks, not on none: the window stays open until one is back
        if not self.retreated or self.trial:
            pays = pool_pays(now - w.wall, w.here_hands, self.cpu() - w.cpu, w.pool_hands, w.pool_cpu)
            self.verdicts.append(pays)
            if self.trial:
                self.trial = False
                self.retry_wait = RETRY_SECONDS if pays else 2 * self.retry_wait
            self.retreated = not pays
            if not pays:
                self.retry_at = now + self.retry_wait
                self.take_back(play=False)
        elif now >= self.retry_at:
            self.retreated, self.trial = False, True  # one chunk per worker, judged in the next window
        self.window = _Window(now, self.cpu())

    def send(self) -> None:
        """Keep the pool's next chunks waiting (one per worker on a trial)."""
        most = self.workers if self.trial else 2 * self.workers
        while self.queue and not self.retreated and len(self.flying) < most:
            chunk = self.queue.popleft()
            self.flying[self.remote(chunk)] = chunk
        if self.trial and self.flying:
            self.retreated = True  # the trial's chunks are out; none more until it is judged

    def run(self) -> None:
        while self.queue or self.flying:
            self.send()
            if self.queue:  # this process takes chunks from the other end
                self.play_here(self.queue.pop())
                self.watch()
            else:
                self.take_back(play=True)
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
