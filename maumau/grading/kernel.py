"""A grading kernel: its life (kernelspec, environment, start in the jail, stop) and one cell
run in it (its source sent, its reply read, its outcome ``CellRun``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

from ..sandbox import guard
from ..sandbox import jail as jail_
from ..sandbox.guard import Pinned, pin
from ..sandbox.jail import Controls, Group, Tree

if TYPE_CHECKING:
    from ..sandbox.limits import Limits

__all__ = [
    "OK", "ERROR", "TIMEOUT", "DIED", "NOT_RUN", "REPORT_MIME", "REPORT_BYTES", "TIMEOUT_ENAME", "CellRun",
    "QuietClient", "execute", "responsive", "probe", "KERNEL_NAME", "log", "Batch", "write_kernelspec",
    "kernel_env", "start_kernel", "stop_kernel", "cpu_seconds", "tree_usage"
]


# --- one cell in a running kernel ---------------------------------------------------------------------------
#
# One cell in a running kernel: its source sent, its reply read, its outcome (``CellRun``).
#
# The grader's process reads only the replies, never the outputs (``QuietClient``), except the
# report a probe displays after a test cell (``REPORT_MIME``, at most ``REPORT_BYTES``).

OK, ERROR, TIMEOUT, DIED, NOT_RUN = "ok", "error", "timeout", "died", "not run"
#: The error name nbclient is told to give a cell it interrupted (``kernel.start_kernel``).
TIMEOUT_ENAME = "CellTimeout"
#: The MIME type of a test cell's report (what the learner's code did, ``checks.report``).
REPORT_MIME = "application/vnd.maumau.report+json"
REPORT_BYTES = 1_000_000  # a report larger than this is dropped (read: no report)
#: Wall-clock seconds a cell has, after the interrupt for its CPU time, to stop; then the kernel is killed.
GRACE = 3.0
#: A kernel's CPU time so far (``kernel.cpu_seconds``).
Meter = Callable[[], float]


@dataclass
class CellRun:
    """What happened to one cell."""

    status: str = NOT_RUN
    ename: str = ""
    evalue: str = ""
    seconds: float = 0.0
    report: object = None          # what the probe after the cell displayed (REPORT_MIME), if any
    cpu: float = 0.0               # CPU seconds of the kernel and its processes during the cell
    hung: bool = False             # the cell did not stop when interrupted: the kernel must go


class QuietClient(NotebookClient):
    """An nbclient that keeps no outputs: grading reads only the replies, so a learner
    printing megabytes costs the grader nothing.  While a probe runs (``reports`` is a list)
    it keeps the REPORT_MIME data that the probe displays, and nothing else."""

    reports: list[object] | None = None

    def output(self, outs: list[Any], msg: dict[str, Any], display_id: str | None, cell_index: int) -> None:
        if self.reports is not None and msg.get("msg_type") in ("display_data", "execute_result"):
            data = msg.get("content", {}).get("data", {})
            found = data.get(REPORT_MIME) if isinstance(data, dict) else None
            if found is not None and len(json.dumps(found)) <= REPORT_BYTES:
                self.reports.append(found)
        return None


async def _run(client: NotebookClient, cell: Any) -> CellRun:
    """The cell run to its reply (nbclient's wall-clock timeout, ``client.timeout``, interrupts it)."""
    try:
        await client.async_execute_cell(cell, 0, store_history=False)
    except CellExecutionError as err:
        if err.ename == TIMEOUT_ENAME:
            return CellRun(TIMEOUT, "Timeout", f"the cell waited longer than {client.timeout} s")
        return CellRun(ERROR, str(err.ename), str(err.evalue))
    except CellTimeoutError:
        return CellRun(TIMEOUT, "Timeout", f"the cell waited longer than {client.timeout} s")
    except (DeadKernelError, RuntimeError, ConnectionError) as err:
        return CellRun(DIED, "KernelDied", f"the kernel stopped ({type(err).__name__})")
    return CellRun(OK)


async def execute(client: NotebookClient, source: str, timeout: float, wall: float | None = None,
                  meter: Meter | None = None) -> CellRun:
    """Run ``source`` as one cell.  With a ``meter`` (the kernel's CPU time), ``timeout`` is CPU
    seconds: past them the kernel is interrupted (and, if the cell does not stop within GRACE
    seconds, the run says ``hung``); ``wall`` seconds of wall-clock time (at least 1, whole)
    stop a cell that only sleeps.  Without a meter ``timeout`` is wall-clock seconds."""
    cell = nbformat.v4.new_code_cell(source)
    client.nb = nbformat.v4.new_notebook(cells=[cell])
    client.timeout = max(1, math.ceil(timeout if wall is None or meter is None else wall))
    began = time.monotonic()
    first = meter() if meter is not None else 0.0
    task = asyncio.ensure_future(_run(client, cell))
    interrupted = hung = False
    stop_by = 0.0
    while meter is not None and not task.done():
        await asyncio.wait({task}, timeout=0.05)
        if task.done():
            break
        if not interrupted and meter() - first > timeout:
            interrupted, stop_by = True, time.monotonic() + GRACE
            try:
                if client.km is not None:
                    await ensure_async(client.km.interrupt_kernel())
            except Exception:  # a kernel that is gone: its run ends as died
                pass
        elif interrupted and time.monotonic() > stop_by:
            hung = True
            task.cancel()
            break
    try:
        run = await task
    except asyncio.CancelledError:
        run = CellRun(TIMEOUT)
    if interrupted and run.status != DIED:
        run = CellRun(TIMEOUT, "Timeout", f"the cell used more than {timeout:g} s of CPU time")
    run.hung = hung
    run.seconds = time.monotonic() - began
    run.cpu = meter() - first if meter is not None else 0.0
    return run


async def responsive(client: NotebookClient, meter: Meter | None = None) -> bool:
    """Whether the kernel still answers (after a timeout: else it is restarted)."""
    run = await execute(client, "pass", 5, 30, meter)
    return run.status == OK


async def probe(client: QuietClient, source: str, meter: Meter | None = None) -> object:
    """Run ``source`` and return the last REPORT_MIME data it displayed (None if none)."""
    client.reports = []
    try:
        run = await execute(client, source, 5, 60, meter)
        found = client.reports
    finally:
        client.reports = None
    return found[-1] if found and run.status == OK else None


# --- a kernel's life ----------------------------------------------------------------------------------------
#
# A grading kernel's life: its kernelspec, its environment, its start (in a bubblewrap
# sandbox where the batch is isolated) and its stop (killed: it may be busy or hostile).
#
# The kernel process runs ``maumau.sandbox.guard`` (limits and the audit hook) in a scratch
# folder of its own with its own HOME, IPython and Jupyter folders; the grader's process talks
# to it only through a ``QuietClient`` (below).

KERNEL_NAME = "maumau-sandbox"
log = logging.getLogger("maumau.grading")
log.addHandler(logging.NullHandler())
log.propagate = False


class Batch(Protocol):
    """What starting a kernel reads of its batch (``runner.Sandbox``), when the kernel starts:
    the jail is read then, not copied before (a test swaps it for one without ``--size``)."""

    @property
    def root(self) -> Path: ...

    @property
    def protect(self) -> list[str]: ...

    @property
    def limits(self) -> Limits: ...

    @property
    def jail(self) -> jail_.Jail | None: ...

    @property
    def spec_manager(self) -> KernelSpecManager: ...

    @property
    def controls(self) -> Controls | None: ...

    def connection_file(self, folder: Path) -> str:
        """A connection file's path in ``folder``, new for each kernel of the batch."""
        ...


def write_kernelspec(root: Path, isolated: bool) -> KernelSpecManager:
    """Write the grader's kernelspec (``python -m maumau.sandbox.guard``) under ``root``."""
    spec_dir = root / "kernels" / KERNEL_NAME
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "maumau.sandbox.guard", "-f", "{connection_file}"],
        "display_name": "maumau grading sandbox", "language": "python",
        "metadata": {"debugger": False},
        # signals do not reach into the sandbox's PID namespace: interrupt by message there
        "interrupt_mode": "message" if isolated else "signal",
    }))
    return KernelSpecManager(kernel_dirs=[str(root / "kernels")])


