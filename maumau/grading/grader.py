"""``maumau grade --source exercises/ SUBMISSION_DIR...``: grade submitted notebooks.

Layout: each SUBMISSION_DIR holds one folder per student, named after the student, with
the notebooks named as released (``alice/01_matching.ipynb``); a SUBMISSION_DIR that holds
notebooks itself is one student's folder.

For each notebook the graded version is put together by stable id, never by position:
the instructor's setup and test cells (hidden tests included) in the instructor's order,
the learner's solution cells in their place (the stub where one is missing), and the
learner's own extra cells after the instructor cell they followed.  It runs in its own
sandboxed kernel (``run``); a test cell scores its points when it runs without error.

A hand-in is graded with the instructor cells of its own language (its notebook metadata
``maumau.language``, one of ``LANGUAGES``, else English): the translation of the exercise into
that language (``exercises/de/NAME.ipynb``) when there is one, so its checks and feedback speak
the learner's language; its points always come from the English source, whose translations are
checked to match it when loaded, so a hand-in scores the same in every language.

This module is the batch, its stages in the order of ``PIPELINE`` (at the top, run by ``grade``):
the submissions planned into rows and jobs, the instructor's reference runs and the learners'
runs on a shared number of kernels, the reports written.
The notebook that is graded is put together in ``exercise.assemble``, a row is scored in
``gradebook.score_row``.

A batch runs on this machine's kernels, or spread over a dask cluster's workers (at the end of
this module).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping
from concurrent.futures import Executor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..extras import need
from ..sandbox.limits import Limits
from .deadlines import Deadlines
from .exercise import (
    TEST,
    Exercise,
    GradedCell,
    NotebookError,
    assemble,
    declared_language,
    load_exercises,
    manual_pending,
    submission_files,
)
from .gradebook import (
    Gradebook,
    Grades,
    Row,
    exercise_hash,
    notebook_hash,
    run_message,
    score_row,
)
from .kernel import ERROR, OK, log
from .learner_variants import for_learner, learners_draw, read_key, swaps_of
from .run import NotebookRun, Sandbox
from .submissions import (
    FOLDER,
    Submission,
    duplicate_id_notes,
    find_submissions,
    match_receipts,
    read_submission,
    submitted_at,
)
from .verdict import PREAMBLE, PROBE, instrument

if TYPE_CHECKING:
    from .similarity import Flag
    from .submissions import Stamp

__all__ = ["PIPELINE", "Stage", "grade", "grade_chunk", "reference_records", "default_jobs", "Chunk", "chunks",
           "materialised", "run_spread", "dask_executor"]


class Stage(NamedTuple):
    """One stage of the grading pipeline: its name (the method of the batch that does it) and what it does."""

    name: str
    does: str


#: The grading pipeline, in order: ``grade`` runs each stage on the batch the stages before it left.
PIPELINE: tuple[Stage, ...] = (
    Stage("exercises", "load and check the instructor notebooks (exercise)"),
    Stage("submissions", "find the learners' notebooks, trusting nothing they made, and give each the class "
                         "server's receipt for its bytes (submissions)"),
    Stage("plan", "a row per notebook with its hand-in time and lateness (deadlines), and a job per notebook "
                  "to run, assembled by stable id (exercise)"),
    Stage("keep", "take the grade of a notebook whose notebook and exercise are unchanged since the "
                  "gradebook's last run (gradebook)"),
    Stage("run", "run the instructor's reference and each learner's notebook in sandboxed kernels (run, "
                 "kernel; on this machine or a dask cluster's), judge the tests outside the kernels (verdict) "
                 "and score the rows (gradebook)"),
    Stage("record", "store the run in the gradebook, and whose grade moved (gradebook)"),
    Stage("similar", "flag the pairs of learners whose code is close or whose checks fail alike, with the "
                     "evidence, kept in the gradebook (similarity); nothing is penalised"),
    Stage("report", "write grades.csv, summary.md, course.html and each learner's feedback (report, course_page)"),
)


#: A notebook to run: its row, its exercise, the cells assembled and the files its kernel gets.
Job = tuple[Row, Exercise, list[GradedCell], dict[str, Path]]
#: Called with each row once it is graded (``maumau grade`` shows progress with it).
Progress = Callable[[Row], object]


def default_jobs() -> int:
    """Kernels at once: twice the CPUs (at most 4 more), since a kernel spends a good part of
    its life waiting (start-up, messages); 4 on 2 cores, measured 17 s against 21 s with 2
    (benchmarks/grading.py)."""
    cpus = os.cpu_count() or 1
    return min(2 * cpus, cpus + 4)


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
    """Run the cells (``_sources``); the grader's preamble is not a cell of the result, and when it
    failed the run counts as stopped."""
    sources, replayable, probes = _sources(cells, learner)
    result = await sandbox.run(sources, replayable, probes, files)
    preamble = result.cells.pop(0)
    # the indexes of the run count the preamble: those of the result count the cells
    result.noted_at = [i - 1 for i in result.noted_at]
    result.died_after = [i - 1 for i in result.died_after]
    result.stopped_at -= 1 if result.stopped_at >= 0 else 0
    if preamble.status not in (OK,) and not result.stopped:
        result.stopped = f"the grader's first cell failed ({preamble.ename})"
    return result


class ReferenceError_(Exception):
    """The instructor's own solution fails one of its tests: the exercise cannot be graded."""


