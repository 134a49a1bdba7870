"""Build maumau, compiling the engine's hot path with Cython where it can.

``maumau/core/state.py``, ``turn.py``, ``playable.py`` and ``variants.py`` are plain Python, and run as such.
The ``.pxd`` files beside them give Cython the C types of the hot path (GameState, Turn,
Variant, legal moves, the fast paths of a move); compiled, random self-play of makao
makes about 1.9x the decisions per CPU second of the pure-Python engine (README, issue 29).
The learning environments' step is compiled the same way (issue 39): ``maumau/env/seen.py`` (a seat's
observation kept up to date move by move), ``actions.py``, ``hand.py``, ``aec_env.py`` and ``gym_env.py``.  The compiled
modules are optional: without Cython or a C compiler, or with ``MAUMAU_PURE_PYTHON=1``
set at install time, maumau installs as pure Python.  ``make build`` compiles them in
place after an edit.  The compiled modules go to a ``_built/`` folder of their package
(``maumau/core/_built/``, ``maumau/env/_built/``), apart from the sources; the package's
``__init__.py`` puts that folder first on its path when they are to run (``maumau/core/compiled.py``
decides, by the same rules for both).

The wheel carries the course: ``build_py`` copies the notebooks, the exercises (with their
translations), RULES.md and the pictures the notebooks show into ``maumau/course/files/`` of the
build tree (git keeps the one copy at the top level; MANIFEST.in puts them into the sdist, so a
wheel built from the sdist has them too).  ``maumau/course/package.py`` names the files and finds
them again: the installed copy, or the checkout's top level in an editable install.  The JupyterLab
setting the class table needs (comms on the main shell) goes to the environment's
``share/jupyter/lab/settings/overrides.d/maumau.json``, where JupyterLab reads it.
"""

from __future__ import annotations

import os
import runpy
import shutil

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: The course's files, named in one place (a module of the standard library's imports only).
COURSE = runpy.run_path(os.path.join("maumau", "course", "package.py"))


class BuildInto(build_ext):
    """Compiled modules go to a ``_built`` folder beside their sources (maumau/core/_built/,
    maumau/env/_built/)."""

    def get_ext_fullpath(self, ext_name: str) -> str:  # a wheel's build
        folder, name = os.path.split(super().get_ext_fullpath(ext_name))
        return os.path.join(folder, "_built", name)

    def _get_inplace_equivalent(self, build_py, ext):  # type: ignore[no-untyped-def]  # make build, pip -e
        inplace, regular = super()._get_inplace_equivalent(build_py, ext)
        folder, name = os.path.split(inplace)
        os.makedirs(os.path.join(folder, "_built"), exist_ok=True)
        built, _ = os.path.split(regular)
        return os.path.join(folder, "_built", name), os.path.join(built, "_built", name)

    def copy_extensions_to_source(self) -> None:
        """Each compiled module into _built/, stamped with the time of the copy (so that it is
        newer than the source it was built from, maumau/core/compiled.py checks), replacing the
        old file at once (a running process keeps the module it loaded)."""
        build_py = self.get_finalized_command("build_py")
        copied = set()
        for ext in self.extensions:
            inplace, regular = self._get_inplace_equivalent(build_py, ext)
            if os.path.exists(regular):
                shutil.copyfile(regular, inplace + ".new")
                os.replace(inplace + ".new", inplace)
                copied.add(os.path.abspath(inplace))
        for folder in {os.path.dirname(path) for path in copied}:  # a module no longer compiled (each package)
            for name in os.listdir(folder):
                path = os.path.abspath(os.path.join(folder, name))
                if path not in copied and name.endswith((".so", ".pyd")):
                    os.remove(path)


#: Each package's compiled modules, all or nothing per package (maumau/core/compiled.py names them again:
#: the engine's MODULES, the environments' in maumau/env/__init__.py; tests/core/test_compiled.py checks).
COMPILED = ["maumau/core/state.py", "maumau/core/turn.py", "maumau/core/playable.py", "maumau/core/variants.py",
            "maumau/env/seen.py", "maumau/env/actions.py", "maumau/env/hand.py", "maumau/env/aec_env.py",
            "maumau/env/gym_env.py"]


def extensions() -> list:
    if os.environ.get("MAUMAU_PURE_PYTHON"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    modules = cythonize(
        COMPILED,
        # The annotations are for readers and mypy; the C types live in the .pxd files.
        compiler_directives={"language_level": 3, "annotation_typing": False},
        quiet=True,
    )
    for module in modules:
        module.optional = True  # no compiler: pure Python, not a failed install
    return modules


class BuildWithCourse(build_py):
    """The package, and the course in ``maumau/course/files/`` beside it (a fresh copy each build:
    a notebook deleted from the course leaves none behind in the build tree)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # pip install -e: the checkout's own copy is the course
            return
        target = os.path.join(self.build_lib, *COURSE["INSTALLED"])
        shutil.rmtree(target, ignore_errors=True)
        for name in COURSE["course_files"]("."):
            os.makedirs(os.path.dirname(os.path.join(target, name)), exist_ok=True)
            shutil.copyfile(name, os.path.join(target, name))


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": BuildInto, "build_py": BuildWithCourse},
    # JupyterLab reads every file of overrides.d (docs/howto/class-table.md: why comms stay on the main shell)
    data_files=[("share/jupyter/lab/settings/overrides.d", ["maumau/classroom/overrides.d/maumau.json"])],
)
