"""A class server with the LTI tool, and a real LTI platform (lti1p3platform) on loopback."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("lti1p3platform")
pytest.importorskip("tornado")

from .lms import INSTRUCTOR, LEARNER, Platform, User  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EX = "01_matching"


@pytest.fixture
def platform() -> Iterator[Platform]:
    lms = Platform(users={"anna": User("u-17", "Anna Kovács", [LEARNER]),
                          "tom": User("u-3", "Tom Berg", [INSTRUCTOR])})
    yield lms
    lms.close()


@pytest.fixture
def server(tmp_path: Path, platform: Platform) -> Iterator[object]:
    from maumau.classroom import Server

    srv = Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0,
                 lti={"platforms": [platform.registration_entry("lms")]})
    srv.start()
    assert srv.lti is not None
    platform.tool_login = srv.lti.url + "/lti/login"
    platform.tool_launch = srv.lti.url + "/lti/launch"
    platform.tool_jwks = srv.lti.url + "/lti/jwks"
    yield srv
    srv.stop()


@pytest.fixture
def course_server(tmp_path: Path, platform: Platform) -> Iterator[Any]:
    """A class server with a course (one exercise) and the LTI tool registered as "moodle"."""
    from maumau.classroom import Course, Server

    source = tmp_path / "source"
    source.mkdir()
    shutil.copy(REPO / "exercises" / f"{EX}.ipynb", source)
    srv = Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0, course=Course(source),
                 lti={"platforms": [platform.registration_entry("moodle")]})
    srv.start()
    platform.tool_login, platform.tool_launch = srv.lti.url + "/lti/login", srv.lti.url + "/lti/launch"
    platform.tool_jwks = srv.lti.url + "/lti/jwks"
    yield srv
    srv.stop()