async def reference_records(exercise: Exercise, sandbox: Sandbox) -> dict[str, list[Any]]:
    """Run the instructor's notebook (solutions in) and return, by test key, the expected
    values its checks recorded.  ReferenceError_ when the solution fails its own test."""
    cells, _ = assemble(exercise, exercise.notebook)
    result = await _run_cells(sandbox, cells, learner=False, files=exercise.files)
    found: dict[str, list[Any]] = {}
    for cell, run in zip(cells, result.cells, strict=True):
        if cell.role != TEST:
            continue
        records = run.report if isinstance(run.report, list) else []
        if records and run.status != OK:
            why = run_message(run) if run.status == ERROR else f"{run.status}: {run.evalue}"
            raise ReferenceError_(f"the instructor's solution fails its own test {cell.title!r}: {why}")
        # A test without checks (plain asserts, as in nbgrader's notebooks) is judged by whether
        # the learner's run raises, whatever the instructor's run did (nbgrader never runs it).
        found[cell.key or ""] = records
    return found


async def _grade_all(jobs: list[Job], sandbox: Sandbox, parallel: int, progress: Progress | None) -> None:
    """Run the instructor's reference of each exercise and every job, ``parallel`` kernels at
    once, and score each row; a failure of the grader costs one row, never the batch."""
    gate = asyncio.Semaphore(max(1, parallel))

    async def reference(exercise: Exercise) -> dict[str, list[Any]]:
        async with gate:
            return await reference_records(exercise, sandbox)

    # The references start first (the gate is fair), so learners rarely wait for them.
    # (one per exercise, language and learner's draw: learners with the same draw share it)
    references = {key: asyncio.ensure_future(reference(e))
                  for key, e in {exercise_key(ex): ex for _, ex, _, _ in jobs}.items()}

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
                # in a thread: exercise 13's hands are played while scoring, the other kernels go on
                await asyncio.to_thread(_score_row, row, exercise, cells, result,
                                        await references[exercise_key(exercise)])
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


def _score_row(row: Row, exercise: Exercise, cells: list[GradedCell], result: NotebookRun,
               reference: dict[str, list[Any]]) -> None:
    """``score_row`` with the grader's sentences (a check's "expected X, got Y", the hands won) in
    the language of the instructor notebook the hand-in was graded with, as its kernel said its own."""
    from ..text.i18n import use_language

    with use_language(exercise.language):
        score_row(row, exercise, cells, result, reference)


