"""Readable checks for exercise test cells.

A failing check says which scenario failed and what was expected and got, in one
sentence, instead of a bare ``AssertionError``::

    with scenario("3 players, seat 0 plays 8♥"):
        check("who moves next", t.to_move, 2)
    # CheckFailed: 3 players, seat 0 plays 8♥: who moves next: expected 2, got 0

An exception raised by the learner's own code inside ``scenario`` becomes a CheckFailed
that says so (``your code raised NotImplementedError``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["CheckFailed", "check", "scenario", "check_moves", "move_names", "passed"]

_current: list[str] = []


class CheckFailed(AssertionError):
    """A test scenario whose result differs from the expected one."""


def _prefix() -> str:
    return "".join(f"{s}: " for s in _current)


def check(what: str, got: Any, expected: Any, hint: str = "") -> None:
    """Pass if ``got == expected``; else CheckFailed "scenario: what: expected X, got Y"."""
    if got != expected:
        message = f"{_prefix()}{what}: expected {expected!r}, got {got!r}"
        raise CheckFailed(message + (f" ({hint})" if hint else ""))


def move_names(moves: Iterable[Any]) -> list[str]:
    """Moves as sorted short strings, e.g. ['draw', 'play 7H', 'play JC wish H']."""
    return sorted(str(m) for m in moves)


def check_moves(what: str, state: Any, expected: Iterable[Any], hint: str = "") -> None:
    """The legal moves of ``state`` are exactly ``expected`` (any order); the message
    lists what is missing and what should not be there."""
    got, want = set(move_names(state.legal_moves())), set(move_names(expected))
    if got != want:
        parts = []
        if want - got:
            parts.append(f"missing {sorted(want - got)}")
        if got - want:
            parts.append(f"should not be legal {sorted(got - want)}")
        message = f"{_prefix()}{what}: {'; '.join(parts)} (legal: {sorted(got)})"
        raise CheckFailed(message + (f" ({hint})" if hint else ""))


@contextlib.contextmanager
def scenario(name: str) -> Iterator[None]:
    """Name the situation being tested; errors inside say which one failed."""
    _current.append(name)
    try:
        yield
    except CheckFailed:
        raise
    except Exception as err:
        detail = f": {err}" if str(err) else ""
        if isinstance(err, NotImplementedError) and not detail:
            detail = " (a method still has its stub: write it)"
        raise CheckFailed(f"{_prefix()}your code raised {type(err).__name__}{detail}") from err
    finally:
        _current.pop()


def passed(count: int | None = None) -> None:
    """Print the line a test cell ends with when everything passed."""
    print(f"All {count} checks passed." if count else "All checks passed.")
