"""The league's SQLite database: its settings, the bots' sources, the games played.

One file holds everything: ``league`` (the game, the number of players, the seed, the next
deal), ``bots`` (every version of every entry: a later entry under a name is a new version,
and the old version's games stay), ``learners`` (on a class server with a roster: whose each
bot name is, and which names are withdrawn because their learner's newer entry replaced them)
and ``games`` (each game's deal, seats, points, ranks, faults and the whole game as saved by
``Game.to_dict``).  Only the referee's side writes it,
in one transaction per batch of games; bots never see it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .errors import LeagueError

__all__ = ["Store", "Bot", "GameRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS league (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS bots (
    name TEXT NOT NULL, version INTEGER NOT NULL, source TEXT NOT NULL, player TEXT NOT NULL,
    entered TEXT NOT NULL, PRIMARY KEY (name, version));
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT, deal INTEGER NOT NULL, rotation INTEGER NOT NULL,
    seats TEXT NOT NULL, points TEXT NOT NULL, ranks TEXT NOT NULL, winner INTEGER,
    faults TEXT NOT NULL, forfeits TEXT NOT NULL, record TEXT NOT NULL, played TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS owners (name TEXT PRIMARY KEY, token_sha256 TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learners (name TEXT PRIMARY KEY, learner TEXT NOT NULL, withdrawn INTEGER NOT NULL);
"""
_TABLES = {"league", "bots", "games"}


@dataclass(frozen=True)
class Bot:
    name: str
    version: int
    source: str
    player: str          # the class name the sandbox found
    entered: str


@dataclass(frozen=True)
class GameRow:
    """One stored game: ``seats`` as (name, version) by seat, ``points`` (higher is better),
    ``ranks`` (0 best), the faults of each seat and why a seat forfeited ('' if it did not)."""

    id: int
    deal: int
    rotation: int
    seats: tuple[tuple[str, int], ...]
    points: tuple[int, ...]
    ranks: tuple[int, ...]
    winner: int | None
    faults: tuple[tuple[str, ...], ...]
    forfeits: tuple[str, ...]
    played: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.seats)

    @property
    def result(self) -> dict[str, Any]:
        """Who won (a name, or None for a blocked hand), each name's points, who forfeited."""
        return {"winner": None if self.winner is None else self.names[self.winner],
                "points": dict(zip(self.names, self.points, strict=True)),
                "forfeits": [n for n, why in zip(self.names, self.forfeits, strict=True) if why]}


