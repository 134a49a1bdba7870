"""`make lab` starts JupyterLab for root (a Docker image, a VM, a lab machine) and for a normal user."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lab_command(*prefix: str) -> str:
    """The `jupyter lab` line that `make lab` would run (make -n runs nothing)."""
    out = subprocess.run([*prefix, "make", "-n", "-C", str(ROOT), "lab"], capture_output=True, text=True,
                         check=True).stdout
    lines = [line for line in out.splitlines() if "jupyter lab" in line]
    assert len(lines) == 1, out
    return lines[0]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_lab_allows_root_only_for_root() -> None:
    line = lab_command()
    assert ("--allow-root" in line) == (os.geteuid() == 0), line
    assert f'--ServerApp.root_dir="{ROOT}"' in line, line  # the course root (quoted: a path may hold spaces)
    assert line.rstrip().endswith("--LabApp.default_url=/lab/tree/notebooks/01_start_here.ipynb"), line


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
