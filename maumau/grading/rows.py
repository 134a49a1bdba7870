"""A learner's row: one notebook scored from its cells' runs, with the statuses, notes and
messages that grades.csv and the feedback show (``report``).  Messages are redacted (no
line of a solution or hidden test) and short; after the first hidden test no learner text
reaches them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .assembly import GradedCell
from .notebook import LOCKED, SOLUTION, TEST, Exercise, secret_lines
from .runner import DIED, ERROR, NOT_RUN, OK, TIMEOUT, CellRun, NotebookRun
from .verdict import judge

if TYPE_CHECKING:  # pragma: no cover
    from .gradebook import Change

__all__ = ["STATUSES", "MESSAGE_CHARS", "TestResult", "Row", "Grades", "run_message", "fmt_points", "score_row"]

#: Row statuses, worst first: the first that applies is the row's status.
STATUSES = ("grader error", "invalid notebook", "missing", "unknown exercise", "duplicate",
            "timeout", "kernel died", "memory limit", "error", "needs manual grading", "ok")
MESSAGE_CHARS = 300
#: What a row says of any failure of a cell at or after the first hidden test: which cell, its
#: text and how it failed are the learner's code's choice, and could carry the hidden test back.
QUIET_PROBLEM = "a cell at or after the hidden tests did not run cleanly (which one and how is not said)"


@dataclass
class TestResult:
    """One test cell's result as grades.csv and the feedback show it (its message redacted)."""

    key: str
    title: str
    points: float
    max_points: float
    passed: bool
    hidden: bool
    message: str = ""


@dataclass
class Row:
    """One learner and exercise: the line of grades.csv, with the details for feedback."""

    student: str
    exercise: str
    score: float = 0.0
    max_score: float = 0.0
    status: str = OK
    message: str = ""
    seconds: float = 0.0
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    manual_pending: float = 0.0    # points of answers a teacher still has to grade by hand
    submitted: str = ""            # when it was handed in (ISO 8601 with its zone), "" when not known
    late_days: int = 0             # started days after the learner's due time (``deadlines``)
    penalty: float = 0.0           # share of the score lost to lateness, 0 to 1
    extended: bool = False         # the learner's due time is an extension

    @property
    def final(self) -> float:
        """The score after the late penalty."""
        return round(self.score * (1.0 - self.penalty), 6)

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tests)

    @property
    def failed(self) -> int:
        return sum(not t.passed for t in self.tests)


class Grades(list[Row]):
    """The rows of a batch, and whether its kernels ran isolated (``Sandbox.isolation``)."""

    isolated: bool = True
    isolation: str = "no notebook was run"
    run: int = 0                      # the gradebook's number of this run (0: no gradebook)
    changes: tuple[Change, ...] = ()  # whose grade moved since the gradebook's last run


def _redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret line replaced, its whitespace folded, cut to MESSAGE_CHARS."""
    for line in sorted(secrets, key=len, reverse=True):
        if line in text:
            text = text.replace(line, "[hidden]")
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"


def _describe(cell: GradedCell, n: int) -> str:
    """A cell as the learner knows it: a test by its title, their own cell by its first line."""
    if cell.role == TEST:
        return f"test {cell.title!r}"
    if cell.role == SOLUTION:
        return "your solution cell"
    if cell.role == LOCKED:
        return f"setup cell {cell.key!r}"
    first = next((line.strip() for line in cell.source.split("\n") if line.strip()), "")
    return f"your cell {first[:40]!r}" if first else f"your cell {n}"


def run_message(run: CellRun) -> str:
    """What a cell raised, as the learner reads it (a failed check says only its own words)."""
    if run.ename in ("CheckFailed", "AssertionError") and run.evalue:
        return run.evalue
    return f"{run.ename}: {run.evalue}" if run.evalue else run.ename


def fmt_points(x: float) -> str:
    """Points as the learner reads them: 6, or 1.5."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _quiet_from(cells: list[GradedCell]) -> int:
    """The index of the first hidden test: from there on, feedback holds no learner text."""
    return next((i for i, c in enumerate(cells) if c.role == TEST and c.hidden), len(cells))


def _padded(at: list[int], count: int) -> list[int]:
    """The cell of each note (-1, before any cell, where a run did not say)."""
    return (at + [-1] * count)[:count]


