"""Strength names: ``easy``, ``medium`` and ``hard`` map to Random, Heuristic and Search."""

from __future__ import annotations

from typing import Any

__all__ = ["STRENGTHS", "for_strength", "strength_names"]

#: Which class of ``maumau.players`` plays at each strength.
STRENGTHS = {"easy": "Random", "medium": "Heuristic", "hard": "Search"}


def strength_names() -> list[str]:
    """Every name ``for_strength`` accepts: the strengths, then the class names."""
    return [*STRENGTHS, *(name.lower() for name in STRENGTHS.values())]


def player_class(name: str) -> type:
    """The player class for a strength or class name (any letter case)."""
    from .. import players  # looked up at call time, so a replaced class is found

    if not isinstance(name, str):
        raise TypeError(f"a strength is a name like 'easy', not {name!r}")
    key = name.strip().lower()
    cls_name = STRENGTHS.get(key) or next((c for c in STRENGTHS.values() if c.lower() == key), None)
    if cls_name is None:
        raise ValueError(f"unknown strength {name!r}: choose one of {', '.join(strength_names())}")
    cls: type = getattr(players, cls_name)
    return cls


def for_strength(name: str, seed: int | None = None, **options: Any) -> Any:
    """A new computer player of strength ``name``: ``"easy"`` (Random), ``"medium"``
    (Heuristic), ``"hard"`` (Search), or a class name (``"search"``, ``"Heuristic"``).

    >>> for_strength("hard", seed=1)
    Search()
    >>> for_strength("medium")
    Heuristic()
    """
    return player_class(name)(seed=seed, **options)
