"""``maumau course DIR`` writes the course into a folder; ``maumau lab [DIR]`` opens it in JupyterLab.

Both speak the course's language: ``--lang`` where given, else the course folder's, else the
teacher's (``MAUMAU_LANG``, else the locale), else English (``maumau.course.folder.default_language``).
"""

from __future__ import annotations

import argparse
import os
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

from .._version import __version__
from .folder import MANIFEST, CourseError, default_language, teachers_language, write_course

__all__ = ["add_commands", "cmd_course", "cmd_lab", "words"]


def words(key: str, language: str, **values: object) -> str:
    """A sentence of ``maumau.text.locale.course`` in ``language``."""
    from ..text.locale.course import COURSE, LANGUAGE_NAMES

    values.setdefault("version", __version__)
    values.setdefault("manifest", MANIFEST)
    if "language_code" in values:
        values["language"] = LANGUAGE_NAMES[language][str(values.pop("language_code"))]
    return COURSE[language][key].format(**values)


def shown(folder: str) -> str:
    """A folder as the teacher can paste it into a shell (quoted where it holds a space)."""
    return shlex.quote(folder)


def add_commands(commands: Any) -> None:
    course = commands.add_parser(
        "course", help="write the course into a folder: notebooks, exercises, student versions, a README",
        description="Write the course into DIR: notebooks/ in its language, exercises/ (the English instructor "
                    "notebooks and their translation), student/ (the student versions), RULES.md and a README "
                    "for the teacher. Run again after upgrading maumau: files you changed are never replaced "
                    "without --update (docs: Install from a wheel).")
    course.add_argument("dir", metavar="DIR", help="the course folder (new, empty, or a course written before)")
    course.add_argument("--lang", choices=("en", "de", "hu"), default=None,
                        help="the course's language (default: the folder's, when it is a course; else "
                             "MAUMAU_LANG, else your locale's, else en)")
    course.add_argument("--update", action="store_true",
                        help="replace files you changed with maumau's versions (yours go to a folder under "
                             "backup/); also writes the course into a folder that holds other files")
    role = course.add_mutually_exclusive_group()
    role.add_argument("--student", action="store_true", default=None,
                      help="a learner's folder: the notebooks and the student versions of the exercises, no "
                           "solution and no hidden test (for learners' homes on a hub; default: what DIR is)")
    role.add_argument("--teacher", dest="student", action="store_false",
                      help="a teacher's folder (the default for a new one): instructor exercises included")
    course.set_defaults(func=cmd_course)

    lab = commands.add_parser(
        "lab", help="open a course folder in JupyterLab",
        description="Open the course folder DIR (default: this folder) in JupyterLab at its first notebook, "
                    "every maumau screen in the course's language.")
    lab.add_argument("dir", metavar="DIR", nargs="?", default=".", help="the course folder (default: .)")
    lab.add_argument("--port", type=int, default=None, help="JupyterLab's port (default: JupyterLab's, 8888)")
    lab.add_argument("--no-browser", action="store_true", help="start the server without opening a browser")
    lab.set_defaults(func=cmd_lab)


#: Up to this many files are named one by one; more are counted per folder.
NAMED = 6


def _list(names: list[str]) -> dict[str, object]:
    """The files of a sentence: named, or counted per folder (a language switch moves 39 files)."""
    if len(names) <= NAMED:
        return {"n": len(names), "names": ", ".join(names)}
    folders = Counter(name.rsplit("/", 1)[0] + "/" if "/" in name else name for name in names)
    return {"n": len(names), "names": ", ".join(f"{folder} ({n})" for folder, n in folders.items())}


def cmd_course(args: argparse.Namespace, con: Any) -> int:
    folder = Path(args.dir).expanduser()
    language = args.lang or "en"
    try:
        language = args.lang or default_language(folder, os.environ)
        existed = folder.is_dir() and (folder / MANIFEST).is_file()
        steps, backup = write_course(folder, language, update=args.update, student=args.student)
    except CourseError as exc:
        con.error(words(exc.key, language, dir=shown(args.dir), **exc.values))
        return 1
    if steps.changed:  # the teacher's files first: where they are now
        con.say(words("replaced", language, backup=shown(str(backup)), **_list(steps.changed)))
    if not existed:
        con.say(words("written", language, language_code=language, dir=shown(args.dir), n=len(steps.files)))
        return 0
    reports = [("added", steps.added), ("updated", steps.updated), ("removed", steps.removed),
               ("kept", steps.kept)]
    for key, names in reports:
        if names:
            con.say(words(key, language, **_list(names)))
    if not (steps.changed or any(names for _, names in reports)):
        con.say(words("up_to_date", language, dir=shown(args.dir)))
    return 0


def cmd_lab(args: argparse.Namespace, con: Any) -> int:
    from .folder import read_manifest
    from .lab import lab_command

    folder = Path(args.dir).expanduser()
    language = teachers_language(os.environ)  # until the course says
    try:
        manifest = read_manifest(folder) if folder.is_dir() else None
        if manifest is None:
            raise CourseError("no_course_here")
        language = manifest.language
        argv, env = lab_command(folder, language, port=args.port, browser=not args.no_browser)
    except CourseError as exc:
        con.error(words(exc.key, language, dir=shown(args.dir), **exc.values))
        return 1
    from .folder import start_notebook

    con.say(words("opening", language, notebook=start_notebook(language), language_code=language,
                  dir=shown(args.dir)))
    con.out.flush()
    con.err.flush()
    os.execve(argv[0], argv, env)  # JupyterLab takes this process's place: Ctrl-C stops it
