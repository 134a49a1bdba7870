"""Fair schedules: duplicate deals, and who meets whom.

*Duplicate deals*: each deal is played once per seat rotation, so at a table every bot gets
the same cards in every seat; luck of the deal cancels out.  *Who meets whom*, per deal:
every group of ``players`` bots (round robin) while there are at most ``ROUND_ROBIN_TABLES``
such groups; beyond that (a class of 60) random tables, or Swiss tables (bots of similar
rating together).  Every choice comes from the league's seed and the deal's number, so a
league played again from its seed plays the same games.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from .errors import LeagueError

__all__ = ["Fixture", "derive", "tables", "rotations", "PAIRINGS", "ROUND_ROBIN_TABLES"]

#: Round robin while a deal has at most this many tables; random or Swiss tables beyond.
ROUND_ROBIN_TABLES = 40
PAIRINGS = ("auto", "round-robin", "random", "swiss")


def derive(seed: int, *parts: object) -> int:
    """A 63-bit number from the league's seed and ``parts`` (stable across runs and machines)."""
    text = ":".join(map(str, (seed, *parts)))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass(frozen=True)
class Fixture:
    """One game of the schedule: the deal, the rotation, the bots by seat."""

    deal: int
    rotation: int
    seats: tuple[str, ...]


def rotations(deal: int, group: Sequence[str]) -> list[Fixture]:
    """The deal played once per seat rotation of ``group``."""
    n = len(group)
    return [Fixture(deal, r, tuple(group[(s + r) % n] for s in range(n))) for r in range(n)]


def tables(names: Sequence[str], players: int, deal: int, seed: int, pairing: str = "auto",
           order: Sequence[str] | None = None) -> list[Fixture]:
    """The games of deal number ``deal`` for the bots ``names``: groups of ``players``, each
    in every seat rotation.  ``order`` (best first) is the current standing, for Swiss tables."""
    if pairing not in PAIRINGS:
        raise LeagueError(f"pairing is one of {', '.join(PAIRINGS)}, not {pairing!r}")
    names = sorted(names)
    if len(names) < players:
        raise LeagueError(f"a game of this league needs {players} bots; {len(names)} entered")
    if pairing == "auto":
        pairing = "round-robin" if comb(len(names), players) <= ROUND_ROBIN_TABLES else "random"
    rng = random.Random(derive(seed, "tables", deal))
    if pairing == "round-robin":
        groups = [list(g) for g in combinations(names, players)]
    else:
        ranked = list(names)
        rng.shuffle(ranked)
        if pairing == "swiss" and order:
            place = {name: i for i, name in enumerate(order)}
            ranked.sort(key=lambda name: place.get(name, len(place)))
        groups = _split(ranked, players, rng)
    return [t for group in groups for t in rotations(deal, group)]


def _split(ranked: list[str], players: int, rng: random.Random) -> list[list[str]]:
    """Consecutive groups of ``players``; the last one filled up with bots drawn from the others
    (they play this deal twice, everyone plays at least once)."""
    groups = [ranked[i:i + players] for i in range(0, len(ranked), players)]
    if len(groups[-1]) < players:
        short = groups[-1]
        others = [name for name in ranked if name not in short]
        short += rng.sample(others, players - len(short))
    return groups
