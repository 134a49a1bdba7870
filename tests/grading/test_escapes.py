"""Learners who reach out of their kernel change nothing (issue 12, item 2).

tests/submissions/escape_* (written by tests/submissions/cheats.py) hand in exercise 02's stub
and first switch the kernel's audit hook off, so that only the bubblewrap sandbox stands
between them and this machine: a daemon (spawned, and double-forked) that keeps rewriting its
row of grades.csv after the kernel is gone; raw TCP and zmq to a listener of this machine; the
dir_fd variants of mkdir/open/rename/unlink/link planting files in the output folder and moving
the instructor's notebook; (issue 25) the kernel's socket files replaced by links to a socket of
this machine while the grader reconnects, three child interpreters holding more memory together
than the kernel's limit, 512 busy processes.  Graded by ``maumau grade`` like any class; each must
score what the honest stub (or the correct solution handed in with it) scores, and nothing outside
may change or be connected to.  Without a working bwrap these learners
would succeed (the audit hook is no boundary), so the test is skipped there, saying why.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from maumau.cli import main  # noqa: E402
from maumau.sandbox import jail  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SUBMISSIONS = REPO / "tests" / "submissions"
EX = "02_skip_on_eight"
_JAIL, _WHY = jail.find_jail([])
pytestmark = pytest.mark.skipif(_JAIL is None, reason=f"no bubblewrap sandbox on this machine: {_WHY}")


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module")
def listener():
    """A TCP listener on this machine's loopback that records every connection."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    seen: list[bytes] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    seen.append(conn.recv(1024) or b"<connected>")
                except OSError:
                    seen.append(b"<connected>")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], seen
    stop.set()
    thread.join(2)
    server.close()


@pytest.fixture(scope="module")
def unix_listener(tmp_path_factory):
    """A Unix socket of this machine that records every connection (escape_socket_links links
    the kernel's sockets to it)."""
    path = tmp_path_factory.mktemp("host") / "host.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(64)
    server.settimeout(0.2)
    seen: list[str] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            seen.append("<connected>")
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield str(path), seen
    stop.set()
    thread.join(2)
    server.close()


#: What each escape scores (its status where it is always the same): the stub's 0, or the 6 of the
#: correct solution handed in with it.
EXPECTED = {"escape_daemon": ("0", "ok"), "escape_network": ("0", "ok"), "escape_dir_fd": ("0", "ok"),
            "escape_memory_children": ("6", "ok"), "escape_socket_links": ("0", None),
            "escape_process_flood": ("0", None)}


@pytest.fixture(scope="module")
def escaped(tmp_path_factory, listener, unix_listener):
    port, seen = listener
    unix_path, unix_seen = unix_listener
    root = tmp_path_factory.mktemp("escapes")
    source, subs, out = root / "exercises", root / "submissions", root / "out"
    source.mkdir()
    shutil.copy(REPO / "exercises" / f"{EX}.ipynb", source)
    before = snapshot(source)
    learners = sorted(p for p in SUBMISSIONS.glob("escape_*") if p.is_dir())
    assert len(learners) >= 3, learners
    for folder in learners:
        text = (folder / f"{EX}.ipynb").read_text(encoding="utf-8")
        text = text.replace("__OUT__", str(out)).replace("__SOURCE__", str(source)).replace("__PORT__", str(port))
        text = text.replace("__UNIX__", unix_path)
        (subs / folder.name).mkdir(parents=True)
        (subs / folder.name / f"{EX}.ipynb").write_text(text, encoding="utf-8")
    (subs / "stub").mkdir()
    shutil.copy(SUBMISSIONS / "cheat_rebind" / f"{EX}.ipynb", subs / "stub")  # scored like the stub
    log = io.StringIO()
    argv = ["grade", "--source", str(source), str(subs), "--out", str(out), "--exercise", EX,
            "--require-isolation", "--cell-timeout", "10", "--timeout", "60"]
    assert main(argv, out=log, err=log) == 0, log.getvalue()
    grades = (out / "grades.csv").read_bytes()
    after_grading = snapshot(out)
    time.sleep(4)  # the daemons' time to act, had they survived their kernels
    return {"out": out, "source": source, "before": before, "grades": grades, "after": after_grading,
            "seen": seen, "unix_seen": unix_seen, "learners": [p.name for p in learners], "log": log.getvalue()}


def test_every_escape_scores_what_its_solution_earns(escaped):
    rows = {}
    for line in escaped["grades"].decode().splitlines()[1:]:
        student, exercise, score, _max, _manual, status = line.split(",")[:6]
        rows[student] = (score, status)
    assert set(escaped["learners"]) == set(EXPECTED)
    for name in escaped["learners"]:
        score, status = EXPECTED[name]
        assert rows[name][0] == score and status in (None, rows[name][1]), (name, rows[name], escaped["log"][-2000:])


def test_nothing_outside_is_connected_to_through_the_kernel_s_socket_files(escaped):
    assert escaped["unix_seen"] == []


def test_no_daemon_rewrites_grades_csv_after_the_batch(escaped):
    out = escaped["out"]
    assert (out / "grades.csv").read_bytes() == escaped["grades"]
    digest = hashlib.sha256(escaped["grades"]).hexdigest()
    assert (out / "grades.csv.sha256").read_text() == f"{digest}  grades.csv\n"
    assert b"escape_daemon,02_skip_on_eight,6" not in escaped["grades"]


def test_nothing_is_planted_in_the_output_folder_or_moved_in_the_source(escaped):
    assert snapshot(escaped["out"]) == escaped["after"]
    names = set(escaped["after"])
    assert not {"planted", "planted.md", "stolen.ipynb"} & names, names
    assert snapshot(escaped["source"]) == escaped["before"]


def test_no_connection_reaches_this_machine(escaped):
    assert escaped["seen"] == []
