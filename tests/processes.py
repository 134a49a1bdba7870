"""The processes a test session starts, and how to stop them all (issue 35: JupyterHub's proxy and the
hub's service still listened 1.5 h after ``make test``).

A server a test starts may start processes of its own in sessions of their own (JupyterHub starts
configurable-http-proxy and its services with ``start_new_session``): a signal to the server's process
group does not reach them, and once the server is gone they belong to no one.  So ``stop_tree`` takes
the list of the whole tree first, asks the server to stop (it stops what it started), then ends
whatever of the tree is left: SIGTERM, a wait, SIGKILL.

``tests/conftest.py`` marks the session (``MARK`` in the environment, which every child inherits) and
at its end ``left_running`` finds what the session started and is still running: the session's
descendants, and the processes started since that carry the session's mark or name a folder of the
session in their command line (a hub's service gets neither the environment nor a parent it keeps).
"""

from __future__ import annotations

import os
import secrets
import signal
from collections.abc import Iterable

import psutil

#: The environment variable that marks the processes of one test session.
MARK = "MAUMAU_TEST_SESSION"

#: Helpers of the Python standard library that live as long as the test process and end with it.
KEPT_TILL_EXIT = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def mark_session() -> str:
    """A new mark for this session, set in the environment that every process started from here inherits."""
    token = secrets.token_hex(8)
    os.environ[MARK] = token
    return token


def stop_tree(pid: int, grace: float = 20.0) -> None:
    """Stop the process ``pid`` and every process it started: first the process itself (SIGTERM to its
    group, so that a server stops what it started), then what is left of the tree as it was before."""
    try:
        root = psutil.Process(pid)
        tree = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return
    _signal_group(pid, signal.SIGTERM)
    _, alive = psutil.wait_procs([root], timeout=grace)
    if alive:
        _signal_group(pid, signal.SIGKILL)
    end(tree)


def end(processes: Iterable[psutil.Process], grace: float = 5.0) -> None:
    """SIGTERM to each process still running, ``grace`` seconds to exit, then SIGKILL."""
    running = []
    for process in processes:
        try:
            process.terminate()
            running.append(process)
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(running, timeout=grace)
    for process in alive:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=grace)


def _signal_group(pid: int, signum: int) -> None:
    """``signum`` to the process group led by ``pid`` (a server started with ``start_new_session``), else
    to the process alone."""
    try:
        if os.getpgid(pid) == pid:
            os.killpg(pid, signum)
        else:
            os.kill(pid, signum)
    except ProcessLookupError:
        pass


def left_running(token: str, since: float, folders: Iterable[str] = (), wait: float = 5.0) -> list[psutil.Process]:
    """The processes that this session started and that still run after ``wait`` seconds: descendants of
    this process, and processes started since ``since`` (a ``time.time()``) with the session's mark
    ``token`` in their environment or one of ``folders`` in their command line."""
    me = psutil.Process()
    found = {p.pid: p for p in me.children(recursive=True)}
    for process in psutil.process_iter():
        if process.pid not in found and process.pid != me.pid and _started_here(process, token, since, folders):
            found[process.pid] = process
    found = {pid: p for pid, p in found.items() if _running(p)}
    _, alive = psutil.wait_procs(list(found.values()), timeout=wait)
    return sorted((p for p in alive if _running(p)), key=lambda p: p.pid)


def _started_here(process: psutil.Process, token: str, since: float, folders: Iterable[str]) -> bool:
    try:
        if process.create_time() < since:
            return False
        if process.environ().get(MARK) == token:
            return True
        command = " ".join(process.cmdline())
    except (psutil.Error, OSError):
        return False  # gone, or another user's
    return any(folder and folder in command for folder in folders)


def _running(process: psutil.Process) -> bool:
    """Alive and not a zombie, and not a standard-library helper that ends with the test process."""
    try:
        if not process.is_running() or process.status() == psutil.STATUS_ZOMBIE:
            return False
        command = " ".join(process.cmdline())
    except psutil.Error:
        return False
    return not any(helper in command for helper in KEPT_TILL_EXIT)


def describe(process: psutil.Process) -> str:
    """A line for the report: the process id and its command."""
    try:
        return f"{process.pid}: {' '.join(process.cmdline())[:300]}"
    except psutil.Error:
        return f"{process.pid}: (gone)"
