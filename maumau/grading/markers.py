"""nbgrader's cell markers: a cell's role and stable id from ``metadata.nbgrader``, and the
regions its source marks (solutions, hidden tests, mark schemes) and directives.

These read one cell at a time and run nothing; the checks across a whole instructor notebook
are ``exercise.load_exercise``.
"""

from __future__ import annotations

from typing import Any

from .reading import NotebookError

__all__ = [
    "BEGIN_SOLUTION", "END_SOLUTION", "BEGIN_HIDDEN", "END_HIDDEN", "STUB", "HIDDEN_NOTE",
    "SOLUTION", "TEST", "LOCKED", "FREE", "TEXT_STUB", "AUTOTEST", "HASHED_AUTOTEST", "BEGIN_MARK_SCHEME",
    "END_MARK_SCHEME", "SCHEMA_VERSION", "nbgrader_data", "role_of", "is_manual", "cell_key", "strip_region",
    "region_lines", "autotest_line",
]

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
#: What a solution region becomes in the student version (nbgrader's own stub).
STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")
HIDDEN_NOTE = "# (more tests run here when your notebook is graded)"
SOLUTION, TEST, LOCKED, FREE = "solution", "test", "locked", "free"

# --- nbgrader's format beyond the regions (manual grading, stubs, directives) ---------------------------

#: What a markdown solution cell becomes in the student version (nbgrader's ``text_stub``).
TEXT_STUB = "YOUR ANSWER HERE"
#: nbgrader's autotest directives: maumau does not expand them (they need autotests.yml and a
#: run of the instructor's notebook at release time); an instructor notebook using them is refused.
AUTOTEST, HASHED_AUTOTEST = "AUTOTEST", "HASHED AUTOTEST"
#: A task cell's mark scheme (nbgrader's ClearMarkScheme): removed from the student version.
BEGIN_MARK_SCHEME, END_MARK_SCHEME = "=== BEGIN MARK SCHEME ===", "=== END MARK SCHEME ==="
#: The newest nbgrader metadata schema maumau reads (nbgrader 0.6 to 0.9 write 3).
SCHEMA_VERSION = 3


def nbgrader_data(cell: dict[str, Any]) -> dict[str, Any]:
    """The cell's ``metadata.nbgrader`` ({} when it has none, or not a dict: learners write it)."""
    meta = cell.get("metadata") or {}
    data = meta.get("nbgrader") if isinstance(meta, dict) else None
    return data if isinstance(data, dict) else {}


def role_of(cell: dict[str, Any]) -> str:
    """SOLUTION, TEST, LOCKED or FREE, from the cell's nbgrader metadata (and its type).

    SOLUTION: the learner's text (code or markdown); TEST: a graded code cell that is not a
    solution (it scores when it runs without error); LOCKED: the instructor's text, restored
    when graded (setup code, task cells, locked markdown).  Whether a person grades the cell
    is a separate question: ``is_manual``."""
    data = nbgrader_data(cell)
    code = cell.get("cell_type") == "code"
    if data.get("solution"):
        return SOLUTION
    if data.get("grade") and code and not data.get("task"):
        return TEST
    if data.get("locked") or data.get("grade") or data.get("task"):
        return LOCKED
    return FREE


def is_manual(cell: dict[str, Any]) -> bool:
    """Whether a person grades the cell (nbgrader's "manually graded answer" — ``grade`` and
    ``solution`` — and "manually graded task" cells, and a graded markdown cell)."""
    data = nbgrader_data(cell)
    if data.get("task"):
        return True
    if not data.get("grade"):
        return False
    return bool(data.get("solution")) or cell.get("cell_type") != "code"


def cell_key(cell: dict[str, Any]) -> str | None:
    """The stable id of a cell: its nbgrader grade_id, else its nbformat id."""
    gid = nbgrader_data(cell).get("grade_id")
    if isinstance(gid, str) and gid:
        return gid
    cid = cell.get("id")
    return cid if isinstance(cid, str) and cid else None


def strip_region(source: str, begin: str, end: str, replacement: tuple[str, ...] | None,
                 where: str = "") -> str:
    """Replace every ``begin``..``end`` region (markers included) by ``replacement`` lines,
    indented like the begin marker; NotebookError for unbalanced markers."""
    out: list[str] = []
    inside = False
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped == begin:
            if inside:
                raise NotebookError(f"{where}: {begin!r} inside another {begin!r}")
            inside = True
            indent = line[: len(line) - len(line.lstrip())]
            out += [indent + r for r in (replacement or ())]
        elif stripped == end:
            if not inside:
                raise NotebookError(f"{where}: {end!r} without {begin!r}")
            inside = False
        elif not inside:
            out.append(line)
    if inside:
        raise NotebookError(f"{where}: {begin!r} is never closed by {end!r}")
    return "\n".join(out)


def region_lines(source: str, begin: str, end: str) -> list[str]:
    """The lines inside the ``begin``..``end`` regions of ``source``."""
    lines, inside = [], False
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped == begin:
            inside = True
        elif stripped == end:
            inside = False
        elif inside:
            lines.append(line)
    return lines


def autotest_line(source: str) -> str | None:
    """The first line of ``source`` with an nbgrader autotest directive (a comment naming
    AUTOTEST, as nbgrader's InstantiateTests finds them), else None."""
    for line in source.split("\n"):
        text = line.strip()
        if text.startswith("#") and AUTOTEST in text:
            return text
    return None
