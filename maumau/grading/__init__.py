"""Exercises and grading: readable checks for test cells, ``release`` and ``grade``.

In an exercise's test cells (the learner-facing names; they live in ``checks`` and ``hands``)::

    from maumau.grading import check, check_moves, scenario

For teachers (``maumau release`` / ``maumau grade`` on the command line)::

    from maumau.grading import release, grade
    release("exercises", "student")
    rows = grade("exercises", ["submissions"], out="grades")

``release`` and ``grade`` are the package's front door to the modules ``releaser`` and ``grader``
(names of their own, so that importing a module never hides the function of the package); they
load on first use, so test cells stay light.  The grading pipeline, stage by stage, is written
once at the top of ``grader``.  The sandbox the kernels run in is a package of its own,
``maumau.sandbox``, shared with the league.
"""

from __future__ import annotations

from typing import Any

from .checks import CheckFailed, check, check_moves, check_wins, move_names, passed, scenario, summary
from .hands import play_hands

__all__ = ["CheckFailed", "check", "check_moves", "check_wins", "move_names", "passed", "play_hands", "scenario",
           "summary", "release", "grade"]


def __getattr__(name: str) -> Any:
    # release and grade load on first use (nbformat, the sandbox): a test cell needs neither
    found: Any
    if name == "release":
        from .releaser import release as found
    elif name == "grade":
        from .grader import grade as found
    else:
        raise AttributeError(f"module 'maumau.grading' has no attribute {name!r}")
    globals()[name] = found
    return found
