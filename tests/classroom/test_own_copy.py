"""A learner fetches their own copy of an exercise from the class server (issue 38 item 3): with the
course key its test cells have the positions drawn for them, the ones they are graded on; as the
learner the server knows them (their personal code), never a name they type; a refusal changes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("websockets")

from maumau import classroom  # noqa: E402
from maumau.classroom import ClassroomError, Course, fetch_exercise  # noqa: E402
from maumau.classroom.identity import WRONG_CODE, codes_answer  # noqa: E402
from maumau.grading.releaser import release  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
EX = "02_skip_on_eight"
KEY = bytes(range(32))


def _serve(tmp_path: Path, key: bytes | None) -> classroom.Server:
    source = tmp_path / "source"
    for lang in ("", "de", "hu"):
        (source / lang).mkdir(parents=True, exist_ok=True)
        shutil.copy(EXERCISES / lang / f"{EX}.ipynb", source / lang)
    (tmp_path / "roster.csv").write_text("learner,name,id\nanna,Anna A,11\nben,Ben B,12\n", encoding="utf-8")
    server = classroom.Server(db=tmp_path / "class.sqlite", port=0, teacher_token="t-secret", computer_delay=0,
                              course=Course(source, variants=key), roster=tmp_path / "roster.csv")
    return server.start()


@pytest.fixture
def server(tmp_path):
    server = _serve(tmp_path, KEY)
    try:
        yield server
    finally:
        server.stop()


def _codes(server) -> dict[str, str]:
    return {line["learner"]: line["code"] for line in codes_answer(server.roster, None)["codes"]}


def _tests(path: Path) -> list[str]:
    return [c.source for c in nbformat.read(path, 4).cells if c.metadata.get("nbgrader", {}).get("grade")]


def test_each_learner_fetches_their_own_positions_as_released(server, tmp_path):
    codes = _codes(server)
    (tmp_path / "anna").mkdir()
    (tmp_path / "ben").mkdir()
    anna = fetch_exercise(server.url, codes["anna"], EX, folder=tmp_path / "anna")
    ben = fetch_exercise(server.url, codes["ben"], EX, folder=tmp_path / "ben", lang="de")
    release(tmp_path / "source", tmp_path / "student", variants=KEY, learners=["anna", "ben"])
    assert anna.read_bytes() == (tmp_path / "student" / "learners" / "anna" / f"{EX}.ipynb").read_bytes()
    assert ben.read_bytes() == (tmp_path / "student" / "learners" / "ben" / "de" / f"{EX}.ipynb").read_bytes()
    assert nbformat.read(anna, 4).metadata["maumau"]["variant"]["learner"] == "anna"
    assert _tests(anna) != _tests(tmp_path / "student" / "learners" / "anna" / "de" / f"{EX}.ipynb")  # German
    assert _tests(tmp_path / "student" / "learners" / "ben" / f"{EX}.ipynb") != _tests(anna)


def test_a_refused_fetch_says_why_and_writes_nothing(server, tmp_path):
    codes = _codes(server)
    with pytest.raises(ClassroomError, match=WRONG_CODE[:40]):
        fetch_exercise(server.url, "AAAA-BBBB-CCCC-DDDD", EX, folder=tmp_path)
    with pytest.raises(ClassroomError, match="there is no exercise '99_nothing'"):
        fetch_exercise(server.url, codes["anna"], "99_nothing", folder=tmp_path)
    with pytest.raises(ClassroomError, match="has no version in 'xx'"):
        fetch_exercise(server.url, codes["anna"], EX, folder=tmp_path, lang="xx")
    assert not (tmp_path / f"{EX}.ipynb").exists()
    (tmp_path / f"{EX}.ipynb").write_text("my work", encoding="utf-8")
    with pytest.raises(ClassroomError, match="exists already: rename it first"):
        fetch_exercise(server.url, codes["anna"], EX, folder=tmp_path)
    assert (tmp_path / f"{EX}.ipynb").read_text(encoding="utf-8") == "my work"


def test_without_the_course_key_everyone_fetches_the_common_version(tmp_path):
    server = _serve(tmp_path, None)
    try:
        path = fetch_exercise(server.url, _codes(server)["anna"], EX, folder=tmp_path)
    finally:
        server.stop()
    release(tmp_path / "source", tmp_path / "student")
    assert path.read_bytes() == (tmp_path / "student" / f"{EX}.ipynb").read_bytes()
