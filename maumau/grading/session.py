"""One notebook in one kernel at a time: its cells in order within the time limits; a kernel
that dies or stops answering is restarted and the cells that had run without error are
replayed, so one broken cell costs only what depends on it.  Where no size-capped tmpfs holds
what the kernel writes, a watchdog stops a kernel whose folder grows past the disk quota.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from jupyter_client import AsyncKernelManager

from . import jail as jail_
from .execute import DIED, OK, TIMEOUT, CellRun, QuietClient, execute, probe, responsive
from .kernel import Batch, start_kernel, stop_kernel
from .limits import Limits, disk_usage, empty_folder, tmpfs_usage

__all__ = ["NotebookRun", "Session"]


@dataclass
class NotebookRun:
    """What happened to a whole notebook."""

    cells: list[CellRun]
    seconds: float = 0.0
    restarts: int = 0
    stopped: str = ""              # why cells were left unrun ("total time limit", ...)
    notes: list[str] = field(default_factory=list)
    isolated: bool = False         # the kernel ran in a bubblewrap sandbox (``jail``)


class Session:
    """The run of one notebook (``runner.Sandbox.run``): its current kernel, which a restart
    replaces (``km`` is read by the disk watchdog, so it is None while there is none), and
    what happened (``result``).  The caller stops the last kernel and removes ``scratch``."""

    def __init__(self, batch: Batch, limits: Limits, scratch: Path, bound: dict[str, str], deadline: float,
                 result: NotebookRun) -> None:
        self.batch, self.limits, self.scratch, self.bound = batch, limits, scratch, bound
        self.deadline, self.result = deadline, result
        self.km: AsyncKernelManager | None = None
        self.client: QuietClient | None = None

    async def run(self, sources: list[str], replayable: list[bool], probes: list[str | None]) -> None:
        """Run ``sources`` in order (``replayable`` and ``probes`` as in ``Sandbox.run``)."""
        try:
            self.km, self.client = await start_kernel(self.batch, self.scratch, self.bound)
        except Exception as err:  # no kernel, nothing run
            self.result.stopped = f"the kernel did not start ({type(err).__name__}: {err})"
            return
        done: list[int] = []  # the cells a restarted kernel replays
        for i, source in enumerate(sources):
            remaining = self.deadline - time.monotonic()
            if remaining < 1:
                self.result.stopped = f"the total time limit of {self.limits.total_timeout:g} s"
                break
            timeout = min(self.limits.cell_timeout, remaining)
            if await self._cell(self.client, i, source, replayable, probes, timeout, done):
                if not await self._restart(self.km, self.client, i, sources, done):
                    break

    async def _cell(self, client: QuietClient, i: int, source: str, replayable: list[bool],
                    probes: list[str | None], timeout: float, done: list[int]) -> bool:
        """Run cell ``i`` and then its probe (unless the kernel broke); whether the kernel broke:
        it died, or it timed out and does not answer any more."""
        run = await execute(client, source, timeout)
        self.result.cells[i] = run
        if run.status == OK and replayable[i]:
            done.append(i)
        broken = run.status == DIED or (run.status == TIMEOUT and not await responsive(client))
        if (probe_source := probes[i]) is not None and not broken:
            run.report = await probe(client, probe_source)
        return broken

    async def _restart(self, km: AsyncKernelManager, client: QuietClient, i: int, sources: list[str],
                       done: list[int]) -> bool:
        """Replace the broken kernel (after cell ``i``) and replay the ``done`` cells; False when
        the run stops instead (too many restarts, or no new kernel)."""
        await stop_kernel(km, client)
        self.km = self.client = None
        if self.result.restarts >= self.limits.max_restarts:
            self.result.stopped = "too many kernel restarts"
            return False
        self.result.restarts += 1
        self.result.notes.append(f"cell {i + 1}: the kernel was restarted and earlier cells replayed")
        try:
            self.km, self.client = await start_kernel(self.batch, self.scratch, self.bound)
        except Exception as err:
            self.result.stopped = f"the kernel did not restart ({type(err).__name__})"
            return False
        await self._replay(self.client, sources, done)
        return True

    async def _replay(self, client: QuietClient, sources: list[str], done: list[int]) -> None:
        """Run the ``done`` cells again in a new kernel, as long as the total time allows."""
        for j in done:
            left = self.deadline - time.monotonic()
            if left < 1:
                break
            await execute(client, sources[j], min(self.limits.cell_timeout, left))

    def start_watchdog(self) -> asyncio.Future[None] | None:
        """The disk watchdog, unless the kernel writes to a tmpfs of the quota's size (or there
        is no quota); the caller cancels it."""
        sized = self.batch.jail is not None and "--size" in self.batch.jail.options
        if self.limits.disk_mb > 0 and not sized:  # else the kernel writes to a tmpfs of that size
            return asyncio.ensure_future(self._watch_disk())
        return None

    async def _watch_disk(self) -> None:
        """Twice a second: stop the current kernel if it wrote more than the quota (and, without
        bwrap, delete what it wrote; the next cell finds the kernel dead and restarts it)."""
        quota = self.limits.disk_mb * 1024 * 1024
        while True:
            await asyncio.sleep(0.5)
            # self.km is read afresh each time: a restart replaces it, even during the awaits below
            if self.km is None:
                continue
            if self.batch.jail is not None:  # an old bwrap: the tmpfs seen through /proc
                used = tmpfs_usage(str(self.km.ip)[: -len(jail_.IPC)] + jail_.SCRATCH)
            else:
                used = await asyncio.to_thread(disk_usage, self.scratch, quota)
            if used > quota:
                self.result.notes.append(f"the kernel wrote more than {self.limits.disk_mb} MB and was stopped")
                await stop_kernel(self.km, None)
                if self.batch.jail is None:
                    await asyncio.to_thread(empty_folder, self.scratch)
