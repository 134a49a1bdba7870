"""The class tables on disk (SQLite): each table's settings, its seats (names and the hashes of
their tokens) and every action in the order the server accepted it.  An action is written and
committed before anyone hears of it, so a server killed at any moment and started again on the
same file replays every table to the same move (``Server`` does this when it starts).  A table
records the Move it made; it is written here, once, as the wire writes a move (``WireMove``)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from ..core.moves import Move
from .messages import move_to_wire

__all__ = ["Store", "new_token", "token_hash", "same_token"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY, spec TEXT NOT NULL, created REAL NOT NULL, closed REAL);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL, n INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (code, n));
"""


def new_token() -> str:
    """A secret for a seat or the teacher (128 random bits)."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """What is stored of a token: its SHA-256 (the file alone does not let anyone take a seat)."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_token(token: str, stored_hash: str | None) -> bool:
    return stored_hash is not None and hmac.compare_digest(token_hash(token), stored_hash)


class Store:
    """One SQLite file; every method commits before it returns.  Thread-safe (one lock): the
    server's loop writes, a teacher's Python thread may create a table at the same time."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a killed process loses nothing
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- the teacher's token -----------------------------------------------------------------------
    def teacher_hash(self) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'teacher'").fetchone()
        return None if row is None else str(row[0])

    def set_teacher(self, token: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('teacher', ?)", (token_hash(token),))

    # --- tables and their actions ----------------------------------------------------------------------
    def add_table(self, code: str, spec: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute("INSERT INTO tables VALUES (?, ?, ?, NULL)", (code, json.dumps(spec), time.time()))

    def close_table(self, code: str) -> None:
        with self._lock:
            self._db.execute("UPDATE tables SET closed = ? WHERE code = ?", (time.time(), code))

    def open_tables(self) -> list[tuple[str, dict[str, Any]]]:
        rows = self._db.execute("SELECT code, spec FROM tables WHERE closed IS NULL ORDER BY created").fetchall()
        return [(code, json.loads(spec)) for code, spec in rows]

    def append(self, code: str, n: int, kind: str, data: dict[str, Any]) -> None:
        """Action ``n`` of table ``code`` (a duplicate ``n`` is an error: nothing is written twice)."""
        with self._lock:
            self._db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                             (code, n, kind, json.dumps(data, default=_on_disk), time.time()))

    def actions(self, code: str) -> list[tuple[int, str, dict[str, Any]]]:
        """Every action of table ``code`` in order: (n, kind, data) as written (JSON)."""
        rows = self._db.execute("SELECT n, kind, data FROM actions WHERE code = ? ORDER BY n", (code,)).fetchall()
        return [(n, kind, json.loads(data)) for n, kind, data in rows]


def _on_disk(value: Any) -> Any:
    """What JSON keeps of a value of an action that is not JSON itself: a Move as the wire writes it."""
    if isinstance(value, Move):
        return move_to_wire(value)
    raise TypeError(f"an action holds no {type(value).__name__}")
