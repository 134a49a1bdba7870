"""The modules' names before the package was built in rooms (issue 13): ``maumau.cards``,
``maumau.rules.base``, ``maumau.explain``, ``maumau.terminal_console`` ... are small modules of
their own (``maumau/cards.py``, ``maumau/rules/base.py``, ...) that hand over the names of their
new homes, the very objects (a class has one identity: ``from maumau.cards import Card`` is
``mm.Card``), with a ``DeprecationWarning`` that says where the name lives now.  Notebooks, saved
games naming a house rule's module and pickles written before the move keep working.

This module imports nothing of maumau: each old module imports its new home itself."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from types import ModuleType

__all__ = ["MOVED", "new_name", "forward"]

#: Old module (or package, with everything inside it) -> where it lives now.
MOVED = {
    "maumau.cards": "maumau.core.cards",
    "maumau.moves": "maumau.core.moves",
    "maumau.events": "maumau.core.events",
    "maumau.problems": "maumau.core.problems",
    "maumau.state": "maumau.core.state",
    "maumau.turn": "maumau.core.turn",
    "maumau.engine": "maumau.core.engine",
    "maumau.illegal": "maumau.core.illegal",
    "maumau.variants": "maumau.core.variants",
    "maumau.validate": "maumau.core.validate",
    "maumau.start": "maumau.core.dealing",
    "maumau.rules": "maumau.core.rules",
    "maumau.i18n": "maumau.text.i18n",
    "maumau.locale": "maumau.text.locale",
    "maumau.explain": "maumau.text.explain",
    "maumau.compare": "maumau.text.rules_table",
    "maumau.game": "maumau.play.game",
    "maumau.match": "maumau.play.match",
    "maumau.serialize": "maumau.play.serialize",
    "maumau.simulate": "maumau.simulation.run",
    "maumau.terminal_console": "maumau.terminal.console",
    "maumau.terminal_table": "maumau.terminal.table",
    "maumau.terminal_input": "maumau.terminal.input",
    "maumau.terminal_report": "maumau.terminal.report",
}


def new_name(name: str) -> str | None:
    """Where the module once called ``name`` lives now, or None if it did not move."""
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old):]
    return None


def forward(old: str, new: ModuleType) -> Callable[[str], object]:
    """The ``__getattr__`` of the old module ``old``: each name is the object of the module of its
    new home ``new``, handed over with a DeprecationWarning saying where to import it from."""
    def __getattr__(name: str) -> object:  # noqa: N807  (a module's __getattr__, PEP 562)
        if name.startswith("__"):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        found = getattr(new, name)  # AttributeError as the new home raises it
        # a name the package itself offers (Card, Rule, Role, ...) is best imported from maumau
        public = "maumau" if getattr(sys.modules.get("maumau"), name, None) is found else new.__name__
        warnings.warn(f"{old} is an old name: import {name} from {public}", DeprecationWarning, stacklevel=2)
        return found

    return __getattr__
