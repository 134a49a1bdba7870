"""What runs inside and around a sandboxed child: the guard (resource limits and the audit hook,
``python -m maumau.sandbox.guard`` is the grader's kernel command, the league's runner installs
the same guard) and the channels by which the grader reaches a jailed kernel's sockets.
"""

from __future__ import annotations

import asyncio
import os
import re
import resource
import stat
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["make_guard", "set_limits", "main", "Pinned", "pin"]


# --- the guard: the kernel's limits and audit hook ----------------------------------------------------------
#
# The kernel a submission runs in: ipykernel inside limits.
#
# ``python -m maumau.sandbox.guard -f CONNECTION_FILE`` is the command of the grader's
# kernelspec.  Before the kernel starts it sets resource limits (address space, file size,
# CPU time, no core files); once the kernel is initialised it installs a Python audit hook
# (PEP 578) that, for the learner's code:
#
# - allows writing, renaming and deleting only inside the kernel's scratch folder;
# - denies reading or listing the protected folders (the instructor's exercises and their
#   git repository, the submissions, the grader's output and its other kernels' folders)
#   and other processes' ``/proc`` entries;
# - denies starting processes, sending signals to other processes, loading native code
#   with ``ctypes``, network connections and raising resource limits.
#
# The settings come in environment variables (``MAUMAU_SANDBOX_*``).  An audit hook is a
# strong guard against accidents and casual cheating, not a security boundary against
# deliberate attacks on the interpreter: for untrusted classes run the grader in a
# container.  Learner code never runs in the grader's own process either way.

SCRATCH = "MAUMAU_SANDBOX_SCRATCH"
PROTECT = "MAUMAU_SANDBOX_PROTECT"
MEMORY = "MAUMAU_SANDBOX_MEMORY_MB"
CPU = "MAUMAU_SANDBOX_CPU_SECONDS"
JAILED = "MAUMAU_SANDBOX_JAILED"  # "1": the kernel runs in a bubblewrap sandbox (``jail``)
PROCESSES = "MAUMAU_SANDBOX_PROCESSES"  # RLIMIT_NPROC (counted per user namespace: per sandbox)
FILE_MB = 64

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PROC = re.compile(r"^/proc/(\d+)(/|$)")
_DENIED_EVENTS = frozenset((
    "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
    "os.forkpty", "pty.spawn", "os.startfile",
    "ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.call_function",
    "ctypes.cdata", "ctypes.cdata/buffer", "ctypes.string_at", "ctypes.wstring_at",
    "socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg",
    "resource.setrlimit", "resource.prlimit",
))
_PATH_EVENTS = {  # event -> indexes of path arguments that change the file system
    "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,), "os.chmod": (0,), "os.chown": (0,),
    "os.truncate": (0,), "os.utime": (0,), "os.rename": (0, 1), "os.link": (0, 1),
    "os.symlink": (0, 1), "os.chflags": (0,), "os.lchflags": (0,), "os.mkfifo": (0,),
    "os.mknod": (0,), "shutil.copyfile": (1,), "shutil.copymode": (1,), "shutil.copystat": (1,),
    "shutil.copytree": (1,), "shutil.move": (0, 1), "shutil.rmtree": (0,), "shutil.make_archive": (0,),
    "shutil.unpack_archive": (1,), "os.removexattr": (0,), "os.setxattr": (0,),
}
_LIST_EVENTS = {"os.listdir": 0, "os.scandir": 0, "glob.glob": 0, "glob.glob/2": 0, "os.walk": 0,
                "os.fwalk": 0, "shutil.copyfile": 0, "shutil.copytree": 0, "shutil.make_archive": 2}


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _path_rules(scratch: str, protected: list[str]
                ) -> tuple[Callable[[object], str | None], Callable[[str], bool], Callable[[str], bool]]:
    """``resolve`` (a path argument's real path, None when it names no path), ``readable`` and
    ``writable`` (of a real path) for a kernel whose only writable folder is ``scratch`` (or
    folders: ``os.pathsep`` between them, a sandbox whose /tmp is a tmpfs of its own).

    Made before the learner's code runs, with ``os.path.realpath``, ``os.fspath`` and the
    kernel's pid bound then: rebinding them in the kernel afterwards does not reach these."""
    writable_dirs = [os.path.realpath(p) for p in scratch.split(os.pathsep) if p]
    protected = [os.path.realpath(p) for p in protected if p]
    own = str(os.getpid())
    realpath, fspath = os.path.realpath, os.fspath

    def resolve(path: Any) -> str | None:  # an audit event's argument: anything
        if path is None or isinstance(path, int):
            return None
        try:
            text = os.fsdecode(fspath(path))
        except TypeError:
            return None
        return realpath(text)

    def readable(real: str) -> bool:
        if any(_inside(real, w) for w in writable_dirs):
            return True
        if any(_inside(real, p) for p in protected):
            return False
        m = _PROC.match(real)
        return m is None or m.group(1) == own

    def writable(real: str) -> bool:
        return any(_inside(real, w) for w in writable_dirs) or real == "/dev/null"

    return resolve, readable, writable


