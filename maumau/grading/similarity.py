"""Similarity flags: after grading, the pairs of learners whose work is alike, with the evidence.

A pair is flagged when their code is close (``similarity_code``: winnowed fingerprints of their
solution code, blind to names, comments and order, minus what everyone has) or when their checks
fail alike (``similarity_answers``: the same rare wrong answers on the same positions).  A flag
is a question for the teacher, never a verdict: nothing is penalised, the course page shows the
pair's code side by side with the matching lines marked and the answers they share
(``similarity_page``), teacher-only.

``maumau grade`` flags the pairs of the notebooks of its batch (stage ``similar`` of
``grader.PIPELINE``); with ``--gradebook`` the flags of its last run are kept in the gradebook's
SQLite file, where the class server's course page finds them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .exercise import SOLUTION, Exercise, GradedCell, student_cell_source
from .gradebook import Row
from .similarity_answers import shared_answers
from .similarity_code import Code, CodeMatch, close_pairs, code_matches, common_kgrams, fingerprint_code

__all__ = ["CodeEvidence", "Flag", "find_flags", "solution_codes", "answers_of", "save_flags", "load_flags",
           "MAX_SHOWN_CHARS"]

#: Of each learner's code, what a flag keeps to show (the page marks the matching lines in it).
MAX_SHOWN_CHARS = 20_000


@dataclass(frozen=True)
class CodeEvidence:
    """One exercise of a flagged pair: the distinctive fingerprints they share, of how many, and
    each learner's code with the lines (from 1) the shared fingerprints cover."""

    exercise: str
    shared: int
    of: int
    code: tuple[str, str]
    lines: tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Flag:
    """Two learners (in name order) whose work is alike: how close their code is (shared of the
    smaller one's distinctive fingerprints, 0 to 1; 0 when only their answers agree), the
    exercises whose code matches and the rare wrong answers they share."""

    learners: tuple[str, str]
    score: float = 0.0
    code: tuple[CodeEvidence, ...] = ()
    answers: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"learners": list(self.learners), "score": self.score, "answers": list(self.answers),
                "code": [{"exercise": c.exercise, "shared": c.shared, "of": c.of, "code": list(c.code),
                          "lines": [list(c.lines[0]), list(c.lines[1])]} for c in self.code]}

    @classmethod
    def from_dict(cls, data: Any) -> Flag | None:
        """The flag ``data`` holds (as ``to_dict`` made it), or None for anything else."""
        try:
            a, b = (str(x) for x in data["learners"])
            code = tuple(CodeEvidence(str(c["exercise"]), int(c["shared"]), int(c["of"]),
                                      (str(c["code"][0]), str(c["code"][1])),
                                      (tuple(int(n) for n in c["lines"][0]), tuple(int(n) for n in c["lines"][1])))
                         for c in data.get("code", []))
            answers = tuple({str(k): v if isinstance(v, int) else str(v) for k, v in x.items()}
                            for x in data.get("answers", []) if isinstance(x, dict))
            return cls((a, b), float(data.get("score", 0.0)), code, answers)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return None


def _shown(text: str) -> str:
    return text if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS] + "\n…"


def _beside(codes: Mapping[str, Mapping[str, Code]], pair: tuple[str, str], exercises: Iterable[str],
            matches: Mapping[str, CodeMatch]) -> tuple[CodeEvidence, ...]:
    """The two learners' code of ``exercises`` side by side, the lines of what they share marked (if any)."""
    found = []
    for exercise in sorted(set(exercises)):
        mine = codes.get(exercise, {})
        if pair[0] not in mine or pair[1] not in mine:
            continue
        m = matches.get(exercise)
        found.append(CodeEvidence(exercise, m.shared if m else 0, m.of if m else 0,
                                  (_shown(mine[pair[0]].text), _shown(mine[pair[1]].text)), m.lines if m else ((), ())))
    return tuple(found)


