"""One cell in a running kernel: its source sent, its reply read, its outcome (``CellRun``).

The grader's process reads only the replies, never the outputs (``QuietClient``), except the
report a probe displays after a test cell (``REPORT_MIME``, at most ``REPORT_BYTES``).
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import nbformat
from jupyter_core.utils import ensure_async
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

__all__ = ["OK", "ERROR", "TIMEOUT", "DIED", "NOT_RUN", "REPORT_MIME", "REPORT_BYTES", "TIMEOUT_ENAME", "CellRun",
           "QuietClient", "execute", "responsive", "probe"]

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
