"""The jail around learners' code: a bubblewrap sandbox, a control group per kernel, and the
process tree measured from ``/proc`` where no control group holds it.

The grader's kernels (``maumau.grading``) and the league's bots (``maumau.league``) run in it.
In the order of this module: the process tree (the fallback measure), the control groups (the
limits of a kernel and everything it starts, together) and the bubblewrap jail itself;
``python -m maumau.sandbox.jail`` checks a machine.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

__all__ = [
    "Tree", "tree_pids", "tree_cpu_seconds", "tree_memory_bytes", "Controls", "Group", "find_controls", "Jail",
    "find_jail", "inside", "sandbox_root", "SCRATCH", "RUN", "CONNECTION", "IPC", "BWRAP_ENV"
]


# --- the process tree, measured from /proc ------------------------------------------------------------------
#
# The fallback where no control group holds a kernel (the control groups below): its process tree, measured
# from ``/proc``.  The CPU time of the tree is each process's own and that of the children it
# reaped (``/proc/PID/stat``: utime, stime, cutime, cstime); its memory the sum of the resident
# sets (shared pages counted in each process); its processes the children of every thread,
# recursively.  A process chooses its own name, which ``/proc/PID/stat`` shows in parentheses
# (``)`` and spaces allowed): the fields are read after its last ``)``.

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


# --- a control group per kernel -----------------------------------------------------------------------------
#
# Limits for a kernel and everything it starts, together: a control group per kernel.
#
# Where the machine lets the grader make control groups (it runs as root, or was handed a
# delegated cgroup v2 subtree), each kernel starts in a group of its own (``Group``):
#
# - memory: the kernel and all its processes together (cgroup v1 ``memory.limit_in_bytes``, v2
#   ``memory.max``); past it the kernel's OOM killer stops the largest of them.  The files the
#   kernel writes to its tmpfs count as memory too, so the group's limit is the memory limit
#   plus the disk quota;
# - processes: at most ``Limits.processes`` tasks (threads count) together (``pids.max``);
# - CPU: at most ``Limits.cpus`` cores together (``cpu.cfs_quota_us`` / ``cpu.max``), and as a
#   scheduling group of its own each kernel gets an equal share against the others, however
#   many processes it runs;
# - CPU time: the group's CPU time (``cpuacct.usage`` / ``cpu.stat``) is what decides a cell's
#   timeout (``maumau.grading.kernel``), so a busy machine does not make an honest cell time out.
#
# Where no control group can be made (``find_controls`` says why), the limits fall back to what
# holds per process and to measuring the process tree from ``/proc`` (``proctree.Tree``): ``RLIMIT_AS``
# per process and the sum of the tree's resident memory (a watchdog stops the kernel past the
# limit), ``RLIMIT_NPROC`` (per user namespace, so per sandbox) against process floods, and the
# CPU time of the tree (its processes' and their reaped children's) for timeouts.

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


# --- the bubblewrap jail ------------------------------------------------------------------------------------
#
# Real isolation for a grading kernel: a bubblewrap (``bwrap``) sandbox around it.
#
# Where Debian's ``bubblewrap`` is installed (``/usr/bin/bwrap``, or ``$MAUMAU_BWRAP``) and the
# machine lets it create namespaces, each kernel of ``maumau grade`` runs inside one:
#
# - no network: a new network namespace with only its own loopback (TCP, zmq, DNS all fail);
# - its own PID namespace: the kernel is not PID 1 of it but its child; when the kernel stops,
#   every process it started (forked, spawned, double-forked daemons) is killed with it, and
#   when the grader dies the whole sandbox dies too (``--die-with-parent``);
# - a root file system of its own that is read-only, built from read-only binds of only what
#   the kernel needs: ``/usr`` (and the ``/bin``, ``/lib*`` links), a few files of ``/etc``, the
#   Python installation(s) and the maumau package folder itself (never the repository around
#   it); the instructor's sources (and any copy next to them), the submissions, the output
#   folder, the repository and its ``.git`` simply do not exist inside;
# - the only writable places are the working folder ``/scratch`` (also HOME and TMPDIR, and
#   ``/tmp`` points into it): a tmpfs of ``disk_mb`` megabytes, so writing more fails with
#   "No space left on device" and nothing reaches the grader's disk.  Where the Python or the
#   maumau package lives under ``/tmp`` (a checkout or a venv made with ``mktemp -d``), ``/tmp``
#   is a second tmpfs of that size instead, with those folders bound read-only into it;
# - the same wherever the project lives: the folder around the maumau package or the Python
#   (the checkout, the course folder, the venv's parent) is read-only inside and holds only
#   them, under ``/tmp`` as elsewhere (each top folder of ``/tmp`` that holds one is an empty
#   read-only tmpfs: ``Jail.tmp_tops``), and everything else of ``/tmp`` is the sandbox's
#   own scratch;
# - an unprivileged user (uid 65534 in a new user namespace), no capabilities, no new
#   privileges, no further user namespaces, its own session (no terminal tricks), IPC and
#   UTS namespaces.
#
# The grader talks to the kernel over Unix sockets (jupyter's ``ipc`` transport) in a tiny tmpfs
# ``/run/maumau`` inside the sandbox, each opened once as soon as the kernel bound it and then
# reached only through that descriptor (``guard.pin``), never by a path the kernel could turn
# into a link; the connection file is bound there read-only.  The kernel's audit hook (``guard``) stays on as a
# second layer.

#: The environment variable naming the bwrap to use ("" or "off": no isolation).
BWRAP_ENV = "MAUMAU_BWRAP"
DEFAULT_BWRAP = "/usr/bin/bwrap"
SCRATCH = "/scratch"                 # the kernel's working folder inside (tmpfs, size-capped)
RUN = "/run/maumau"                  # the kernel's sockets and connection file inside
CONNECTION = RUN + "/kernel.json"
IPC = RUN + "/kernel"                # jupyter's ipc "ip": sockets kernel-1 ... kernel-5
UID = 65534                          # nobody
_SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "passwd", "group",
        "nsswitch.conf", "hosts", "host.conf", "mime.types", "os-release", "alternatives", "fonts",
        "matplotlibrc", "python3*")
_RUN_BYTES = 64 * 1024


def inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


@dataclass(frozen=True)
class Jail:
    """A bwrap command line for the grading kernels of one batch."""

    bwrap: str
    version: str
    readonly: tuple[str, ...]                 # host paths bound read-only at the same place
    links: tuple[tuple[str, str], ...]        # (target, path) symlinks in the sandbox root
    masked: tuple[str, ...]                   # protected paths inside a bind: hidden
    python_path: tuple[str, ...]              # PYTHONPATH inside (the maumau package's parent)
    options: frozenset[str] = frozenset()     # the options of bwrap --help we rely on if present

    @property
    def tmp_is_tmpfs(self) -> bool:
        """Whether ``/tmp`` is a tmpfs of its own (something bound lives under the host's /tmp),
        rather than a link into the working folder."""
        return any(inside(path, "/tmp") for path in self.readonly)

    @property
    def tmp_tops(self) -> tuple[str, ...]:
        """The top folders of ``/tmp`` (``/tmp/NAME``) that hold something bound deeper down
        (``/tmp/checkout`` for ``/tmp/checkout/maumau``): each is a read-only tmpfs inside, as
        the folders around a bind are on the read-only root elsewhere, so that a learner's
        write to the checkout fails the same way wherever it lives."""
        tops = (PurePosixPath(*PurePosixPath(path).parts[:3]).as_posix() for path in self.readonly
                if inside(path, "/tmp") and len(PurePosixPath(path).parts) > 3)
        return tuple(dict.fromkeys(top for top in tops if top not in self.readonly))

    def command(self, argv: list[str], connection_file: str | None = None, disk_mb: int = 0,
                files: Mapping[str, str] | None = None) -> list[str]:
        """The bwrap command that runs ``argv`` in the sandbox; ``connection_file`` (a host
        path) is bound read-only at CONNECTION, and each of ``files`` (relative name: host
        path, the exercise's data files) read-only at its name in the working folder."""
        has = self.options.__contains__
        cmd = [self.bwrap, "--unshare-all", "--unshare-user", "--uid", str(UID), "--gid", str(UID),
               "--die-with-parent", "--new-session"]
        if has("--disable-userns"):
            cmd.append("--disable-userns")
        if os.geteuid() == 0:
            cmd += ["--cap-drop", "ALL"]
        perms = ["--perms", "0700"] if has("--perms") else []
        size = ["--size", str(disk_mb * 1024 * 1024)] if disk_mb > 0 and has("--size") else []
        if self.tmp_is_tmpfs:  # first: the folders under /tmp are bound into it below
            cmd += perms + size + ["--tmpfs", "/tmp"]
            for top in self.tmp_tops:  # made read-only once the binds are in it (below)
                cmd += ["--tmpfs", top]
        for path in self.readonly:
            cmd += ["--ro-bind", path, path]
        for top in self.tmp_tops:
            cmd += ["--remount-ro", top]
        for target, path in self.links:
            cmd += ["--symlink", target, path]
        for path in self.masked:
            if os.path.isdir(path):
                cmd += ["--tmpfs", path, "--remount-ro", path]
            else:
                cmd += ["--ro-bind", "/dev/null", path]
        cmd += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev"]
        cmd += perms + size + ["--tmpfs", SCRATCH, "--dir", f"{SCRATCH}/home", "--dir", f"{SCRATCH}/tmp"]
        if not self.tmp_is_tmpfs:
            cmd += ["--symlink", f"{SCRATCH}/tmp", "/tmp"]
        made: set[str] = set()
        for rel, host in sorted((files or {}).items()):
            parts = PurePosixPath(rel).parts
            for n in range(1, len(parts)):
                folder = "/".join(parts[:n])
                if folder not in made:
                    made.add(folder)
                    cmd += ["--dir", f"{SCRATCH}/{folder}"]
            cmd += ["--ro-bind", host, f"{SCRATCH}/{rel}"]
        cmd += perms + (["--size", str(_RUN_BYTES)] if has("--size") else []) + ["--tmpfs", RUN]
        if connection_file is not None:
            cmd += ["--ro-bind", connection_file, CONNECTION]
            argv = [CONNECTION if a == connection_file else a for a in argv]
        cmd += ["--remount-ro", "/", "--chdir", SCRATCH, "--"]
        return cmd + list(argv)

    def check(self) -> str:
        """'' when a Python of the sandbox imports the kernel module; else why not."""
        argv = [sys.executable, "-c", "import maumau.sandbox.guard"]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(self.python_path), HOME=f"{SCRATCH}/home")
        try:
            done = subprocess.run(self.command(argv, disk_mb=1), env=env, capture_output=True, text=True,
                                  timeout=60, stdin=subprocess.DEVNULL, cwd="/")
        except (OSError, subprocess.SubprocessError) as err:
            return f"{self.bwrap} did not run ({type(err).__name__}: {err})"
        if done.returncode != 0:
            lines = [line for line in (done.stderr or "").splitlines() if line.strip()]
            return f"{self.bwrap} failed: {lines[-1] if lines else f'exit status {done.returncode}'}"
        return ""


def _bwrap() -> str | None:
    name = os.environ.get(BWRAP_ENV, DEFAULT_BWRAP)
    if name in ("", "0", "off", "no", "false"):
        return None
    found = shutil.which(name)
    return found and os.path.realpath(found)


@functools.lru_cache(maxsize=8)
def _about(bwrap: str) -> tuple[str, frozenset[str]]:
    """bwrap's version and the options of ours its --help lists."""
    try:
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10).stdout
        helps = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "bubblewrap", frozenset()
    options = frozenset(o for o in ("--size", "--perms", "--disable-userns") if re.search(rf"^\s*{o}\b", helps, re.M))
    return version.strip() or "bubblewrap", options


