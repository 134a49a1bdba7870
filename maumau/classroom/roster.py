"""Who a learner is on a class server without a hub: the course's roster and a personal code each.

``maumau serve --roster roster.csv`` (``Server(..., roster="roster.csv")``) reads the roster that
``maumau export`` reads (``maumau.grading.export.read_roster_file``: columns ``learner,name,id,...``,
or Canvas's or Moodle's own export, each learner under the name ``lms_roster`` gives them).
Each learner on it gets a personal join code (``ABCD-EFGH-JKLM-NPQR``: 16 letters of 32, 80 random
bits from the operating system's secure source).  Only its SHA-256 is stored, in the server's
database, so the file alone lets nobody act for a learner; the code itself is shown to the teacher
only (``maumau table codes``, the lobby's teacher tools) and only by the server process that issued
it: after a restart the codes go on working, and the teacher prints a new one for a learner who
lost theirs (``maumau table codes --renew LEARNER``; the old one stops working).

A seat taken with a personal code belongs to that roster learner (their ``learner`` key, as in the
gradebook and the LMS export), whatever display name they type; a hand-in from that seat, or with
the personal code itself, is theirs.  Without a code a learner may still play under a display name,
but never under another roster learner's name, and cannot hand in.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .names import skeleton
from .store import token_hash

if TYPE_CHECKING:  # pragma: no cover
    from ..grading.export import RosterEntry

__all__ = ["Roster", "RosterError", "new_personal_code", "normal_code", "looks_like_a_personal_code"]

_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, no 1/I: read aloud and typed from paper
_GROUPS, _GROUP = 4, 4

_SCHEMA = """
CREATE TABLE IF NOT EXISTS personal_codes (
    learner TEXT PRIMARY KEY, code_hash TEXT NOT NULL UNIQUE, issued REAL NOT NULL);
"""


class RosterError(ValueError):
    """A roster the server cannot use, or a learner it does not have: the sentence says why."""


def new_personal_code() -> str:
    """A new personal code: four groups of four letters (80 random bits)."""
    letters = "".join(secrets.choice(_LETTERS) for _ in range(_GROUPS * _GROUP))
    return "-".join(letters[i:i + _GROUP] for i in range(0, len(letters), _GROUP))


def normal_code(code: str) -> str:
    """A personal code as typed (lower case, spaces or dashes anywhere) in its one written form."""
    letters = "".join(c for c in code.upper() if c not in " -\t")
    return "-".join(letters[i:i + _GROUP] for i in range(0, len(letters), _GROUP))


def looks_like_a_personal_code(code: object) -> bool:
    """Whether ``code`` has the shape of a personal code (a table's code is six letters)."""
    return isinstance(code, str) and len(normal_code(code).replace("-", "")) == _GROUPS * _GROUP


@dataclass(frozen=True)
class CodeLine:
    """One learner's line in the teacher's list: the code if this process issued it, else None."""

    learner: str
    name: str
    code: str | None
    issued: str

    def as_dict(self) -> dict[str, str | None]:
        return {"learner": self.learner, "name": self.name, "code": self.code, "issued": self.issued}


class Roster:
    """The course's learners and their personal codes (see the module docstring)."""

    def __init__(self, entries: Mapping[str, RosterEntry], db: str | Path) -> None:
        if not entries:
            raise RosterError("the roster names no learner")
        self.entries = dict(entries)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(db), check_same_thread=False, isolation_level=None)
        self._db.executescript(_SCHEMA)
        #: The codes this process issued, in plain, for the teacher to print: never stored.
        self._fresh: dict[str, str] = {}
        self._by_hash: dict[str, str] = {}
        for learner, code_hash in self._db.execute("SELECT learner, code_hash FROM personal_codes"):
            if learner in self.entries:
                self._by_hash[code_hash] = learner
        for learner in self.entries:
            if learner not in self._by_hash.values():
                self._issue(learner)
        for name in self.names_of_others(None):  # the confusables' data read now, not at the first join
            skeleton(name)

    @classmethod
    def load(cls, roster: str | Path | Mapping[str, RosterEntry], db: str | Path) -> Roster:
        """The roster of a file (``read_roster``) or a mapping; RosterError saying what is wrong."""
        from ..grading.export import ExportError, read_roster_file

        if isinstance(roster, Mapping):
            return cls(roster, db)
        try:
            return cls(read_roster_file(roster).by_learner(), db)
        except ExportError as err:
            raise RosterError(str(err)) from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- the codes ---------------------------------------------------------------------------------------
    def _issue(self, learner: str) -> str:
        code = new_personal_code()
        digest = token_hash(code)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO personal_codes VALUES (?, ?, ?)", (learner, digest, time.time()))
        self._by_hash = {h: who for h, who in self._by_hash.items() if who != learner}
        self._by_hash[digest] = learner
        self._fresh[learner] = code
        return code

    def renew(self, learner: str) -> str:
        """A new personal code for ``learner`` (``*``: for everyone); the old one stops working."""
        if learner == "*":
            for each in self.entries:
                self._issue(each)
            return "*"
        if learner not in self.entries:
            raise RosterError(f"{learner[:60]!r} is not on the roster")
        return self._issue(learner)

    def learner_for(self, code: str) -> str | None:
        """The roster learner whose personal code ``code`` is (typed in any case, with or without
        dashes), or None.  The code is hashed first: no comparison of secrets takes its time from them."""
        if not isinstance(code, str) or not looks_like_a_personal_code(code):
            return None
        learner = self._by_hash.get(token_hash(normal_code(code)))
        return learner if learner in self.entries else None

    def lines(self) -> list[CodeLine]:
        """The teacher's list: every learner, their display name and their code where this process
        still knows it (it issued it); the time it was issued."""
        issued = dict(self._db.execute("SELECT learner, issued FROM personal_codes").fetchall())
        return [CodeLine(learner, self.display_name(learner), self._fresh.get(learner),
                         time.strftime("%Y-%m-%d %H:%M", time.localtime(issued.get(learner, 0))))
                for learner in sorted(self.entries, key=lambda x: (self.display_name(x).casefold(), x))]

    # --- names -------------------------------------------------------------------------------------------
    def display_name(self, learner: str) -> str:
        """How a learner is shown when they type no name: the roster's name, else their key."""
        entry = self.entries[learner]
        return entry.name or entry.learner

    def names_of_others(self, learner: str | None) -> list[str]:
        """The names (keys and display names) of every roster learner but ``learner``: a learner
        may not sit under one of them."""
        return [n for key, e in self.entries.items() if key != learner for n in (e.learner, e.name) if n]
