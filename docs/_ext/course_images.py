"""The course notebooks show pictures of the manual as ``../docs/images/NAME`` (from ``notebooks/``,
where JupyterLab opens them). Rendered in the manual, from ``docs/tutorials/course/`` (a link to
``notebooks/``), the same picture is ``/images/NAME``: Sphinx reads a leading ``/`` as the manual's
source folder. This extension rewrites the path as a notebook is read; a translated notebook, one
folder deeper (``notebooks/de/``), says ``../../docs/images/NAME``."""

from __future__ import annotations

import re
from typing import Any

FROM_NOTEBOOKS = re.compile(r"(?:\.\./)+docs/images/")
FROM_MANUAL = "/images/"


def _rewrite(app: Any, docname: str, source: list[str]) -> None:
    if docname.startswith("tutorials/course/"):
        source[0] = FROM_NOTEBOOKS.sub(FROM_MANUAL, source[0])


def setup(app: Any) -> dict[str, Any]:
    app.connect("source-read", _rewrite)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
