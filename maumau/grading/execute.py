"""One cell in a running kernel: its source sent, its reply read, its outcome (``CellRun``).

The grader's process reads only the replies, never the outputs (``QuietClient``), except the
report a probe displays after a test cell (``REPORT_MIME``, at most ``REPORT_BYTES``).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

import nbformat
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


@dataclass
class CellRun:
    """What happened to one cell."""

    status: str = NOT_RUN
    ename: str = ""
    evalue: str = ""
    seconds: float = 0.0
    report: object = None          # what the probe after the cell displayed (REPORT_MIME), if any


class QuietClient(NotebookClient):
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


async def execute(client: NotebookClient, source: str, timeout: float) -> CellRun:
    """Run ``source`` as one cell, interrupted after ``timeout`` seconds (at least 1, whole)."""
    cell = nbformat.v4.new_code_cell(source)
    client.nb = nbformat.v4.new_notebook(cells=[cell])
    client.timeout = max(1, math.ceil(timeout))
    began = time.monotonic()
    run = CellRun(OK)
    try:
        await client.async_execute_cell(cell, 0, store_history=False)
    except CellExecutionError as err:
        if err.ename == TIMEOUT_ENAME:
            run = CellRun(TIMEOUT, "Timeout", f"the cell ran longer than {client.timeout} s")
        else:
            run = CellRun(ERROR, str(err.ename), str(err.evalue))
    except CellTimeoutError:
        run = CellRun(TIMEOUT, "Timeout", f"the cell ran longer than {client.timeout} s")
    except (DeadKernelError, RuntimeError, ConnectionError) as err:
        run = CellRun(DIED, "KernelDied", f"the kernel stopped ({type(err).__name__})")
    run.seconds = time.monotonic() - began
    return run


async def responsive(client: NotebookClient) -> bool:
    """Whether the kernel still answers (after a timeout: else it is restarted)."""
    run = await execute(client, "pass", 5)
    return run.status == OK


async def probe(client: QuietClient, source: str) -> object:
    """Run ``source`` and return the last REPORT_MIME data it displayed (None if none)."""
    client.reports = []
    try:
        run = await execute(client, source, 5)
        found = client.reports
    finally:
        client.reports = None
    return found[-1] if found and run.status == OK else None