def exercise_key(exercise: Exercise) -> str:
    """An exercise's name, with its language for a translation (``02_skip_on_eight@de``) and the
    learner's draw for relabeled test cells (``02_skip_on_eight#3f2a9c01``): the instructor's
    reference runs once per exercise, language and draw."""
    key = exercise.name if exercise.language == "en" else f"{exercise.name}@{exercise.language}"
    return f"{key}#{exercise.variant}" if exercise.variant else key


def feedback_languages(languages: Mapping[tuple[str, str], str]) -> dict[str, str]:
    """The language of each learner's feedback: the one most of their hand-ins say they are in
    (``languages``: by learner and exercise; ties go to the first exercise by name).  A learner
    whose hand-ins name no language is not listed (their feedback follows ``--lang``)."""
    said: dict[str, list[str]] = {}
    for (student, _), lang in sorted(languages.items()):
        said.setdefault(student, []).append(lang)
    return {student: max(dict.fromkeys(langs), key=langs.count) for student, langs in said.items()}


def _run(coro: Coroutine[Any, Any, None]) -> None:
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
          progress: Progress | None = None, isolate: bool | None = None, every: bool = False,
          deadlines: Deadlines | None = None, gradebook: Gradebook | None = None, force: bool = False,
          lang: str = "en", executor: Executor | None = None, workers: int = 1,
          received: Mapping[tuple[str, str], Stamp] | None = None, similarity: bool = True,
          variants: bytes | str | Path | None = None) -> Grades:
    """Grade every submission against the instructor notebooks in ``source``; writes
    ``out/grades.csv``, ``out/summary.md`` and ``out/feedback/<student>.md``; returns the rows.
    ``isolate``: None runs the kernels in bubblewrap sandboxes where the machine allows it and
    says so when it does not; True refuses to grade without them (NotebookError, nothing run);
    False never uses them.  Rows are made for the exercises in ``only``, else for every exercise
    when ``every``, else for the exercises somebody in the batch handed in (a learner who did one
    exercise is not listed as missing the others nobody was asked for).

    ``deadlines``: due times, late policy and extensions; each row then says when it was handed
    in, how late, the penalty and the final score.  ``gradebook``: the run is stored there, and a
    notebook whose hashes equal its learner's last grade is not run again (unless ``force``);
    ``Grades.changes`` then lists the learners whose grade moved.  ``lang``: the language of the
    reports (en, de, hu), and of the feedback of learners whose notebooks name none (a learner's
    feedback is in the language of their notebooks: ``feedback_languages``).  ``executor``: the
    notebooks are graded on its ``workers`` (a dask cluster's executor), this process writes the reports.
    ``received``: the class server's receipts (time and SHA-256) by (learner, exercise)
    (``submissions.HandIns``), each given only to the notebook whose bytes it stamped.  ``similarity``:
    flag the pairs of learners whose work is alike (``similarity``; ``Grades.similar``, course.html and
    the gradebook), else course.html has no such section and the gradebook's flags stay as they were.
    ``variants``: the course key, or its file (``learner_variants.read_key``; no kernel may read that
    file): each learner's test cells, hidden ones included, are their own draw of the exercise's
    positions (an exercise whose metadata allows it), and the reference runs on the same draw;
    None: everyone the common positions."""
    key_file = Path(variants) if isinstance(variants, (str, Path)) else None
    key = read_key(key_file) if key_file is not None else variants
    assert key is None or isinstance(key, bytes)
    batch = _Batch(source, list(submissions), Path(out), limits, jobs, set(only), progress,
                   isolate, every, deadlines or Deadlines(), gradebook, force, lang, executor, workers, received or {},
                   similarity, key, key_file)
    for stage in PIPELINE:
        getattr(batch, stage.name)()
    return batch.graded


def grade_chunk(chunk: Chunk) -> tuple[list[Row], bool, str]:
    """On a dask worker (``run_spread``): grade the chunk in this machine's sandboxed kernels, as one
    machine grades a batch; the filled rows and how they were isolated."""

    with materialised(chunk) as (jobs_, folder), Sandbox([folder], chunk.limits, chunk.isolate) as sandbox:
        asyncio.run(_grade_all(jobs_, sandbox, chunk.parallel or default_jobs(), None))
        return [job[0] for job in jobs_], sandbox.isolated, sandbox.isolation


