"""How much one learner's busy processes slow another learner's grading (issue 25).

    python benchmarks/fair_share.py              # control groups where the machine allows them
    MAUMAU_CGROUPS=off python benchmarks/fair_share.py   # the fallback, for comparison

Two bystander kernels each run a cell that computes for 1.5 CPU seconds, alone and then next to
a kernel whose cell forks as many busy processes as it may (up to 512) and waits; the rounds
alternate.  Prints the bystanders' wall-clock seconds per round and the ratio of the means (how
many times longer a bystander takes next to the flood), and the CPU seconds the bystanders used
(the same in both: CPU time is what decides a timeout).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from maumau.grading.run import Sandbox  # noqa: E402
from maumau.sandbox.limits import Limits  # noqa: E402

SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.5:\n    pass"
NO_HOOK = '''
import gc
for _hook in [o for o in gc.get_objects() if getattr(o, "__qualname__", "") == "make_guard.<locals>.hook"]:
    for _name, _cell in zip(_hook.__code__.co_freevars, _hook.__closure__):
        if _name == "deny":
            _cell.cell_contents = lambda what: None
'''
FLOOD = '''
import os, time
for _ in range(512):
    try:
        if os.fork() == 0:
            while True:
                pass
    except OSError:
        break
time.sleep(8)
'''


async def _bystander(sandbox: Sandbox) -> tuple[float, float]:
    began = time.monotonic()
    result = await sandbox.run([SPIN])
    return time.monotonic() - began, result.cells[0].cpu


async def _round(sandbox: Sandbox, flood: bool) -> list[tuple[float, float]]:
    tasks = [asyncio.ensure_future(_bystander(sandbox)) for _ in range(2)]
    hog = asyncio.ensure_future(sandbox.run([NO_HOOK, FLOOD])) if flood else None
    if hog is not None:
        await asyncio.sleep(1.0)  # the flood is running before the bystanders' cells
    found = [await t for t in tasks]
    if hog is not None:
        await hog  # its cell ends by itself; its kernel and every process of it are then stopped
    return found


def main() -> None:
    alone: list[float] = []
    beside: list[float] = []
    cpu: list[float] = []
    with Sandbox([], Limits(cell_timeout=30, total_timeout=60)) as sandbox:
        print("isolation:", sandbox.isolation)
        for n in range(3):
            for flood, into in ((False, alone), (True, beside)):
                found = asyncio.run(_round(sandbox, flood))
                into += [w for w, _ in found]
                cpu += [c for _, c in found]
                print(f"round {n + 1} {'next to the flood' if flood else 'alone':>17}: "
                      + ", ".join(f"{w:.1f} s" for w, _ in found), flush=True)
    ratio = statistics.mean(beside) / statistics.mean(alone)
    print(f"bystanders: {statistics.mean(alone):.1f} s alone, {statistics.mean(beside):.1f} s next to the flood "
          f"({ratio:.2f}x); CPU seconds per bystander cell {min(cpu):.2f}-{max(cpu):.2f}")


if __name__ == "__main__":
    main()
