"""``maumau course DIR``: the course as a folder of the teacher's own (maumau/course/folder.py).

Each test writes a real course (from the checkout: ``course_source()``) into a folder whose path
holds a space, and runs the command line as a teacher would.  A newer maumau is played by editing
the folder and its manifest together, as an older maumau would have left them.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from pathlib import Path

import pytest

from maumau.cli import main
from maumau.course.folder import MANIFEST
from maumau.course.package import course_files, course_source

MAUMAU_ENV = ("MAUMAU_LANG", "LC_ALL", "LANG")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def manifest(folder: Path) -> dict:
    return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))


def as_an_older_maumau_left_it(folder: Path, name: str, content: bytes) -> None:
    """The file as an older maumau wrote it: content and manifest agree."""
    (folder / name).write_bytes(content)
    record = manifest(folder)
    record["files"][name] = hashlib.sha256(content).hexdigest()
    (folder / MANIFEST).write_text(json.dumps(record), encoding="utf-8")


@pytest.fixture(autouse=True)
def no_language_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in MAUMAU_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def german(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A German course as maumau writes it, to copy for each test (writing one takes seconds)."""
    folder = tmp_path_factory.mktemp("course") / "Kurs 7b"
    code, out, err = run("course", str(folder), "--lang", "de")
    assert code == 0, err
    return snapshot(folder)


@pytest.fixture
def course(tmp_path: Path, german: dict[str, bytes]) -> Path:
    folder = tmp_path / "Kurs 7b"
    for name, data in german.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


# --- the first run ----------------------------------------------------------------------------------------

def test_a_german_course_keeps_the_repository_layout(course: Path) -> None:
    source = course_source()
    names = set(snapshot(course))
    notebooks = {n for n in course_files(source) if n.startswith("notebooks/de/")}
    exercises = {n for n in course_files(source) if re.fullmatch(r"exercises/(de/)?[^/]+", n)}
    assert notebooks and len(exercises) == 2 * len([n for n in names if re.fullmatch(r"exercises/[^/]+", n)])
    assert notebooks | exercises | {"RULES.md", "README.md", MANIFEST} <= names
    assert not [n for n in names if re.fullmatch(r"notebooks/[^/]+|notebooks/hu/.*|exercises/hu/.*", n)]
    # the student versions of both languages, without the solutions
    assert {n.replace("exercises/", "student/") for n in exercises} == {n for n in names if n.startswith("student/")}
    assert "### BEGIN SOLUTION" in (course / "exercises/01_matching.ipynb").read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in (course / "student/de/01_matching.ipynb").read_text(encoding="utf-8")
    assert (course / "RULES.md").read_bytes() == (source / "RULES.md").read_bytes()
    # the manifest holds every file written, with its hash
    record = manifest(course)
    assert record["language"] == "de" and set(record["files"]) == names - {MANIFEST}
    assert all(record["files"][n] == sha(course / n) for n in record["files"])


def test_the_readme_tells_the_teacher_in_the_course_language(course: Path) -> None:
    readme = (course / "README.md").read_text(encoding="utf-8")
    assert "Der Mau-Mau-Kurs" in readme and "notebooks/de/" in readme and "exercises/de/" in readme
    for command in ("maumau lab .", "maumau release exercises --out student",
                    "maumau grade --source exercises handins --out grades --lang de", "maumau course . --update"):
        assert command in readme


def test_every_relative_path_of_the_notebooks_holds_in_the_course_folder(course: Path) -> None:
    """Notebook 08 reads ../../exercises/de, notebook 09 shows ../../docs/images/classroom-seat.png."""
    found = set()
    for notebook in course.glob("notebooks/**/*.ipynb"):
        for target in re.findall(r"""(?:\]\(|Path\\?\(\\?")((?:\.\./)+[^)"\\]+)""", notebook.read_text("utf-8")):
            found.add(target)
            assert (notebook.parent / target).exists(), f"{notebook.name}: {target}"
    assert {"../../exercises/de", "../../docs/images/classroom-seat.png"} <= found