def kernel_env(batch: Batch, scratch: Path) -> dict[str, str]:
    """The kernel's environment: the grader's, less what would point it at the grader's own
    folders or settings, with its HOME and caches in ``scratch`` and the sandbox's settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "JPY_", "XDG_", "IPYTHON", "MAUMAU_", "PYTEST", "COV_"))
           and k not in ("PWD", "OLDPWD", "MPLCONFIGDIR", "TMPDIR", "HOME", "PYTHONSTARTUP")}
    extra = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if batch.jail is not None:  # only what is bound inside: the maumau package's parent first
        paths = list(batch.jail.python_path) + [p for p in extra if any(
            jail_.inside(os.path.realpath(p), b) for b in batch.jail.readonly)]
    else:
        # the folder holding the maumau package (this file is maumau/grading/kernel.py)
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
        guard.SCRATCH: str(scratch), guard.PROTECT: os.pathsep.join(batch.protect),
        guard.MEMORY: str(batch.limits.memory_mb),
        guard.CPU: str(int(batch.limits.total_timeout * 2 + 60)),  # RLIMIT_CPU per process, a last line
    })
    if batch.jail is not None:
        env[guard.JAILED] = "1"
        # counted per user namespace, so per sandbox (without one it would count all the grader's)
        env[guard.PROCESSES] = str(batch.limits.processes)
        if batch.jail.tmp_is_tmpfs:
            env[guard.SCRATCH] = os.pathsep.join((str(scratch), "/tmp"))
    return env


class _GroupedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernel starts inside its control group (``group``), if it has one."""

    group: Group | None = None
    pinned: Pinned | None = None

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        cmd = self.sandboxed(super().format_kernel_cmd(extra_arguments))
        return self.group.wrap(cmd) if self.group is not None else cmd

    def sandboxed(self, cmd: list[str]) -> list[str]:
        return cmd


