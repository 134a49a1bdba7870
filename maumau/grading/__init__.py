"""Exercises and grading: readable checks for test cells, ``release`` and ``grade``.

In an exercise's test cells::

    from maumau.grading import check, check_moves, scenario

For teachers (``maumau release`` / ``maumau grade`` on the command line)::

    from maumau.grading import release, grade
    release("exercises", "student")
    rows = grade("exercises", ["submissions"], out="grades")

``release`` and ``grade`` are imported on first use, so test cells stay light; they live in the
modules ``maumau.grading.releaser`` and ``maumau.grading.grader`` (names of their own, so that
importing a module never hides the function of the package).
"""

from __future__ import annotations

from typing import Any

from .checks import CheckFailed, check, check_moves, check_wins, move_names, passed, scenario, summary
from .hands import play_hands

__all__ = ["CheckFailed", "check", "check_moves", "check_wins", "move_names", "passed", "play_hands", "scenario",
           "summary", "release", "grade", "Limits"]


def __getattr__(name: str) -> Any:
    # release, grade and Limits load on first use (nbformat, the sandbox): a test cell needs none
    found: Any
    if name == "release":
        from .releaser import release as found
    elif name == "grade":
        from .grader import grade as found
    elif name == "Limits":
        from .runner import Limits as found
    else:
        raise AttributeError(f"module 'maumau.grading' has no attribute {name!r}")
    globals()[name] = found
    return found
