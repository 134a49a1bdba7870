"""Checks that fail alike: learners who give the same rare wrong answers on the same positions.

While a notebook is graded, every ``check`` of a test cell records what the learner's code answered
on the test's position (``checks``, ``verdict``), hidden tests included.  ``check_answers`` keeps,
for the learner's row, the position of every check answered (the check and its expected value) and
each answer that differs from the instructor's: which check, what the code answered.  Two learners
whose code is wrong in the same way where the rest of the class differs (the answer is *rare*:
given by at most ``max(2, RARE_SHARE)`` of the learners who answered that position, and not by all
of them) and in at least ``MIN_SCENARIOS`` different scenarios are a pair to look at: independent
mistakes seldom agree on the same wrong numbers.

A common mistake (forgetting the skip: the next player moves) is given by many and is no evidence.
Where positions differ per learner (a variant), answers are compared, and their rarity judged,
only among the learners who got the same position.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from .exercise import TEST, GradedCell
from .kernel import CellRun
from .verdict import same

__all__ = ["RARE_SHARE", "MIN_SCENARIOS", "MAX_ANSWERS", "MAX_CHECKS", "check_answers", "shared_answers"]

#: An answer given by more than this share of the learners who answered its position (and by more than 2) is common.
RARE_SHARE = 0.1
#: Flagged: rare wrong answers shared in at least this many scenarios (one mistake fails several checks of one).
MIN_SCENARIOS = 2
#: The wrong answers kept of one notebook, and the checks whose position is kept (a row is stored in the gradebook).
MAX_ANSWERS = 40
MAX_CHECKS = 400
_CHARS = 200


def _hash(*parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, ensure_ascii=True, default=repr)
    return hashlib.blake2b(text.encode("ascii"), digest_size=12).hexdigest()


def _records(report: Any) -> list[dict[str, Any]]:
    return [r for r in report if isinstance(r, dict)] if isinstance(report, list) else []


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= _CHARS else text[: _CHARS - 1] + "…"


def _answered(key: str, want_list: list[Any], got_list: list[dict[str, Any]]) -> Iterable[dict[str, str]]:
    """The checks of one test cell the learner's code answered, in order: each its position (the
    check and its expected value), and for a wrong answer what was asked and answered."""
    for n, (want, got) in enumerate(zip(want_list, got_list, strict=False)):
        if not isinstance(want, dict) or want.get("kind") not in ("value", "moves"):
            continue
        if (got.get("kind"), got.get("what"), got.get("scenario")) != (want.get("kind"), want.get("what"),
                                                                       want.get("scenario")):
            continue  # not the same check: the learner's records are out of step
        position = _hash(key, n, want.get("value"))
        if same(want.get("value"), got.get("value")):
            yield {"pos": position}
            continue
        scenario = want.get("scenario")
        yield {"pos": position, "test": key,
               "scenario": ": ".join(s for s in scenario if isinstance(s, str)) if isinstance(scenario, list) else "",
               "what": _text(want.get("what", "")), "expected": _text(want.get("repr", "")),
               "got": _text(got.get("repr", "")), "sig": _hash(position, got.get("value"))}


def check_answers(cells: Sequence[GradedCell], runs: Sequence[CellRun],
                  reference: Mapping[str, list[Any]]) -> list[dict[str, str]]:
    """What the learner's code answered on the checks of ``cells``'s test cells, from their ``runs`` and
    the instructor's ``reference`` records (by test key): the position of every check answered (at
    most MAX_CHECKS), and of the wrong answers (at most MAX_ANSWERS) also the test, its scenario and
    check (the instructor's words), the expected and the learner's answer (as shown, cut short) and a
    signature to compare them by."""
    found: list[dict[str, str]] = []
    wrong = 0
    for cell, run in zip(cells, runs, strict=True):
        if cell.role != TEST or cell.key is None:
            continue
        for answer in _answered(cell.key, reference.get(cell.key, []), _records(run.report)):
            if "sig" in answer:
                if wrong >= MAX_ANSWERS:
                    answer = {"pos": answer["pos"]}
                wrong += 1
            found.append(answer)
            if len(found) >= MAX_CHECKS:
                return found
    return found


def shared_answers(answers: Mapping[str, Mapping[str, Sequence[Mapping[str, str]]]]
                   ) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """The pairs of learners (in name order) who share rare wrong answers in at least MIN_SCENARIOS
    scenarios, with those answers (each with its exercise and how many others gave it).  ``answers``:
    by exercise, by learner graded on it, what their code answered (``check_answers``).  An answer is
    rare among the learners who answered the same position (a variant's positions differ)."""
    pairs: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for exercise, by_learner in sorted(answers.items()):
        asked: dict[str, set[str]] = defaultdict(set)   # position: the learners who answered it
        holders: dict[str, list[str]] = defaultdict(list)
        first: dict[str, Mapping[str, str]] = {}
        for who in sorted(by_learner):
            for answer in by_learner[who]:
                if not isinstance(answer, Mapping):
                    continue
                asked[str(answer.get("pos", ""))].add(who)
                sig = str(answer.get("sig", ""))
                if sig and who not in holders[sig]:
                    holders[sig].append(who)
                    first.setdefault(sig, answer)
        for sig, owners in holders.items():
            answered = len(asked[str(first[sig].get("pos", ""))])
            if not 2 <= len(owners) <= max(2, int(RARE_SHARE * answered)) or len(owners) >= answered:
                continue
            for pair in combinations(owners, 2):
                pairs[pair].append({"exercise": exercise, **{k: str(v) for k, v in first[sig].items()},
                                    "others": len(owners) - 2})
    return {pair: found for pair, found in pairs.items()
            if len({(a["exercise"], a.get("test"), a.get("scenario")) for a in found}) >= MIN_SCENARIOS}