class _Plan:
    """A batch planned from the submissions found: a row for each (the rows of notebooks that
    cannot be run already say why), and a job for each notebook to run."""

    def __init__(self, source: str | Path, exercises: dict[str, Exercise], wanted: set[str],
                 deadlines: Deadlines, variants: bytes | None = None) -> None:
        self.source, self.exercises, self.wanted, self.deadlines = source, exercises, wanted, deadlines
        self.variants = variants  # the course key of the learners' own positions (learner_variants), or None
        self.rows: list[Row] = []
        self.jobs: list[Job] = []
        self.seen: set[tuple[str, str]] = set()  # (student, exercise): graded once, the others duplicates
        self.hashes: dict[int, tuple[str, str]] = {}  # id(row): the notebook's and the exercise's SHA-256
        self.sources: dict[str, str] = {}  # exercise_key: its SHA-256 (exercise_hash, with the source's)
        self.languages: dict[tuple[str, str], str] = {}  # (student, exercise): the language the notebook names

    def add(self, sub: Submission) -> None:
        """The row of ``sub`` (none for an exercise not asked for), and its job if it can run."""
        if sub.exercise == FOLDER:  # a learner's folder with no notebook, or one not looked into
            if sub.problem:
                self.rows.append(Row(sub.student, FOLDER, status="invalid notebook", message=sub.problem))
            return
        exercise = self.exercises.get(sub.exercise)
        if exercise is None:
            self.rows.append(Row(sub.student, sub.exercise, status="unknown exercise",
                                 message=f"{sub.path.name} matches no exercise in {self.source}"))
            return
        if sub.exercise not in self.wanted:
            return
        row = Row(sub.student, sub.exercise, max_score=exercise.max_score)
        self.rows.append(row)
        if (sub.student, sub.exercise) in self.seen:
            row.status, row.message = "duplicate", sub.note or f"another {sub.path.name} of {sub.student} was graded"
            return
        self.seen.add((sub.student, sub.exercise))
        if sub.note:
            row.notes.append(sub.note)
        self._stamp(row, sub)
        self._add_job(row, exercise, sub)

    def _stamp(self, row: Row, sub: Submission) -> None:
        """When ``sub`` was handed in, and what its lateness costs (``deadlines``)."""
        when, note = submitted_at(sub)
        if note:
            row.notes.append(note)
        late = self.deadlines.lateness(sub.student, sub.exercise, when)
        row.submitted = when.isoformat(timespec="seconds") if when else ""
        row.late_days, row.penalty, row.extended = late.late_days, late.penalty, late.extended

    def _add_job(self, row: Row, exercise: Exercise, sub: Submission) -> None:
        """Read and assemble the notebook; its job, or its row says why it cannot run."""
        try:
            notebook = read_submission(sub)
            duplicates, refusals = duplicate_id_notes(notebook)
            if refusals:  # which of the cells is the solution would be a guess: refused, never by position
                raise NotebookError("; ".join(refusals))
            lang = declared_language(notebook)  # one of LANGUAGES or None: never a path
            # the learner's own positions, drawn from who handed in: never from what the notebook says
            graded_as = for_learner(exercise.in_language(lang), learners_draw(self.variants, sub.student, exercise))
            cells, notes = assemble(graded_as, notebook)
            points = {c.key: c.points for c in exercise.cells if c.key}
            for cell in cells:  # the points are the source's, whatever the language
                if cell.role == TEST and cell.key is not None:
                    cell.points = points.get(cell.key, 0.0)
            notes = duplicates + notes
            row.manual_pending = sum(manual_pending(graded_as, notebook).values())
        except NotebookError as err:
            row.status, row.message = "invalid notebook", str(err)
            return
        except Exception as err:  # the grader's own failure on an odd notebook: one row, never the batch
            row.status, row.message = "grader error", f"{type(err).__name__}: {err}"
            return
        row.notes += notes
        if lang is not None:
            self.languages[(sub.student, sub.exercise)] = lang
        key = exercise_key(graded_as)
        if key not in self.sources:
            self.sources[key] = exercise_hash(exercise) if graded_as is exercise else hashlib.sha256(
                f"{exercise_hash(exercise)}\n{exercise_hash(graded_as)}\n{graded_as.variant}".encode()).hexdigest()
        self.hashes[id(row)] = (notebook_hash(notebook), self.sources[key])
        self.jobs.append((row, graded_as, cells, submission_files(exercise, sub.path)))

    def keep(self, job: Job, gradebook: Gradebook) -> bool:
        """Take the row of ``job`` from the gradebook when neither the notebook nor the exercise
        changed since its learner's last grade (lateness stays as worked out now)."""
        row = job[0]
        stored = gradebook.kept(row, *self.hashes[id(row)])
        if stored is None:
            return False
        for name in ("score", "max_score", "status", "message", "seconds", "tests", "notes", "manual_pending",
                     "answers"):
            setattr(row, name, getattr(stored, name))
        return True

    def missing(self, students: list[str]) -> list[Row]:
        """A "missing" row for each student and wanted exercise without a notebook."""
        return [Row(student, name, max_score=self.exercises[name].max_score, status="missing",
                    message=f"no {name}.ipynb handed in")
                for student in students for name in sorted(self.wanted) if (student, name) not in self.seen]


