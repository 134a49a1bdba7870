"""Exercises and grading: readable checks for test cells, ``release`` and ``grade``.

In an exercise's test cells::

    from maumau.grading import check, check_moves, scenario

For teachers (``maumau release`` / ``maumau grade`` on the command line)::

    from maumau.grading import release, grade
    release("exercises", "student")
    rows = grade("exercises", ["submissions"], out="grades")

``release`` and ``grade`` are imported on first use, so test cells stay light (the
modules of the same names are ``maumau.grading.release`` and ``maumau.grading.grade``).
"""

from __future__ import annotations

import sys
import types
from typing import Any

from .checks import CheckFailed, check, check_moves, check_wins, move_names, passed, scenario, summary
from .hands import play_hands

__all__ = ["CheckFailed", "check", "check_moves", "check_wins", "move_names", "passed", "play_hands", "scenario",
           "summary", "release", "grade", "Limits"]


class _Package(types.ModuleType):
    """This package, where a function wins over the submodule of its name.

    Importing ``maumau.grading.grade`` sets the package's ``grade`` to that module, whoever
    imports it first; ``from maumau.grading import grade`` must give the function all the same.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("release", "grade") and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    # The submodules ``release`` and ``grade`` share their function's name: bind the
    # function over the module attribute that importing the submodule sets.
    found: Any
    if name == "release":
        from .release import release as found
    elif name == "grade":
        from .grade import grade as found
    elif name == "Limits":
        from .runner import Limits as found
    else:
        raise AttributeError(f"module 'maumau.grading' has no attribute {name!r}")
    globals()[name] = found
    return found
