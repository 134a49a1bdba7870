"""How ``maumau lab`` starts JupyterLab on a course folder.

The server serves the course folder and opens the course's first notebook; every maumau screen in
it (and ``maumau`` in its terminal) speaks the course's language (``MAUMAU_LANG``, from the
folder's manifest).  Root (a Docker image, a VM, a lab machine) needs ``--allow-root``.

The JupyterLab setting the class table needs (comms on the main shell, not over kernel subshells:
docs/howto/class-table.md) comes with the package: the wheel installs it as
``share/jupyter/lab/settings/overrides.d/maumau.json`` of its environment (``setup.py``), where
JupyterLab reads it for every lab of that environment, also one a JupyterHub starts.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from urllib.parse import quote

from .folder import CourseError, start_notebook

__all__ = ["lab_command"]


def lab_command(folder: Path, language: str, *, port: int | None = None,
                browser: bool = True) -> tuple[list[str], dict[str, str]]:
    """The command line and environment of JupyterLab on ``folder``; CourseError when JupyterLab
    is not installed."""
    if importlib.util.find_spec("jupyterlab") is None:
        raise CourseError("no_jupyterlab")
    argv = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder.resolve()}",
            f"--LabApp.default_url=/lab/tree/{quote(start_notebook(language))}"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        argv.append("--allow-root")
    if port is not None:
        argv.append(f"--port={port}")
    if not browser:
        argv.append("--no-browser")
    return argv, {**os.environ, "MAUMAU_LANG": language}
