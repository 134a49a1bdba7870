"""The tests leave nothing running (tests/processes.py): a server stopped with ``stop_tree`` takes the
processes it started in sessions of their own with it, and the session's check finds a process that a
test left behind, even one that no longer has a parent in the session."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import processes
import psutil

#: A server that starts a helper in a session of its own (as JupyterHub starts its proxy), writes the
#: helper's process id, and waits; the helper ignores SIGTERM when told to (it then needs SIGKILL).
SERVER = """
import signal, subprocess, sys, time
stubborn = sys.argv[2] == "stubborn"
helper = subprocess.Popen([sys.executable, "-c", HELPER, str(stubborn)], start_new_session=True)
open(sys.argv[1], "w").write(str(helper.pid))
time.sleep(120)
""".replace("HELPER", repr("import signal, sys, time\n"
                           "if sys.argv[1] == 'True': signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                           "time.sleep(120)\n"))


def start_server(folder: Path, stubborn: bool = False) -> tuple[subprocess.Popen[bytes], psutil.Process]:
    written = folder / "helper.pid"
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(written), "stubborn" if stubborn else "meek"],
                              start_new_session=True)
    end = time.monotonic() + 30
    while not (written.exists() and written.read_text()):
        assert time.monotonic() < end and server.poll() is None, "the server did not start its helper"
        time.sleep(0.05)
    return server, psutil.Process(int(written.read_text()))


def test_stopping_a_server_stops_the_helper_it_started_in_a_session_of_its_own(tmp_path: Path) -> None:
    server, helper = start_server(tmp_path)
    assert os.getpgid(helper.pid) != os.getpgid(server.pid)  # a signal to the server's group misses it
    processes.stop_tree(server.pid, grace=5)
    server.wait(5)
    assert not helper.is_running() or helper.status() == psutil.STATUS_ZOMBIE


def test_a_helper_that_ignores_sigterm_is_killed(tmp_path: Path) -> None:
    server, helper = start_server(tmp_path, stubborn=True)
    processes.stop_tree(server.pid, grace=5)
    server.wait(5)
    assert not helper.is_running() or helper.status() == psutil.STATUS_ZOMBIE


#: Starts a sleeper in a session of its own, writes its process id and exits: the sleeper is left to no
#: one (init adopts it), as a hub's proxy is when the hub dies.
LAUNCHER = """
import os, subprocess, sys
env = dict(os.environ)
if sys.argv[2] == "unmarked":
    env.pop(sys.argv[3], None)
sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", sys.argv[1]],
                           env=env, start_new_session=True)
open(sys.argv[1], "w").write(str(sleeper.pid))
"""


def orphan(folder: Path, marked: bool) -> psutil.Process:
    written = folder / "sleeper.pid"
    subprocess.run([sys.executable, "-c", LAUNCHER, str(written), "marked" if marked else "unmarked", processes.MARK],
                   check=True, timeout=30)
    sleeper = psutil.Process(int(written.read_text()))
    assert sleeper.pid not in {p.pid for p in psutil.Process().children(recursive=True)}
    return sleeper


def found(token: str, since: float, folders: list[str]) -> set[int]:
    return {p.pid for p in processes.left_running(token, since, folders, wait=0)}


def test_the_session_check_finds_a_process_left_without_a_parent_by_the_sessions_mark(tmp_path: Path) -> None:
    token, since = os.environ[processes.MARK], time.time() - 1
    sleeper = orphan(tmp_path, marked=True)
    try:
        assert sleeper.pid in found(token, since, [])
        assert sleeper.pid not in found("another session", since, [])
        assert sleeper.pid not in found(token, time.time() + 60, [])  # started before the session: not its
    finally:
        processes.end([sleeper])
    assert sleeper.pid not in found(token, since, [])


def test_the_session_check_finds_an_unmarked_process_naming_the_sessions_folder(tmp_path: Path) -> None:
    """A hub's service inherits neither the session's environment nor a parent that stays: its command
    line names the session's folder (its database)."""
    since = time.time() - 1
    sleeper = orphan(tmp_path, marked=False)
    try:
        assert sleeper.pid not in found(os.environ[processes.MARK], since, [])
        assert sleeper.pid in found("another session", since, [str(tmp_path)])
        assert sleeper.pid not in found("another session", since, [str(tmp_path / "elsewhere")])
    finally:
        processes.end([sleeper])
