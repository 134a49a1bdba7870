"""What is wrong with a state, said in words: the error, the short repr and the seat check that
validation (``maumau.core.validate``) and rules checking their own memory share.  Imports nothing of
maumau, so a rule can use it without a circle."""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Any

__all__ = ["InvalidState", "InvalidCards", "show", "is_whole", "seat_problem"]

_short = reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlist = _short.maxtuple = _short.maxdict = _short.maxset = _short.maxfrozenset = 6
_short.maxlevel = 2


class InvalidState(ValueError):
    """A state no hand of its variant can be in; the message says what is wrong."""


class InvalidCards(InvalidState):
    """A card that is not in the variant's deck that often (C-1)."""


def show(value: Any) -> str:
    """A short repr for messages (a corrupt file may hold anything, of any size)."""
    return _short.repr(value)


def is_whole(value: Any) -> bool:
    """A whole number: an int, not a bool and not a float."""
    return type(value) is int


def seat_problem(active: Sequence[bool], name: str, value: Any, *, playing: bool = True) -> str | None:
    """What is wrong with ``value`` as the seat called ``name`` at a table whose seats take part
    as ``active`` says (if ``playing``, the seat must take part), or None."""
    top = len(active) - 1
    if not is_whole(value):
        return f"{name} must be a seat number 0-{top}, not {show(value)}"
    if not 0 <= value <= top:
        return f"{name} {value} is not a seat: it must be a seat number 0-{top}"
    if playing and not active[value]:
        return f"{name} is seat {value}, which no longer takes part (inactive)"
    return None
