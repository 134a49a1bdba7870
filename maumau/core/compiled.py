"""Which engine runs: the Cython-compiled modules or their Python sources.

``maumau/core/state.py``, ``turn.py``, ``playable.py`` and ``variants.py`` are compiled when maumau is
installed with Cython and a C compiler (``setup.py``; the ``.pxd`` files beside them hold the C
types), and so is the learning environments' step (``maumau/env/seen.py``, ``actions.py``, ``hand.py``,
``aec_env.py``, ``gym_env.py``; named in ``maumau/env/__init__.py``).  Each package's
compiled modules are built into its ``_built/`` folder, apart from the sources (``maumau/core/_built/``,
``maumau/env/_built/``), and the package's ``__init__`` puts that folder first on the package's path
when they are to run (``Built.put_first``): then ``import maumau.core.state`` finds the compiled
module, else the source.  They are used, unless

* ``MAUMAU_PURE_PYTHON=1`` is set: the Python sources run, to step through the engine in
  a debugger or to check that both engines agree;
* only some of a package's modules were built (all or nothing, per package);
* in a source checkout, a source is newer than its compiled module (edited since the last
  ``make build``): the sources run, and a warning says so, so that an edit is never
  silently ignored; or
* the package's compiled modules need another's that do not run (the environments' read the
  compiled engine's GameState): then its sources run too, without a second warning.

Both engines play the same games move for move, and both observations are the same numbers
(``tests/core/test_compiled.py``).  This module imports nothing of maumau.
"""

from __future__ import annotations

import importlib.machinery
import os
import warnings
from pathlib import Path

__all__ = ["MODULES", "COMPILED", "BUILT", "compiled_file", "stale_sources", "Built"]

_HERE = Path(__file__).resolve().parent


class Built:
    """The compiled modules of one package (``maumau/core``, ``maumau/env``), in its ``_built`` folder,
    and whether they are to run: the same rules for every package (this module's docstring).  A
    package whose compiled modules need another's (``requires``: the environments cimport the
    engine's GameState) runs compiled only when that one does."""

    def __init__(self, package: Path, modules: tuple[str, ...], what: str, requires: bool = True) -> None:
        self.package, self.modules, self.what, self.requires = package, modules, what, requires
        #: Where setup.py puts the compiled modules.
        self.folder = package / "_built"

    def file(self, module: str) -> Path | None:
        """The compiled extension module of ``module``, if it was built."""
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = self.folder / (module + suffix)
            if path.exists():
                return path
        return None

    def stale(self) -> list[str]:
        """Sources edited after their module was compiled (checked in a source checkout only:
        an installed wheel's file times say nothing about the build)."""
        if not (self.package.parents[1] / "setup.py").exists():
            return []
        stale = []
        for module in self.modules:
            built = self.file(module)
            if built is None:
                continue
            for source in (f"{module}.py", f"{module}.pxd"):
                path = self.package / source
                if path.exists() and path.stat().st_mtime > built.stat().st_mtime:
                    stale.append(source)
        return stale

    def choose(self, stacklevel: int = 2) -> bool:
        """Whether the compiled modules will be used; a warning where some were built but the
        sources must run (``stacklevel``: the warning names the module that asked)."""
        built = [self.file(module) is not None for module in self.modules]
        if not any(built) or os.environ.get("MAUMAU_PURE_PYTHON", "") not in ("", "0") or not self.requires:
            return False
        stale = self.stale()
        if all(built) and not stale:
            return True
        why = (f"{', '.join(stale)} changed since {self.what} was compiled" if stale
               else f"only part of {self.what} was compiled")
        warnings.warn(f"maumau: {why}; running the pure-Python {self.what.removeprefix('the ')} "
                      f"(run `make build` to compile it)", stacklevel=stacklevel)
        return False

    def put_first(self, path: list[str]) -> bool:
        """Choose, and put the compiled folder first on the package's ``path`` (its ``__path__``)
        when the compiled modules are to run; whether they are."""
        chosen = self.choose(stacklevel=3)
        if chosen:
            path.insert(0, str(self.folder))
        return chosen


#: The engine: the modules that setup.py compiles.
ENGINE = Built(_HERE, ("state", "turn", "playable", "variants"), "the engine")
MODULES = ENGINE.modules
#: Where setup.py puts the compiled modules.
BUILT = ENGINE.folder
compiled_file = ENGINE.file
stale_sources = ENGINE.stale

#: True when the compiled engine runs, False when the Python sources do.
COMPILED: bool = ENGINE.choose()
