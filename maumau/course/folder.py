"""``maumau course DIR``: the course as a folder of the teacher's own, kept apart from their changes.

A course folder keeps the repository's layout, so the notebooks' relative paths hold
(notebook 08 reads ``../exercises``, its German version ``../../exercises/de``):

    notebooks/[LANG/]   the course in its language
    exercises/          the English instructor notebooks (the grader's source) ...
    exercises/LANG/     ... and their translation, which the grader uses for hand-ins in LANG
    student/[LANG/]     the student versions of both (maumau.grading.releaser.release)
    RULES.md, docs/images/...   the rules, the picture notebook 09 shows
    README.md           for the teacher, in the course's language
    .maumau-course.json the manifest: the version, the language, who it is for, the sha256 of every file

A learner's folder (``student=True``, for a learner's home on a hub) holds only what a learner may
see: the notebooks but the one for teachers (08), the student versions of the exercises in the
course's language, the rules, and a README for the learner; no solution and no hidden test.

The manifest tells the teacher's changes from the package's on the next run.  A file whose
content is still what the manifest says is the package's: a new version may update it, or remove
it when it has no such file any more.  Any other content is the teacher's: it stays as long as
the package has nothing new for it; where the package has (or where a file stood before the
course came), it is never overwritten without ``update``, and with it moves to
``backup/<time>/`` before the package's version takes its place.  The student versions follow the
exercises as they will be (the teacher's edits included), as ``maumau release`` would write them.
Everything is checked and every file prepared before the first one is written.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path, PurePosixPath

from .._version import __version__
from .package import CourseMissing, course_files, course_source

__all__ = ["MANIFEST", "BACKUP", "CourseError", "Manifest", "Plan", "read_manifest", "package_files",
           "plan_course", "write_course", "default_language", "teachers_language", "start_notebook"]

MANIFEST = ".maumau-course.json"
#: The manifest's "for" of a learner's folder (a teacher's says "teachers").
LEARNERS = "learners"
#: The notebook a learner's folder leaves out: it works on the instructor exercises.
FOR_TEACHERS = "08_for_teachers.ipynb"
BACKUP = "backup"
LANGUAGES = ("en", "de", "hu")


class CourseError(Exception):
    """A course that cannot be written or opened: ``key`` names the sentence
    (``maumau.text.locale.course``), ``values`` fill it in."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


@dataclass(frozen=True)
class Manifest:
    version: str
    language: str
    files: dict[str, str]  # path inside the course -> sha256 of what maumau wrote there
    student: bool = False  # a learner's folder: no instructor notebook in it


@dataclass
class Plan:
    """What a run does, decided before anything is written."""

    files: dict[str, bytes]  # every file of the package's course (the new manifest)
    added: list[str] = field(default_factory=list)  # not there yet
    updated: list[str] = field(default_factory=list)  # the package changed it, the teacher did not
    theirs: list[str] = field(default_factory=list)  # the teacher changed it, the package did not: it stays
    changed: list[str] = field(default_factory=list)  # the teacher's content where the package writes
    removed: list[str] = field(default_factory=list)  # the package dropped it, the teacher did not change it
    kept: list[str] = field(default_factory=list)  # the package dropped it, the teacher changed it


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _safe_name(name: object) -> bool:
    """A manifest's path stays inside the course folder (the manifest is a file anyone may edit)."""
    if not isinstance(name, str) or not name or "\\" in name:
        return False
    path = PurePosixPath(name)
    return not path.is_absolute() and ".." not in path.parts and "." not in path.parts


