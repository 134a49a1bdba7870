"""The class server's SQLite file, as the LTI tool uses it: opened for one transaction, committed
(or rolled back) and closed, so no connection outlives its few rows (the tool's keys, the LMS users)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

__all__ = ["transaction"]


@contextmanager
def transaction(db: str | Path) -> Iterator[sqlite3.Connection]:
    """One transaction on ``db``: committed when the block ends, rolled back if it raises."""
    with closing(sqlite3.connect(str(db), timeout=10)) as con, con:
        yield con