class _JailedKernelManager(_GroupedKernelManager):
    """A kernel manager whose kernel command runs inside a bubblewrap sandbox."""

    jail: jail_.Jail | None = None
    disk_mb: int = 0
    wait_seconds: float = 60.0
    files: dict[str, str] | None = None
    links: Path | None = None

    def sandboxed(self, cmd: list[str]) -> list[str]:
        assert self.jail is not None
        return self.jail.command(cmd, os.path.realpath(self.connection_file), self.disk_mb, self.files)

    async def _async_post_start_kernel(self, **kw: object) -> None:
        # The kernel names its sockets as seen inside the sandbox; the grader opens each once, as
        # soon as it is bound and before any learner code runs, and connects only through those
        # descriptors (``maumau.sandbox.guard.pin``), before its own control socket connects.
        pid = getattr(self.provisioner, "pid", None)
        if pid is None or self.links is None:
            raise RuntimeError("bwrap did not start the sandbox")
        ports = [self.shell_port, self.iopub_port, self.stdin_port, self.control_port, self.hb_port]
        self.pinned = await pin(pid, jail_.IPC, ports, self.links, self.wait_seconds, self._running)
        self.ip = self.pinned.ip
        await super()._async_post_start_kernel(**kw)

    async def _running(self) -> bool:
        return self.provisioner is not None and await self.provisioner.poll() is None


def _new_group(batch: Batch) -> Group | None:
    """A control group for the next kernel, with the batch's limits (None without control groups)."""
    if batch.controls is None:
        return None
    limits = batch.limits
    # the tmpfs pages the kernel writes count as its memory: room for the disk quota besides
    memory = (limits.memory_mb + limits.disk_mb * (2 if batch.jail and batch.jail.tmp_is_tmpfs else 1) + 64) << 20
    return batch.controls.new_group(memory, limits.processes, limits.cpus)


