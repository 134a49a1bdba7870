"""`make lab` starts JupyterLab for root (a Docker image, a VM, a lab machine) and for a normal user."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lab_command(*prefix: str, lang: str = "C.UTF-8") -> str:
    """The `jupyter lab` line that `make lab` would run (make -n runs nothing), under the locale
    ``lang`` (a teacher's LANG, or the course's language as `make lab LANG=de` gives it)."""
    env = {**os.environ, "LANG": lang}
    out = subprocess.run([*prefix, "make", "-n", "-C", str(ROOT), "lab"], capture_output=True, text=True,
                         check=True, env=env).stdout
    lines = [line for line in out.splitlines() if "jupyter lab" in line]
    assert len(lines) == 1, out
    return lines[0]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_lab_allows_root_only_for_root() -> None:
    line = lab_command()
    assert ("--allow-root" in line) == (os.geteuid() == 0), line
    assert f'--ServerApp.root_dir="{ROOT}"' in line, line  # the course root (quoted: a path may hold spaces)
    assert line.rstrip().endswith("--LabApp.default_url=/lab/tree/notebooks/01_start_here.ipynb"), line


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize(("lang", "course", "locale"), [
    ("de", "de", "C.UTF-8"), ("hu", "hu", "C.UTF-8"), ("en", "en", "C.UTF-8"),
    ("de_AT.UTF-8", "de", "de_AT.UTF-8"), ("hu_HU.UTF-8", "hu", "hu_HU.UTF-8"), ("fr_FR.UTF-8", "en", "fr_FR.UTF-8"),
])
def test_make_lab_opens_the_course_in_its_language(lang: str, course: str, locale: str) -> None:
    line = lab_command(lang=lang)
    folder = "notebooks" if course == "en" else f"notebooks/{course}"
    assert line.rstrip().endswith(f"--LabApp.default_url=/lab/tree/{folder}/01_start_here.ipynb"), line
    assert f"MAUMAU_LANG={course} " in line, line       # every maumau screen and command in the lab
    assert f'LANG="{locale}" ' in line, line             # a bare "de" is no locale: C.UTF-8 instead


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("runuser") is None, reason="needs root and runuser")
def test_make_lab_as_a_normal_user_has_no_allow_root() -> None:
    # a checkout in a folder only root may enter (``mktemp -d`` makes 0700 folders under /tmp)
    readable = subprocess.run(["runuser", "-u", "nobody", "--", "test", "-r", str(ROOT / "Makefile")],
                              capture_output=True).returncode == 0
    if not readable:
        pytest.skip(f"the user nobody cannot read this checkout ({ROOT}): a folder above it is closed to others")
    line = lab_command("runuser", "-u", "nobody", "--")
    assert "--allow-root" not in line, line
    assert "jupyter lab" in line


#: A stand-in for .venv/bin/python and .venv/bin/ruff: it notes each run and fails the tests' or the
#: notebooks' run with the status the test asks for.
FAKE_PYTHON = """#!/bin/sh
echo "$*" >> "$MM_FAKE_LOG"
case "$*" in
  *--nbval*) exit "${MM_NBVAL_STATUS:-0}" ;;
  "-m pytest") exit "${MM_TESTS_STATUS:-0}" ;;
esac
exit 0
"""


def make_test(tmp_path: Path, tests: int, notebooks: int) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """`make test` with a stand-in python (nothing is installed, built or run)."""
    venv, log = tmp_path / "venv", tmp_path / "runs.log"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    for tool in ("python", "ruff"):
        (venv / "bin" / tool).write_text(FAKE_PYTHON)
        (venv / "bin" / tool).chmod(0o755)
    log.write_text("")
    ready = ["build", f"{venv}/chp/node_modules/.bin/configurable-http-proxy",
             f"{venv}/vega/node_modules/vega-embed/build/vega-embed.min.js", f"{venv}/.installed-browser"]
    command = ["make", "-C", str(ROOT), "test", f"VENV={venv}", f"TMPHOME={tmp_path / 'home'}"]
    command += [f"--old-file={target}" for target in ready]
    env = dict(os.environ, MM_FAKE_LOG=str(log), MM_TESTS_STATUS=str(tests), MM_NBVAL_STATUS=str(notebooks))
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    return done, log.read_text().splitlines()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize(("tests", "notebooks", "status"), [(0, 0, 0), (5, 0, 5), (0, 3, 3), (5, 3, 5)])
def test_make_test_runs_the_notebooks_even_when_a_test_fails(tmp_path: Path, tests: int, notebooks: int,
                                                             status: int) -> None:
    done, runs = make_test(tmp_path, tests, notebooks)
    assert runs[-2] == "-m pytest", runs  # the tests, then the notebooks, whatever the tests said
    assert runs[-1].startswith("-m pytest --nbval --nbval-current-env notebooks/"), runs
    assert (done.returncode == 0) == (status == 0), done.stderr
    if status:  # make names the status of the first run that failed
        assert f"Error {status}" in done.stderr, done.stderr