def find_flags(codes: Mapping[str, Mapping[str, Code]],
               answers: Mapping[str, Mapping[str, Any]]) -> list[Flag]:
    """The flagged pairs, closest code first: ``codes`` by exercise and learner (``solution_codes``),
    ``answers`` by exercise and learner graded on it (``answers_of``).  A pair flagged for its answers
    alone has its code of those exercises beside them too."""
    close = close_pairs(codes)
    alike = shared_answers(answers)
    matches = code_matches(codes) if set(alike) - set(close) else {}
    flags = []
    for pair in sorted(set(close) | set(alike)):
        if pair in close:
            score, found = close[pair]
            evidence = tuple(CodeEvidence(m.exercise, m.shared, m.of, (_shown(m.code[0]), _shown(m.code[1])), m.lines)
                             for m in found)
        else:
            score = 0.0
            evidence = _beside(codes, pair, (a["exercise"] for a in alike[pair]),
                               {m.exercise: m for m in matches.get(pair, [])})
        flags.append(Flag(pair, round(score, 3), evidence, tuple(alike.get(pair, ()))))
    return sorted(flags, key=lambda f: (-f.score, -len(f.answers), f.learners))


# --- from the grader's batch --------------------------------------------------------------------------------

def _common(exercise: Exercise) -> set[int]:
    """The k-grams everyone has for ``exercise``: its solution cells as given and as the instructor solved them."""
    cells = [c for c in exercise.cells if c.role == SOLUTION and c.cell.cell_type == "code"]
    return common_kgrams([c.source for c in cells] + [student_cell_source(c, exercise.language) for c in cells])


def solution_codes(jobs: Iterable[tuple[Row, Exercise, list[GradedCell], Any]]) -> dict[str, dict[str, Code]]:
    """Each learner's solution code by exercise, fingerprinted, from the grader's jobs (row, the
    exercise it was graded with, its assembled cells, files)."""
    commons: dict[tuple[str, str], set[int]] = {}
    codes: dict[str, dict[str, Code]] = {}
    for row, exercise, cells, _ in jobs:
        # by name and language: a learner's own draw of the positions changes tests, not solutions
        common = commons.get((exercise.name, exercise.language))
        if common is None:
            common = commons[(exercise.name, exercise.language)] = _common(exercise)
        sources = [c.source for c in cells if c.role == SOLUTION]
        codes.setdefault(row.exercise, {})[row.student] = fingerprint_code(sources, common)
    return codes


def answers_of(rows: Iterable[Row]) -> dict[str, dict[str, list[dict[str, str]]]]:
    """Each learner's wrong answers by exercise, for every learner whose tests were judged."""
    found: dict[str, dict[str, list[dict[str, str]]]] = {}
    for row in rows:
        if row.tests:
            found.setdefault(row.exercise, {})[row.student] = list(row.answers)
    return found


# --- kept in the gradebook ----------------------------------------------------------------------------------

_SCHEMA = "CREATE TABLE IF NOT EXISTS similar_flags (id INTEGER PRIMARY KEY, at TEXT NOT NULL, flags TEXT NOT NULL)"


def save_flags(path: str | Path, flags: Iterable[Flag]) -> None:
    """Keep ``flags`` in the gradebook at ``path`` as the flags of its last run."""
    at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with closing(sqlite3.connect(path, timeout=30)) as db, db:
        db.execute(_SCHEMA)
        db.execute("INSERT INTO similar_flags (at, flags) VALUES (?, ?)",
                   (at, json.dumps([f.to_dict() for f in flags], ensure_ascii=False)))


def load_flags(path: str | Path) -> tuple[str, list[Flag]]:
    """When the gradebook at ``path`` last flagged pairs, and its flags ("" and none before any)."""
    if not Path(path).is_file():
        return "", []
    try:
        with closing(sqlite3.connect(path, timeout=30)) as db:
            found = db.execute("SELECT at, flags FROM similar_flags ORDER BY id DESC LIMIT 1").fetchone()
    except sqlite3.Error:  # no such table yet: a gradebook of before the flags
        return "", []
    if found is None:
        return "", []
    try:
        data = json.loads(found[1])
    except (TypeError, ValueError):
        return str(found[0]), []
    flags = [Flag.from_dict(d) for d in data] if isinstance(data, list) else []
    return str(found[0]), [f for f in flags if f is not None]
