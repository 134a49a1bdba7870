"""The grading kernels' isolation (maumau.sandbox.jail): each attack is a learner cell.

Each test runs the attack through ``Sandbox.run`` (or the whole ``grade``) on a temporary
layout: the instructor's folder, a copy of it next to it, the output folder, a submissions
folder, and checks that the attack failed inside the kernel AND that nothing happened
outside.  Most attacks first switch the kernel's audit hook off (through ``gc``, as a
learner can), so that bubblewrap alone is the boundary being tested.  The tests that need
bubblewrap are skipped where ``/usr/bin/bwrap`` is missing or cannot make namespaces (CI has it):
the attacks never run without it.  They are written to do little harm even where they succeed
(files are opened without writing, what they create they remove), but a broken sandbox would
let them touch the repository and the system: keep it that way.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import re
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from maumau.grading.kernel import DIED, ERROR, OK  # noqa: E402
from maumau.grading.run import NOT_ISOLATED, Sandbox  # noqa: E402
from maumau.sandbox import jail  # noqa: E402
from maumau.sandbox.limits import Limits  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
_JAIL, _WHY = jail.find_jail([])
needs_bwrap = pytest.mark.skipif(_JAIL is None, reason=f"no bubblewrap sandbox on this machine: {_WHY}")

#: A learner cell that switches the kernel's audit hook off: its ``deny`` does nothing any more.
DISABLE_HOOK = '''
import gc, subprocess
_hooks = [o for o in gc.get_objects() if getattr(o, "__qualname__", "") == "make_guard.<locals>.hook"]
for _hook in _hooks:
    for _name, _cell in zip(_hook.__code__.co_freevars, _hook.__closure__):
        if _name == "deny":
            _cell.cell_contents = lambda what: None
assert _hooks, "no hook found"
subprocess.run(["true"], check=True)  # the hook would have refused this
'''


@pytest.fixture
def layout(tmp_path):
    """The grader's folders as a learner would like to reach them."""
    source = tmp_path / "exercises"
    source.mkdir()
    (source / "02_skip_on_eight.ipynb").write_text('{"secret": "HIDDEN TEST"}')
    copy = tmp_path / "exercises_copy"
    shutil.copytree(source, copy)
    out = tmp_path / "out"
    out.mkdir()
    (out / "grades.csv").write_text("student,exercise,score\nmallory,02,0\n")
    subs = tmp_path / "submissions"
    (subs / "alice").mkdir(parents=True)
    (subs / "alice" / "02_skip_on_eight.ipynb").write_text('{"alice": "her answer"}')
    return {"root": tmp_path, "source": source, "copy": copy, "out": out, "subs": subs}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"<dir>")
            for p in sorted(folder.rglob("*"))}


def run(layout, cells: list[str], limits: Limits | None = None, isolate: bool | None = True):
    """Run ``cells`` in one kernel of a sandbox protecting the layout; ``PATHS`` is defined first."""
    paths = {k: str(v) for k, v in layout.items()}
    paths["repo"] = str(REPO)
    prelude = f"import json, os, sys\nPATHS = {json.dumps(paths)}\n"
    with Sandbox([layout["source"], layout["out"], layout["subs"]], limits, isolate=isolate) as sandbox:
        result = asyncio.run(sandbox.run([prelude] + cells))
    assert result.cells[0].status == OK, result
    return result, result.cells[1:]


def ok(cell) -> None:
    assert cell.status == OK, f"{cell.ename}: {cell.evalue}"


#: A learner cell that tries each write of ``WRITES`` (a list of paths) and says, for each, what
#: the kernel saw: "refused" (an OSError) or "written" with the file's device; it says so by
#: raising ``Seen`` (the grader keeps a cell's error, not its output).
TRY_WRITES = '''
import errno
SEEN = {}
for path in WRITES:
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("mallory,02,100")
        SEEN[path] = ["written", os.stat(path).st_dev]
    except OSError as err:
        SEEN[path] = ["refused", errno.errorcode.get(err.errno, str(err.errno))]
SCRATCH_DEVICES = sorted({os.stat("/scratch").st_dev, os.stat("/tmp").st_dev})
class Seen(Exception):
    pass
raise Seen(json.dumps({"seen": SEEN, "scratch": SCRATCH_DEVICES}))
'''


def judge(path: str, seen: list, scratch: list[int], before: bytes | None) -> str:
    """What really happened to a write the kernel tried, judged on the real disk: "reached the
    disk" (the file outside is not what it was), "stayed inside" (the kernel wrote it, into its
    own scratch file system, and the disk is as it was) or "refused" (the kernel could not)."""
    real = Path(path)
    now = real.read_bytes() if real.is_file() else None
    if now != before:
        return "reached the disk"
    if seen[0] == "refused":
        return "refused"
    assert seen[1] in scratch, f"{path} was written on no scratch file system of the sandbox: {seen}"
    return "stayed inside"