class Store:
    """The database of one league (created when missing)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        fresh = not self.path.exists()
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            if not fresh:
                found = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if not _TABLES <= found:
                    missing = ", ".join(sorted(_TABLES - found))
                    raise LeagueError(f"{self.path} is a database, but not a league's (it has no {missing} table)")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as err:
            raise LeagueError(f"{self.path} is not a league database: {err}") from None

    def close(self) -> None:
        self.db.close()

    # --- settings --------------------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM league")}

    def set(self, **values: Any) -> None:
        with self._transaction():
            for key, value in values.items():
                self.db.execute("INSERT OR REPLACE INTO league VALUES (?, ?)", (key, json.dumps(value)))

    # --- bots ------------------------------------------------------------------------------------
    def add_bot(self, name: str, source: str, player: str, learner: str | None = None) -> Bot:
        """A new version of bot ``name``; with ``learner`` (a roster learner) it is that learner's
        one bot: their bots under other names are withdrawn in the same transaction."""
        with self._transaction():
            (last,) = self.db.execute("SELECT COALESCE(MAX(version), 0) FROM bots WHERE name=?", (name,)).fetchone()
            entered = datetime.now(timezone.utc).isoformat(timespec="seconds")
            self.db.execute("INSERT INTO bots VALUES (?, ?, ?, ?, ?)", (name, last + 1, source, player, entered))
            if learner is not None:
                self.db.execute("UPDATE learners SET withdrawn=1 WHERE learner=? AND name<>?", (learner, name))
                self.db.execute("INSERT OR REPLACE INTO learners VALUES (?, ?, 0)", (name, learner))
        return Bot(name, last + 1, source, player, entered)

    def names_not_of(self, learner: str) -> list[str]:
        """Every bot name ever entered (withdrawn ones too: old games carry them) that is not
        ``learner``'s: names another learner, or the teacher, entered first."""
        rows = self.db.execute("SELECT DISTINCT name FROM bots WHERE name NOT IN "
                               "(SELECT name FROM learners WHERE learner=?) ORDER BY name", (learner,))
        return [str(name) for (name,) in rows]

    def owner(self, name: str) -> str | None:
        """The SHA-256 of the token that may replace bot ``name`` (entered on the class server)."""
        found = self.db.execute("SELECT token_sha256 FROM owners WHERE name=?", (name,)).fetchone()
        return None if found is None else str(found[0])

    def owned(self, token_sha256: str) -> str | None:
        """The name of the bot whose token has SHA-256 ``token_sha256`` (None: no bot's)."""
        found = self.db.execute("SELECT name FROM owners WHERE token_sha256=?", (token_sha256,)).fetchone()
        return None if found is None else str(found[0])

    def set_owner(self, name: str, token_sha256: str) -> None:
        with self._transaction():
            self.db.execute("INSERT OR REPLACE INTO owners VALUES (?, ?)", (name, token_sha256))

    def bots(self) -> list[Bot]:
        """The current version of every bot, by name (not a learner's withdrawn ones)."""
        rows = self.db.execute("SELECT name, version, source, player, entered FROM bots b WHERE version = "
                               "(SELECT MAX(version) FROM bots WHERE name = b.name) AND name NOT IN "
                               "(SELECT name FROM learners WHERE withdrawn=1) ORDER BY name")
        return [Bot(*row) for row in rows]

    # --- games -----------------------------------------------------------------------------------
    def add_games(self, games: Sequence[tuple[int, int, Sequence[tuple[str, int]], dict[str, Any]]]) -> list[int]:
        """Store finished games, each (deal, rotation, seats, the referee's record), in one go."""
        played = datetime.now(timezone.utc).isoformat(timespec="seconds")
        ids = []
        with self._transaction():
            for deal, rotation, seats, r in games:
                cur = self.db.execute(
                    "INSERT INTO games (deal, rotation, seats, points, ranks, winner, faults, forfeits, record, played)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (deal, rotation, json.dumps([list(s) for s in seats]), json.dumps(r["points"]),
                     json.dumps(r["ranks"]), r["winner"], json.dumps(r["faults"]), json.dumps(r["forfeits"]),
                     json.dumps(r["game"]), played))
                ids.append(int(cur.lastrowid or 0))
        return ids

    def games(self, name: str | None = None, version: int | None = None) -> list[GameRow]:
        """The stored games in the order they were recorded (those of ``name`` only, if given)."""
        rows = [self._row(r) for r in self.db.execute(
            "SELECT id, deal, rotation, seats, points, ranks, winner, faults, forfeits, played FROM games ORDER BY id")]
        if name is not None:
            rows = [g for g in rows if any(n == name and (version is None or v == version) for n, v in g.seats)]
        return rows

    def record(self, game_id: int) -> dict[str, Any]:
        """The saved game (``Game.to_dict``) of game ``game_id``."""
        found = self.db.execute("SELECT record FROM games WHERE id=?", (game_id,)).fetchone()
        if found is None:
            raise LeagueError(f"there is no game {game_id!r} in {self.path}")
        return dict(json.loads(found[0]))

    def game(self, game_id: int) -> GameRow:
        for row in self.db.execute("SELECT id, deal, rotation, seats, points, ranks, winner, faults, forfeits, "
                                   "played FROM games WHERE id=?", (game_id,)):
            return self._row(row)
        raise LeagueError(f"there is no game {game_id!r} in {self.path}")

    @staticmethod
    def _row(r: tuple[Any, ...]) -> GameRow:
        return GameRow(r[0], r[1], r[2], tuple((n, v) for n, v in json.loads(r[3])), tuple(json.loads(r[4])),
                       tuple(json.loads(r[5])), r[6], tuple(tuple(f) for f in json.loads(r[7])),
                       tuple(json.loads(r[8])), r[9])

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
