"""Run maumau in a subprocess where some installed modules cannot be imported: an install without
an extra (or, blocking everything outside maumau's default dependencies, a bare ``pip install maumau``).

A ``sitecustomize`` on the subprocess's PYTHONPATH puts a finder first on ``sys.meta_path`` that
raises ``ModuleNotFoundError`` (as Python does, with ``name``) for every module of
``$MAUMAU_TEST_BLOCK`` (comma-separated top-level names).  Processes the subprocess starts (the
grader's kernels) inherit it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SITECUSTOMIZE = '''\
import os, sys

class _Blocked:
    """What an install without these modules has: none of them."""
    names = frozenset(filter(None, os.environ.get("MAUMAU_TEST_BLOCK", "").split(",")))

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _Blocked())
'''


def blocking(folder: Path, modules: Iterable[str], **env: str) -> dict[str, str]:
    """The environment of a subprocess that cannot import ``modules``."""
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)]), "MAUMAU_PURE_PYTHON": "1",
            "MAUMAU_TEST_BLOCK": ",".join(sorted(modules)), "MAUMAU_LANG": "en", **env}


def maumau(folder: Path, modules: Iterable[str], *argv: str, cwd: Path | None = None, timeout: float = 120,
           stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m maumau ARGV`` unable to import ``modules``."""
    return subprocess.run([sys.executable, "-m", "maumau", *argv], capture_output=True, text=True, input=stdin,
                          env=blocking(folder, modules, **env), cwd=cwd or folder, timeout=timeout)


def python(folder: Path, modules: Iterable[str], code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` unable to import ``modules``."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=blocking(folder, modules, **env), cwd=folder, timeout=120)
