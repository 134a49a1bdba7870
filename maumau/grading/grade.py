"""``maumau grade --source exercises/ SUBMISSION_DIR...``: grade submitted notebooks.

Layout: each SUBMISSION_DIR holds one folder per student, named after the student, with
the notebooks named as released (``alice/01_matching.ipynb``); a SUBMISSION_DIR that holds
notebooks itself is one student's folder.

For each notebook the graded version is put together by stable id, never by position:
the instructor's setup and test cells (hidden tests included) in the instructor's order,
the learner's solution cells in their place (the stub where one is missing), and the
learner's own extra cells after the instructor cell they followed.  It runs in its own
sandboxed kernel (``runner``); a test cell scores its points when it runs without error.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .notebook import (
    FREE,
    LOCKED,
    SOLUTION,
    TEST,
    Exercise,
    NotebookError,
    cell_key,
    load_exercises,
    manual_pending,
    secret_lines,
    student_cell_source,
    submission_files,
)
from .runner import DIED, ERROR, NOT_RUN, OK, TIMEOUT, CellRun, Limits, NotebookRun, Sandbox
from .submissions import FOLDER, Submission, duplicate_id_notes, find_submissions, read_submission  # noqa: F401
from .verdict import PREAMBLE, PROBE, instrument, judge

__all__ = ["GradedCell", "TestResult", "Row", "Grades", "assemble", "find_submissions", "grade", "STATUSES"]

#: Row statuses, worst first: the first that applies is the row's status.
STATUSES = ("grader error", "invalid notebook", "missing", "unknown exercise", "duplicate",
            "timeout", "kernel died", "memory limit", "error", "needs manual grading", "ok")
MESSAGE_CHARS = 300


@dataclass
class GradedCell:
    """A code cell of the notebook being graded."""

    source: str
    role: str                      # SOLUTION, TEST, LOCKED, or FREE (the learner's own cell)
    key: str | None = None
    title: str = ""
    points: float = 0.0
    hidden: bool = False


@dataclass
class TestResult:
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

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tests)

    @property
    def failed(self) -> int:
        return sum(not t.passed for t in self.tests)


def assemble(exercise: Exercise, submission) -> tuple[list[GradedCell], list[str]]:  # noqa: ANN001
    """The cells to run for ``submission`` (a notebook) and notes on what was restored."""
    known = exercise.by_key()
    solutions: dict[str, str] = {}
    learner_free: dict[str, str] = {}  # the learner's version of unmarked instructor code cells
    after: dict[str | None, list[str]] = defaultdict(list)
    seen: set[str] = set()
    notes: list[str] = []
    anchor: str | None = None
    for cell in submission.cells:
        key = cell_key(cell)
        info = known.get(key) if key else None
        code = cell.get("cell_type") == "code"
        if info is not None and key is not None and key not in seen:  # (a known cell has a key)
            seen.add(key)
            anchor = key
            if code and info.role == SOLUTION:
                solutions[key] = cell.source
            elif code and info.role == FREE:
                learner_free[key] = cell.source
            elif info.role in (TEST, LOCKED) and cell.source.strip() != student_cell_source(info).strip():
                notes.append(f"your changes to the instructor cell {key!r} were undone")
            continue
        if info is not None and info.role in (TEST, LOCKED):
            notes.append(f"a copy of the instructor cell {key!r} was ignored")
            continue
        if code and cell.source.strip():
            after[anchor].append(cell.source)
    cells = [GradedCell(src, FREE) for src in after[None]]
    for info in exercise.cells:
        code = info.cell.cell_type == "code"
        if code and info.role == SOLUTION:
            if info.key in solutions:
                cells.append(GradedCell(solutions[info.key], SOLUTION, info.key))
            else:
                notes.append(f"solution cell {info.key!r} is missing: the empty stub was graded")
                cells.append(GradedCell(student_cell_source(info), SOLUTION, info.key))
        elif code and info.role in (TEST, LOCKED):
            if info.key not in seen:
                notes.append(f"{'test' if info.role == TEST else 'setup'} cell {info.key!r} was missing "
                             f"and has been restored")
            cells.append(GradedCell(info.source, info.role, info.key, info.title, info.points, info.hidden))
        elif code and info.key in learner_free:
            cells.append(GradedCell(learner_free[info.key], FREE, info.key))
        if info.key is not None:
            cells += [GradedCell(src, FREE) for src in after.get(info.key, ())]
    return cells, notes


def _redact(text: str, secrets: Iterable[str]) -> str:
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


def _message(run: CellRun) -> str:
    if run.ename in ("CheckFailed", "AssertionError") and run.evalue:
        return run.evalue
    return f"{run.ename}: {run.evalue}" if run.evalue else run.ename


def default_jobs() -> int:
    """Kernels at once: twice the CPUs (at most 4 more), since a kernel spends a good part of
    its life waiting (start-up, messages); 4 on 2 cores, measured 17 s against 21 s with 2
    (benchmarks/grading.py)."""
    cpus = os.cpu_count() or 1
    return min(2 * cpus, cpus + 4)


def fmt_points(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


class Grades(list[Row]):
    """The rows of a batch, and whether its kernels ran isolated (``Sandbox.isolation``)."""

    isolated: bool = True
    isolation: str = "no notebook was run"


def _quiet_from(cells: list[GradedCell]) -> int:
    """The index of the first hidden test: from there on, feedback holds no learner text."""
    return next((i for i, c in enumerate(cells) if c.role == TEST and c.hidden), len(cells))


def score_row(row: Row, exercise: Exercise, cells: list[GradedCell], result: NotebookRun,
              reference: dict[str, list] | None = None) -> None:
    """Fill ``row`` from the cells' results; ``reference`` holds, by test key, what the
    instructor's run recorded (``verdict``): a test passes when the learner's records match."""
    secrets = secret_lines(exercise)
    reference = reference or {}
    quiet_from = _quiet_from(cells)
    problems: list[tuple[str, str]] = []  # (status, message)
    if result.stopped:
        status = "grader error" if "did not start" in result.stopped else TIMEOUT
        problems.append((status, f"grading stopped: {result.stopped}"))
    unchecked = []
    for n, (cell, run) in enumerate(zip(cells, result.cells, strict=True), 1):
        what = _describe(cell, n)
        quiet = n - 1 >= quiet_from
        if run.status == TIMEOUT:
            problems.append((TIMEOUT, f"{what} ran longer than the limit and was interrupted"))
        elif run.status == DIED:
            problems.append(("kernel died", f"{what} stopped the kernel (it was restarted, earlier cells rerun)"))
        elif run.ename == "MemoryError":
            problems.append(("memory limit", f"{what} ran out of memory (the grader's limit)"))
        elif run.status == ERROR and cell.role != TEST:
            problems.append((ERROR, f"{what} raised " + ("an error" if quiet else _message(run))))
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
    row.notes += result.notes
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


def _sources(cells: list[GradedCell], learner: bool) -> tuple[list[str], list[bool], list[str | None]]:
    """What the kernel runs: the recording preamble, then the cells, test cells instrumented
    (for a learner, without their expected values), each followed by the probe."""
    sources = [PREAMBLE] + [instrument(c.source, keep_expected=not learner) if c.role == TEST else c.source
                            for c in cells]
    replayable = [True] + [c.role != TEST for c in cells]
    probes: list[str | None] = [None, *[PROBE if c.role == TEST else None for c in cells]]
    return sources, replayable, probes


async def _run_cells(sandbox: Sandbox, cells: list[GradedCell], learner: bool,
                     files: dict[str, Path] | None = None) -> NotebookRun:
    sources, replayable, probes = _sources(cells, learner)
    result = await sandbox.run(sources, replayable, probes, files)
    preamble = result.cells.pop(0)
    if preamble.status not in (OK,) and not result.stopped:
        result.stopped = f"the grader's first cell failed ({preamble.ename})"
    return result


class ReferenceError_(Exception):
    """The instructor's own solution fails one of its tests: the exercise cannot be graded."""


