"""Run the code cells of one notebook in a fresh, sandboxed kernel (nbclient).

The grader's process only sends cell sources to the kernel and reads the replies: the
learner's code runs in the kernel process (``maumau.grading.sandbox``), started in a
scratch folder of its own with its own HOME, IPython and Jupyter folders.

Isolation: where bubblewrap works (``jail``), each kernel runs in a bwrap sandbox: no
network, its own PID namespace, a read-only file system holding none of the grader's
files, and a size-capped tmpfs as its only writable folder; ``Sandbox.isolated`` says
whether this batch is isolated and ``Sandbox.isolation`` says how, or why not.  Without
bwrap only the kernel's audit hook guards the machine (not a security boundary).

Limits: a per-cell timeout (the kernel is interrupted, and the next cells still run), a
total time per notebook (the rest is not run), a memory limit (``RLIMIT_AS`` in the
kernel), a disk quota for everything the kernel writes (the tmpfs's size; without bwrap
a watchdog stops a kernel whose folder grows past it).  A kernel that dies or stops
answering is restarted and the cells that had run without error are replayed, so one
broken cell costs only what depends on it (a restarted kernel of an isolated batch
starts with an empty working folder: the replayed cells write their files again).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import nbformat
from jupyter_client import AsyncKernelManager
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

from . import jail as jail_
from . import sandbox

__all__ = ["Limits", "CellRun", "NotebookRun", "Sandbox", "OK", "ERROR", "TIMEOUT", "DIED", "NOT_RUN",
           "REPORT_MIME", "NOT_ISOLATED"]

OK, ERROR, TIMEOUT, DIED, NOT_RUN = "ok", "error", "timeout", "died", "not run"
KERNEL_NAME = "maumau-sandbox"
_TIMEOUT_ENAME = "CellTimeout"
#: The MIME type of a test cell's report (what the learner's code did, ``checks.report``).
REPORT_MIME = "application/vnd.maumau.report+json"
REPORT_BYTES = 1_000_000  # a report larger than this is dropped (read: no report)
#: The first words of ``Sandbox.isolation`` when the batch runs without bubblewrap.
NOT_ISOLATED = "NOT ISOLATED"
log = logging.getLogger("maumau.grading")
log.addHandler(logging.NullHandler())
log.propagate = False


@dataclass(frozen=True)
class Limits:
    """Time and memory limits for one notebook."""

    cell_timeout: float = 10.0     # seconds per cell, then the kernel is interrupted
    total_timeout: float = 90.0    # seconds per notebook, then the rest is not run
    memory_mb: int = 1024          # address space of the kernel process
    startup_timeout: float = 60.0  # seconds for the kernel to start
    max_restarts: int = 2          # kernel restarts (with replay) per notebook
    disk_mb: int = 100             # everything the kernel writes (its working folder)


@dataclass
class CellRun:
    """What happened to one cell."""

    status: str = NOT_RUN
    ename: str = ""
    evalue: str = ""
    seconds: float = 0.0
    report: object = None          # what the probe after the cell displayed (REPORT_MIME), if any


@dataclass
class NotebookRun:
    """What happened to a whole notebook."""

    cells: list[CellRun]
    seconds: float = 0.0
    restarts: int = 0
    stopped: str = ""              # why cells were left unrun ("total time limit", ...)
    notes: list[str] = field(default_factory=list)
    isolated: bool = False         # the kernel ran in a bubblewrap sandbox (``jail``)


class _QuietClient(NotebookClient):
    """An nbclient that keeps no outputs: grading reads only the replies, so a learner
    printing megabytes costs the grader nothing.  While a probe runs (``reports`` is a list)
    it keeps the REPORT_MIME data that the probe displays, and nothing else."""

    reports: list[object] | None = None

    def output(self, outs, msg, display_id, cell_index):  # noqa: ANN001, ANN201
        if self.reports is not None and msg.get("msg_type") in ("display_data", "execute_result"):
            data = msg.get("content", {}).get("data", {})
            found = data.get(REPORT_MIME) if isinstance(data, dict) else None
            if found is not None and len(json.dumps(found)) <= REPORT_BYTES:
                self.reports.append(found)
        return None


def _git_dir(path: Path) -> Path | None:
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


class _JailedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernel command runs inside a bubblewrap sandbox."""

    jail: jail_.Jail | None = None
    disk_mb: int = 0
    wait_seconds: float = 60.0
    files: dict[str, str] | None = None

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        cmd = super().format_kernel_cmd(extra_arguments)
        assert self.jail is not None
        return self.jail.command(cmd, os.path.realpath(self.connection_file), self.disk_mb, self.files)

    async def _async_post_start_kernel(self, **kw: object) -> None:
        # The connection file (and the kernel) name the sockets as seen inside the sandbox; the
        # grader reaches them through /proc/PID/root, before its own control socket connects.
        self.ip = await _sandbox_root(self, self.wait_seconds) + jail_.IPC
        await super()._async_post_start_kernel(**kw)


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
        if isolate is False:
            why = "isolation switched off"
        else:
            self.jail, why = jail_.find_jail(self.protect)
            if self.jail is None and isolate:
                shutil.rmtree(self.root, ignore_errors=True)
                raise RuntimeError(f"no isolation: {why}")
        self.isolated = self.jail is not None
        if self.jail is not None:
            sized = "--size" in self.jail.options
            quota = f"{self.limits.disk_mb} MB" + ("" if sized else " (watched: no bwrap --size)")
            self.isolation = (f"isolated: each kernel in a {self.jail.version} sandbox (no network, own PIDs, "
                              f"read-only files, a {quota} working folder)")
        else:
            self.isolation = (f"{NOT_ISOLATED}: {why}; the kernels ran with only the audit hook between the "
                              f"learners' code and this machine (network, processes, files)")
            log.warning("%s", self.isolation)
        spec_dir = self.root / "kernels" / KERNEL_NAME
        spec_dir.mkdir(parents=True)
        (spec_dir / "kernel.json").write_text(json.dumps({
            "argv": [sys.executable, "-m", "maumau.grading.sandbox", "-f", "{connection_file}"],
            "display_name": "maumau grading sandbox", "language": "python",
            "metadata": {"debugger": False},
            # signals do not reach into the sandbox's PID namespace: interrupt by message there
            "interrupt_mode": "message" if self.isolated else "signal",
        }))
        self.spec_manager = KernelSpecManager(kernel_dirs=[str(self.root / "kernels")])
        self._count = 0

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- one kernel ------------------------------------------------------------------------
    def _env(self, scratch: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("JUPYTER", "JPY_", "XDG_", "IPYTHON", "MAUMAU_", "PYTEST", "COV_"))
               and k not in ("PWD", "OLDPWD", "MPLCONFIGDIR", "TMPDIR", "HOME", "PYTHONSTARTUP")}
        extra = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        if self.jail is not None:  # only what is bound inside: the maumau package's parent first
            paths = list(self.jail.python_path) + [p for p in extra if any(
                jail_.inside(os.path.realpath(p), b) for b in self.jail.readonly)]
        else:
            paths = [str(Path(__file__).resolve().parents[2])] + extra
            (scratch / "home").mkdir(exist_ok=True)
        home = scratch / "home"
        env.update({
            "PYTHONPATH": os.pathsep.join(dict.fromkeys(paths)), "HOME": str(home), "TMPDIR": str(scratch),
            "IPYTHONDIR": str(home / ".ipython"), "MPLCONFIGDIR": str(home / ".matplotlib"),
            "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_DATA_HOME": str(home / ".local/share"), "JUPYTER_PLATFORM_DIRS": "1",
            "JUPYTER_CONFIG_DIR": str(home / ".jupyter"), "JUPYTER_DATA_DIR": str(home / ".local/share/jupyter"),
            "JUPYTER_RUNTIME_DIR": str(scratch), "MPLBACKEND": "agg", "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            sandbox.SCRATCH: str(scratch), sandbox.PROTECT: os.pathsep.join(self.protect),
            sandbox.MEMORY: str(self.limits.memory_mb),
            sandbox.CPU: str(int(self.limits.total_timeout * 2 + 60)),
        })
        if self.jail is not None:
            env[sandbox.JAILED] = "1"
        return env

    async def _start(self, scratch: Path, files: dict[str, str] | None = None
                     ) -> tuple[AsyncKernelManager, _QuietClient]:
        """Start a kernel; ``scratch`` is its working folder (unused by an isolated kernel,
        whose working folder is a tmpfs of its own, with ``files`` bound into it)."""
        extra = ["--HistoryManager.enabled=False", "--Application.log_level=CRITICAL"]
        if self.jail is None:
            km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=self.spec_manager)
            km.connection_file = str(scratch / f"kernel-{os.getpid()}-{self._count}.json")
            self._count += 1
            await km.start_kernel(cwd=str(scratch), env=self._env(scratch), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, extra_arguments=extra)
        else:
            km = _JailedKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=self.spec_manager)
            km.jail, km.disk_mb, km.wait_seconds = self.jail, self.limits.disk_mb, self.limits.startup_timeout
            km.files = files
            km.transport, km.ip = "ipc", jail_.IPC
            km.connection_file = str(self.root / f"kernel-{os.getpid()}-{self._count}.json")
            self._count += 1
            try:
                await km.start_kernel(cwd=str(self.root), env=self._env(Path(jail_.SCRATCH)),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      extra_arguments=extra)
            except BaseException:
                await _stop(km, None)
                raise
        client = _QuietClient(nbformat.v4.new_notebook(), km=km, log=log, interrupt_on_timeout=True,
                              error_on_timeout={"ename": _TIMEOUT_ENAME, "evalue": "", "traceback": []},
                              startup_timeout=int(self.limits.startup_timeout), iopub_timeout=5,
                              raise_on_iopub_timeout=False, record_timing=False)
        try:
            await client.async_start_new_kernel_client()
        except BaseException:
            await _stop(km, client)
            raise
        return km, client

    async def _execute(self, client: NotebookClient, source: str, timeout: float) -> CellRun:
        cell = nbformat.v4.new_code_cell(source)
        client.nb = nbformat.v4.new_notebook(cells=[cell])
        client.timeout = max(1, math.ceil(timeout))
        began = time.monotonic()
        run = CellRun(OK)
        try:
            await client.async_execute_cell(cell, 0, store_history=False)
        except CellExecutionError as err:
            if err.ename == _TIMEOUT_ENAME:
                run = CellRun(TIMEOUT, "Timeout", f"the cell ran longer than {client.timeout} s")
            else:
                run = CellRun(ERROR, str(err.ename), str(err.evalue))
        except CellTimeoutError:
            run = CellRun(TIMEOUT, "Timeout", f"the cell ran longer than {client.timeout} s")
        except (DeadKernelError, RuntimeError, ConnectionError) as err:
            run = CellRun(DIED, "KernelDied", f"the kernel stopped ({type(err).__name__})")
        run.seconds = time.monotonic() - began
        return run

    async def _responsive(self, client: NotebookClient) -> bool:
        run = await self._execute(client, "pass", 5)
        return run.status == OK

    async def _probe(self, client: _QuietClient, source: str) -> object:
        """Run ``source`` and return the last REPORT_MIME data it displayed (None if none)."""
        client.reports = []
        try:
            run = await self._execute(client, source, 5)
            found = client.reports
        finally:
            client.reports = None
        return found[-1] if found and run.status == OK else None

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
        deadline = began + limits.total_timeout
        scratch = Path(tempfile.mkdtemp(prefix="kernel-", dir=self.root))
        bound = self._data_files(scratch, files or {})
        result = NotebookRun([CellRun() for _ in sources], isolated=self.isolated)
        km = client = None
        watchdog = None
        sized = self.jail is not None and "--size" in self.jail.options
        if limits.disk_mb > 0 and not sized:  # else the kernel writes to a tmpfs of that size

            async def watch() -> None:
                quota = limits.disk_mb * 1024 * 1024
                while True:
                    await asyncio.sleep(0.5)
                    if km is None:
                        continue
                    if self.jail is not None:  # an old bwrap: the tmpfs seen through /proc
                        used = _tmpfs_usage(str(km.ip)[: -len(jail_.IPC)] + jail_.SCRATCH)
                    else:
                        used = await asyncio.to_thread(_disk_usage, scratch, quota)
                    if used > quota:
                        result.notes.append(f"the kernel wrote more than {limits.disk_mb} MB and was stopped")
                        await _stop(km, None)
                        if self.jail is None:
                            await asyncio.to_thread(_empty, scratch)

            watchdog = asyncio.ensure_future(watch())
        try:
            try:
                km, client = await self._start(scratch, bound)
            except Exception as err:  # no kernel, nothing run
                result.stopped = f"the kernel did not start ({type(err).__name__}: {err})"
                return result
            done: list[int] = []
            i = 0
            while i < len(sources):
                remaining = deadline - time.monotonic()
                if remaining < 1:
                    result.stopped = f"the total time limit of {limits.total_timeout:g} s"
                    break
                run = await self._execute(client, sources[i], min(limits.cell_timeout, remaining))
                result.cells[i] = run
                if run.status == OK and replayable[i]:
                    done.append(i)
                broken = run.status == DIED or (run.status == TIMEOUT and not await self._responsive(client))
                if (probe := probes[i]) is not None and not broken:
                    run.report = await self._probe(client, probe)
                if broken:
                    await _stop(km, client)
                    km = client = None
                    if result.restarts >= limits.max_restarts:
                        result.stopped = "too many kernel restarts"
                        break
                    result.restarts += 1
                    result.notes.append(f"cell {i + 1}: the kernel was restarted and earlier cells replayed")
                    try:
                        km, client = await self._start(scratch, bound)
                    except Exception as err:
                        result.stopped = f"the kernel did not restart ({type(err).__name__})"
                        break
                    for j in done:
                        left = deadline - time.monotonic()
                        if left < 1:
                            break
                        await self._execute(client, sources[j], min(limits.cell_timeout, left))
                i += 1
        finally:
            if watchdog is not None:
                watchdog.cancel()
            if km is not None:
                await _stop(km, client)
            shutil.rmtree(scratch, ignore_errors=True)
            result.seconds = time.monotonic() - began
        return result


