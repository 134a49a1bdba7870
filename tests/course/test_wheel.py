"""The course from the wheel: what a school's JupyterHub image or a teacher's laptop installs.

The wheel is built the way a release is: the sdist first (setuptools' own build hook), then the
wheel from the sdist with ``pip wheel --no-deps`` (an isolated build), so the test also proves that
MANIFEST.in brings the course into the sdist.  ``MAUMAU_PURE_PYTHON=1`` builds it without the
compiled engine, for speed (Cython would add a minute); setup.py's compiled build is tested by
``make build``.

The slow test installs the wheel into a fresh venv outside the checkout, in a folder whose name
holds a space, without the checkout's packages (no --system-site-packages, no PYTHONPATH): its
dependencies come from the package index or pip's cache (``PIP_CACHE_DIR`` where set, else
``.venv/pip-cache`` of the checkout, kept between runs).  On the two-core test machine the install
takes about two minutes.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: What the checkout's environment must not hand the installed maumau.
FOREIGN = ("PYTHONPATH", "MAUMAU_PURE_PYTHON", "VIRTUAL_ENV", "PYTHONHOME")


def pip_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in FOREIGN}
    if "PIP_CACHE_DIR" not in env and (ROOT / ".venv").is_dir():
        env["PIP_CACHE_DIR"] = str(ROOT / ".venv" / "pip-cache")
    return env


def tracked(*paths: str) -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z", *paths], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    return [name for name in listed.stdout.split("\0") if name]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from the sdist of what git tracks (as from a fresh clone: nothing untracked
    of the checkout gets in, and the build writes nothing into the checkout)."""
    clone, out = tmp_path_factory.mktemp("clone"), tmp_path_factory.mktemp("dist")
    for name in tracked():
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    env = {**pip_env(), "MAUMAU_PURE_PYTHON": "1"}
    hook = f"from setuptools import build_meta; print(build_meta.build_sdist({str(out)!r}))"
    sdist = subprocess.run([sys.executable, "-c", hook], cwd=clone, env=env, capture_output=True, text=True,
                           check=True).stdout.strip().splitlines()[-1]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(out / sdist)],
                   env=env, check=True, capture_output=True)
    (found,) = out.glob("maumau-*.whl")
    return found


def tracked_course() -> set[str]:
    """The course as git keeps it: every notebook and exercise of every language, and RULES.md."""
    return {name for name in tracked("notebooks", "exercises", "RULES.md") if name.endswith((".ipynb", ".md"))}


@pytest.mark.slow  # the build alone takes 15 to 50 s
def test_the_wheel_holds_the_whole_course_and_nothing_of_the_tests(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    course = {n.removeprefix("maumau/course/files/") for n in names if n.startswith("maumau/course/files/")}
    expected = tracked_course()
    assert {n for n in expected if n.startswith("notebooks/de/")} and {n for n in expected if "/hu/" in n}
    assert expected <= course, sorted(expected - course)
    assert course - expected == {"docs/images/classroom-seat.png"}
    assert not [n for n in names if n.startswith(("tests/", "notebooks/", "exercises/")) or "/tests/" in n]
    assert any(n.endswith(".data/data/share/jupyter/lab/settings/overrides.d/maumau.json") for n in names)


@pytest.mark.slow
def test_from_the_wheel_a_teacher_writes_the_course_runs_notebook_01_and_grades(
        wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "school env"
    env = pip_env()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python, maumau = venv / "bin" / "python", venv / "bin" / "maumau"
    # nbclient and ipykernel: what this test runs notebook 01 with (a teacher's lab has them)
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel), "nbclient", "ipykernel"],
                   check=True, env=env, capture_output=True)
    located = subprocess.run([str(python), "-c", "import maumau; print(maumau.__file__)"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, check=True).stdout
    assert Path(located).resolve().is_relative_to(venv.resolve())  # the installed copy, not the checkout
    assert (venv / "share/jupyter/lab/settings/overrides.d/maumau.json").is_file()  # where JupyterLab reads it

    course = tmp_path / "Mau Mau course"
    done = subprocess.run([str(maumau), "course", str(course), "--lang", "de"], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (course / "notebooks/de/01_start_here.ipynb").is_file() and (course / "student/de").is_dir()

    # notebook 01 runs top to bottom from the course folder, in the venv's own kernel
    run_01 = ("import nbclient, nbformat, sys; nb = nbformat.read(sys.argv[1], 4); "
              "nbclient.NotebookClient(nb, timeout=600, kernel_name='python3', "
              "resources={'metadata': {'path': sys.argv[2]}}).execute(); print('ran', len(nb.cells))")
    ran = subprocess.run([str(python), "-c", run_01, "notebooks/de/01_start_here.ipynb",
                          str(course / "notebooks/de")], cwd=course, env=env, capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stdout.startswith("ran"), ran.stderr[-3000:]

    # the instructor's notebook, handed in as a learner's, earns every point
    handins = tmp_path / "hand ins"
    (handins / "alice").mkdir(parents=True)
    shutil.copyfile(course / "exercises/01_matching.ipynb", handins / "alice/01_matching.ipynb")
    graded = subprocess.run([str(maumau), "grade", "--source", str(course / "exercises"), str(handins),
                             "--out", str(tmp_path / "grades")], cwd=course, env=env, capture_output=True, text=True)
    assert graded.returncode == 0, graded.stderr
    with open(tmp_path / "grades/grades.csv", encoding="utf-8", newline="") as f:
        (row,) = [r for r in csv.DictReader(f) if r["exercise"] == "01_matching"]
    assert row["student"] == "alice" and float(row["score"]) == float(row["max_score"]) > 0

    # no JupyterLab in this venv: maumau lab says in one sentence what to install
    lab = subprocess.run([str(maumau), "lab", str(course)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert lab.returncode == 1 and "pip install 'maumau[lab]'" in lab.stderr and lab.stderr.count("\n") == 1