def written_where(layout, paths: list[str]) -> dict[str, str]:
    """Each of ``paths`` written by a learner (hook off), judged on the real disk (``judge``)."""
    before = {p: (Path(p).read_bytes() if Path(p).is_file() else None) for p in paths}
    result, cells = run(layout, [DISABLE_HOOK, f"WRITES = {paths!r}\n" + TRY_WRITES])
    ok(cells[0])
    assert cells[1].ename == "Seen", cells[1]
    report = json.loads(cells[1].evalue)
    return {p: judge(p, report["seen"][p], report["scratch"], before[p]) for p in paths}


# --- what the batch says about itself --------------------------------------------------------------

@needs_bwrap
def test_an_isolated_batch_says_so(layout):
    with Sandbox([layout["source"]]) as sandbox:
        assert sandbox.isolated is True and sandbox.jail is not None
        assert sandbox.isolation.startswith("isolated: ") and "bubblewrap" in sandbox.isolation
        result = asyncio.run(sandbox.run(["import os; assert os.getcwd() == '/scratch', os.getcwd()"]))
    assert result.isolated is True and result.cells[0].status == OK, result


@needs_bwrap
def test_a_grader_run_from_a_script_in_tmp_is_still_isolated(tmp_path, monkeypatch):
    """The script's folder (sys.path[0], here under /tmp) is no import path the kernel needs:
    binding it made /tmp a folder where the sandbox puts its /tmp link, and bwrap failed."""
    monkeypatch.syspath_prepend(str(tmp_path))
    found, why = jail.find_jail([])
    assert found is not None, why
    assert not any(jail.inside(p, str(tmp_path)) or jail.inside(str(tmp_path), p) for p in found.readonly)
    # another venv's packages under /tmp (a .pth of a venv made there names them) are bound
    packages = tmp_path / "venv" / "lib" / "site-packages"
    packages.mkdir(parents=True)
    monkeypatch.syspath_prepend(str(packages))
    found, why = jail.find_jail([])
    assert found is not None, why
    assert [p for p in found.readonly if jail.inside(p, str(tmp_path))] == [str(packages)]


def test_without_bwrap_the_batch_says_loudly_it_is_not_isolated(layout, monkeypatch):
    monkeypatch.setenv(jail.BWRAP_ENV, str(layout["root"] / "no-such-bwrap"))
    with Sandbox([layout["source"]]) as sandbox:
        assert sandbox.isolated is False and sandbox.jail is None
        assert sandbox.isolation.startswith(NOT_ISOLATED) and "no-such-bwrap" in sandbox.isolation
        result = asyncio.run(sandbox.run(["x = 1", "open('/etc/passwd', 'a')"]))
    assert result.isolated is False
    assert result.cells[0].status == OK and result.cells[1].ename == "PermissionError", result  # the audit hook
    with pytest.raises(RuntimeError, match="no isolation"):
        Sandbox([layout["source"]], isolate=True)


# --- processes ---------------------------------------------------------------------------------------

def _processes_with(token: str) -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if token.encode() in cmdline:
                found.append(pid)
    return found


@needs_bwrap
def test_no_process_outlives_the_kernel(layout):
    token = f"maumau-daemon-{os.getpid()}-{time.monotonic_ns()}"
    late = layout["out"] / "late.txt"
    body = (f"import time; time.sleep(3); open({str(late)!r}, 'w').write('pwned'); "
            f"open({str(layout['out'] / 'grades.csv')!r}, 'w').write('mallory,02,100')  # {token}")
    spawn = f'''
import os, subprocess, sys, time
BODY = {body!r}
pids = []
pid = os.fork()                                   # a forked child
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-c", BODY])
pids.append(pid)
pids.append(subprocess.Popen([sys.executable, "-c", BODY], start_new_session=True).pid)  # a new session
r, w = os.pipe()
pid = os.fork()                                   # a double-forked daemon
if pid == 0:
    os.setsid()
    grandchild = os.fork()
    if grandchild == 0:
        os.execv(sys.executable, [sys.executable, "-c", BODY])
    os.write(w, str(grandchild).encode()); os._exit(0)
os.waitpid(pid, 0)
pids.append(int(os.read(r, 20)))
time.sleep(0.3)
for p in pids:
    os.kill(p, 0)                                 # all three are alive while the kernel is
'''
    result, cells = run(layout, [DISABLE_HOOK, spawn])
    ok(cells[0])
    ok(cells[1])
    assert _processes_with(token) == []           # gone with the kernel
    time.sleep(3.5)
    assert not late.exists()
    assert (layout["out"] / "grades.csv").read_text() == "student,exercise,score\nmallory,02,0\n"


# --- network ------------------------------------------------------------------------------------------

