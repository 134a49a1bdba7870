"""``maumau lab DIR`` really starts JupyterLab on a course folder, at its first notebook, in its language.

The server runs with --no-browser on a free port; the test asks it for the notebook (the contents
API and the lab's page of it), reads the server's environment (MAUMAU_LANG), and stops it.
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from maumau.cli import main

pytestmark = pytest.mark.slow
TOKEN = "maumau-lab-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"Authorization": f"token {TOKEN}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.fixture
def course(tmp_path: Path) -> Path:
    folder = tmp_path / "Kurs 7b"
    assert main(["course", str(folder), "--lang", "de"], out=io.StringIO(), err=io.StringIO()) == 0
    return folder


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the server's environment in /proc")
def test_lab_opens_the_course_at_its_first_notebook(course: Path, tmp_path: Path) -> None:
    pytest.importorskip("jupyterlab")
    port = free_port()
    env = {**os.environ, "JUPYTER_TOKEN": TOKEN, "MAUMAU_LANG": "en"}  # the course's language wins
    log = (tmp_path / "lab.log").open("wb")
    server = subprocess.Popen([sys.executable, "-m", "maumau", "lab", str(course), "--no-browser",
                               f"--port={port}"], env=env, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (tmp_path / "lab.log").read_text()
            try:
                status, body = get(f"{base}/api/contents/notebooks/de/01_start_here.ipynb?content=0")
                break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "lab.log").read_text()
                time.sleep(0.3)
        assert status == 200 and json.loads(body)["type"] == "notebook"
        status, page = get(f"{base}/lab/tree/notebooks/de/01_start_here.ipynb")
        assert status == 200 and b"JupyterLab" in page
        # exec: the server is the process `maumau lab` started as; the course's language is its own
        environ = Path(f"/proc/{server.pid}/environ").read_bytes().split(b"\0")
        assert b"MAUMAU_LANG=de" in environ
        cmdline = Path(f"/proc/{server.pid}/cmdline").read_bytes().split(b"\0")
        assert b"--LabApp.default_url=/lab/tree/notebooks/de/01_start_here.ipynb" in cmdline
        assert f"--ServerApp.root_dir={course}".encode() in cmdline
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
    assert "in JupyterLab geöffnet" in (tmp_path / "lab.log").read_text(encoding="utf-8")  # said in German
