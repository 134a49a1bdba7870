"""Which engine runs: the Cython-compiled modules or their Python sources.

``maumau/core/state.py``, ``turn.py``, ``engine.py`` and ``variants.py`` are compiled when maumau is installed with
Cython and a C compiler (``setup.py``; the ``.pxd`` files beside them hold the C types).
The compiled modules are used, unless

* ``MAUMAU_PURE_PYTHON=1`` is set: the Python sources run, to step through the engine in
  a debugger or to check that both engines agree;
* only some of them were built; or
* in a source checkout, a source is newer than its compiled module (edited since the last
  ``make build``): the sources run, and a warning says so, so that an edit is never
  silently ignored.

Both engines play the same games move for move (``tests/test_compiled.py``).  This module
is imported by ``maumau/__init__.py`` before any engine module.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path

__all__ = ["MODULES", "COMPILED"]

#: The modules that setup.py compiles.
MODULES = ("state", "turn", "engine", "variants")

_HERE = Path(__file__).resolve().parent


class _SourceFinder:
    """An import hook that finds the engine modules as Python sources, before the compiled ones."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        package, _, module = name.rpartition(".")
        if package == __package__ and module in MODULES:
            return importlib.util.spec_from_file_location(name, _HERE / f"{module}.py")
        return None


def compiled_file(module: str) -> Path | None:
    """The compiled extension module of ``module`` beside its source, if it was built."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = _HERE / (module + suffix)
        if path.exists():
            return path
    return None


def stale_sources() -> list[str]:
    """Sources edited after their module was compiled (checked in a source checkout only:
    an installed wheel's file times say nothing about the build)."""
    if not (_HERE.parents[1] / "setup.py").exists():
        return []
    stale = []
    for module in MODULES:
        built = compiled_file(module)
        if built is None:
            continue
        for source in (f"{module}.py", f"{module}.pxd"):
            path = _HERE / source
            if path.exists() and path.stat().st_mtime > built.stat().st_mtime:
                stale.append(source)
    return stale


def _choose() -> bool:
    """Whether the compiled engine will be used; if not, make the sources win the import."""
    built = [compiled_file(module) is not None for module in MODULES]
    if not any(built):
        return False
    if os.environ.get("MAUMAU_PURE_PYTHON", "") in ("", "0"):
        stale = stale_sources()
        if all(built) and not stale:
            return True
        why = (f"{', '.join(stale)} changed since the engine was compiled" if stale
               else "only part of the engine was compiled")
        warnings.warn(f"maumau: {why}; running the pure-Python engine (run `make build` to compile it)",
                      stacklevel=2)
    sys.meta_path.insert(0, _SourceFinder)
    return False


#: True when the compiled engine runs, False when the Python sources do.
COMPILED: bool = _choose()
