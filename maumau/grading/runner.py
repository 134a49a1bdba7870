"""Run the code cells of one notebook in a fresh, sandboxed kernel (nbclient).

The grader's process only sends cell sources to the kernel and reads the replies: the
learner's code runs in the kernel process (``maumau.grading.sandbox``), started in a
scratch folder of its own with its own HOME, IPython and Jupyter folders.

Isolation: where bubblewrap works (``jail``), each kernel runs in a bwrap sandbox: no
network, its own PID namespace, a read-only file system holding none of the grader's
files, and a size-capped tmpfs as its only writable folder; ``Sandbox.isolated`` says
whether this batch is isolated and ``Sandbox.isolation`` says how, or why not.  Without
bwrap only the kernel's audit hook guards the machine (not a security boundary).

Limits: a per-cell timeout in CPU time of the kernel and its processes (the kernel is
interrupted, and the next cells still run), a total CPU time per notebook (the rest is not
run), generous wall-clock limits against sleeping, memory, processes and cores for the
kernel and everything it starts together (a control group per kernel, ``cgroups``; where
there is none, ``RLIMIT_AS`` per process and the process tree watched), a disk quota for
everything the kernel writes (the tmpfs's size; without bwrap a watchdog stops a kernel
whose folder grows past it).  A kernel that dies or stops answering is restarted and the
cells that had run (tests excepted) are replayed, so one
broken cell costs only what depends on it (a restarted kernel of an isolated batch
starts with an empty working folder: the replayed cells write their files again).

This module is the batch (``Sandbox``: its folder, the protected paths, whether it is
isolated, the data files of each run); the rest has a module per idea, and every name is
still importable from here: ``limits`` (``Limits``, the disk measured), ``kernel`` (a
kernel's start and stop), ``execute`` (one cell, ``CellRun``) and ``session`` (one
notebook: restarts, replay, the disk watchdog; ``NotebookRun``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from . import jail as jail_
from .cgroups import Controls, Group, find_controls
from .execute import DIED, ERROR, NOT_RUN, OK, REPORT_BYTES, REPORT_MIME, TIMEOUT, CellRun  # noqa: F401
from .kernel import KERNEL_NAME, log, stop_kernel, write_kernelspec  # noqa: F401  (KERNEL_NAME: re-exported)
from .limits import Limits
from .session import NotebookRun, Session

__all__ = ["Limits", "CellRun", "NotebookRun", "Sandbox", "OK", "ERROR", "TIMEOUT", "DIED", "NOT_RUN",
           "REPORT_MIME", "NOT_ISOLATED"]

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
