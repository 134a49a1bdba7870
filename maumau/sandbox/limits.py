"""What one notebook may use (``Limits``), and how the disk it wrote is measured where no
size-capped tmpfs holds it (no bubblewrap, or a bwrap without ``--size``): the runner's
watchdog (``maumau.grading.run.Session``) compares these measures with the quota and stops the kernel past it.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

__all__ = ['Limits', 'tmpfs_usage', 'disk_usage', 'empty_folder']


@dataclass(frozen=True)
class Limits:
    """Time and memory limits for one notebook.

    The timeouts are CPU time of the kernel and every process it started (a busy machine
    slows a kernel down but does not make it use more CPU time); ``wall_factor`` times them
    is the wall-clock limit, which only stops a kernel that sleeps or waits."""

    cell_timeout: float = 10.0     # CPU seconds per cell, then the kernel is interrupted
    total_timeout: float = 90.0    # CPU seconds per notebook, then the rest is not run
    memory_mb: int = 1024          # the kernel and all its processes together (RLIMIT_AS each, too)
    startup_timeout: float = 60.0  # seconds for the kernel to start
    max_restarts: int = 2          # kernel restarts (with replay) per notebook
    disk_mb: int = 100             # everything the kernel writes (its working folder)
    processes: int = 64            # tasks (processes and threads) of the kernel together
    cpus: float = 1.0              # cores the kernel and its processes may use at once
    wall_factor: float = 6.0       # wall-clock limits: this many times the CPU time limits

    @property
    def cell_wall(self) -> float:
        """Wall-clock seconds a cell may take (against sleeping: its CPU time decides first)."""
        return self.cell_timeout * self.wall_factor

    @property
    def total_wall(self) -> float:
        return self.total_timeout * self.wall_factor


def tmpfs_usage(folder: str) -> int:
    """The bytes used on the file system holding ``folder`` (a sandbox's tmpfs; 0 if it is gone)."""
    try:
        st = os.statvfs(folder)
    except OSError:
        return 0
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def disk_usage(folder: Path, limit: int) -> int:
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


def empty_folder(folder: Path) -> None:
    """Delete what a kernel wrote past its quota, keeping the folder and its empty ``home``."""
    for child in list(folder.iterdir()) if folder.is_dir() else []:
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
    (folder / "home").mkdir(exist_ok=True)