async def reference_records(exercise: Exercise, sandbox: Sandbox) -> dict[str, list]:
    """Run the instructor's notebook (solutions in) and return, by test key, the expected
    values its checks recorded.  ReferenceError_ when the solution fails its own test."""
    cells, _ = assemble(exercise, exercise.notebook)
    result = await _run_cells(sandbox, cells, learner=False, files=exercise.files)
    found: dict[str, list] = {}
    for cell, run in zip(cells, result.cells, strict=True):
        if cell.role != TEST:
            continue
        records = run.report if isinstance(run.report, list) else []
        if records and run.status != OK:
            why = _message(run) if run.status == ERROR else f"{run.status}: {run.evalue}"
            raise ReferenceError_(f"the instructor's solution fails its own test {cell.title!r}: {why}")
        # A test without checks (plain asserts, as in nbgrader's notebooks) is judged by whether
        # the learner's run raises, whatever the instructor's run did (nbgrader never runs it).
        found[cell.key or ""] = records
    return found


async def _grade_all(jobs: list[tuple[Row, Exercise, list[GradedCell], dict[str, Path]]], sandbox: Sandbox,
                     parallel: int, progress) -> None:  # noqa: ANN001
    gate = asyncio.Semaphore(max(1, parallel))

    async def reference(exercise: Exercise) -> dict[str, list]:
        async with gate:
            return await reference_records(exercise, sandbox)

    # The references start first (the gate is fair), so learners rarely wait for them.
    references = {e.name: asyncio.ensure_future(reference(e))
                  for e in {id(ex): ex for _, ex, _, _ in jobs}.values()}

    async def one(row: Row, exercise: Exercise, cells: list[GradedCell], files: dict[str, Path]) -> None:
        async with gate:
            began = time.monotonic()
            try:
                result = await _run_cells(sandbox, cells, learner=True, files=files)
            except Exception as err:  # the grader's own failure: one row, never the batch
                result = None
                row.status, row.message = "grader error", f"{type(err).__name__}: {err}"
                row.max_score = exercise.max_score
            row.seconds = time.monotonic() - began
        if result is not None:
            try:
                score_row(row, exercise, cells, result, await references[exercise.name])
            except ReferenceError_ as err:
                row.status, row.message, row.max_score = "grader error", str(err), exercise.max_score
            except Exception as err:
                row.status, row.message = "grader error", f"{type(err).__name__}: {err}"
                row.max_score = exercise.max_score
        if progress is not None:
            progress(row)

    await asyncio.gather(*(one(*job) for job in jobs))
    for task in references.values():  # retrieve every outcome: no "exception never retrieved"
        if task.done() and not task.cancelled():
            task.exception()