async def _sandbox_root(km: AsyncKernelManager, seconds: float) -> str:
    """The root folder of ``km``'s sandbox seen from outside, once bwrap has made it."""
    provisioner = km.provisioner
    pid = getattr(provisioner, "pid", None)
    deadline = time.monotonic() + seconds
    while provisioner is not None and pid is not None and time.monotonic() < deadline:
        root = jail_.sandbox_root(pid)
        if root is not None:
            return root
        if await provisioner.poll() is not None:
            break
        await asyncio.sleep(0.002)
    raise RuntimeError("bwrap did not start the sandbox")


def _tmpfs_usage(folder: str) -> int:
    try:
        st = os.statvfs(folder)
    except OSError:
        return 0
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def _disk_usage(folder: Path, limit: int) -> int:
    """The bytes the files in ``folder`` take on disk (counting stops past ``limit``)."""
    total = 0
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            try:
                st = os.lstat(os.path.join(top, name))
            except OSError:
                continue
            total += max(st.st_blocks * 512, 4096 if name in dirs else 0)
            if total > limit:
                return total
    return total


def _empty(folder: Path) -> None:
    for child in list(folder.iterdir()) if folder.is_dir() else []:
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
    (folder / "home").mkdir(exist_ok=True)


async def _stop(km: AsyncKernelManager, client: NotebookClient | None) -> None:
    """Kill the kernel (no polite shutdown: it may be busy or hostile) and close channels."""
    try:
        if client is not None and (kc := getattr(client, "kc", None)) is not None:
            kc.stop_channels()
            client.kc = None
    except Exception:  # pragma: no cover - best effort
        pass
    try:
        if km.has_kernel:
            await km.shutdown_kernel(now=True)
    except Exception:  # pragma: no cover - best effort
        try:
            # jupyter_client's kernel managers have no public kill_kernel: this raises AttributeError,
            # swallowed below, so the fallback does nothing.  Kept as it is (type checking changes no
            # behaviour); calling km._kill_kernel() here would be the fix.
            await km.kill_kernel()  # type: ignore[attr-defined]
        except Exception:
            pass


def run_sync(sandbox_: Sandbox, sources: list[str]) -> NotebookRun:
    """``Sandbox.run`` for callers without an event loop."""
    return asyncio.run(sandbox_.run(sources))
