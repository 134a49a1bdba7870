"""Exercise notebooks: nbgrader-compatible markers, cell roles and stable ids.

An instructor notebook marks its cells in ``metadata.nbgrader`` (schema 3, as nbgrader does):

- a *solution* cell (``solution: true``) holds the learner's code; the instructor's answer
  sits between ``### BEGIN SOLUTION`` and ``### END SOLUTION``;
- a *test* cell (``grade: true, solution: false, locked: true, points: N``) is graded: it
  scores its points when it runs without an error; hidden tests sit between
  ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS``;
- a *locked* cell (``locked: true``) is instructor code the grader restores (setup cells).

As in nbgrader, a solution cell without the markers is a solution as a whole (the student
version holds only the stub; ``YOUR ANSWER HERE`` for markdown); manually graded answers
(``grade`` and ``solution``) and task cells count in ``max_score`` and wait for a person
(``manual_pending``); ``### AUTOTEST`` directives are refused; files beside the notebook go
into the grading kernel's folder (``exercise_files``, ``submission_files``).

Every marked cell has a stable ``grade_id``; the cell's own nbformat id is the same string,
so cells are found by id, never by position.  Nothing here runs notebook code.

This module gathers, under the names it has always had, one module per idea: ``reading`` (a
notebook file, read without trusting it), ``markers`` (nbgrader's metadata and regions, one
cell at a time), ``exercise`` (an instructor notebook, loaded and checked), ``student`` (the
released version and the secret lines), ``manual`` (manual grading) and ``datafiles`` (the
files a kernel finds beside the notebook).
"""

from __future__ import annotations

# Re-exported: tests, the teachers' notebook and the other grading modules import these from here.
from .datafiles import MAX_DATA_BYTES, MAX_DATA_FILE_BYTES, MAX_DATA_FILES, exercise_files, submission_files
from .exercise import Exercise, ExerciseCell, load_exercise, load_exercises
from .manual import answered, manual_pending
from .markers import (  # noqa: F401  (HIDDEN_NOTE, region_lines: public, never in __all__)
    AUTOTEST,
    BEGIN_HIDDEN,
    BEGIN_MARK_SCHEME,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_MARK_SCHEME,
    END_SOLUTION,
    FREE,
    HASHED_AUTOTEST,
    HIDDEN_NOTE,
    LOCKED,
    SCHEMA_VERSION,
    SOLUTION,
    STUB,
    TEST,
    TEXT_STUB,
    cell_key,
    is_manual,
    region_lines,
    role_of,
    strip_region,
)
from .reading import MAX_NOTEBOOK_BYTES, NotebookError, notebook_from_bytes, read_notebook, read_regular_file
from .student import leaks, secret_lines, stub_for, student_cell_source, student_version  # noqa: F401  (as above)

__all__ = [
    "NotebookError", "BEGIN_SOLUTION", "END_SOLUTION", "BEGIN_HIDDEN", "END_HIDDEN", "STUB",
    "SOLUTION", "TEST", "LOCKED", "FREE", "ExerciseCell", "Exercise", "read_notebook",
    "load_exercise", "load_exercises", "role_of", "cell_key", "strip_region", "student_version",
    "secret_lines", "leaks", "student_cell_source", "MAX_NOTEBOOK_BYTES", "read_regular_file", "notebook_from_bytes",
]
__all__ += ["TEXT_STUB", "BEGIN_MARK_SCHEME", "END_MARK_SCHEME", "AUTOTEST", "HASHED_AUTOTEST", "SCHEMA_VERSION",
            "is_manual", "stub_for",
            "answered", "manual_pending", "exercise_files", "submission_files", "MAX_DATA_FILE_BYTES",
            "MAX_DATA_BYTES", "MAX_DATA_FILES"]
