"""The modules' names before the package was built in rooms (issue 13): ``maumau.cards``,
``maumau.rules.base``, ``maumau.explain``, ``maumau.terminal_console`` ... still import, as the
very modules of their new homes (never as copies: a class has one identity, a learner's
``from maumau.cards import Card`` is ``mm.Card``).  Notebooks, exercises, saved games naming a
house rule's module and pickles written before the move keep working."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

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
    "maumau._compiled": "maumau.core.compiled",
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


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a module by its old name and hands over the module of its new home."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        new = new_name(name)
        if new is None:
            return None
        return importlib.util.spec_from_loader(name, self)

    def __init__(self) -> None:
        self.own: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(new_name(spec.name) or spec.name)
        self.own[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system stamped the old name's spec on the module: give it back its own
        module.__spec__ = self.own[module.__name__]


def register_loaded() -> None:
    """Enter the old names of the modules already loaded in ``sys.modules``.  Found there, an
    old name is never imported again, so the import system does not set it as an attribute of
    the package (``maumau.cards`` the module would hide ``mm.cards`` the function)."""
    for old, new in MOVED.items():
        for name, module in list(sys.modules.items()):
            if name == new or name.startswith(new + "."):
                sys.modules.setdefault(old + name[len(new):], module)


def install() -> None:
    """Let the old names import (once; first in the finders, before the file system's)."""
    if not any(isinstance(finder, _OldNames) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OldNames())
