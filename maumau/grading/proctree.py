"""The fallback where no control group holds a kernel (``cgroups``): its process tree, measured
from ``/proc``.  The CPU time of the tree is each process's own and that of the children it
reaped (``/proc/PID/stat``: utime, stime, cutime, cstime); its memory the sum of the resident
sets (shared pages counted in each process); its processes the children of every thread,
recursively.  A process chooses its own name, which ``/proc/PID/stat`` shows in parentheses
(``)`` and spaces allowed): the fields are read after its last ``)``.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass

__all__ = ["Tree", "tree_pids", "tree_cpu_seconds", "tree_memory_bytes"]

_TICKS = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


def tree_pids(root: int) -> list[int]:
    """``root`` and every process below it (children of every thread, recursively)."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    todo += [int(c) for c in f.read().split()]
            except (OSError, ValueError):
                pass
    return found


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name, which the process chooses itself
    (``prctl(PR_SET_NAME)``, up to 15 bytes, ``)`` and spaces included): split after its last ``)``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read()
    except OSError:
        return []
    return raw[raw.rfind(b")") + 2:].decode("ascii", "replace").split()


def tree_cpu_seconds(root: int) -> float:
    """The CPU time of the tree below ``root``: each process's own and its reaped children's."""
    total = 0
    for pid in tree_pids(root):
        fields = _stat_fields(pid)
        if len(fields) > 14:  # utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 here
            total += sum(int(x) for x in fields[11:15])
    return total / _TICKS


def tree_memory_bytes(root: int) -> int:
    """The resident memory of the tree below ``root`` (shared pages counted in each process)."""
    total = 0
    for pid in tree_pids(root):
        try:
            with open(f"/proc/{pid}/statm") as f:
                total += int(f.read().split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            pass
    return total


@dataclass
class Tree:
    """The fallback's view of one kernel: its process tree below ``root`` (bwrap, or the kernel)."""

    root: int

    def cpu_seconds(self) -> float:
        return tree_cpu_seconds(self.root)

    def memory_bytes(self) -> int:
        return tree_memory_bytes(self.root)

    def pids(self) -> list[int]:
        return tree_pids(self.root)

    def kill(self) -> None:
        for pid in reversed(tree_pids(self.root)):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