def _run_jobs(graded: Grades, jobs_: list[Job], protect: list[Path], limits: Limits | None, isolate: bool | None,
              jobs: int | None, progress: Progress | None) -> None:
    """Run the jobs in one batch of kernels that may not read ``protect``; ``graded`` says
    whether they ran isolated.  NotebookError, nothing run, when isolation is required and
    not available."""
    try:
        sandbox = Sandbox(protect, limits, isolate)
    except RuntimeError as err:  # isolation required and not available
        raise NotebookError(f"{err}: nothing was graded") from None
    with sandbox:
        graded.isolated, graded.isolation = sandbox.isolated, sandbox.isolation
        _run(_grade_all(jobs_, sandbox, jobs or default_jobs(), progress))


@dataclass
class _Batch:
    """One ``grade`` call on its way through the PIPELINE: what it was asked, and what each stage left."""

    source: str | Path  # as given: messages name it so
    submission_dirs: list[str | Path]  # as given: find_submissions reads them so
    out: Path
    limits: Limits | None
    jobs: int | None
    only: set[str]
    progress: Progress | None
    isolate: bool | None
    every: bool
    deadlines: Deadlines
    gradebook: Gradebook | None
    force: bool
    lang: str
    executor: Executor | None
    workers: int
    received: Mapping[tuple[str, str], Stamp]
    similarity: bool
    variants: bytes | None
    key_file: Path | None  # where the course key was read from: no kernel may read it
    exercises_: dict[str, Exercise] = field(default_factory=dict)
    subs: list[Submission] = field(default_factory=list)
    wanted: set[str] = field(default_factory=set)
    plan_: _Plan | None = None
    graded: Grades = field(default_factory=lambda: Grades([]))
    to_run: list[Job] = field(default_factory=list)
    flags: list[Flag] | None = None

    @property
    def planned(self) -> _Plan:
        assert self.plan_ is not None, "the plan stage comes first"
        return self.plan_

    def exercises(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        self.exercises_ = {e.name: e for e in load_exercises(self.source)}
        if self.variants is not None:  # a broken variants entry stops the batch before anything runs
            for e in self.exercises_.values():
                swaps_of(e.notebook, e.path.name)
        unknown_wanted = self.only - set(self.exercises_)
        if unknown_wanted:
            raise NotebookError(f"no such exercise in {self.source}: {', '.join(sorted(unknown_wanted))}")

    def submissions(self) -> None:
        self.subs = find_submissions(self.submission_dirs)
        self.wanted = self.only or (set(self.exercises_) if self.every
                                    else {s.exercise for s in self.subs if s.exercise in self.exercises_})
        self.subs = match_receipts(self.subs, self.received)

    def plan(self) -> None:
        self.plan_ = plan = _Plan(self.source, self.exercises_, self.wanted, self.deadlines, self.variants)
        for sub in self.subs:
            plan.add(sub)
        self.graded = Grades(plan.rows + plan.missing(sorted({s.student for s in self.subs})))

    def keep(self) -> None:
        plan, gradebook = self.planned, self.gradebook
        self.to_run = (plan.jobs if gradebook is None or self.force
                       else [job for job in plan.jobs if not plan.keep(job, gradebook)])

    def run(self) -> None:
        if not self.to_run:
            return
        if self.executor is not None:
            run_spread(self.graded, self.to_run, self.executor, self.workers, self.limits, self.isolate, self.jobs,
                       self.progress, grade_chunk)
            return
        protect = [Path(self.source), self.out, *map(Path, self.submission_dirs)]
        protect += [self.gradebook.path] if self.gradebook else []
        protect += [self.key_file] if self.key_file is not None else []
        _run_jobs(self.graded, self.to_run, protect, self.limits, self.isolate, self.jobs, self.progress)

    def record(self) -> None:
        if self.gradebook is None:
            return
        plan, ran = self.planned, {id(job[0]) for job in self.to_run}
        self.graded.run, self.graded.changes = self.gradebook.record(
            [(row, *plan.hashes[id(row)], id(row) not in ran) for row, *_ in plan.jobs], self.force)

    def similar(self) -> None:
        from .similarity import answers_of, find_flags, save_flags, solution_codes

        if not self.similarity:
            return
        jobs = self.planned.jobs
        try:
            self.flags = find_flags(solution_codes(jobs), answers_of(row for row, *_ in jobs))
        except Exception as err:  # the grader's own failure: the grades stand, the flags are missing
            log.warning("no similarity flags: %s: %s", type(err).__name__, err)
            self.flags = []
        self.graded.similar = tuple(self.flags)
        if self.gradebook is not None:
            save_flags(self.gradebook.path, self.flags)

    def report(self) -> None:
        from .course_page import rule_ids
        from .report import write_reports

        self.graded.sort(key=lambda r: (r.student, r.exercise))
        write_reports(self.graded, self.out, isolation="" if self.graded.isolated else self.graded.isolation,
                      lang=self.lang, ids={name: rule_ids(e) for name, e in self.exercises_.items()},
                      languages=feedback_languages(self.planned.languages) if self.plan_ else None,
                      similar=self.flags)


# Grading beyond one machine: the notebooks of a batch spread over an executor (a dask cluster's).
#
# The coordinator (the ``maumau grade`` process) plans the batch, reads every file and sends each
# worker a chunk: the exercises, the assembled cells of each notebook and the data files as bytes,
# so a worker needs no shared folder, only maumau and bubblewrap.  A worker grades its chunk in its
# own sandboxed kernels, exactly as one machine does (``grade.grade_chunk``: the instructor's
# reference first, then the learners'), and sends the scored rows back.  Only the coordinator writes
# grades.csv, the reports and the gradebook.
#
# ``executor`` is any ``concurrent.futures.Executor`` whose workers can import maumau:
# ``distributed.Client(address).get_executor()`` for a dask cluster, a ``ProcessPoolExecutor``
# on one machine.  ``maumau grade --dask ADDRESS`` connects to a scheduler (``--dask local`` starts a
# ``LocalCluster`` of this machine, for a try).

Files = dict[str, bytes]


@dataclass
class Chunk:
    """What a worker grades: rows to fill, their exercises and cells, every file as bytes."""

    jobs: list[tuple[Row, str, list[Any], Files]]   # (row, exercise name, cells, data files)
    exercises: dict[str, tuple[Exercise, Files]]    # by exercise_key: the exercise and its data files
    limits: Limits | None
    isolate: bool | None
    parallel: int | None   # kernels at once on the worker (None: the worker's default_jobs())


def _read(files: dict[str, Path]) -> Files:
    return {name: Path(path).read_bytes() for name, path in files.items()}


def chunks(jobs: list[Any], workers: int, limits: Limits | None, isolate: bool | None,
           parallel: int | None) -> list[Chunk]:
    """The jobs in one chunk per worker, notebooks of one exercise together (each chunk runs the
    instructor's reference of its exercises once, so fewer chunks run fewer references)."""
    ordered = sorted(jobs, key=lambda job: (job[1].name, job[0].student))
    size = max(1, math.ceil(len(ordered) / max(1, workers)))
    out = []
    for start in range(0, len(ordered), size):
        part = ordered[start:start + size]
        exercises = {exercise_key(job[1]): job[1] for job in part}
        out.append(Chunk([(row, exercise_key(ex), cells, _read(files)) for row, ex, cells, files in part],
                         {name: (ex, _read(ex.files)) for name, ex in exercises.items()}, limits, isolate, parallel))
    return out


@contextmanager
def materialised(chunk: Chunk) -> Iterator[tuple[list[Any], Path]]:
    """The chunk's jobs with their files written to a private folder of this worker."""
    folder = Path(tempfile.mkdtemp(prefix="maumau-worker-"))
    try:
        def write(prefix: str, files: Files) -> dict[str, Path]:
            paths = {}
            for n, (name, data) in enumerate(sorted(files.items())):
                path = folder / prefix / f"{n}"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
                paths[name] = path
            return paths

        exercises: dict[str, Exercise] = {}
        for name, (ex, files) in chunk.exercises.items():
            ex.files = write(f"exercise-{len(exercises)}", files)
            exercises[name] = ex
        jobs = [(row, exercises[name], cells, write(f"job-{i}", files))
                for i, (row, name, cells, files) in enumerate(chunk.jobs)]
        yield jobs, folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_spread(graded: Grades, jobs: list[Any], executor: Executor, workers: int, limits: Limits | None,
               isolate: bool | None, parallel: int | None, progress: Callable[[Row], object] | None,
               work: Callable[[Chunk], tuple[list[Row], bool, str]]) -> None:
    """Grade ``jobs`` on ``executor``'s workers with ``work`` (``grade.grade_chunk``) and copy each
    worker's rows into the batch's."""
    parts = chunks(jobs, workers, limits, isolate, parallel)
    futures = {executor.submit(work, part): part for part in parts}
    isolations: list[tuple[bool, str]] = []
    for future in as_completed(futures):
        part = futures[future]
        try:
            rows, isolated, isolation = future.result()
        except Exception as err:  # a worker lost: its rows say so, the batch goes on
            rows = []
            for row, _, _, _ in part.jobs:
                row.status, row.message = "grader error", f"the worker failed: {type(err).__name__}: {err}"
            isolations.append((False, f"a worker failed ({type(err).__name__})"))
        else:
            isolations.append((isolated, isolation))
        for mine, theirs in zip([job[0] for job in part.jobs], rows, strict=False):
            mine.__dict__.update(theirs.__dict__)
        for row, _, _, _ in part.jobs:
            if progress is not None:
                progress(row)
    graded.isolated = all(i for i, _ in isolations)
    graded.isolation = next((why for i, why in isolations if not i), isolations[0][1] if isolations else "")


def dask_executor(address: str) -> tuple[Executor, int, Callable[[], None]]:
    """An executor on the dask scheduler at ``address`` (``local``: a LocalCluster of this machine),
    its number of workers, and how to close it.  ``MissingModule`` (which extra to install) when
    dask is not installed."""
    distributed = need("distributed", "maumau grade --dask")
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True) if address == "local" else None
    client = Client(cluster if cluster is not None else address)
    workers = max(1, len(client.scheduler_info().get("workers", {})))

    def close() -> None:
        client.close()
        if cluster is not None:
            cluster.close()

    return client.get_executor(), workers, close