def make_guard(scratch: str, protected: list[str]) -> Callable[[str, tuple[Any, ...]], None]:
    """The audit hook for a kernel whose only writable folder is ``scratch``.

    The hook is ``make_guard.<locals>.hook`` and every refusal goes through its closure's
    ``deny``: tests/submissions find it by that name to switch it off and show that the
    bubblewrap sandbox holds without it, so both stay as they are."""
    resolve, readable, writable = _path_rules(scratch, protected)
    fspath, isabs = os.fspath, os.path.isabs

    def deny(what: str) -> None:
        raise PermissionError(f"the grading sandbox does not allow {what}")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            path, mode, flags = args
            real = resolve(path)
            if real is None:
                return
            if mode is None and not isabs(os.fsdecode(fspath(path))):
                # os.open with a relative path may be relative to a dir_fd we cannot see
                deny("os.open with a relative path")
            if not readable(real):
                deny(f"opening {path!r}")
            write = (any(c in mode for c in "wax+") if isinstance(mode, str)
                     else bool((flags or 0) & _WRITE_FLAGS))
            if write and not writable(real):
                deny(f"writing {path!r} (only the working folder is writable)")
        elif event in _DENIED_EVENTS:
            deny(event)
        elif event in ("os.kill", "os.killpg"):
            if args and args[0] not in (0, os.getpid()):
                deny(f"{event} on another process")
        elif event in _PATH_EVENTS or event in _LIST_EVENTS:
            for i in _PATH_EVENTS.get(event, ()):
                real = resolve(args[i]) if i < len(args) else None
                if real is not None and not writable(real):
                    deny(f"{event} outside the working folder")
            j = _LIST_EVENTS.get(event)
            if j is not None and j < len(args):
                real = resolve(args[j])
                if real is not None and not readable(real):
                    deny(f"{event} on {args[j]!r}")

    return hook


def set_limits(memory_mb: int, cpu_seconds: int) -> None:
    """Address space, CPU time, file size and core files: hard limits the kernel cannot raise."""
    if memory_mb > 0:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    if cpu_seconds > 0:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_MB * 1024 * 1024,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def main() -> None:
    scratch = os.environ.pop(SCRATCH, "") or os.getcwd()
    protected = [p for p in os.environ.pop(PROTECT, "").split(os.pathsep) if p]
    set_limits(int(os.environ.pop(MEMORY, "0") or 0), int(os.environ.pop(CPU, "0") or 0))
    processes = int(os.environ.pop(PROCESSES, "0") or 0)
    if processes > 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
    if os.environ.pop(JAILED, "") == "1":
        # the parent is bwrap's init (PID 1 of the sandbox), which dies with the grader and takes
        # the kernel along: ipykernel's parent poller would take PID 1 for a dead parent
        os.environ.pop("JPY_PARENT_PID", None)
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    app.initialize(sys.argv[1:])
    # exit() or quit() in a graded notebook would end the kernel 0.1 s after the cell, racing the
    # next one: the grader, the kernel's only front end, keeps it running (exit() does nothing)
    if app.shell is not None:
        app.shell.ask_exit = lambda: None
    sys.addaudithook(make_guard(scratch, protected))
    app.start()


