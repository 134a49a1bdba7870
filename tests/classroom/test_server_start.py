"""A class server that cannot start says why at once (``Server.start()``, ``maumau serve``): the port
in use, an address that is not this machine's, a database that cannot be opened."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from maumau import classroom  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: TEST-NET-1 (RFC 5737): documentation only, never an address of this machine; binding to it fails at
#: once and sends nothing.
NOT_HERE = "192.0.2.1"


@pytest.fixture
def taken() -> Iterator[int]:
    """A port another program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def test_a_port_in_use_is_said_at_once(tmp_path: Path, taken: int) -> None:
    server = classroom.Server(db=tmp_path / "class.sqlite", port=taken)
    began = time.monotonic()
    with pytest.raises(classroom.ServerError, match=f"^port {taken} on 127.0.0.1 is in use .*choose another port"):
        server.start()
    assert time.monotonic() - began < 3  # not the 10 s of "did not start"
    again = classroom.Server(db=tmp_path / "class.sqlite", port=0).start()  # the database was let go, unharmed
    try:
        assert again.port != taken
    finally:
        again.stop()


def test_an_address_not_of_this_machine_is_said_at_once(tmp_path: Path) -> None:
    began = time.monotonic()
    with pytest.raises(classroom.ServerError, match=f"^cannot listen on {NOT_HERE}: it is not an address of this "
                                                    "machine"):
        classroom.Server(db=":memory:", host=NOT_HERE, port=0).start()
    assert time.monotonic() - began < 3


def test_a_database_that_cannot_be_opened_is_said_at_once(tmp_path: Path) -> None:
    with pytest.raises(classroom.ServerError, match="^cannot open the database .*no-such-folder"):
        classroom.Server(db=tmp_path / "no-such-folder" / "class.sqlite")
    (tmp_path / "notes.sqlite").write_text("my notes, not a database\n" * 100)
    with pytest.raises(classroom.ServerError, match="^cannot open the database .*notes.sqlite: file is not a database"):
        classroom.Server(db=tmp_path / "notes.sqlite")
    assert (tmp_path / "notes.sqlite").read_text().startswith("my notes")  # nothing changed


def serve(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "maumau", "serve", *argv], capture_output=True, text=True,
                          cwd=cwd, timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                                    "MAUMAU_PURE_PYTHON": "1", "MAUMAU_TEACHER_TOKEN": "t" * 32})


def test_maumau_serve_on_a_port_in_use(tmp_path: Path, taken: int) -> None:
    done = serve("--port", str(taken), "--db", "class.sqlite", cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"maumau: error: port {taken} on 127.0.0.1 is in use") and \
        done.stderr.count("\n") == 1, done.stderr
    assert done.returncode == 1


def test_maumau_serve_on_an_address_not_of_this_machine(tmp_path: Path) -> None:
    done = serve("--host", NOT_HERE, "--port", "0", cwd=tmp_path)
    assert done.stderr.startswith(f"maumau: error: cannot listen on {NOT_HERE}") and \
        done.stderr.count("\n") == 1, done.stderr
    assert done.returncode == 1


def test_maumau_serve_with_a_database_in_no_folder(tmp_path: Path) -> None:
    done = serve("--db", str(tmp_path / "gone" / "class.sqlite"), cwd=tmp_path)
    assert done.stderr.startswith("maumau: error: cannot open the database") and \
        done.stderr.count("\n") == 1, done.stderr
    assert done.returncode == 1
