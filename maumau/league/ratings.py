"""Ratings: openskill's Plackett-Luce model, one update per game in the order played.

Each (bot, version) has a rating (``mu``, ``sigma``); a game's ranks (``referee``: forfeits
last, the winner first, the others by their points, then by the cards they hold, so that a
blocked hand ranks the one who hoarded cards below the others) update the ratings of its seats.  The
standings show the *ordinal* ``mu - 3 sigma``: a conservative estimate that rises only as
the games make a bot's skill certain.  Replaying every stored game gives the same ratings
whichever worker finished which game first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..extras import need
from .store import GameRow

__all__ = ["rate", "Skill"]

Skill = tuple[float, float]  # mu, sigma


def _model() -> Any:
    return need("openskill.models", "maumau.league").PlackettLuce()


def rate(games: Iterable[GameRow]) -> dict[tuple[str, int], Skill]:
    """The rating of every (name, version) after ``games`` (in order)."""
    model = _model()
    ratings: dict[tuple[str, int], Any] = {}
    for g in games:
        if len(set(g.seats)) < len(g.seats):
            continue  # a bot against itself (a filled-up table): nothing to learn
        teams = [[ratings.setdefault(seat, model.rating(name=seat[0]))] for seat in g.seats]
        updated = model.rate(teams, ranks=list(g.ranks))
        for seat, (rating,) in zip(g.seats, updated, strict=True):
            ratings[seat] = rating
    return {seat: (r.mu, r.sigma) for seat, r in ratings.items()}
