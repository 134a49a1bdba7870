"""Grades that hold on a busy machine (issue 25): the instructor solutions and the released stubs
are graded on this machine as it is, then again while CPU hogs keep every core busy (started and
stopped by the test, each ending by itself after a few minutes at the latest); every score and
status must be the same.  Timeouts are CPU time of the kernel (``Limits``), so a kernel that gets
a small share of a busy machine takes longer but does not time out; the wall-clock limits
(``wall_factor`` times the CPU limits) only stop kernels that sleep.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from maumau.cli import main  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
GRADED = ("02_skip_on_eight", "04_seven_chain", "13_strategy")
HOG = "import time\nend = time.monotonic() + 300\nwhile time.monotonic() < end:\n    pass\n"


def _grade(tmp: Path, subs: Path, name: str) -> dict[tuple[str, str], tuple[str, str]]:
    out = tmp / name
    log = io.StringIO()
    argv = ["grade", "--source", str(EXERCISES), str(subs), "--out", str(out), "--cell-timeout", "5",
            *[a for n in GRADED for a in ("--exercise", n)]]
    assert main(argv, out=log, err=log) == 0, log.getvalue()
    with open(out / "grades.csv", newline="", encoding="utf-8") as f:
        return {(r["student"], r["exercise"]): (r["score"], r["status"]) for r in csv.DictReader(f)}


@pytest.fixture(scope="module")
def submissions(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("load")
    student = tmp / "student"
    assert main(["release", str(EXERCISES), "--out", str(student)], out=io.StringIO()) == 0
    subs = tmp / "subs"
    for name in GRADED:
        for who, folder in (("teacher", EXERCISES), ("stub", student)):
            (subs / who).mkdir(parents=True, exist_ok=True)
            shutil.copy(folder / f"{name}.ipynb", subs / who)
    return subs


def test_every_score_on_a_busy_machine_is_the_idle_one(submissions, tmp_path):
    idle = _grade(tmp_path, submissions, "idle")
    assert {k: v for k, v in idle.items() if k[0] == "teacher"} == {
        ("teacher", n): ("7" if n == "13_strategy" else "6", "ok") for n in GRADED}
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(4 * (os.cpu_count() or 1))]
    try:
        busy = _grade(tmp_path, submissions, "busy")
        assert all(h.poll() is None for h in hogs), "the hogs ended before the grading did"
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    assert busy == idle
