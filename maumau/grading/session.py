"""One notebook in one kernel at a time: its cells in order within the time limits (CPU time
of the kernel and its processes, ``Limits``); a kernel that dies or stops answering is
restarted and the cells that had run (with or without an error, tests excepted) are replayed,
so one broken cell costs only what depends on it.  A kernel found dead before a cell begins (a
thread of an earlier cell ended it) is restarted first, and the cell runs in the new kernel.
Where no size-capped tmpfs holds what the kernel writes, a watchdog stops a kernel whose
folder grows past the disk quota; where no control group holds its memory, one whose process
tree holds more than the memory limit.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager

from . import jail as jail_
from .execute import DIED, ERROR, OK, TIMEOUT, CellRun, QuietClient, execute, probe, responsive
from .kernel import Batch, cpu_seconds, start_kernel, stop_kernel, tree_usage
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
    noted_at: list[int] = field(default_factory=list)  # the cell each note is about (-1: none)
    stopped_at: int = -1           # the cell at which the run stopped
    died_after: list[int] = field(default_factory=list)  # cells after which the kernel was gone
    cpu: float = 0.0               # CPU seconds of the kernels (cells and replays)

    def note(self, cell: int, text: str) -> None:
        self.notes.append(text)
        self.noted_at.append(cell)


class Session:
    """The run of one notebook (``runner.Sandbox.run``): its current kernel, which a restart
    replaces (``km`` is read by the watchdog, so it is None while there is none), and what
    happened (``result``).  The caller stops the last kernel and removes ``scratch``."""

    def __init__(self, batch: Batch, limits: Limits, scratch: Path, bound: dict[str, str], deadline: float,
                 result: NotebookRun) -> None:
        self.batch, self.limits, self.scratch, self.bound = batch, limits, scratch, bound
        self.deadline, self.result = deadline, result
        self.km: AsyncKernelManager | None = None
        self.client: QuietClient | None = None
        self.current = -1

    def meter(self) -> float:
        return cpu_seconds(self.km) if self.km is not None else 0.0

    def _budget(self) -> tuple[float, float] | None:
        """The CPU and wall-clock seconds the next cell may take, or None when the notebook's are spent."""
        wall, cpu = self.deadline - time.monotonic(), self.limits.total_timeout - self.result.cpu
        if wall < 1 or cpu < 0.5:
            return None
        return min(self.limits.cell_timeout, cpu), min(self.limits.cell_wall, wall)

    async def run(self, sources: list[str], replayable: list[bool], probes: list[str | None]) -> None:
        """Run ``sources`` in order (``replayable`` and ``probes`` as in ``Sandbox.run``)."""
        try:
            self.km, self.client = await start_kernel(self.batch, self.scratch, self.bound)
        except Exception as err:  # no kernel, nothing run
            self.result.stopped = f"the kernel did not start ({type(err).__name__}: {err})"
            return
        done: list[int] = []  # the cells a restarted kernel replays
        again: set[int] = set()
        i = 0
        while i < len(sources):
            budget = self._budget()
            if budget is None:
                self.result.stopped = f"the total time limit of {self.limits.total_timeout:g} s (CPU time)"
                self.result.stopped_at = i
                break
            self.current = i
            if i > 0 and i not in again and not await self._alive():
                # the kernel is gone before this cell begins: a cell before it ended it (a thread,
                # a signal sent late); the cell runs in a new kernel
                again.add(i)
                self.result.died_after.append(i - 1)
                if not await self._restart(i - 1, sources, done):
                    break
                continue
            run = await execute(self.client, sources[i], budget[0], budget[1], self.meter)
            self.result.cpu += run.cpu
            self.result.cells[i] = run
            if run.status in (OK, ERROR) and replayable[i]:
                done.append(i)
            broken = run.status == DIED or run.hung or (run.status == TIMEOUT and not await responsive(
                self.client, self.meter))
            if (probe_source := probes[i]) is not None and not broken:
                run.report = await probe(self.client, probe_source, self.meter)
            if broken and not await self._restart(i, sources, done):
                break
            i += 1

    async def _alive(self) -> bool:
        provisioner = self.km.provisioner if self.km is not None else None
        return provisioner is not None and await provisioner.poll() is None

    async def _restart(self, i: int, sources: list[str], done: list[int]) -> bool:
        """Replace the broken kernel (after cell ``i``) and replay the ``done`` cells; False when
        the run stops instead (too many restarts, or no new kernel)."""
        assert self.km is not None
        await stop_kernel(self.km, self.client)
        self.km = self.client = None
        if self.result.restarts >= self.limits.max_restarts:
            self.result.stopped, self.result.stopped_at = "too many kernel restarts", i
            return False
        self.result.restarts += 1
        self.result.note(i, f"cell {i + 1}: the kernel was restarted and earlier cells replayed")
        try:
            self.km, self.client = await start_kernel(self.batch, self.scratch, self.bound)
        except Exception as err:
            self.result.stopped, self.result.stopped_at = f"the kernel did not restart ({type(err).__name__})", i
            return False
        await self._replay(self.client, sources, done)
        return True

    async def _replay(self, client: QuietClient, sources: list[str], done: list[int]) -> None:
        """Run the ``done`` cells again in a new kernel, as long as the total time allows."""
        for j in done:
            budget = self._budget()
            if budget is None:
                break
            run = await execute(client, sources[j], budget[0], budget[1], self.meter)
            self.result.cpu += run.cpu

    def start_watchdog(self) -> asyncio.Future[None] | None:
        """The watchdog, unless the kernel writes to a tmpfs of the quota's size (or there is no
        quota) and a control group holds its memory; the caller cancels it."""
        sized = self.batch.jail is not None and "--size" in self.batch.jail.options
        if (self.limits.disk_mb > 0 and not sized) or self.batch.controls is None:
            return asyncio.ensure_future(self._watch())
        return None

    def _over(self, km: AsyncKernelManager, memory: int) -> str:
        """Without a control group: what the kernel's process tree holds too much of ('' if nothing)."""
        held, count = tree_usage(km)
        if held > memory:
            return f"the kernel's processes held more than {self.limits.memory_mb} MB together and were stopped"
        if count > self.limits.processes:
            return f"the kernel started more than {self.limits.processes} processes and was stopped"
        return ""

    async def _watch(self) -> None:
        """Four times a second: stop the current kernel if it wrote more than the quota (and,
        without bwrap, delete what it wrote) or, without a control group, if its processes hold
        more than the memory limit; the next cell finds the kernel dead and restarts it."""
        sized = self.batch.jail is not None and "--size" in self.batch.jail.options
        quota, memory = self.limits.disk_mb * 1024 * 1024, self.limits.memory_mb * 1024 * 1024
        while True:
            await asyncio.sleep(0.25)
            # self.km is read afresh each time: a restart replaces it, even during the awaits below
            km = self.km
            if km is None:
                continue
            if self.batch.controls is None and (why := await asyncio.to_thread(self._over, km, memory)):
                self.result.note(self.current, why)
                await stop_kernel(km, None)
                continue
            if self.limits.disk_mb <= 0 or sized:
                continue
            pid = getattr(km.provisioner, "pid", None)
            if self.batch.jail is not None:  # an old bwrap: the tmpfs seen from outside (statvfs only)
                root = jail_.sandbox_root(pid) if pid is not None else None
                # the working folder, and /tmp where it is a tmpfs of its own: one quota for both
                tmpfs = [jail_.SCRATCH] + (["/tmp"] if self.batch.jail.tmp_is_tmpfs else [])
                used = sum(tmpfs_usage(root + folder) for folder in tmpfs) if root is not None else 0
            else:
                used = await asyncio.to_thread(disk_usage, self.scratch, quota)
            if used > quota:
                self.result.note(self.current, f"the kernel wrote more than {self.limits.disk_mb} MB and was stopped")
                await stop_kernel(km, None)
                if self.batch.jail is None:
                    await asyncio.to_thread(empty_folder, self.scratch)