def _maumau_dir() -> str:
    """The maumau package's folder (the parent of this one), without importing the package."""
    return os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def layout(protected: list[str], bwrap: str) -> Jail:
    """What the sandbox shows: read-only binds of the system, Python and the maumau package;
    ``protected`` paths (real paths) are never bound, and hidden where a bind holds one."""
    package = _maumau_dir()
    readonly: list[str] = []
    links: list[tuple[str, str]] = []

    def covered(path: str) -> bool:
        return any(inside(path, b) for b in readonly)

    def add(path: str) -> None:
        if os.path.exists(path) and not covered(path):
            readonly[:] = [b for b in readonly if not inside(b, path)] + [path]

    add("/usr")
    for path in _SYSTEM_DIRS:
        if os.path.islink(path):
            links.append((os.readlink(path), path))
        elif os.path.isdir(path):
            add(path)
    for pattern in _ETC:
        for path in sorted(glob.glob(os.path.join("/etc", pattern))):
            add(path)
    # the Python installation(s): as named and as resolved (a venv's python is a symlink)
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)):
        for path in dict.fromkeys((os.path.abspath(prefix), os.path.realpath(prefix))):
            if path != "/" and not any(inside(p, path) for p in protected):
                add(path)
    exe = os.path.realpath(sys.executable)
    if not covered(exe):
        add(os.path.dirname(exe))
    # the maumau package folder alone, never the repository around it
    add(package)
    # other import paths (user site-packages, PYTHONPATH, .pth entries): not a folder holding
    # maumau or inside the one that does (the repository: tests/, exercises/ ...), nothing
    # holding or inside a protected path, no git repository
    entries = list(sys.path) + os.environ.get("PYTHONPATH", "").split(os.pathsep)
    for entry in entries:
        if not entry or not os.path.isabs(entry):
            continue
        path = os.path.realpath(entry)
        if (not os.path.exists(path) or covered(path) or path == "/" or inside(package, path)
                # under /tmp only packages (another venv's site-packages, added by a .pth), never
                # e.g. the folder of a script run from /tmp or a test folder: not the kernel's
                or (inside(path, "/tmp") and os.path.basename(path) not in ("site-packages", "dist-packages"))
                or inside(path, os.path.dirname(package))
                or any(inside(p, path) or inside(path, p) for p in protected)
                or os.path.exists(os.path.join(path, ".git"))):
            continue
        add(path)
    masked = tuple(p for p in protected if covered(p) and os.path.exists(p))
    version, options = _about(bwrap)
    return Jail(bwrap, version, tuple(readonly), tuple(links), masked, (os.path.dirname(package),), options)


