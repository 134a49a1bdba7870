"""The core: cards, moves, the state and how a move changes it, the rules and the variants
made of them.  It records events and refusals; the words are made above it (``maumau.text``),
and everything else of maumau is built on it.

The engine's compiled modules (``setup.py``) sit in ``_built/``: when they are to run
(``compiled.COMPILED``: built, not edited since, no ``MAUMAU_PURE_PYTHON=1``), that folder comes
first on this package's path, so ``import maumau.core.state`` finds the compiled module; else
the Python source beside this file."""

from . import compiled as _compiled

if _compiled.COMPILED:
    __path__.insert(0, str(_compiled.BUILT))
