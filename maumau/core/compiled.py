"""Which engine runs: the Cython-compiled modules or their Python sources.

``maumau/core/state.py``, ``turn.py``, ``playable.py`` and ``variants.py`` are compiled when maumau is
installed with Cython and a C compiler (``setup.py``; the ``.pxd`` files beside them hold the C
types).  The compiled modules are built into ``maumau/core/_built/``, apart from the sources, and
``maumau/core/__init__.py`` puts that folder first on the package's path when ``COMPILED`` is
True: then ``import maumau.core.state`` finds the compiled module, else the source.  They are used,
unless

* ``MAUMAU_PURE_PYTHON=1`` is set: the Python sources run, to step through the engine in
  a debugger or to check that both engines agree;
* only some of them were built; or
* in a source checkout, a source is newer than its compiled module (edited since the last
  ``make build``): the sources run, and a warning says so, so that an edit is never
  silently ignored.

Both engines play the same games move for move (``tests/core/test_compiled.py``).  This module
imports nothing of maumau.
"""

from __future__ import annotations

import importlib.machinery
import os
import warnings
from pathlib import Path

__all__ = ["MODULES", "COMPILED", "BUILT", "compiled_file", "stale_sources"]

#: The modules that setup.py compiles.
MODULES = ("state", "turn", "playable", "variants")

_HERE = Path(__file__).resolve().parent
#: Where setup.py puts the compiled modules.
BUILT = _HERE / "_built"


def compiled_file(module: str) -> Path | None:
    """The compiled extension module of ``module``, if it was built."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = BUILT / (module + suffix)
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
    """Whether the compiled engine will be used."""
    built = [compiled_file(module) is not None for module in MODULES]
    if not any(built) or os.environ.get("MAUMAU_PURE_PYTHON", "") not in ("", "0"):
        return False
    stale = stale_sources()
    if all(built) and not stale:
        return True
    why = (f"{', '.join(stale)} changed since the engine was compiled" if stale
           else "only part of the engine was compiled")
    warnings.warn(f"maumau: {why}; running the pure-Python engine (run `make build` to compile it)",
                  stacklevel=2)
    return False


#: True when the compiled engine runs, False when the Python sources do.
COMPILED: bool = _choose()
