"""Where the course lives: the files a wheel carries, and the one function that finds them.

git keeps one copy of the course at the top level of the checkout (``notebooks/``, ``exercises/``,
their translations in ``de/`` and ``hu/`` beside them, ``RULES.md``); ``setup.py`` copies the files
named here into the package (``maumau/course/files/``) when it builds a wheel, so that an
installed maumau carries its course.  An editable install (``pip install -e .``) has no copy: the
checkout's top level is the course then.

This module imports nothing but the standard library: ``setup.py`` reads it before maumau's
dependencies are installed.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["course_source", "course_files", "CourseMissing", "NOTEBOOK_FOLDERS", "OTHER_FILES", "INSTALLED"]

#: The folders of notebooks: each holds the English notebooks and a folder per translation.
NOTEBOOK_FOLDERS = ("notebooks", "exercises")
#: The other files of the course: the rules, and the picture notebook 09 shows (``../docs/images/...``).
OTHER_FILES = ("RULES.md", "docs/images/classroom-seat.png")
#: Where the wheel keeps the course, inside the package.
INSTALLED = ("maumau", "course", "files")


class CourseMissing(Exception):
    """This maumau has no course files (a build that left them out)."""


def course_files(root: str | Path) -> list[str]:
    """The course's files under ``root`` as paths relative to it (``notebooks/de/01_start_here.ipynb``):
    the notebooks of each folder and of its translations' folders, then the other files.  Hidden
    folders (``.ipynb_checkpoints``) are no part of the course."""
    root = Path(root)
    names: list[str] = []
    for folder in NOTEBOOK_FOLDERS:
        found = [*(root / folder).glob("*.ipynb"), *(root / folder).glob("*/*.ipynb")]
        names += sorted(p.relative_to(root).as_posix() for p in found
                        if not any(part.startswith(".") for part in p.relative_to(root).parts))
    return names + [name for name in OTHER_FILES if (root / name).is_file()]


def course_source() -> Path:
    """The folder that holds the course: the installed copy (``maumau/course/files``), else the
    top level of the checkout this maumau runs from (an editable install, or ``PYTHONPATH``)."""
    installed = Path(__file__).resolve().parent / INSTALLED[-1]
    checkout = Path(__file__).resolve().parents[2]
    for root in (installed, checkout):
        if (root / "RULES.md").is_file() and all((root / folder).is_dir() for folder in NOTEBOOK_FOLDERS):
            return root
    raise CourseMissing(f"this maumau carries no course (no {installed}): install it from a wheel or a checkout")
