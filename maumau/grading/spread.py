"""Grading beyond one machine: the notebooks of a batch spread over an executor (a dask cluster's).

The coordinator (the ``maumau grade`` process) plans the batch, reads every file and sends each
worker a chunk: the exercises, the assembled cells of each notebook and the data files as bytes,
so a worker needs no shared folder, only maumau and bubblewrap.  A worker grades its chunk in its
own sandboxed kernels, exactly as one machine does (``grade.grade_chunk``: the instructor's
reference first, then the learners'), and sends the scored rows back.  Only the coordinator writes
grades.csv, the reports and the gradebook.

``executor`` is any ``concurrent.futures.Executor`` whose workers can import maumau:
``distributed.Client(address).get_executor()`` for a dask cluster, a ``ProcessPoolExecutor``
on one machine.  ``maumau grade --dask ADDRESS`` connects to a scheduler (``--dask local`` starts a
``LocalCluster`` of this machine, for a try).
"""

from __future__ import annotations

import math
import shutil
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .exercise_model import Exercise
from .limits import Limits
from .rows import Grades, Row

__all__ = ["Chunk", "chunks", "materialised", "run_spread", "dask_executor"]

Files = dict[str, bytes]


@dataclass
class Chunk:
    """What a worker grades: rows to fill, their exercises and cells, every file as bytes."""

    jobs: list[tuple[Row, str, list[Any], Files]]   # (row, exercise name, cells, data files)
    exercises: dict[str, tuple[Exercise, Files]]    # by name: the exercise and its data files
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
        exercises = {job[1].name: job[1] for job in part}
        out.append(Chunk([(row, ex.name, cells, _read(files)) for row, ex, cells, files in part],
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
    its number of workers, and how to close it.  RuntimeError when dask is not installed."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover (dask is in the test extra)
        raise RuntimeError("grading on a dask cluster needs dask: pip install 'dask[distributed]'") from None
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True) if address == "local" else None
    client = Client(cluster if cluster is not None else address)
    workers = max(1, len(client.scheduler_info().get("workers", {})))

    def close() -> None:
        client.close()
        if cluster is not None:
            cluster.close()

    return client.get_executor(), workers, close
