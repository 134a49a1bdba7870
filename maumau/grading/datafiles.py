"""The files a grading kernel finds in its working folder: an exercise's data files (checked
when the exercise is loaded: no notebook, no symbolic link, no file holding a secret line)
and the learner's own files beside their notebook, within the same limits.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from .reading import NotebookError
from .student import secret_lines

if TYPE_CHECKING:  # only for the annotations
    from .exercise_model import Exercise

__all__ = ["MAX_DATA_FILE_BYTES", "MAX_DATA_BYTES", "MAX_DATA_FILES", "exercise_files", "submission_files"]

#: Data files beside an exercise that go into the grading kernel's working folder.
MAX_DATA_FILE_BYTES = 20 * 1024 * 1024
MAX_DATA_BYTES = 50 * 1024 * 1024
MAX_DATA_FILES = 50


def _private(name: str) -> bool:
    """A file name that is never copied into a kernel: hidden (``.``), private (``_``),
    a notebook (where solutions and hidden tests live) or compiled Python."""
    return name.startswith((".", "_")) or name.endswith((".ipynb", ".pyc", "~"))


def _regular(path: Path) -> int | None:
    """The size of ``path`` if it is a regular file and not a symbolic link, else None."""
    try:
        info = path.lstat()
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _holds_secret(path: Path, secrets: set[str]) -> str | None:
    """The first secret line that the (text) file ``path`` contains, if any."""
    if not secrets:
        return None
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # not text: it cannot hold a line of code
    return next((line for line in sorted(secrets) if line in text), None)


def exercise_files(exercise: Exercise) -> dict[str, Path]:
    """The data files of an exercise, by the name the kernel sees (relative to its working
    folder), for the runner to copy into the kernel's scratch folder.

    - If the notebook's metadata has ``maumau.files`` (a list of paths relative to the
      notebook's folder; subfolders allowed), exactly those; each must be a regular file
      (no symbolic link) inside that folder, not hidden and not a notebook.
    - Otherwise every regular file directly beside the notebook (no subfolder, no symbolic
      link) except hidden or private ones (``.`` or ``_`` first), notebooks, ``*.pyc``; a file
      that contains a line of this exercise's solutions or hidden tests is refused (rename
      it with a leading ``_`` to keep it out of the kernels, or list the files explicitly).

    Never copied, whatever the list says: notebooks (the instructor's notebooks hold the
    solutions and hidden tests).  At most MAX_DATA_FILES files, MAX_DATA_FILE_BYTES each and
    MAX_DATA_BYTES together, else NotebookError."""
    folder = exercise.path.parent
    meta = exercise.notebook.get("metadata", {}) or {}
    listed = (meta.get("maumau") or {}).get("files") if isinstance(meta.get("maumau"), dict) else None
    where = exercise.path.name
    if listed is not None:
        found = _listed_files(listed, folder, where)
    else:
        found = _files_beside(exercise, folder, where)
    _check_sizes(found, where)
    return found


def _listed_files(listed: object, folder: Path, where: str) -> dict[str, Path]:
    """The files the notebook's metadata ``maumau.files`` lists, by their relative name; each a
    regular file inside ``folder`` reached through no symbolic link, not hidden, not a notebook."""
    found: dict[str, Path] = {}
    if not isinstance(listed, list) or not all(isinstance(n, str) and n for n in listed):
        raise NotebookError(f"{where}: metadata maumau.files must be a list of file names")
    for name in listed:
        rel = Path(name)
        if rel.is_absolute() or ".." in rel.parts or any(p.startswith(".") for p in rel.parts) \
                or rel.name.endswith(".ipynb"):
            raise NotebookError(f"{where}: maumau.files lists {name!r}; it must be a data file "
                                f"inside the notebook's folder (not hidden, not a notebook)")
        path = folder / rel
        real, root = os.path.realpath(path), os.path.realpath(folder)
        if _regular(path) is None or not real.startswith(root.rstrip("/") + "/") \
                or any((folder / Path(*rel.parts[:i])).is_symlink() for i in range(1, len(rel.parts))):
            raise NotebookError(f"{where}: maumau.files lists {name!r}, which is not a regular "
                                f"file in {folder} (symbolic links are not followed)")
        found[rel.as_posix()] = path
    return found


def _files_beside(exercise: Exercise, folder: Path, where: str) -> dict[str, Path]:
    """The regular files directly beside the notebook that are neither private nor a notebook;
    NotebookError for one over the size limit or holding a line of a solution or hidden test."""
    found: dict[str, Path] = {}
    secrets = secret_lines(exercise)
    for path in sorted(folder.iterdir()):
        size = _regular(path)
        if _private(path.name) or size is None:
            continue
        if size > MAX_DATA_FILE_BYTES:
            raise NotebookError(f"{where}: the data file {path.name} beside it is larger than "
                                f"{MAX_DATA_FILE_BYTES // 1024 // 1024} MB")
        line = _holds_secret(path, secrets)
        if line is not None:
            raise NotebookError(
                f"{where}: the file {path.name} beside it would go into the grading kernels, but it "
                f"holds a line of the solution or hidden tests; rename it to _{path.name} to keep it "
                f"out, or list the data files in the notebook's metadata maumau.files")
        found[path.name] = path
    return found


def _check_sizes(files: dict[str, Path], where: str) -> None:
    """NotebookError when the files are too many, one is too large, or all are, together."""
    if len(files) > MAX_DATA_FILES:
        raise NotebookError(f"{where}: {len(files)} data files beside it; the limit is {MAX_DATA_FILES} "
                            f"(list the ones it needs in the notebook's metadata maumau.files)")
    total = 0
    for name, path in files.items():
        size = _regular(path) or 0
        if size > MAX_DATA_FILE_BYTES:
            raise NotebookError(f"{where}: the data file {name} is larger than "
                                f"{MAX_DATA_FILE_BYTES // 1024 // 1024} MB")
        total += size
    if total > MAX_DATA_BYTES:
        raise NotebookError(f"{where}: its data files hold more than {MAX_DATA_BYTES // 1024 // 1024} MB")


#: A learner's file that Python could import in place of a module (``ipykernel.py``,
#: ``maumau.py``): data files are data, so these stay out of the kernel's working folder.
_IMPORTABLE = frozenset({".py", ".pyw", ".pyc", ".pyd", ".so", ".pth", ".egg", ".whl", ".zip"})


def submission_files(exercise: Exercise, submission: str | Path) -> dict[str, Path]:
    """The files the kernel grading ``submission`` (a notebook's path) gets in its working
    folder: the learner's own regular files beside the notebook (the same rules as beside an
    exercise: no subfolder, link, hidden or private file, notebook; files over the size limits
    are left out; and no file Python could import in place of a module), then the
    exercise's data files over them (nbgrader's autograde, too, puts the instructor's copy of
    a data file over the learner's)."""
    folder = Path(submission).parent
    mine: dict[str, Path] = {}
    total = 0
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        entries = []
    for path in entries:
        size = _regular(path)
        if _private(path.name) or path.suffix in _IMPORTABLE or size is None or size > MAX_DATA_FILE_BYTES:
            continue
        if len(mine) >= MAX_DATA_FILES or total + size > MAX_DATA_BYTES:
            break
        mine[path.name] = path
        total += size
    return {**mine, **exercise.files}
