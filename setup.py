"""Build maumau, compiling the engine's hot path with Cython where it can.

``maumau/core/state.py``, ``turn.py``, ``playable.py`` and ``variants.py`` are plain Python, and run as such.
The ``.pxd`` files beside them give Cython the C types of the hot path (GameState, Turn,
Variant, legal moves, the fast paths of a move); compiled, random self-play of makao
makes about 1.9x the decisions per CPU second of the pure-Python engine (README, issue 29).  The compiled
modules are optional: without Cython or a C compiler, or with ``MAUMAU_PURE_PYTHON=1``
set at install time, maumau installs as pure Python.  ``make build`` compiles them in
place after an edit.  The compiled modules go to ``maumau/core/_built/``, apart from the
sources; ``maumau/core/__init__.py`` puts that folder first on the package's path when they
are to run (``maumau/core/compiled.py`` decides).
"""

from __future__ import annotations

import os
import shutil

from setuptools import setup
from setuptools.command.build_ext import build_ext


class BuildInto(build_ext):
    """Compiled modules go to a ``_built`` folder beside their sources (maumau/core/_built/)."""

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
        for folder in {os.path.dirname(path) for path in copied}:  # a module no longer compiled (engine)
            for name in os.listdir(folder):
                path = os.path.abspath(os.path.join(folder, name))
                if path not in copied and name.endswith((".so", ".pyd")):
                    os.remove(path)


COMPILED = ["maumau/core/state.py", "maumau/core/turn.py", "maumau/core/playable.py", "maumau/core/variants.py"]


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


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildInto})
