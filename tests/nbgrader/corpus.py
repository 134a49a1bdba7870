"""nbgrader's own test notebooks, fetched from PyPI at test time (nothing of nbgrader is committed).

The wheel of a pinned nbgrader release holds ``nbgrader/tests/apps/files`` (the notebooks
nbgrader's app tests grade, with the scores those tests assert) and
``nbgrader/tests/preprocessors/files``.  ``pip download`` fetches it into a cache folder
(``.tmp-home/nbgrader-corpus``); its SHA-256 is checked, and the files are read from it.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path

VERSION = "0.9.6"
WHEEL = f"nbgrader-{VERSION}-py3-none-any.whl"
SHA256 = "8a185fe53cab78363102862e3d845c48b26823f349482ea9209426bdae5bd75f"
APPS = "nbgrader/tests/apps/files/"
PREPROCESSORS = "nbgrader/tests/preprocessors/files/"
CACHE = Path(__file__).resolve().parents[2] / ".tmp-home" / "nbgrader-corpus"


class Unavailable(Exception):
    """The wheel could not be downloaded (no network, no pip): the parity tests skip."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def wheel(cache: Path = CACHE) -> Path:
    """The pinned nbgrader wheel, downloaded by pip when it is not in ``cache`` yet."""
    path = cache / WHEEL
    if not path.is_file() or _sha256(path) != SHA256:
        cache.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
               "--disable-pip-version-check", "--no-input", "-q", f"nbgrader=={VERSION}", "-d", str(cache)]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise Unavailable(f"pip download nbgrader=={VERSION} failed: {err}") from None
        if done.returncode != 0 or not path.is_file():
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise Unavailable(f"pip download nbgrader=={VERSION} failed: {tail[0]}")
    found = _sha256(path)
    if found != SHA256:  # a different file under the pinned name: an error, not a skip
        raise AssertionError(f"{path} has SHA-256 {found}, expected {SHA256}")
    return path


def extract(target: Path, cache: Path = CACHE) -> Path:
    """nbgrader's test files in ``target``: ``apps/<name>`` and ``preprocessors/<name>``."""
    with zipfile.ZipFile(wheel(cache)) as zf:
        for info in zf.infolist():
            for prefix, sub in ((APPS, "apps"), (PREPROCESSORS, "preprocessors")):
                if info.filename.startswith(prefix) and not info.is_dir():
                    name = info.filename[len(prefix):]
                    if "/" in name or name.startswith("."):
                        continue
                    out = target / sub / name
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(zf.read(info))
    return target
