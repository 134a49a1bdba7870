"""Standings with honesty: the conservative ordinal, a win rate with its Wilson interval, and
which bots the games so far cannot tell apart.

Two bots are told apart when their ``mu`` differ by more than 1.96 standard errors of the
difference (``sqrt(sigma_a**2 + sigma_b**2)``); otherwise each row names the other among
``tied_with``.  Only each bot's current version counts; its games are the games of that version.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .ratings import rate
from .store import Bot, GameRow

__all__ = ["Row", "standings", "wilson"]

Z = 1.96


def wilson(wins: int, games: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of a win rate (0, 1 for no games)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    # (at 0 or all wins the bound is exactly the rate; rounding must not leave it a hair inside)
    low = 0.0 if wins == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if wins == games else min(1.0, max(p, centre + half))
    return low, high


@dataclass(frozen=True)
class Row:
    """One bot's line of the standings."""

    name: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    wins: int
    points: int
    faults: int
    forfeits: int
    version: int = 1
    win_low: float = 0.0
    win_high: float = 1.0
    tied_with: tuple[str, ...] = field(default=())

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def standings(bots: Sequence[Bot], games: Sequence[GameRow]) -> list[Row]:
    """The rows, best (highest ordinal) first."""
    skill = rate(games)
    rows = []
    for bot in bots:
        key = (bot.name, bot.version)
        mu, sigma = skill.get(key, (25.0, 25.0 / 3))
        mine = [(g, g.seats.index(key)) for g in games if key in g.seats]
        wins = sum(1 for g, s in mine if g.winner == s and not g.forfeits[s])
        low, high = wilson(wins, len(mine))
        rows.append(Row(bot.name, mu - 3 * sigma, mu, sigma, len(mine), wins, sum(g.points[s] for g, s in mine),
                        sum(len(g.faults[s]) for g, s in mine), sum(1 for g, s in mine if g.forfeits[s]),
                        bot.version, low, high))
    rows.sort(key=lambda r: (-r.ordinal, r.name))
    return [_with_ties(r, rows) for r in rows]


def _with_ties(row: Row, rows: list[Row]) -> Row:
    tied = tuple(o.name for o in rows if o.name != row.name
                 and abs(o.mu - row.mu) <= Z * math.sqrt(o.sigma ** 2 + row.sigma ** 2))
    return Row(**{**row.__dict__, "tied_with": tied})
