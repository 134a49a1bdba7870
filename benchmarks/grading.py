"""How long ``maumau grade`` takes for a class: learners × exercises, isolation included.

    python benchmarks/grading.py                 # 10 learners × 3 exercises, default -j
    python benchmarks/grading.py --learners 20 --jobs 2
    python benchmarks/grading.py --dask local    # also on a LocalCluster (2 workers), and a rerun
                                                 # from the gradebook (nothing changed: nothing runs)
    python benchmarks/grading.py --flood         # and one learner running 512 busy processes

Half the learners hand in the instructor's solution, half the released stub, so every row
runs its test cells to the end or to the first failure, as a real class does.  Prints the
wall time of the whole batch (references of the instructor's solutions included), the time
per notebook, whether the kernels were isolated (bubblewrap) and the slowest rows.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from maumau.grading.gradebook import Gradebook  # noqa: E402
from maumau.grading.grader import grade  # noqa: E402
from maumau.grading.releaser import release  # noqa: E402

EXERCISES = ("01_matching", "02_skip_on_eight", "04_seven_chain")


def class_folder(root: Path, learners: int) -> Path:
    """``learners`` folders of the three exercises: solutions and stubs alternating."""
    student = root / "student"
    release(ROOT / "exercises", student)
    subs = root / "submissions"
    for n in range(learners):
        folder = subs / f"learner{n:02d}"
        folder.mkdir(parents=True)
        for name in EXERCISES:
            source = ROOT / "exercises" if n % 2 == 0 else student
            shutil.copy(source / f"{name}.ipynb", folder)
    return subs


def _batch(label: str, subs: Path, out: Path, jobs: int | None, **options: object) -> None:
    began = time.perf_counter()
    rows = grade(ROOT / "exercises", [subs], out=out, jobs=jobs, only=EXERCISES, **options)
    seconds = time.perf_counter() - began
    full = sum(r.score == r.max_score for r in rows)
    print(f"{label}: {len(rows)} notebooks graded in {seconds:.1f} s ({len(rows) / seconds:.2f} notebooks/s, "
          f"{seconds / len(rows):.2f} s each), {full} with full marks")
    print("  isolation:", rows.isolation)
    others = sorted(r.seconds for r in rows if r.student != "zz_flood" and r.seconds > 0)
    if others:
        print(f"  rows of the class: median {others[len(others) // 2]:.1f} s, slowest {others[-1]:.1f} s")
    slow = sorted(rows, key=lambda r: -r.seconds)[:3]
    print("  slowest rows:", ", ".join(f"{r.student}/{r.exercise} {r.seconds:.1f} s" for r in slow))


def add_flood(subs: Path) -> None:
    """A learner whose exercise 02 forks busy processes (as tests/submissions/escape_process_flood):
    how much it slows the others' grading is what its kernel's control group allows."""
    folder = subs / "zz_flood"
    folder.mkdir()
    shutil.copy(ROOT / "tests" / "submissions" / "escape_process_flood" / "02_skip_on_eight.ipynb", folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=None, help="kernels at once (default: the grader's)")
    parser.add_argument("--dask", metavar="ADDRESS", help="also grade on this dask scheduler ('local': a LocalCluster)")
    parser.add_argument("--flood", action="store_true", help="add a learner running 512 busy processes")
    args = parser.parse_args()
    print(f"{args.learners} learners × {len(EXERCISES)} exercises")
    with tempfile.TemporaryDirectory(prefix="maumau-bench-") as tmp:
        root = Path(tmp)
        subs = class_folder(root, args.learners)
        if args.flood:
            add_flood(subs)
        book = Gradebook(root / "book.sqlite")
        _batch("this machine", subs, root / "out", args.jobs, gradebook=book)
        _batch("again from the gradebook (nothing changed)", subs, root / "out2", args.jobs, gradebook=book)
        if args.dask:
            from maumau.grading.grader import dask_executor

            executor, workers, close = dask_executor(args.dask)
            try:
                _batch(f"dask {args.dask} ({workers} workers)", subs, root / "out3", args.jobs,
                       executor=executor, workers=workers)
            finally:
                close()


if __name__ == "__main__":
    main()
