"""Card views for Jupyter: play at a table, replay a game, explore the rules.

>>> import maumau as mm
>>> table = mm.play("makao", opponents=3, strength="medium", seed=7, lang="de")   # doctest: +SKIP
>>> mm.replay(table)                                                               # doctest: +SKIP

Every view speaks English, German or Hungarian (``lang="en" | "de" | "hu"``) from the one
message catalogue of ``maumau.text.i18n``.
"""

from __future__ import annotations

from typing import Any

from ..core.variants import Variant
from .explorer import RulesExplorer
from .replay import ReplayView
from .table import TableView

__all__ = ["play", "replay", "explore", "TableView", "ReplayView", "RulesExplorer"]


def play(game: str | Variant = "makao", opponents: int = 3, **options: Any) -> TableView:
    """A card table: you (seat 0) against ``opponents`` computer players, a whole match.

    Options: ``strength`` ("easy", "medium", "hard"), ``seed``, ``lang`` ("en", "de", "hu"),
    ``delay`` (seconds between the computers' moves), ``step=True`` (a "Next move" button
    instead), ``name`` and ``names`` (yours and the others'), ``open_hands=True`` (teacher
    view), ``players`` (your own computer players), ``start`` (a position to play from),
    ``colours="four"`` (a four-colour deck: diamonds blue, clubs green) and ``contrast="high"``
    (black table, white text, thick outlines).  The keys: arrows choose a card, Enter or Space
    plays it, D draws, P passes, M announces (docs: explanation/accessibility).
    """
    return TableView(game, opponents, **options)


def replay(source: Any, **options: Any) -> ReplayView:
    """Step through a game: a ``Game``, a table from ``play``, a ``Match`` or a hand result.

    Options: ``lang``, ``names``, ``at`` (the move to show first; default the end), ``colours="four"``,
    ``contrast="high"``.
    """
    return ReplayView(source, **options)


def explore(game: str | Variant = "makao", **options: Any) -> RulesExplorer:
    """Switch single rules of a variant off or on, then play or simulate the result.

    Options: ``lang``, ``players``, ``strength``, ``games``, ``seed``, ``delay``, ``colours="four"``,
    ``contrast="high"`` (also for the table it plays)."""
    return RulesExplorer(game, **options)
