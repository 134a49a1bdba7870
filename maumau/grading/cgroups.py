"""Limits for a kernel and everything it starts, together: a control group per kernel.

Where the machine lets the grader make control groups (it runs as root, or was handed a
delegated cgroup v2 subtree), each kernel starts in a group of its own (``Group``):

- memory: the kernel and all its processes together (cgroup v1 ``memory.limit_in_bytes``, v2
  ``memory.max``); past it the kernel's OOM killer stops the largest of them.  The files the
  kernel writes to its tmpfs count as memory too, so the group's limit is the memory limit
  plus the disk quota;
- processes: at most ``Limits.processes`` tasks (threads count) together (``pids.max``);
- CPU: at most ``Limits.cpus`` cores together (``cpu.cfs_quota_us`` / ``cpu.max``), and as a
  scheduling group of its own each kernel gets an equal share against the others, however
  many processes it runs;
- CPU time: the group's CPU time (``cpuacct.usage`` / ``cpu.stat``) is what decides a cell's
  timeout (``execute``), so a busy machine does not make an honest cell time out.

Where no control group can be made (``find_controls`` says why), the limits fall back to what
holds per process and to measuring the process tree from ``/proc`` (``proctree.Tree``): ``RLIMIT_AS``
per process and the sum of the tree's resident memory (a watchdog stops the kernel past the
limit), ``RLIMIT_NPROC`` (per user namespace, so per sandbox) against process floods, and the
CPU time of the tree (its processes' and their reaped children's) for timeouts.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Controls", "Group", "find_controls"]

_ROOT = Path("/sys/fs/cgroup")
_V1 = ("memory", "pids", "cpu", "cpuacct")   # the controllers a v1 group is made of
_V2 = ("memory", "pids", "cpu")
_PERIOD_US = 100_000


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _own_paths() -> dict[str, str]:
    """Controller name ("" for cgroup v2) -> this process's cgroup path, from /proc/self/cgroup."""
    found: dict[str, str] = {}
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return found
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            for name in parts[1].split(",") if parts[1] else [""]:
                found[name] = parts[2]
    return found


def _mounts() -> dict[str, Path]:
    """Controller name ("" for cgroup v2) -> where its hierarchy is mounted."""
    found: dict[str, Path] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, extra = left.split(), right.split()
        if len(fields) < 5 or len(extra) < 3:
            continue
        if extra[0] == "cgroup2":
            found.setdefault("", Path(fields[4]))
        elif extra[0] == "cgroup":
            for option in extra[2].split(","):
                if option in _V1:
                    found.setdefault(option, Path(fields[4]))
    return found