def read_manifest(folder: Path) -> Manifest | None:
    """The course folder's manifest; None where there is none; CourseError where it is damaged."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CourseError("bad_manifest", reason=type(exc).__name__) from None
    files = data.get("files") if isinstance(data, dict) else None
    if not (isinstance(files, dict) and all(_safe_name(k) and isinstance(v, str) for k, v in files.items())
            and data.get("language") in LANGUAGES):
        raise CourseError("bad_manifest", reason="not a manifest of maumau course")
    return Manifest(str(data.get("version", "")), data["language"], files, data.get("for") == LEARNERS)


def default_language(folder: Path, environ: Mapping[str, str]) -> str:
    """The language of a run without ``--lang``: the course folder's own, else the teacher's
    (``MAUMAU_LANG``, else the locale: ``LC_ALL``, ``LANG``, as ``make lab`` reads it), else English."""
    manifest = read_manifest(folder) if folder.is_dir() else None
    return manifest.language if manifest is not None else teachers_language(environ)


def teachers_language(environ: Mapping[str, str]) -> str:
    """``MAUMAU_LANG``, else the locale's language (``LC_ALL``, ``LANG``) where the course has it, else English."""
    from ..text.i18n import course_language_from

    wanted = environ.get("MAUMAU_LANG") or environ.get("LC_ALL") or environ.get("LANG") or ""
    return course_language_from({"MAUMAU_LANG": wanted})


def start_notebook(language: str) -> str:
    """The course's first notebook, as a path inside the course folder."""
    return "notebooks/01_start_here.ipynb" if language == "en" else f"notebooks/{language}/01_start_here.ipynb"


# --- what the package's course is, in one language ---------------------------------------------------

def _in_language(name: str, language: str) -> bool:
    """The course folder holds the notebooks of its language, the English exercises and their
    translation into its language, and every other file."""
    parts = name.split("/")
    if parts[0] == "notebooks":
        return len(parts) == 2 if language == "en" else parts[1] == language
    if parts[0] == "exercises":
        return len(parts) == 2 or parts[1] == language
    return True