def cpu_seconds(km: AsyncKernelManager) -> float:
    """The CPU time the kernel and every process it started used so far."""
    group = getattr(km, "group", None)
    if group is not None:
        return float(group.cpu_seconds())
    pid = getattr(km.provisioner, "pid", None)
    return Tree(pid).cpu_seconds() if pid is not None else 0.0


def tree_usage(km: AsyncKernelManager) -> tuple[int, int]:
    """The resident memory and the number of processes of the kernel's process tree (the
    fallback's measures, without a control group; 0, 0 if unknown)."""
    pid = getattr(km.provisioner, "pid", None)
    if pid is None:
        return 0, 0
    tree = Tree(pid)
    return tree.memory_bytes(), len(tree.pids())


async def start_kernel(batch: Batch, scratch: Path, files: dict[str, str] | None = None
                       ) -> tuple[AsyncKernelManager, QuietClient]:
    """Start a kernel; ``scratch`` is its working folder (unused by an isolated kernel,
    whose working folder is a tmpfs of its own, with ``files`` bound into it)."""
    extra = ["--HistoryManager.enabled=False", "--Application.log_level=CRITICAL"]
    group = _new_group(batch)
    try:
        if batch.jail is None:
            km = await _start_local(batch, scratch, extra, group)
        else:
            km = await _start_jailed(batch, batch.jail, files, extra, group)
    except BaseException:
        if group is not None:
            group.remove()
        raise
    client = QuietClient(nbformat.v4.new_notebook(), km=km, log=log, interrupt_on_timeout=True,
                         error_on_timeout={"ename": TIMEOUT_ENAME, "evalue": "", "traceback": []},
                         startup_timeout=int(batch.limits.startup_timeout), iopub_timeout=5,
                         raise_on_iopub_timeout=False, record_timing=False)
    try:
        await client.async_start_new_kernel_client()
    except BaseException:
        await stop_kernel(km, client)
        raise
    return km, client


async def _start_local(batch: Batch, scratch: Path, extra: list[str], group: Group | None) -> AsyncKernelManager:
    """A kernel in ``scratch`` with only the audit hook around it (no bubblewrap)."""
    km = _GroupedKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=batch.spec_manager)
    km.group = group
    km.connection_file = batch.connection_file(scratch)
    try:
        await km.start_kernel(cwd=str(scratch), env=kernel_env(batch, scratch), stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, extra_arguments=extra)
    except BaseException:
        await stop_kernel(km, None)
        raise
    return km


async def _start_jailed(batch: Batch, jail: jail_.Jail, files: dict[str, str] | None,
                        extra: list[str], group: Group | None) -> AsyncKernelManager:
    """A kernel in a bwrap sandbox, reached over IPC sockets; killed if it does not start."""
    km = _JailedKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=batch.spec_manager)
    km.jail, km.disk_mb, km.wait_seconds = jail, batch.limits.disk_mb, batch.limits.startup_timeout
    km.files, km.group = files, group
    km.transport, km.ip = "ipc", jail_.IPC
    km.connection_file = batch.connection_file(batch.root)
    km.links = Path(km.connection_file[: -len(".json")] + "-sockets")
    try:
        await km.start_kernel(cwd=str(batch.root), env=kernel_env(batch, Path(jail_.SCRATCH)),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              extra_arguments=extra)
    except BaseException:
        await stop_kernel(km, None)
        raise
    return km


async def stop_kernel(km: AsyncKernelManager, client: NotebookClient | None) -> None:
    """Kill the kernel (no polite shutdown: it may be busy or hostile), every process of its
    group, and close channels and the descriptors of its sockets."""
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
        pid = getattr(km.provisioner, "pid", None)
        if pid is not None:
            Tree(pid).kill()
    group, pinned = getattr(km, "group", None), getattr(km, "pinned", None)
    if group is not None:
        await asyncio.to_thread(group.remove)
    if pinned is not None:
        pinned.close()