def _run_problems(cells: list[GradedCell], result: NotebookRun, quiet_from: int) -> list[tuple[str, str]]:
    """The (status, message) of what happened between cells: the run stopped, the kernel was gone
    before a cell began (named after the cell before it, unless that is at or after a hidden test)."""
    problems: list[tuple[str, str]] = []
    if result.stopped:
        if "did not start" in result.stopped:
            problems.append(("grader error", f"grading stopped: {result.stopped}"))
        elif result.stopped_at >= quiet_from:
            problems.append((ERROR, QUIET_PROBLEM))
        else:
            problems.append((TIMEOUT, f"grading stopped: {result.stopped}"))
    for i in result.died_after:
        if i >= quiet_from:
            problems.append((ERROR, QUIET_PROBLEM))
        elif 0 <= i < len(cells):
            problems.append(("kernel died", f"the kernel stopped after {_describe(cells[i], i + 1)} "
                                            f"(it was restarted, earlier cells rerun)"))
    return problems


def score_row(row: Row, exercise: Exercise, cells: list[GradedCell], result: NotebookRun,
              reference: dict[str, list[Any]] | None = None) -> None:
    """Fill ``row`` from the cells' results; ``reference`` holds, by test key, what the
    instructor's run recorded (``verdict``): a test passes when the learner's records match."""
    secrets = secret_lines(exercise)
    reference = reference or {}
    quiet_from = _quiet_from(cells)
    problems = _run_problems(cells, result, quiet_from)
    unchecked = []
    for n, (cell, run) in enumerate(zip(cells, result.cells, strict=True), 1):
        what = _describe(cell, n)
        quiet = n - 1 >= quiet_from
        if quiet and (run.status in (TIMEOUT, DIED) or run.ename == "MemoryError"
                      or (run.status == ERROR and cell.role != TEST)):
            problems.append((ERROR, QUIET_PROBLEM))
        elif run.status == TIMEOUT:
            problems.append((TIMEOUT, f"{what} ran longer than the limit and was interrupted"))
        elif run.status == DIED:
            problems.append(("kernel died", f"{what} stopped the kernel (it was restarted, earlier cells rerun)"))
        elif run.ename == "MemoryError":
            problems.append(("memory limit", f"{what} ran out of memory (the grader's limit)"))
        elif run.status == ERROR and cell.role != TEST:
            problems.append((ERROR, f"{what} raised " + ("an error" if quiet else run_message(run))))
        if cell.role == TEST:
            if run.status in ("", NOT_RUN):
                found = judge([], run, quiet)
                message = "not run"
            else:
                found = judge(reference.get(cell.key or "", []), run, quiet)
                message = found.message
            if not found.checked:
                unchecked.append(cell.title)
            row.tests.append(TestResult(cell.key or f"cell{n}", cell.title, cell.points if found.passed else 0.0,
                                        cell.points, found.passed, cell.hidden,
                                        "" if cell.hidden else _redact(message, secrets)))
    row.max_score = exercise.max_score
    row.score = sum(t.points for t in row.tests)
    row.notes += [note for note, at in zip(result.notes, _padded(result.noted_at, len(result.notes)), strict=True)
                  if at < quiet_from]
    if unchecked:
        many = len(unchecked) > 1
        row.notes.append(("tests " if many else "test ") + ", ".join(repr(t) for t in unchecked)
                         + (" have" if many else " has") + " no check(): judged only by running without an error")
    if row.manual_pending > 0:
        problems.append(("needs manual grading", f"{fmt_points(row.manual_pending)} points wait for a teacher"))
    if problems:
        order = {s: i for i, s in enumerate(STATUSES)}
        problems.sort(key=lambda p: order[p[0]])
        row.status = problems[0][0]
    failed = next((t for t in row.tests if not t.passed), None)
    parts = [p[1] for p in problems[:1]]
    if failed is not None and not any(repr(failed.title) in p for p in parts):
        kind = "hidden test" if failed.hidden else "test"
        parts.append(f"{kind} {failed.title!r}" + (f": {failed.message}" if failed.message else " failed"))
    row.message = _redact("; ".join(parts), secrets)