def test_the_command_says_what_it_wrote_and_how_to_open_it(tmp_path: Path) -> None:
    code, out, err = run("course", str(tmp_path / "my course"), "--lang", "hu")
    assert (code, err) == (0, "")
    assert "maumau lab " + repr(str(tmp_path / "my course")) in out and "magyar" in out
    assert (tmp_path / "my course/notebooks/hu/01_start_here.ipynb").is_file()


def test_without_lang_a_new_course_takes_the_teachers_language(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "de_AT.UTF-8")
    assert run("course", str(tmp_path / "a"))[0] == 0
    assert manifest(tmp_path / "a")["language"] == "de"
    monkeypatch.setenv("MAUMAU_LANG", "hu")
    assert run("course", str(tmp_path / "b"))[0] == 0
    assert manifest(tmp_path / "b")["language"] == "hu"


# --- a second run -----------------------------------------------------------------------------------------

def test_a_second_run_changes_nothing(course: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot(course)
    monkeypatch.setenv("MAUMAU_LANG", "hu")  # an existing course keeps its own language
    code, out, err = run("course", str(course))
    assert (code, err) == (0, "") and "auf dem Stand" in out
    assert snapshot(course) == before


def test_a_teachers_change_stays_while_the_package_has_nothing_new_there(course: Path, german) -> None:
    """The teacher edits an exercise and releases it again, as the README says: the next run keeps
    both, and the student versions follow the teacher's exercise."""
    mine = course / "exercises/de/02_skip_on_eight.ipynb"
    mine.write_text(mine.read_text(encoding="utf-8").replace("Aufgabe", "AUFGABE"), encoding="utf-8")
    assert run("release", str(course / "exercises"), "--out", str(course / "student"))[0] == 0
    before = snapshot(course)
    del before[MANIFEST]  # it records the student versions released from the teacher's exercise
    code, out, err = run("course", str(course))
    assert (code, err) == (0, "") and "auf dem Stand" in out
    assert {k: v for k, v in snapshot(course).items() if k != MANIFEST} == before
    assert all(sha(course / name) == digest for name, digest in manifest(course)["files"].items()
               if not name.startswith("exercises/de/02"))
    # edited but not released yet: the student version is written from the teacher's exercise
    (course / "student/de/02_skip_on_eight.ipynb").write_bytes(german["student/de/02_skip_on_eight.ipynb"])
    as_an_older_maumau_left_it(course, "student/de/02_skip_on_eight.ipynb",
                               german["student/de/02_skip_on_eight.ipynb"])
    code, out, err = run("course", str(course))
    assert (code, err) == (0, "") and "student/de/02_skip_on_eight.ipynb" in out
    assert {k: v for k, v in snapshot(course).items() if k != MANIFEST} == before


def test_an_exercise_the_teacher_broke_is_refused_with_nothing_written(course: Path) -> None:
    mine = course / "exercises/02_skip_on_eight.ipynb"
    mine.write_text(mine.read_text(encoding="utf-8").replace("### END SOLUTION", "# end"), encoding="utf-8")
    before = snapshot(course)
    code, out, err = run("course", str(course))
    assert code == 1 and "02_skip_on_eight" in one_sentence(err)
    assert snapshot(course) == before


def teacher_and_package_both_changed(course: Path, name: str) -> bytes:
    """An older maumau wrote ``name``; the teacher changed it since; this maumau has another version."""
    package = (course / name).read_bytes()
    as_an_older_maumau_left_it(course, name, package.replace(b"Mau", b"Mao"))
    (course / name).write_bytes(package.replace(b"Mau", b"MAU"))
    return package


def test_a_teachers_change_is_never_overwritten_without_update(course: Path) -> None:
    teacher_and_package_both_changed(course, "notebooks/de/01_start_here.ipynb")
    as_an_older_maumau_left_it(course, "exercises/de/02_skip_on_eight.ipynb", b"{}")  # the package's to update
    before = snapshot(course)
    code, out, err = run("course", str(course))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "notebooks/de/01_start_here.ipynb" in err and "--update" in err
    assert snapshot(course) == before  # nothing written: not even the package's own update


def test_update_replaces_the_teachers_change_and_keeps_it_in_a_backup(course: Path) -> None:
    mine = course / "notebooks/de/01_start_here.ipynb"
    package = teacher_and_package_both_changed(course, "notebooks/de/01_start_here.ipynb")
    code, out, err = run("course", str(course), "--update")
    assert (code, err) == (0, "")
    backups = list((course / "backup").glob("*/notebooks/de/01_start_here.ipynb"))
    assert len(backups) == 1 and backups[0].read_bytes() == package.replace(b"Mau", b"MAU")
    assert mine.read_bytes() == package
    assert "notebooks/de/01_start_here.ipynb" in out and str(backups[0].parents[2].name) in out
    assert run("course", str(course))[0] == 0  # the backup is the teacher's folder: no conflict after


def test_what_the_package_changed_and_the_teacher_did_not_is_updated(course: Path) -> None:
    name = "exercises/02_skip_on_eight.ipynb"
    package = (course / name).read_bytes()
    as_an_older_maumau_left_it(course, name, b'{"old": 1}')
    code, out, err = run("course", str(course))
    assert (code, err) == (0, "") and name in out
    assert (course / name).read_bytes() == package
    assert manifest(course)["files"][name] == hashlib.sha256(package).hexdigest()


def test_a_file_the_package_dropped_goes_unless_the_teacher_changed_it(course: Path) -> None:
    as_an_older_maumau_left_it(course, "notebooks/de/99_old.ipynb", b"{}")
    as_an_older_maumau_left_it(course, "notebooks/de/98_old.ipynb", b"{}")
    (course / "notebooks/de/98_old.ipynb").write_bytes(b'{"mine": 1}')
    code, out, err = run("course", str(course))
    assert (code, err) == (0, "")
    assert not (course / "notebooks/de/99_old.ipynb").exists()
    assert (course / "notebooks/de/98_old.ipynb").read_bytes() == b'{"mine": 1}'
    assert "99_old" in out and "98_old" in out
    assert "notebooks/de/98_old.ipynb" not in manifest(course)["files"]


def test_another_language_replaces_the_packages_files_of_the_old_one(course: Path) -> None:
    code, out, err = run("course", str(course), "--lang", "hu")
    assert (code, err) == (0, "")
    assert not (course / "notebooks/de").exists() and not (course / "exercises/de").exists()  # no empty folders
    assert (course / "notebooks/hu/01_start_here.ipynb").is_file() and (course / "student/hu").is_dir()
    assert manifest(course)["language"] == "hu" and "A Mau-Mau-kurzus" in (course / "README.md").read_text("utf-8")
    # 39 files each way: counted per folder, in Hungarian, not named one by one
    assert "notebooks/hu/ (11), exercises/hu/ (14), student/hu/ (14)" in out
    assert "notebooks/de/ (11)" in out and "01_start_here" not in out


# --- folders it refuses, in one sentence, with nothing changed ---------------------------------------------

def one_sentence(err: str) -> str:
    assert err.startswith("maumau: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_file_is_no_course_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    code, out, err = run("course", str(tmp_path / "notes.txt"))
    assert code == 1 and "is a file" in one_sentence(err)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_a_folder_of_other_files_is_refused_unless_update(tmp_path: Path) -> None:
    folder = tmp_path / "my files"
    folder.mkdir()
    (folder / "README.md").write_text("my own readme")
    (folder / "marks.csv").write_text("a,1")
    code, out, err = run("course", str(folder))
    assert code == 1 and "--update" in one_sentence(err) and MANIFEST in err
    assert snapshot(folder) == {"README.md": b"my own readme", "marks.csv": b"a,1"}
    code, out, err = run("course", str(folder), "--update", "--lang", "en")
    assert (code, err) == (0, "")
    assert (folder / "marks.csv").read_text() == "a,1"
    assert [p.read_text() for p in folder.glob("backup/*/README.md")] == ["my own readme"]
    assert "README.md" in out and "backup" in out  # it says where the teacher's file went
    assert (folder / "notebooks/01_start_here.ipynb").is_file()


@pytest.mark.parametrize("damage", ["{not json", '{"files": {"../outside.txt": "00"}, "language": "de"}',
                                    '{"files": {"/etc/passwd": "00"}, "language": "de"}', '[]'])
def test_a_damaged_manifest_is_refused_and_nothing_outside_is_touched(course: Path, damage: str) -> None:
    outside = course.parent / "outside.txt"
    outside.write_text("keep me")
    (course / MANIFEST).write_text(damage)
    before = snapshot(course)
    code, out, err = run("course", str(course), "--update")
    assert code == 1 and MANIFEST in one_sentence(err)
    assert snapshot(course) == before and outside.read_text() == "keep me"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_a_folder_the_teacher_may_not_write(tmp_path: Path) -> None:
    tmp_path.chmod(0o555)
    try:
        code, out, err = run("course", str(tmp_path / "course"))
    finally:
        tmp_path.chmod(0o755)
    assert code == 1 and "not writable" in one_sentence(err)


# --- maumau lab without a course -----------------------------------------------------------------------------

def test_lab_outside_a_course_says_to_write_one_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("lab")
    assert code == 1 and "maumau course ." in one_sentence(err)
    code, out, err = run("lab", str(tmp_path / "no such"))
    assert code == 1 and "maumau course" in one_sentence(err)


# --- a learner's folder (maumau course DIR --student: a learner's home on a hub) --------------------------

def secret_lines(source: Path) -> set[str]:
    """The lines of the instructor exercises' solutions and hidden tests (long enough to be telling)
    that neither an exercise outside its blocks (a visible check) nor a course notebook shows."""
    inside_lines: set[str] = set()
    shown: set[str] = set()
    for path in sorted((source / "exercises").glob("*.ipynb")) + sorted((source / "notebooks").glob("*.ipynb")):
        inside = False
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for line in "".join(cell["source"]).splitlines():
                if "### BEGIN SOLUTION" in line or "### BEGIN HIDDEN TESTS" in line:
                    inside = True
                elif "### END SOLUTION" in line or "### END HIDDEN TESTS" in line:
                    inside = False
                elif len(line.strip()) > 30:
                    (inside_lines if inside else shown).add(line.strip())
    return inside_lines - shown


def test_a_learners_folder_holds_no_solution_and_no_hidden_test(tmp_path: Path, german: dict[str, bytes]) -> None:
    folder = tmp_path / "home of anna" / "maumau"
    code, out, err = run("course", str(folder), "--student", "--lang", "hu")
    assert (code, err) == (0, "")
    names = set(snapshot(folder))
    assert not [n for n in names if n.startswith(("exercises/", "notebooks/08_", "notebooks/hu/08_"))]
    assert "student/hu/02_skip_on_eight.ipynb" in names and "notebooks/hu/01_start_here.ipynb" in names
    assert not [n for n in names if re.fullmatch(r"student/[^/]+\.ipynb|student/de/.*|notebooks/[^/]+", n)]
    secrets = secret_lines(course_source())
    teachers = "\n".join(data.decode("utf-8", errors="replace") for data in german.values())
    assert len([line for line in secrets if line in teachers]) > 30  # the check finds real solutions
    text = "\n".join((folder / n).read_text(encoding="utf-8", errors="replace") for n in names)
    assert not [line for line in secrets if line in text]
    assert manifest(folder)["for"] == "learners"
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "student/hu/" in readme and "maumau grade" not in readme and "megoldás" not in readme


def test_a_learners_folder_stays_one_and_a_teacher_can_make_it_a_teachers(tmp_path: Path) -> None:
    folder = tmp_path / "maumau"
    assert run("course", str(folder), "--student")[0] == 0
    code, out, err = run("course", str(folder))  # the hub's next start: no flag, the folder's own kind
    assert (code, err) == (0, "") and not (folder / "exercises").exists()
    assert "up to date" in out
    code, out, err = run("course", str(folder), "--teacher")
    assert code == 0 and (folder / "exercises/01_matching.ipynb").is_file() and manifest(folder)["for"] == "teachers"


def test_a_teachers_folder_is_one_by_default(course: Path) -> None:
    assert manifest(course)["for"] == "teachers" and (course / "exercises/01_matching.ipynb").is_file()