@pytest.fixture
def listener():
    """A TCP server on 127.0.0.1 that records every connection and every byte it gets."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    got: list[bytes] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            got.append(b"<connection>")
            conn.settimeout(1)
            try:
                got.append(conn.recv(1000))
            except OSError:
                pass
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], got
    stop.set()
    thread.join()
    server.close()


@needs_bwrap
def test_no_network_not_even_loopback_or_zmq(layout, listener):
    port, got = listener
    attack = f'''
import socket, time, zmq
failed = []
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=2).sendall(b"tcp")
except OSError:
    failed.append("tcp")
try:
    socket.create_connection(("pypi.org", 443), timeout=3)
except OSError:
    failed.append("pypi")
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"udp", ("8.8.8.8", 53))
except OSError:
    failed.append("udp")
ctx = zmq.Context()
req = ctx.socket(zmq.REQ)
req.linger = 0
req.connect("tcp://127.0.0.1:{port}")
try:
    req.send(b"zmq", zmq.NOBLOCK)
except zmq.ZMQError:
    pass
time.sleep(1)
req.close()
assert failed == ["tcp", "pypi", "udp"], failed
'''
    result, cells = run(layout, [DISABLE_HOOK, attack])
    ok(cells[0])
    ok(cells[1])
    time.sleep(0.5)
    assert got == []


# --- native code ----------------------------------------------------------------------------------------

@needs_bwrap
@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc to build an extension module with")
def test_a_compiled_extension_module_cannot_reach_outside(layout):
    targets = [str(layout["out"] / "grades.csv"), str(layout["out"] / "native.txt"), str(REPO / "native.txt"),
               "/native.txt", "/usr/native.txt"]
    source = r'''
#include <Python.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
static PyObject *attack(PyObject *self, PyObject *paths) {
    PyObject *done = PyList_New(0);
    for (Py_ssize_t i = 0; i < PyList_Size(paths); i++) {
        const char *path = PyUnicode_AsUTF8(PyList_GetItem(paths, i));
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) { write(fd, "pwned", 5); close(fd); PyList_Append(done, PyList_GetItem(paths, i)); }
        if (mkdir(path, 0755) == 0 || unlink(path) == 0) PyList_Append(done, PyList_GetItem(paths, i));
    }
    return done;
}
static PyMethodDef methods[] = {{"attack", attack, METH_O, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "evil", NULL, -1, methods};
PyMODINIT_FUNC PyInit_evil(void) { return PyModule_Create(&module); }
'''
    attack = f'''
import subprocess, sysconfig, sys, importlib
open("evil.c", "w").write({source!r})
suffix = sysconfig.get_config_var("EXT_SUFFIX")
subprocess.run(["gcc", "-shared", "-fPIC", "-I", sysconfig.get_paths()["include"], "evil.c", "-o", "evil" + suffix],
               check=True, capture_output=True)
sys.path.insert(0, os.getcwd())
evil = importlib.import_module("evil")
done = evil.attack({targets!r})
assert done == [], done
import ctypes
libc = ctypes.CDLL(None)
assert libc.open(b"/pwned.txt", os.O_WRONLY | os.O_CREAT, 0o644) == -1
'''
    before = snapshot(layout["out"])
    result, cells = run(layout, [DISABLE_HOOK, attack])
    ok(cells[0])
    ok(cells[1])
    assert snapshot(layout["out"]) == before
    assert not (REPO / "native.txt").exists() and not Path("/native.txt").exists()


# --- file system: dir_fd, sqlite3, readline, the hook switched off ----------------------------------

@needs_bwrap
@pytest.mark.parametrize("hook", ["on", "off"])
def test_dir_fd_variants_change_nothing_outside(layout, hook):
    out = str(layout["out"]).lstrip("/")
    attack = f'''
import os
fd = os.open("/", os.O_RDONLY)
OUT = {out!r}
attempts = {{
    "mkdir": lambda: os.mkdir(OUT + "/planted", dir_fd=fd),
    "open": lambda: os.open(OUT + "/planted.txt", os.O_WRONLY | os.O_CREAT, dir_fd=fd),
    "rename": lambda: os.rename(OUT + "/grades.csv", OUT + "/old.csv", src_dir_fd=fd, dst_dir_fd=fd),
    "link": lambda: os.link(OUT + "/grades.csv", OUT + "/hard.csv", src_dir_fd=fd, dst_dir_fd=fd),
    "symlink": lambda: os.symlink("/etc/passwd", OUT + "/link", dir_fd=fd),
    "unlink": lambda: os.unlink(OUT + "/grades.csv", dir_fd=fd),
    "rmdir": lambda: os.rmdir(OUT, dir_fd=fd),
    "root": lambda: (os.mkdir("planted", dir_fd=fd), os.rmdir("planted", dir_fd=fd)),
}}
worked = []
for name, attempt in attempts.items():
    try:
        attempt()
        worked.append(name)
    except OSError:
        pass
assert worked == [], worked
'''
    before = snapshot(layout["root"])
    cells = ([DISABLE_HOOK] if hook == "off" else []) + [attack]
    result, runs = run(layout, cells)
    for cell in runs:
        ok(cell)
    assert snapshot(layout["root"]) == before


@needs_bwrap
def test_sqlite3_and_readline_cannot_write_outside(layout):
    attack = '''
import sqlite3, readline
worked = []
for path in [PATHS["out"] + "/grades.db", "/grades.db", PATHS["repo"] + "/grades.db", sys.prefix + "/grades.db"]:
    try:
        sqlite3.connect(path).execute("create table t (x)")
        worked.append(path)
        os.unlink(path)
    except sqlite3.Error:
        pass
    try:
        readline.add_history("pwned")
        readline.write_history_file(path + ".history")
        worked.append(path + ".history")
        os.unlink(path + ".history")
    except OSError:
        pass
sqlite3.connect("mine.db").execute("create table t (x)")  # the working folder is writable
assert worked == [], worked
'''
    before = snapshot(layout["root"])
    result, cells = run(layout, [DISABLE_HOOK, attack])
    ok(cells[0])
    ok(cells[1])
    assert snapshot(layout["root"]) == before
    assert not (REPO / "grades.db").exists() and not Path(sys.prefix, "grades.db").exists()


@needs_bwrap
def test_with_the_hook_switched_off_nothing_outside_is_writable(layout):
    attack = '''
import maumau
worked = []
for path in [PATHS["out"] + "/grades.csv", os.path.dirname(maumau.__file__) + "/__init__.py",
             os.path.dirname(maumau.__file__) + "/x.py", sys.prefix + "/x", os.__file__, "/etc/passwd", "/x",
             "/usr/x", "/dev/x", "/proc/x", "/dev/shm/x"]:
    existed = os.path.exists(path)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT))  # harmless where it works
        worked.append(path)
        if not existed:
            os.unlink(path)
    except OSError:
        pass
open("/tmp/mine.txt", "w").write("the working folder (and /tmp, inside it) is writable")
assert worked == [], worked
'''
    package = REPO / "maumau"
    before = (snapshot(layout["root"]), (package / "__init__.py").read_bytes())
    result, cells = run(layout, [DISABLE_HOOK, attack])
    ok(cells[0])
    ok(cells[1])
    assert (snapshot(layout["root"]), (package / "__init__.py").read_bytes()) == before
    assert not (package / "x.py").exists()


@needs_bwrap
def test_a_learner_s_writes_stay_inside_or_are_refused_and_never_reach_the_disk(layout):
    """Judged on the real disk: a write to the checkout, the maumau package or the Python is
    refused wherever the project lives (under /tmp too, where the sandbox's /tmp is a tmpfs);
    a write under /tmp outside those (the grader's folders of this test live there) lands in
    the sandbox's own scratch /tmp and stays there; nothing reaches the disk."""
    import maumau

    package = Path(maumau.__file__).parent
    checkout = [str(REPO / "native.txt"), str(REPO / "exercises" / "02_skip_on_eight.ipynb"),
                str(package / "x.py"), str(package / "__init__.py"), str(Path(sys.prefix) / "x.txt"),
                str(package.parent / "native.txt")]
    grader = [str(layout["out"] / "grades.csv"), str(layout["out"] / "new.txt"),
              str(layout["subs"] / "alice" / "02_skip_on_eight.ipynb"), str(layout["source"] / "new.ipynb")]
    scratch = ["/tmp/mine.txt", "/scratch/mine.txt"]
    before = snapshot(layout["root"])
    verdicts = written_where(layout, checkout + grader + scratch)
    tops = _JAIL.tmp_tops if _JAIL.tmp_is_tmpfs else ()

    def expected(path: str) -> str:
        in_tmp = jail.inside(path, "/tmp") and not any(jail.inside(path, top) for top in tops)
        return "stayed inside" if path in scratch or (path in grader and in_tmp) else "refused"

    assert verdicts == {path: expected(path) for path in verdicts}
    assert snapshot(layout["root"]) == before


@needs_bwrap
def test_the_grader_s_files_do_not_exist_inside(layout):
    attack = '''
import maumau, pathlib
from maumau.sandbox import jail
hidden = [PATHS["source"], PATHS["copy"], PATHS["out"], PATHS["subs"], PATHS["subs"] + "/alice",
          PATHS["root"], PATHS["repo"] + "/.git", PATHS["repo"] + "/exercises", PATHS["repo"] + "/tests",
          str(pathlib.Path(maumau.__file__).parents[1] / "exercises")]
seen = []
for path in hidden:
    for probe in (os.listdir, lambda p: open(p + "/02_skip_on_eight.ipynb").read(), os.stat):
        try:
            probe(path)
            seen.append(path)
        except (FileNotFoundError, PermissionError):
            pass
assert seen == [], seen
parent = pathlib.Path(maumau.__file__).parents[1]  # a checkout's folder, or a venv's site-packages
assert jail.inside(str(parent), sys.prefix) or sorted(os.listdir(parent)) in (["maumau"], [".venv", "maumau"])
'''
    result, cells = run(layout, [DISABLE_HOOK, attack])
    ok(cells[0])
    ok(cells[1])


# --- disk quota ------------------------------------------------------------------------------------

@needs_bwrap
def test_the_disk_quota_stops_480_mb_of_small_files_and_the_kernel_goes_on(layout):
    attack = '''
import errno
chunk = b"x" * (64 * 1024)
written = 0
try:
    os.mkdir("hoard")
    for i in range(480 * 16):                     # 480 MB in 64 KB files
        with open(f"hoard/{i}.bin", "wb") as f:
            f.write(chunk)
        written += len(chunk)
except OSError as err:
    assert err.errno == errno.ENOSPC, err
assert written < 40 * 1024 * 1024, written
raise OSError(errno.ENOSPC, f"stopped after {written // 2**20} MB")
'''
    result, cells = run(layout, [attack, "x = 1 + 1", "open('after.txt', 'w').write('small files still fit')"],
                        Limits(disk_mb=32))
    assert cells[0].status == ERROR and "stopped after" in cells[0].evalue, cells[0]
    ok(cells[1])
    assert result.restarts == 0


def test_without_bwrap_a_watchdog_stops_a_kernel_that_fills_the_disk(layout):
    attack = '''
import time
os.mkdir("hoard")
for i in range(400):                              # 400 MB, slowly enough to be caught
    with open(f"hoard/{i}.bin", "wb") as f:
        f.write(b"x" * 2**20)
    time.sleep(0.01)
'''
    result, cells = run(layout, [attack, "import os; assert not os.path.exists('hoard')"],
                        Limits(disk_mb=32), isolate=False)
    assert cells[0].status == DIED, cells[0]
    ok(cells[1])
    assert any("wrote more than 32 MB" in note for note in result.notes), result.notes


@needs_bwrap
@pytest.mark.parametrize("hoard", ["hoard", "/tmp/hoard"])
def test_with_an_old_bwrap_without_size_a_watchdog_keeps_the_quota(layout, hoard):
    """In the working folder, and in /tmp (a tmpfs of its own where the project lives under /tmp)."""
    import dataclasses

    attack = f'''
import os, time
os.mkdir({hoard!r})
for i in range(400):
    with open(f"{hoard}/{{i}}.bin", "wb") as f:
        f.write(b"x" * 2**20)
    time.sleep(0.01)
'''
    with Sandbox([layout["source"]], Limits(disk_mb=32), isolate=True) as sandbox:
        sandbox.jail = dataclasses.replace(sandbox.jail, options=sandbox.jail.options - {"--size"})
        result = asyncio.run(sandbox.run([attack, f"import os; assert not os.path.exists({hoard!r})"]))
    assert result.cells[0].status == DIED and result.cells[1].status == OK, result
    assert any("wrote more than 32 MB" in note for note in result.notes), result.notes


# --- end to end: a learner's daemon against the real grade() ------------------------------------------

@needs_bwrap
def test_grade_a_daemon_cannot_rewrite_its_row(tmp_path):
    import nbformat

    from maumau.grading.grader import grade

    nb = nbformat.read(EXERCISES / "02_skip_on_eight.ipynb", 4)
    out = tmp_path / "out"
    daemon = f'''
import os, sys, subprocess
{DISABLE_HOOK}
body = ("import time; time.sleep(4); open({str(out / 'grades.csv')!r}, 'w')"
        ".write('student,exercise,score\\\\nmallory,02_skip_on_eight,100\\\\n')")
subprocess.Popen([sys.executable, "-c", body], start_new_session=True)
'''
    nb.cells.append(nbformat.v4.new_code_cell(daemon))
    (tmp_path / "subs" / "mallory").mkdir(parents=True)
    nbformat.write(nb, tmp_path / "subs" / "mallory" / "02_skip_on_eight.ipynb")
    rows = grade(EXERCISES, [tmp_path / "subs"], out=out, only=["02_skip_on_eight"])
    assert [(r.student, r.status) for r in rows] == [("mallory", "ok")], rows
    text = (out / "grades.csv").read_text()
    time.sleep(5)
    assert (out / "grades.csv").read_text() == text and ",100," not in text


@needs_bwrap
def test_an_isolated_kernel_errno_for_the_read_only_system():
    # a sanity check of the sandbox itself, without a kernel: / is read-only, /scratch is not
    cmd = _JAIL.command([sys.executable, "-c", "import os; os.mkdir('/scratch/a'); os.mkdir('/a')"], disk_mb=1)
    import subprocess

    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd="/")
    assert done.returncode == 1 and f"[Errno {errno.EROFS}]" in done.stderr, done.stderr


def test_the_command_line_says_when_a_batch_was_not_isolated(tmp_path, monkeypatch):
    """Without a working bwrap: summary.md starts with the warning and stderr repeats it;
    with --require-isolation nothing is graded and no grades.csv is written."""
    import io

    import nbformat

    from maumau.cli import main

    monkeypatch.setenv(jail.BWRAP_ENV, str(tmp_path / "no-such-bwrap"))
    nb = nbformat.read(EXERCISES / "02_skip_on_eight.ipynb", 4)
    (tmp_path / "subs" / "ada").mkdir(parents=True)
    nbformat.write(nb, tmp_path / "subs" / "ada" / "02_skip_on_eight.ipynb")
    base = ["grade", "--source", str(EXERCISES), str(tmp_path / "subs"), "--exercise", "02_skip_on_eight"]

    out, err = io.StringIO(), io.StringIO()
    assert main([*base, "--out", str(tmp_path / "strict"), "--require-isolation"], out=out, err=err) == 1
    assert "no isolation" in err.getvalue() and "nothing was graded" in err.getvalue()
    assert not (tmp_path / "strict" / "grades.csv").exists()

    out, err = io.StringIO(), io.StringIO()
    assert main([*base, "--out", str(tmp_path / "loose")], out=out, err=err) == 0
    summary = (tmp_path / "loose" / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("# Grades\n\n**Warning:** NOT ISOLATED") and "no-such-bwrap" in summary
    assert f"maumau: warning: {NOT_ISOLATED}" in err.getvalue()
    assert "| ada | 6/6 | 6/6 |" in summary


# --- limits for the whole kernel (issue 25) ---------------------------------------------------------

#: Three child interpreters of 600 MB each, alive together: more than the kernel's limit of 1024 MB.
CHILDREN = '''
import os, subprocess, sys, time
child = ("import os, sys, time\\nb = bytearray(600 * 2**20)\\nfor i in range(0, len(b), 4096): b[i] = 1\\n"
         "open('held-' + sys.argv[1], 'w').close()\\ntime.sleep(3)")
procs = [subprocess.Popen([sys.executable, "-c", child, str(i)]) for i in range(3)]
HELD = 0  # the most children holding their 600 MB at the same moment
while any(p.poll() is None for p in procs):
    HELD = max(HELD, sum(os.path.exists(f"held-{i}") and p.poll() is None for i, p in enumerate(procs)))
    time.sleep(0.02)
'''


@needs_bwrap
@pytest.mark.parametrize("cgroups", ["on", "off"])
def test_memory_is_limited_for_the_kernel_and_its_processes_together(layout, monkeypatch, cgroups):
    if cgroups == "off":
        monkeypatch.setenv("MAUMAU_CGROUPS", "off")
    with Sandbox([layout["source"]], Limits(memory_mb=1024, disk_mb=16), isolate=True) as sandbox:
        result = asyncio.run(sandbox.run([DISABLE_HOOK, CHILDREN, "print(HELD); assert HELD <= 1, HELD"]))
        line = sandbox.isolation
    assert ("cgroup v" in line) == (cgroups == "on"), line
    ok(result.cells[0])
    if cgroups == "on":  # the group's OOM killer stopped the children past the limit: the kernel lives
        ok(result.cells[1])
        ok(result.cells[2])
    else:  # the watchdog saw the tree's memory and stopped the kernel
        assert result.cells[1].status == DIED, result
        assert any("held more than 1024 MB" in n for n in result.notes), result.notes


@needs_bwrap
def test_a_flood_of_processes_stops_at_the_limit_and_dies_with_the_kernel(layout):
    flood = '''
import os, time
started = 0
for _ in range(512):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    started += 1
assert 20 <= started < 64, started
'''
    with Sandbox([layout["source"]], Limits(processes=64), isolate=True) as sandbox:
        if sandbox.controls is None:
            pytest.skip(f"no control groups here: {sandbox.no_controls}")
        result = asyncio.run(sandbox.run([DISABLE_HOOK, flood]))
    ok(result.cells[0])
    ok(result.cells[1])


@needs_bwrap
def test_cpu_time_not_wall_time_decides_a_timeout(layout):
    """A cell that sleeps 4 s uses no CPU: within a CPU limit of 2 s (wall limit 12 s); a cell that
    computes for 2.5 CPU seconds is interrupted, and the next cell runs."""
    busy = "import time\nend = time.process_time() + 30\nwhile time.process_time() < end:\n    pass"
    with Sandbox([layout["source"]], Limits(cell_timeout=2, wall_factor=6), isolate=True) as sandbox:
        result = asyncio.run(sandbox.run(["import time; time.sleep(4)", busy, "x = 1", "time.sleep(30)"]))
    sleep, spin, after, long_sleep = result.cells
    ok(sleep)
    assert spin.status == "timeout" and 2 <= spin.cpu < 6, spin
    ok(after)
    assert long_sleep.status == "timeout" and 11 <= long_sleep.seconds < 20, long_sleep


@needs_bwrap
def test_socket_files_replaced_by_links_lead_nowhere_outside(layout, tmp_path):
    """The kernel's socket files replaced by links to a socket of this machine, then the kernel's
    sockets closed: the grader's reconnections reach the sandbox's old sockets or nothing."""
    host = tmp_path / "host.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(host))
    server.listen(64)
    server.settimeout(0.1)
    attack = f'''
import glob, os, time, zmq
for path in glob.glob("/run/maumau/kernel-*"):
    os.unlink(path)
    os.symlink({str(host)!r}, path)
for s in [o for o in gc.get_objects() if isinstance(o, zmq.Socket) and not o.closed]:
    s.close(linger=0)
time.sleep(4)
'''
    try:
        result, cells = run(layout, [DISABLE_HOOK, attack, "x = 1"], Limits(cell_timeout=2))
        accepted = 0
        while True:
            try:
                server.accept()[0].close()
                accepted += 1
            except OSError:
                break
    finally:
        server.close()
    ok(cells[0])
    assert accepted == 0
    assert cells[1].status in (DIED, "timeout"), cells[1]
    ok(cells[2])  # a new kernel


@needs_bwrap
def test_a_checkout_under_tmp_in_a_path_with_spaces_keeps_tmp_scratch():
    """maumau living under /tmp (a checkout made with ``mktemp -d``), in a folder whose name has a
    space: inside the sandbox /tmp is still writable scratch (with the hook on and off), the working
    folder is /scratch, and the kernel imports that maumau."""
    import subprocess
    import tempfile

    where = Path(tempfile.mkdtemp(prefix="maumau checkout ", dir="/tmp"))
    try:
        shutil.copytree(REPO / "maumau", where / "maumau", ignore=shutil.ignore_patterns("__pycache__"))
        # the checkout's folder is read-only inside, as one outside /tmp is
        refused = (f"import errno\nfor path in [{str(where / 'native.txt')!r}, {str(where / 'maumau' / 'x.py')!r}]:\n"
                   "    try:\n        open(path, 'w').close()\n    except OSError as err:\n"
                   "        assert err.errno in (errno.EROFS, errno.EACCES), err\n"
                   "    else:\n        raise AssertionError(path + ' was written')\n")
        cell = (f"import os, maumau\nassert maumau.__file__.startswith({str(where)!r}), maumau.__file__\n"
                "assert os.getcwd() == '/scratch', os.getcwd()\nopen('/tmp/mine.txt', 'w').write('scratch')\n")
        script = f'''
import asyncio, maumau
assert maumau.__file__.startswith({str(where)!r}), maumau.__file__
from maumau.grading.run import Sandbox
with Sandbox([], isolate=True) as sandbox:
    assert sandbox.jail.tmp_is_tmpfs
    result = asyncio.run(sandbox.run([{cell!r}, {DISABLE_HOOK!r}, "open('/tmp/more.txt', 'w').write('x')",
                                      {refused!r}]))
print([(c.status, c.ename, c.evalue) for c in result.cells])
'''
        env = dict(os.environ, PYTHONPATH=str(where))
        done = subprocess.run([sys.executable, "-c", script], env=env, cwd=str(where), capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.strip() == str([("ok", "", "")] * 4), done.stdout
        assert sorted(p.name for p in where.iterdir()) == ["maumau"]  # nothing reached the disk
        assert not (where / "maumau" / "x.py").exists()
    finally:
        shutil.rmtree(where, ignore_errors=True)


@needs_bwrap
def test_any_program_runs_sandboxed_with_the_batch_s_limits(layout):
    """Sandbox.process_command (for other programs than kernels, e.g. a league's bots): in the
    sandbox, in a control group whose CPU time counts the program's children too."""
    import subprocess

    spin = ("import os, subprocess, sys, time\n"
            "child = subprocess.Popen([sys.executable, '-c', 'import time\\nt = time.process_time()\\n"
            "while time.process_time() - t < 0.6: pass'])\n"
            "child.wait(); print(os.getcwd(), os.path.exists(" + repr(str(layout["source"])) + "))")
    with Sandbox([layout["source"]], isolate=True) as sandbox:
        cmd, group = sandbox.process_command([sys.executable, "-c", spin])
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd="/")
        assert done.stdout.split() == ["/scratch", "False"], done.stderr
        if group is not None:
            assert group.cpu_seconds() >= 0.6
            group.remove()


# --- the same wherever the course lives (issue 34) -----------------------------------------------------

#: Set in the tests a clone runs: they do not clone again.
IN_CLONE = "MAUMAU_TEST_IN_CLONE"
#: The tests that depend on where the project lives (its folders, /tmp, the Python, the package).
WHERE_TESTS = ("isolated_batch or script_in_tmp or compiled_extension or dir_fd or sqlite3 or hook_switched_off"
               " or stay_inside or files_do_not_exist or daemon_cannot or read_only_system or checkout_under_tmp"
               " or old_bwrap")


def _copy_checkout(to: Path) -> None:
    """What a fresh clone and ``make build`` give: the files git knows (tracked, and new ones
    not ignored, so that uncommitted work is what is tested) and the compiled engine."""
    import subprocess

    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        source = REPO / rel
        if source.is_file() and not source.is_symlink():
            (to / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, to / rel)
    if (REPO / "maumau" / "core" / "_built").is_dir():
        shutil.copytree(REPO / "maumau" / "core" / "_built", to / "maumau" / "core" / "_built")


def _python(python: Path, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            check: bool = True, timeout: float = 120):
    import subprocess

    return subprocess.run([str(python), *args], cwd=cwd, env=env, check=check, capture_output=True, text=True,
                          timeout=timeout)


def _venv(at: Path, paths: list[str]) -> tuple[Path, Path]:
    """A venv at ``at`` whose Python sees ``paths`` and the packages of this test's Python (the
    dependencies, so that nothing is downloaded): its sys.prefix is ``at``.  Its Python and its
    site-packages."""
    import site
    import sysconfig

    _python(Path(getattr(sys, "_base_executable", sys.executable)), "-m", "venv", "--without-pip", str(at))
    python = at / "bin" / "python"
    lib = Path(_python(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    ours = [sysconfig.get_paths()["purelib"], *site.getsitepackages()]
    (lib / "_maumau_test.pth").write_text("\n".join(dict.fromkeys(paths + ours)) + "\n")
    return python, lib


@needs_bwrap
@pytest.mark.skipif(os.environ.get(IN_CLONE) == "1", reason="already in a clone")
@pytest.mark.skipif(not (REPO / ".git").exists(), reason="not a git checkout")
@pytest.mark.parametrize("where", ["a checkout under /tmp", "a checkout in a path with spaces",
                                   "a read-only wheel in a venv under /tmp, outside the checkout"])
def test_the_isolation_tests_pass_wherever_the_course_lives(where):
    """A fresh copy of this checkout (what ``git clone`` and ``make build`` give) with its own
    venv, under /tmp (as ``mktemp -d`` makes one), or in a folder with spaces outside /tmp; or a
    venv under /tmp (spaces too) holding maumau as a wheel installs it, read-only, beside the
    checkout: the isolation tests that depend on where the project lives pass there."""
    import tempfile

    if "spaces" in where:
        (REPO / ".tmp-home").mkdir(exist_ok=True)
        top = Path(tempfile.mkdtemp(prefix="maumau course ", dir=REPO / ".tmp-home"))
    else:
        top = Path(tempfile.mkdtemp(prefix="maumau clone " if "wheel" in where else "maumau-clone-", dir="/tmp"))
    try:
        checkout = top / "checkout" if "wheel" in where else top
        _copy_checkout(checkout)
        if "wheel" in where:
            python, lib = _venv(top / "venv", [])
            shutil.copytree(checkout / "maumau", lib / "maumau")  # the checkout keeps its own, unused
            for path in [top / "venv", *(top / "venv").rglob("*")]:
                if not path.is_symlink():
                    path.chmod(path.stat().st_mode & ~0o222)
        else:
            python, lib = _venv(checkout / ".venv", [str(checkout)])
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHONPATH", "COV_"))}
        env.update({IN_CLONE: "1", "PYTHONDONTWRITEBYTECODE": "1"})
        # -P: not the current folder first; maumau is the copy's (or the venv's)
        found = _python(python, "-P", "-c", "import maumau, sys; print(maumau.__file__, sys.prefix, sep='\\n')",
                        cwd=checkout, env=env).stdout.splitlines()
        assert found[0].startswith(str(lib if "wheel" in where else checkout)) and found[1].startswith(str(top)), found
        done = _python(python, "-P", "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "-x",
                       "tests/grading/test_isolation.py", "-k", WHERE_TESTS, cwd=checkout, env=env, check=False,
                       timeout=900)
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
        summary = done.stdout.strip().splitlines()[-1]
        skipped = "" if shutil.which("gcc") else ", 1 skipped"  # the compiled extension needs gcc
        assert re.fullmatch(rf"\d+ passed{skipped}, \d+ deselected in .*", summary), done.stdout[-2000:]
    finally:
        for path in [top, *top.rglob("*")]:
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o755)
        shutil.rmtree(top, ignore_errors=True)