def find_jail(protected: list[str]) -> tuple[Jail | None, str]:
    """The jail for a batch, or None and the reason there is none."""
    bwrap = _bwrap()
    if bwrap is None:
        name = os.environ.get(BWRAP_ENV, DEFAULT_BWRAP)
        if name in ("", "0", "off", "no", "false"):
            return None, f"isolation switched off (${BWRAP_ENV}={name!r})"
        return None, f"{name} not found (install Debian's bubblewrap: apt-get install bubblewrap)"
    jail = layout([os.path.realpath(p) for p in protected], bwrap)
    problem = jail.check()
    if problem:
        return None, problem
    return jail, ""


def sandbox_root(pid: int) -> str | None:
    """The root folder of the sandbox whose bwrap process is ``pid``, seen from outside
    (``/proc/CHILD/root``), or None while bwrap has not forked yet."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = f.read().split()
    except OSError:
        return None
    return f"/proc/{children[0]}/root" if children else None


def main() -> None:  # pragma: no cover - a manual check: python -m maumau.sandbox.jail [COMMAND...]
    jail, why = find_jail([])
    if jail is None:
        print("not isolated:", why)
        sys.exit(1)
    cmd = jail.command(sys.argv[1:] or [sys.executable, "-c", "import os; print(os.listdir('/'))"], disk_mb=16)
    print(" ".join(cmd))
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    main()