def _run(coro) -> None:  # noqa: ANN001
    """Run ``coro`` to the end, also from inside Jupyter (whose event loop is already running):
    then in a thread with a loop of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(coro)
        return
    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coro)
        except BaseException as err:  # handed back to the caller's thread
            failure.append(err)

    thread = threading.Thread(target=target, name="maumau-grade")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def grade(source: str | Path, submissions: Iterable[str | Path], out: str | Path = "grades",
          limits: Limits | None = None, jobs: int | None = None, only: Iterable[str] = (),
          progress=None, isolate: bool | None = None) -> Grades:  # noqa: ANN001
    """Grade every submission against the instructor notebooks in ``source``; writes
    ``out/grades.csv``, ``out/summary.md`` and ``out/feedback/<student>.md``; returns the rows.
    ``isolate``: None runs the kernels in bubblewrap sandboxes where the machine allows it and
    says so when it does not; True refuses to grade without them (NotebookError, nothing run);
    False never uses them."""
    from .report import write_reports

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    exercises = {e.name: e for e in load_exercises(source)}
    wanted = set(only) or set(exercises)
    unknown_wanted = wanted - set(exercises)
    if unknown_wanted:
        raise NotebookError(f"no such exercise in {source}: {', '.join(sorted(unknown_wanted))}")
    subs = find_submissions(submissions)
    submission_dirs = [Path(s) for s in submissions]
    rows: list[Row] = []
    jobs_: list[tuple[Row, Exercise, list[GradedCell], dict[str, Path]]] = []
    seen: set[tuple[str, str]] = set()
    students = sorted({s.student for s in subs})
    for sub in subs:
        if sub.exercise == FOLDER:  # a learner's folder with no notebook, or one not looked into
            if sub.problem:
                rows.append(Row(sub.student, FOLDER, status="invalid notebook", message=sub.problem))
            continue
        exercise = exercises.get(sub.exercise)
        if exercise is None:
            rows.append(Row(sub.student, sub.exercise, status="unknown exercise",
                            message=f"{sub.path.name} matches no exercise in {source}"))
            continue
        if sub.exercise not in wanted:
            continue
        row = Row(sub.student, sub.exercise, max_score=exercise.max_score)
        rows.append(row)
        if (sub.student, sub.exercise) in seen:
            row.status, row.message = "duplicate", f"another {sub.path.name} of {sub.student} was graded"
            continue
        seen.add((sub.student, sub.exercise))
        try:
            notebook = read_submission(sub)
            cells, notes = assemble(exercise, notebook)
            notes = duplicate_id_notes(notebook) + notes
            row.manual_pending = sum(manual_pending(exercise, notebook).values())
        except NotebookError as err:
            row.status, row.message = "invalid notebook", str(err)
            continue
        except Exception as err:  # the grader's own failure on an odd notebook: one row, never the batch
            row.status, row.message = "grader error", f"{type(err).__name__}: {err}"
            continue
        row.notes += notes
        jobs_.append((row, exercise, cells, submission_files(exercise, sub.path)))
    for student in students:
        for name in sorted(wanted):
            if (student, name) not in seen:
                rows.append(Row(student, name, max_score=exercises[name].max_score, status="missing",
                                message=f"no {name}.ipynb handed in"))
    graded = Grades(rows)
    if jobs_:
        protect = [Path(source), out, *submission_dirs]
        try:
            sandbox = Sandbox(protect, limits, isolate)
        except RuntimeError as err:  # isolation required and not available
            raise NotebookError(f"{err}: nothing was graded") from None
        with sandbox:
            graded.isolated, graded.isolation = sandbox.isolated, sandbox.isolation
            _run(_grade_all(jobs_, sandbox, jobs or default_jobs(), progress))
    graded.sort(key=lambda r: (r.student, r.exercise))
    write_reports(graded, out, isolation="" if graded.isolated else graded.isolation)
    return graded
