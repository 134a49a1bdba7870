"""A league game in ``mm.replay``: the bots' names at their seats, every hand open."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .league import League

__all__ = ["replay", "seat_names"]


def seat_names(names: tuple[str, ...]) -> list[str]:
    """The names to show: a bot at two seats of a filled-up table is told apart by its seat."""
    return [f"{name} ({seat + 1})" if names.count(name) > 1 else name for seat, name in enumerate(names)]


def replay(lg: League, game_id: int, **options: Any) -> Any:
    """``mm.replay`` of game ``game_id`` (the replay viewer shows every hand; a game is
    replayed only after it is over, so nothing it shows was hidden from a player still playing)."""
    from ..widgets import replay as open_replay

    row = lg.store.game(game_id)
    return open_replay(lg.game(game_id), names=seat_names(row.names), **options)
