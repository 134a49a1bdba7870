"""Sphinx configuration of maumau's manual (`make docs`: warnings are errors, nitpicky).

The course notebooks are rendered with the outputs committed to them (nb_execution_mode "off"):
`make test` runs them with nbval, the manual shows them as a learner sees them after Run All.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))  # the maumau of this checkout, for autodoc and the CLI page

from maumau._version import __version__  # noqa: E402

project = "maumau"
author = "the maumau authors"
copyright = "the maumau authors"
version = release = __version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "maumau_cli",
    "course_images",
]

# MyST: Markdown pages; `{include}` for RULES.md; anchors for the headings people link to.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"
# The course's charts carry a Vega-Lite spec beside their PNG: the manual shows the PNG.
nb_mime_priority_overrides = [
    ("html", "application/vnd.vegalite.v5+json", None),
]

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**/.ipynb_checkpoints"]

# The API reference: signatures without their annotations (the docstrings say what is taken),
# members in the order of the source.
autodoc_typehints = "none"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}

nitpicky = True

html_theme = "furo"
html_title = f"maumau {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
