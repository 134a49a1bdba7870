"""How the grader reaches a sandboxed kernel's sockets without a path the kernel controls.

The kernel binds its five ZeroMQ sockets (jupyter's ``ipc`` transport) in ``/run/maumau``
inside its sandbox, a folder it can write: after its cells run, learner code could replace
them with symbolic links to a socket of this machine.  A path through ``/proc/PID/root``
follows such a link out to the host's file system, and ZeroMQ reconnects by path whenever a
connection drops; so the grader never connects by such a path.  Instead, right after the
kernel bound its sockets (before any learner code ran), ``pin`` opens each socket file once,
without following links (``O_PATH | O_NOFOLLOW``, and only if it is a socket), and the
grader connects through ``/proc/self/fd/N`` of that descriptor: the socket's inode itself.
The names ZeroMQ connects to are links in a folder of the grader's own batch, which the
sandbox never sees; whatever the kernel does to ``/run/maumau`` later, every reconnection
reaches that inode, inside the sandbox, or nothing.
"""

from __future__ import annotations

import asyncio
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Pinned", "pin"]

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