def student_versions(exercises: dict[str, bytes]) -> dict[str, bytes]:
    """The student versions of ``exercises`` (``exercises/NAME.ipynb``, ``exercises/de/NAME.ipynb``:
    their contents), released as ``maumau release`` does; CourseError where one cannot be released."""
    from ..grading.exercise import NotebookError
    from ..grading.releaser import release

    with tempfile.TemporaryDirectory(prefix="maumau-course-") as tmp:
        for name, data in exercises.items():
            target = Path(tmp, name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        student = Path(tmp, "student")
        try:
            released = release(Path(tmp, "exercises"), student)
        except NotebookError as exc:
            raise CourseError("release_failed", reason=str(exc)) from None
        return {f"student/{p.relative_to(student).as_posix()}": p.read_bytes() for p in released}


def for_learners(name: str, language: str) -> bool:
    """A file of the course a learner may have: no instructor exercise, no notebook for teachers,
    the student versions of the course's language only."""
    parts = name.split("/")
    if parts[0] == "exercises" or parts[-1] == FOR_TEACHERS:
        return False
    if parts[0] == "student":
        return len(parts) == 2 if language == "en" else parts[1] == language
    return True


def readme(language: str, student: bool = False) -> str:
    from ..text.locale.course import README, README_LEARNER, README_TRANSLATION

    notebooks = "notebooks/" if language == "en" else f"notebooks/{language}/"
    if student:
        exercises = "student/" if language == "en" else f"student/{language}/"
        return README_LEARNER[language].format(version=__version__, notebooks=notebooks, exercises=exercises)
    translation = "" if language == "en" else README_TRANSLATION[language].format(lang=language)
    return README[language].format(version=__version__, notebooks=notebooks, translation=translation,
                                   lang_option="" if language == "en" else f" --lang {language}")


def package_files(language: str) -> dict[str, bytes]:
    """Every file of the package's course in ``language`` but the student versions, by its path in
    the course folder."""
    try:
        source = course_source()
    except CourseMissing:
        raise CourseError("no_course_files") from None
    names = [name for name in course_files(source) if _in_language(name, language)]
    files = {name: (source / name).read_bytes() for name in names}
    files["README.md"] = readme(language).encode("utf-8")
    return files


# --- the plan: the package's files against the folder and its manifest --------------------------------

def _content(path: Path) -> bytes | None:
    """What a path holds now: None where nothing is; a folder at a file's place counts as content."""
    if path.is_symlink() or path.exists():
        return path.read_bytes() if path.is_file() else b"\0not a file"
    return None


def plan_course(folder: Path, files: dict[str, bytes], manifest: Manifest | None) -> Plan:
    """What writing ``files`` into ``folder`` does, given what maumau wrote there last time."""
    wrote = manifest.files if manifest else {}
    result = Plan(files)
    for name, data in files.items():
        have = _content(folder / name)
        if have is None:
            result.added.append(name)
        elif have == data:
            continue
        elif wrote.get(name) == sha256(have):  # still what maumau wrote: the package's to update
            result.updated.append(name)
        else:  # the teacher's: theirs while the package has nothing new there
            (result.theirs if wrote.get(name) == sha256(data) else result.changed).append(name)
    for name in sorted(set(wrote) - set(files)):
        have = _content(folder / name)
        if have is not None:
            (result.removed if sha256(have) == wrote[name] else result.kept).append(name)
    return result


# --- writing -------------------------------------------------------------------------------------------

def _writable(folder: Path) -> bool:
    """The folder, or the nearest folder above it that exists, lets this user write."""
    here = folder
    while not here.exists() and here.parent != here:
        here = here.parent
    return here.is_dir() and os.access(here, os.W_OK | os.X_OK)


def _write(path: Path, data: bytes) -> None:
    """Replace ``path`` at once: a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".maumau-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _backup_folder(folder: Path) -> Path:
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    target, n = folder / BACKUP / stamp, 1
    while target.exists():
        n += 1
        target = folder / BACKUP / f"{stamp}_{n}"
    return target


def check_folder(folder: Path, update: bool) -> Manifest | None:
    """The course folder's manifest, after the checks that refuse a folder (CourseError)."""
    if folder.exists() and not folder.is_dir():
        raise CourseError("is_file")
    if not _writable(folder):
        raise CourseError("not_writable")
    manifest = read_manifest(folder) if folder.is_dir() else None
    if manifest is None and folder.is_dir() and any(folder.iterdir()) and not update:
        raise CourseError("not_a_course", manifest=MANIFEST)
    return manifest


def write_course(folder: Path, language: str, update: bool = False,
                 student: bool | None = None) -> tuple[Plan, Path | None]:
    """Write the package's course in ``language`` into ``folder`` (module docstring); returns the
    plan it carried out and the backup folder of the teacher's files it replaced (None if none).
    ``student``: a learner's folder (None: what the folder is, a teacher's for a new one).
    CourseError, with nothing written, for a folder it refuses or changes it must not overwrite."""
    manifest = check_folder(folder, update)
    student = (manifest is not None and manifest.student) if student is None else student
    files = package_files(language)
    steps = plan_course(folder, files, manifest)
    # the student versions of the exercises as they will be: the teacher's where theirs stay
    staying = set(steps.theirs) | (set() if update else set(steps.changed))
    files.update(student_versions({name: (_content(folder / name) or data) if name in staying else data
                                   for name, data in files.items() if name.startswith("exercises/")}))
    if student:
        files = {name: data for name, data in files.items() if for_learners(name, language)}
        files["README.md"] = readme(language, student=True).encode("utf-8")
    steps = plan_course(folder, files, manifest)
    if steps.changed and not update:
        raise CourseError("refused", n=len(steps.changed), names=", ".join(steps.changed))
    backup = _backup_folder(folder) if steps.changed else None
    try:
        for name in steps.changed:  # the teacher's version first to the backup: nothing lost
            assert backup is not None
            (backup / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(folder / name, backup / name)
        for name in steps.added + steps.updated + steps.changed:
            _write(folder / name, steps.files[name])
        for name in steps.removed:
            (folder / name).unlink()
            _remove_empty_parents(folder / name, folder)
        record = {"version": __version__, "language": language, "for": LEARNERS if student else "teachers",
                  "files": {name: sha256(data) for name, data in sorted(steps.files.items())}}
        _write(folder / MANIFEST, (json.dumps(record, indent=1) + "\n").encode("utf-8"))
    except OSError as exc:
        raise CourseError("write_failed", reason=exc.strerror or str(exc)) from None
    return steps, backup


def _remove_empty_parents(path: Path, folder: Path) -> None:
    """The folders a removed file leaves empty go too (notebooks/de/ after a switch to Hungarian)."""
    for parent in path.parents:
        if parent == folder or not parent.is_relative_to(folder) or any(parent.iterdir()):
            return
        parent.rmdir()