# --- the channels to a jailed kernel's sockets --------------------------------------------------------------
#
# How the grader reaches a sandboxed kernel's sockets without a path the kernel controls.
#
# The kernel binds its five ZeroMQ sockets (jupyter's ``ipc`` transport) in ``/run/maumau``
# inside its sandbox, a folder it can write: after its cells run, learner code could replace
# them with symbolic links to a socket of this machine.  A path through ``/proc/PID/root``
# follows such a link out to the host's file system, and ZeroMQ reconnects by path whenever a
# connection drops; so the grader never connects by such a path.  Instead, right after the
# kernel bound its sockets (before any learner code ran), ``pin`` opens each socket file once,
# without following links (``O_PATH | O_NOFOLLOW``, and only if it is a socket), and the
# grader connects through ``/proc/self/fd/N`` of that descriptor: the socket's inode itself.
# The names ZeroMQ connects to are links in a folder of the grader's own batch, which the
# sandbox never sees; whatever the kernel does to ``/run/maumau`` later, every reconnection
# reaches that inode, inside the sandbox, or nothing.

_FLAGS = os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass
class Pinned:
    """The descriptors of one kernel's sockets and the folder of links to them."""

    ip: str                                   # what jupyter's ``ip`` becomes: "<links>/kernel"
    fds: list[int] = field(default_factory=list)

    def close(self) -> None:
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds.clear()


def _children(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return []


def _open_root(bwrap_pid: int) -> int | None:
    """A descriptor of the sandbox's root folder (that of bwrap's child), or None while there is
    none yet: before bwrap's child switched to its new root its root is this machine's, which
    is never taken for it; checked again after opening, so a recycled process id is not either."""
    children = _children(bwrap_pid)
    if not children:
        return None
    try:
        fd = os.open(f"/proc/{children[0]}/root", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return None
    here, there = os.stat("/"), os.fstat(fd)
    if _children(bwrap_pid)[:1] != children[:1] or (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino):
        os.close(fd)
        return None
    return fd


def _open_socket(root: int, inside: str) -> int | None:
    """``inside`` (a path in the sandbox, below ``root``) opened without following any link,
    if it is a socket; None while it is not there yet.  OSError if it is something else."""
    fd = -1
    parts = [p for p in inside.split("/") if p]
    try:
        fd = os.open(".", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=root)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            inner = os.open(part, _FLAGS | (0 if last else os.O_DIRECTORY), dir_fd=fd)
            os.close(fd)
            fd = inner
    except FileNotFoundError:
        if fd >= 0:
            os.close(fd)
        return None
    except OSError:
        if fd >= 0:
            os.close(fd)
        raise
    if not stat.S_ISSOCK(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{inside} is not a socket")
    return fd


async def pin(bwrap_pid: int, inside: str, ports: list[int], links: Path, seconds: float,
              alive: object = None) -> Pinned:
    """Wait (at most ``seconds``) until the kernel of the sandbox of ``bwrap_pid`` has bound its
    sockets ``{inside}-{port}``, open each once and make ``links``/kernel-{port} point to its
    descriptor.  RuntimeError if they do not appear in time."""
    deadline = time.monotonic() + seconds
    links.mkdir(mode=0o700)
    pinned = Pinned(str(links / "kernel"))
    root: int | None = None
    try:
        waiting = list(ports)
        while waiting:
            if root is not None and len(waiting) == len(ports):
                # bwrap's child switches its root more than once while it builds the sandbox: look
                # afresh until the first socket is found, then keep that root for the others
                os.close(root)
                root = None
            if root is None:
                root = _open_root(bwrap_pid)
            if root is not None:
                for port in list(waiting):
                    fd = _open_socket(root, f"{inside}-{port}")
                    if fd is not None:
                        pinned.fds.append(fd)
                        os.symlink(f"/proc/self/fd/{fd}", links / f"kernel-{port}")
                        waiting.remove(port)
            if waiting:
                if time.monotonic() > deadline or (callable(alive) and not await alive()):
                    raise RuntimeError("the kernel did not open its sockets")
                await asyncio.sleep(0.005)
    except BaseException:
        pinned.close()
        raise
    finally:
        if root is not None:
            os.close(root)
    return pinned


if __name__ == "__main__":
    main()
