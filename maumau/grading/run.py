"""Run the code cells of one notebook in a fresh, sandboxed kernel (nbclient): the session that
keeps one notebook's cells within their limits, restarting a dead kernel and replaying what
ran, and the batch's ``Sandbox`` around it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from jupyter_client.manager import AsyncKernelManager

from ..sandbox import jail as jail_
from ..sandbox.jail import Controls, Group, find_controls
from ..sandbox.limits import Limits, disk_usage, empty_folder, tmpfs_usage
from .kernel import (
    DIED,
    ERROR,
    OK,
    TIMEOUT,
    Batch,
    CellRun,
    QuietClient,
    cpu_seconds,
    execute,
    log,
    probe,
    responsive,
    start_kernel,
    stop_kernel,
    tree_usage,
    write_kernelspec,
)

__all__ = ["NotebookRun", "Session", "Sandbox", "NOT_ISOLATED"]


# --- one notebook in one kernel -----------------------------------------------------------------------------
#
# One notebook in one kernel at a time: its cells in order within the time limits (CPU time
# of the kernel and its processes, ``Limits``); a kernel that dies or stops answering is
# restarted and the cells that had run (with or without an error, tests excepted) are replayed,
# so one broken cell costs only what depends on it.  A kernel found dead before a cell begins (a
# thread of an earlier cell ended it) is restarted first, and the cell runs in the new kernel.
# Where no size-capped tmpfs holds what the kernel writes, a watchdog stops a kernel whose
# folder grows past the disk quota; where no control group holds its memory, one whose process
# tree holds more than the memory limit.

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


# --- the batch's sandbox ------------------------------------------------------------------------------------
#
# Run the code cells of one notebook in a fresh, sandboxed kernel (nbclient).
#
# The grader's process only sends cell sources to the kernel and reads the replies: the
# learner's code runs in the kernel process (``maumau.sandbox.guard``), started in a
# scratch folder of its own with its own HOME, IPython and Jupyter folders.
#
# Isolation: where bubblewrap works (``maumau.sandbox.jail``), each kernel runs in a bwrap sandbox: no
# network, its own PID namespace, a read-only file system holding none of the grader's
# files, and a size-capped tmpfs as its only writable folder; ``Sandbox.isolated`` says
# whether this batch is isolated and ``Sandbox.isolation`` says how, or why not.  Without
# bwrap only the kernel's audit hook guards the machine (not a security boundary).
#
# Limits: a per-cell timeout in CPU time of the kernel and its processes (the kernel is
# interrupted, and the next cells still run), a total CPU time per notebook (the rest is not
# run), generous wall-clock limits against sleeping, memory, processes and cores for the
# kernel and everything it starts together (a control group per kernel, ``maumau.sandbox.jail.Group``; where
# there is none, ``RLIMIT_AS`` per process and the process tree watched), a disk quota for
# everything the kernel writes (the tmpfs's size; without bwrap a watchdog stops a kernel
# whose folder grows past it).  A kernel that dies or stops answering is restarted and the
# cells that had run (tests excepted) are replayed, so one
# broken cell costs only what depends on it (a restarted kernel of an isolated batch
# starts with an empty working folder: the replayed cells write their files again).
#
# This part is the batch (``Sandbox``: its folder, the protected paths, whether it is
# isolated, the data files of each run); the session above is one notebook (restarts, replay,
# the disk watchdog; ``NotebookRun``), ``kernel`` a kernel's start and stop and one cell
# (``CellRun``), ``maumau.sandbox.limits`` what a notebook may use (``Limits``).

#: The first words of ``Sandbox.isolation`` when the batch runs without bubblewrap.
NOT_ISOLATED = "NOT ISOLATED"


def _git_dir(path: Path) -> Path | None:
    """The ``.git`` of the repository holding ``path``, if any."""
    for folder in (path, *path.parents):
        if (folder / ".git").exists():
            return folder / ".git"
    return None


def protected_paths(paths: list[Path]) -> list[str]:
    """The folders a kernel may not read: the given ones and the git repositories
    holding them (the instructor's hidden tests live in its history too)."""
    found: list[str] = []
    for path in paths:
        real = Path(os.path.realpath(path))
        for p in (real, _git_dir(real if real.is_dir() else real.parent)):
            if p is not None and str(p) not in found:
                found.append(str(p))
    return found


class Sandbox:
    """A batch of kernels: a private temporary folder, a kernelspec and the protected paths.

    ``isolate``: None (the default) uses bubblewrap where it works and says so; True
    requires it (RuntimeError where it does not work); False never uses it.  After
    construction ``isolated`` (bool) says whether the kernels run in bwrap sandboxes and
    ``isolation`` is one line for the teacher: how, or (starting with NOT_ISOLATED) why not.
    """

    def __init__(self, protect: list[Path], limits: Limits | None = None, isolate: bool | None = None) -> None:
        self.limits = limits or Limits()
        self.root = Path(tempfile.mkdtemp(prefix="maumau-grade-"))
        os.chmod(self.root, 0o700)
        self.protect = protected_paths(protect) + [str(self.root)]
        self.jail: jail_.Jail | None = None
        why = self._find_jail(isolate)
        self.isolated = self.jail is not None
        self.controls: Controls | None
        self.controls, self.no_controls = find_controls(self.root.name)
        self.isolation = self._describe_isolation(why)
        self.spec_manager = write_kernelspec(self.root, self.isolated)
        self._count = 0

    def _find_jail(self, isolate: bool | None) -> str:
        """Set ``jail`` as ``isolate`` asks (``find_jail``); why there is none, if there is none.
        RuntimeError (and the batch's folder removed) when it is required and does not work."""
        if isolate is False:
            return "isolation switched off"
        self.jail, why = jail_.find_jail(self.protect)
        if self.jail is None and isolate:
            shutil.rmtree(self.root, ignore_errors=True)
            raise RuntimeError(f"no isolation: {why}")
        return why

    def _describe_isolation(self, why: str) -> str:
        """The line for the teacher (``isolation``); logged as a warning when not isolated."""
        if self.jail is not None:
            sized = "--size" in self.jail.options
            quota = f"{self.limits.disk_mb} MB" + ("" if sized else " (watched: no bwrap --size)")
            return (f"isolated: each kernel in a {self.jail.version} sandbox (no network, own PIDs, "
                    f"read-only files, a {quota} working folder); {self.limits_line()}")
        isolation = (f"{NOT_ISOLATED}: {why}; the kernels ran with only the audit hook between the "
                     f"learners' code and this machine (network, processes, files)")
        log.warning("%s", isolation)
        return isolation

    def limits_line(self) -> str:
        """How the memory, process and CPU limits hold for each kernel in this batch."""
        if self.controls is not None:
            return f"limits: {self.controls.describe()}"
        return (f"limits: per process and measured ({self.no_controls}): address space per process, "
                f"the process tree's memory and CPU time watched")

    def close(self) -> None:
        if self.controls is not None:
            self.controls.close()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def process_command(self, argv: list[str], files: Mapping[str, str] | None = None
                        ) -> tuple[list[str], Group | None]:
        """The command that runs ``argv`` (any program, e.g. a league's bot) as this batch runs a
        kernel: in a bwrap sandbox of its own where the batch is isolated (``files``, relative
        name: host path, bound read-only into its working folder) and in a new control group with
        the batch's memory, process and CPU limits where there are control groups.  The caller
        starts it (stdin and stdout as it likes), may read ``group.cpu_seconds()`` and must call
        ``group.remove()`` when it is done (``close`` removes what is left)."""
        limits = self.limits
        cmd = self.jail.command(argv, disk_mb=limits.disk_mb, files=files) if self.jail is not None else list(argv)
        if self.controls is None:
            return cmd, None
        group = self.controls.new_group((limits.memory_mb + 2 * limits.disk_mb + 64) << 20, limits.processes,
                                        limits.cpus)
        return group.wrap(cmd), group

    # --- one kernel ------------------------------------------------------------------------
    def connection_file(self, folder: Path) -> str:
        """A connection file in ``folder``, named after this process and numbered: one per kernel."""
        name = str(folder / f"kernel-{os.getpid()}-{self._count}.json")
        self._count += 1
        return name

    def _data_files(self, scratch: Path, files: Mapping[str, Path]) -> dict[str, str]:
        """Copy the data files (relative name: path) for a kernel: into its working folder, or
        (isolated) into a folder of the batch that the sandbox binds read-only; returns what
        to bind."""
        target = scratch if self.jail is None else scratch / "files"
        bound: dict[str, str] = {}
        for rel, source in files.items():
            if PurePosixPath(rel).parts[:1] in (("home",), ("tmp",), ("files",)) or ".." in PurePosixPath(rel).parts:
                continue
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, path, follow_symlinks=False)
            bound[rel] = str(path)
        return bound

    async def run(self, sources: list[str], replayable: list[bool] | None = None,
                  probes: list[str | None] | None = None, files: Mapping[str, Path] | None = None) -> NotebookRun:
        """Run ``sources`` in order in one fresh kernel; ``replayable[i]`` says whether cell i
        is replayed after a kernel restart when it ran without error; ``probes[i]``, when
        given, runs right after cell i (also after an error) and its report goes to
        ``cells[i].report``; ``files`` (relative name: path) are data files the notebook
        finds in its working folder."""
        limits = self.limits
        replayable = replayable or [True] * len(sources)
        probes = probes or [None] * len(sources)
        began = time.monotonic()
        deadline = began + limits.total_wall
        scratch = Path(tempfile.mkdtemp(prefix="kernel-", dir=self.root))
        bound = self._data_files(scratch, files or {})
        result = NotebookRun([CellRun() for _ in sources], isolated=self.isolated)
        session = Session(self, limits, scratch, bound, deadline, result)
        watchdog = session.start_watchdog()
        try:
            await session.run(sources, replayable, probes)
        finally:
            if watchdog is not None:
                watchdog.cancel()
            if session.km is not None:
                await stop_kernel(session.km, session.client)
            shutil.rmtree(scratch, ignore_errors=True)
            result.seconds = time.monotonic() - began
        return result


def run_sync(sandbox_: Sandbox, sources: list[str]) -> NotebookRun:
    """``Sandbox.run`` for callers without an event loop."""
    return asyncio.run(sandbox_.run(sources))