@dataclass
class Group:
    """One kernel's control group: a folder per hierarchy (one for v2)."""

    version: int
    folders: dict[str, Path]             # controller ("" for v2) -> the group's folder

    def procs_files(self) -> list[str]:
        """The files a process writes its pid to, to enter the group (``wrap``)."""
        return sorted({str(f / "cgroup.procs") for f in self.folders.values()})

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` started inside the group: a shell enters it, then becomes ``argv`` (same pid),
        so every process the command starts is in the group from its first instruction."""
        script = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 126; shift; done; shift; exec "$@"'
        return ["/bin/sh", "-c", script, "maumau-cgroup", *self.procs_files(), "--", *argv]

    def _read(self, controller: str, name: str) -> str:
        try:
            return (self.folders[controller] / name).read_text()
        except (OSError, KeyError):
            return ""

    def cpu_seconds(self) -> float:
        """The CPU time the group's processes used so far (those that ended included)."""
        if self.version == 1:
            text = self._read("cpuacct", "cpuacct.usage").strip()
            return int(text) / 1e9 if text.isdigit() else 0.0
        for line in self._read("", "cpu.stat").splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec" and value.strip().isdigit():
                return int(value) / 1e6
        return 0.0

    def memory_peak(self) -> int:
        """The most memory the group held at once so far (bytes; 0 where not known)."""
        text = self._read("memory", "memory.max_usage_in_bytes") if self.version == 1 else self._read("", "memory.peak")
        return int(text) if text.strip().isdigit() else 0

    def oom_kills(self) -> int:
        """How many of the group's processes the memory limit killed so far."""
        text = self._read("memory", "memory.oom_control") if self.version == 1 else self._read("", "memory.events")
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                return int(value)
        return 0

    def pids(self) -> list[int]:
        found: set[int] = set()
        for name in self.procs_files():
            try:
                found.update(int(p) for p in Path(name).read_text().split())
            except OSError:
                pass
        return sorted(found)

    def kill(self) -> None:
        """SIGKILL every process of the group (again until none is left, at most ~1 s)."""
        for _ in range(100):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)

    def remove(self) -> None:
        """Kill what is left in the group and remove its folders."""
        self.kill()
        for folder in self.folders.values():
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)


@dataclass
class Controls:
    """Where this batch makes its kernels' groups: a folder of its own per hierarchy."""

    version: int
    folders: dict[str, Path]
    tag: str = ""
    # hierarchies whose kernel groups sit beside the batch's folder rather than in it: a folder of the
    # batch in the cpu hierarchy would weigh as one process, so all its kernels together would get
    # the share of a single process of the machine (measured: a batch 2-3 times slower when busy)
    flat: frozenset[str] = frozenset()
    count: int = 0
    groups: list[Group] = field(default_factory=list)

    def new_group(self, memory_bytes: int, processes: int, cpus: float) -> Group:
        """A group for one kernel with these limits (OSError when the machine refuses)."""
        self.count += 1
        name = f"kernel-{self.count}"
        made: dict[str, Path] = {}
        group = Group(self.version, made)
        try:
            for controller, parent in self.folders.items():
                folder = parent / f"{self.tag}-{name}" if controller in self.flat else parent / name
                folder.mkdir()
                made[controller] = folder
            self._limit(group, memory_bytes, processes, cpus)
        except OSError:
            group.remove()
            raise
        self.groups.append(group)
        return group

    def _limit(self, group: Group, memory_bytes: int, processes: int, cpus: float) -> None:
        quota = int(cpus * _PERIOD_US)
        if self.version == 1:
            memory = group.folders["memory"]
            _write(memory / "memory.limit_in_bytes", str(memory_bytes))
            if (memory / "memory.memsw.limit_in_bytes").exists():  # no swapping past the limit either
                _write(memory / "memory.memsw.limit_in_bytes", str(memory_bytes))
            _write(group.folders["pids"] / "pids.max", str(processes))
            if quota > 0:
                _write(group.folders["cpu"] / "cpu.cfs_period_us", str(_PERIOD_US))
                _write(group.folders["cpu"] / "cpu.cfs_quota_us", str(quota))
            return
        folder = group.folders[""]
        _write(folder / "memory.max", str(memory_bytes))
        if (folder / "memory.swap.max").exists():
            _write(folder / "memory.swap.max", "0")
        _write(folder / "pids.max", str(processes))
        if quota > 0:
            _write(folder / "cpu.max", f"{quota} {_PERIOD_US}")

    def close(self) -> None:
        for group in self.groups:
            group.remove()
        self.groups.clear()
        for controller, folder in self.folders.items():
            if controller not in self.flat:  # (a flat hierarchy's folder is this process's own group)
                try:
                    folder.rmdir()
                except OSError:
                    pass

    def describe(self) -> str:
        names = "memory, pids, cpu, cpuacct" if self.version == 1 else "memory, pids, cpu"
        return f"a cgroup v{self.version} group per kernel ({names})"


def _v2(mounts: dict[str, Path], own: dict[str, str], tag: str) -> Controls | None:
    """A batch folder in this process's own v2 group, with the controllers enabled below it."""
    if "" not in mounts or "" not in own:
        return None
    base = mounts[""] / own[""].lstrip("/")
    try:
        enabled = (base / "cgroup.subtree_control").read_text().split()
        if not set(_V2) <= set(enabled):
            _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in _V2))
        folder = base / tag
        folder.mkdir()
    except OSError:
        return None
    try:
        _write(folder / "cgroup.subtree_control", " ".join(f"+{c}" for c in _V2))
    except OSError:
        folder.rmdir()
        return None
    try:  # the batch's folder weighs as much as the kernels it runs at once (see Controls.flat)
        _write(folder / "cpu.weight", str(min(10_000, 100 * 4 * (os.cpu_count() or 1))))
    except OSError:
        pass
    return Controls(2, {"": folder}, tag)


def _v1(mounts: dict[str, Path], own: dict[str, str], tag: str) -> Controls | None:
    """A batch folder in this process's own group of each v1 hierarchy that is needed."""
    if not all(c in mounts and c in own for c in _V1):
        return None
    made: dict[str, Path] = {}
    flat = {c for c in _V1 if c in ("cpu", "cpuacct") and mounts[c] == mounts["cpu"]}
    try:
        for controller in _V1:
            base = mounts[controller] / own[controller].lstrip("/")
            if controller in flat:
                if not os.access(base, os.W_OK):
                    raise PermissionError(f"{base} is not writable")
                made[controller] = base
                continue
            folder = base / tag
            if folder.exists():  # cpuacct mounted with cpu: one folder
                made[controller] = folder
                continue
            folder.mkdir()
            made[controller] = folder
    except OSError:
        for controller, folder in made.items():
            if controller not in flat:
                try:
                    folder.rmdir()
                except OSError:
                    pass
        return None
    if (made["memory"] / "memory.use_hierarchy").exists():
        try:
            _write(made["memory"] / "memory.use_hierarchy", "1")
        except OSError:
            pass  # already on (inherited), or fixed by the parent
    return Controls(1, made, tag, frozenset(flat))


def _sweep(parents: list[Path], alive: str) -> None:
    """Remove the empty groups of batches whose folder (``alive``/<tag>) is gone and that made no
    group for ten minutes: a grader that was killed leaves them behind.  (rmdir removes only a
    group without processes.)"""
    for parent in parents:
        try:
            found = [p for p in parent.iterdir() if p.name.startswith("maumau-grade-") and p.is_dir()]
        except OSError:
            continue
        for folder in found:
            try:
                recent = time.time() - folder.stat().st_mtime < 600  # (another grader's, between kernels)
            except OSError:
                continue
            if recent or (Path(alive) / folder.name[: len("maumau-grade-") + 8]).exists():
                continue
            for inner in [p for p in folder.iterdir() if p.is_dir()] if folder.is_dir() else []:
                try:
                    inner.rmdir()
                except OSError:
                    pass
            try:
                folder.rmdir()
            except OSError:
                pass


def find_controls(tag: str) -> tuple[Controls | None, str]:
    """This batch's control groups (named ``tag`` in this process's own groups), or None and
    why not.  ``$MAUMAU_CGROUPS=off`` switches them off (the fallback is then measured)."""
    if os.environ.get("MAUMAU_CGROUPS", "") in ("0", "off", "no", "false"):
        return None, "control groups switched off ($MAUMAU_CGROUPS)"
    mounts, own = _mounts(), _own_paths()
    if not mounts:
        return None, "no cgroup file system mounted"
    import tempfile

    _sweep(sorted({mounts[c] / own[c].lstrip("/") for c in mounts if c in own}), tempfile.gettempdir())
    for make in (_v2, _v1):
        controls = make(mounts, own, tag)
        if controls is not None:
            return controls, ""
    return None, "this process may not make control groups (not root, no delegated cgroup v2 subtree)"
