"""Real isolation for a grading kernel: a bubblewrap (``bwrap``) sandbox around it.

Where Debian's ``bubblewrap`` is installed (``/usr/bin/bwrap``, or ``$MAUMAU_BWRAP``) and the
machine lets it create namespaces, each kernel of ``maumau grade`` runs inside one:

- no network: a new network namespace with only its own loopback (TCP, zmq, DNS all fail);
- its own PID namespace: the kernel is not PID 1 of it but its child; when the kernel stops,
  every process it started (forked, spawned, double-forked daemons) is killed with it, and
  when the grader dies the whole sandbox dies too (``--die-with-parent``);
- a root file system of its own that is read-only, built from read-only binds of only what
  the kernel needs: ``/usr`` (and the ``/bin``, ``/lib*`` links), a few files of ``/etc``, the
  Python installation(s) and the maumau package folder itself (never the repository around
  it); the instructor's sources (and any copy next to them), the submissions, the output
  folder, the repository and its ``.git`` simply do not exist inside;
- the only writable places are the working folder ``/scratch`` (also HOME and TMPDIR, and
  ``/tmp`` points into it): a tmpfs of ``disk_mb`` megabytes, so writing more fails with
  "No space left on device" and nothing reaches the grader's disk.  Where the Python or the
  maumau package lives under ``/tmp`` (a checkout or a venv made with ``mktemp -d``), ``/tmp``
  is a second tmpfs of that size instead, with those folders bound read-only into it;
- the same wherever the project lives: the folder around the maumau package or the Python
  (the checkout, the course folder, the venv's parent) is read-only inside and holds only
  them, under ``/tmp`` as elsewhere (each top folder of ``/tmp`` that holds one is an empty
  read-only tmpfs: ``Jail.tmp_tops``), and everything else of ``/tmp`` is the sandbox's
  own scratch;
- an unprivileged user (uid 65534 in a new user namespace), no capabilities, no new
  privileges, no further user namespaces, its own session (no terminal tricks), IPC and
  UTS namespaces.

The grader talks to the kernel over Unix sockets (jupyter's ``ipc`` transport) in a tiny tmpfs
``/run/maumau`` inside the sandbox, each opened once as soon as the kernel bound it and then
reached only through that descriptor (``channels``), never by a path the kernel could turn
into a link; the connection file is bound there read-only.  The kernel's audit hook (``sandbox``) stays on as a
second layer.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = ["Jail", "find_jail", "inside", "sandbox_root", "SCRATCH", "RUN", "CONNECTION", "IPC", "BWRAP_ENV"]

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
        argv = [sys.executable, "-c", "import maumau.grading.sandbox"]
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


def main() -> None:  # pragma: no cover - a manual check: python -m maumau.grading.jail [COMMAND...]
    jail, why = find_jail([])
    if jail is None:
        print("not isolated:", why)
        sys.exit(1)
    cmd = jail.command(sys.argv[1:] or [sys.executable, "-c", "import os; print(os.listdir('/'))"], disk_mb=16)
    print(" ".join(cmd))
    os.execv(cmd[0], cmd)


if __name__ == "__main__":
    main()
