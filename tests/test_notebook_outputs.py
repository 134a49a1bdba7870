"""What the course notebooks show besides their Markdown: the committed outputs and the code.

The course is projected in class and its committed outputs are what a learner sees before running a
cell, so no output of ``notebooks/`` may show a hidden test of an exercise (the lines between
``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS`` in ``exercises/*.ipynb``), and no code cell
shows nbval's ``# NBVAL_...`` comment markers (cell tags say the same, out of sight).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Every language's (English, and the translations in de/ and hu/: the hidden tests of each).
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks").glob("*/*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb")) + sorted((ROOT / "exercises").glob("*/*.ipynb"))

BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
#: Shorter lines (``)``, ``else:``, ``s = t``) say nothing about a test.
MIN_LENGTH = 8
#: Output formats that hold text (images and widget views cannot show a test's lines).
TEXT_TYPES = ("text/plain", "text/markdown", "text/html", "text/latex", "application/json")


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def split_regions(source: str) -> tuple[list[str], list[str]]:
    """(lines inside hidden-test regions, lines outside any hidden-test or solution region)."""
    hidden, public, region = [], [], None
    for line in source.split("\n"):
        marker = line.strip()
        if marker in (BEGIN_HIDDEN, BEGIN_SOLUTION):
            region = marker
        elif marker in (END_HIDDEN, END_SOLUTION):
            region = None
        elif region == BEGIN_HIDDEN:
            hidden.append(line)
        elif region is None:
            public.append(line)
    return hidden, public


def secret_lines(*exercises: dict) -> dict[str, str]:
    """The lines of the exercises' hidden tests that a learner never sees, each with the exercise
    it comes from: stripped, long enough to say something, and not also written in the released
    part of any exercise (``passed(3)`` or ``v = base.with_rules(...)`` give nothing away)."""
    hidden, shown = {}, set()
    for exercise in exercises:
        name = exercise.get("name", "?")
        for cell in exercise["cells"]:
            inside, outside = split_regions(_source(cell))
            if cell["cell_type"] == "code":
                hidden.update((line.strip(), name) for line in inside if len(line.strip()) >= MIN_LENGTH)
            shown.update(line.strip() for line in outside)
    return {line: name for line, name in hidden.items() if line not in shown}


def output_texts(notebook: dict) -> list[tuple[str, str]]:
    """(cell id, text) of every committed output of a notebook."""
    found = []
    for i, cell in enumerate(notebook["cells"]):
        cell_id = cell.get("id", str(i))
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                found.append((cell_id, _joined(output["text"])))
            elif output["output_type"] == "error":
                found.append((cell_id, "\n".join([output.get("evalue", ""), *output.get("traceback", [])])))
            else:
                data = output.get("data", {})
                found += [(cell_id, _joined(data[kind])) for kind in TEXT_TYPES if kind in data]
    return found


def _joined(text: str | list | dict) -> str:
    if isinstance(text, dict):
        return json.dumps(text, ensure_ascii=False)
    return "".join(text) if isinstance(text, list) else text


def leaks(text: str, secrets: dict[str, str], markers: bool = True) -> list[str]:
    """The hidden-test lines (with the exercise of each) and, with ``markers``, the region markers
    that ``text`` shows."""
    found = [marker for marker in (BEGIN_HIDDEN, END_HIDDEN) if markers and marker in text]
    return found + sorted(f"{line}  [{secrets[line]}]" for line in secrets if line in text)


@pytest.fixture(scope="module")
def secrets() -> dict[str, str]:
    return secret_lines(*({**json.loads(path.read_text(encoding="utf-8")), "name": path.name}
                          for path in EXERCISES))


def test_the_check_finds_hidden_lines() -> None:
    """The detector itself, on two small exercises: a hidden line is secret, a line that a released
    notebook also shows is not, and printing the hidden cell is caught."""
    first = {"name": "a.ipynb", "cells": [
        {"cell_type": "code", "source": "v = base.with_rules(Rule())\ncheck('who moves', s.to_move, 1)"},
        {"cell_type": "code", "source": [
            "# Hidden tests: an 8 on an 8\n", f"{BEGIN_HIDDEN}\n", "v = base.with_rules(Rule())\n",
            "with scenario('hidden: an 8 on an 8'):\n", "    check('who moves next', t.to_move, 2)\n",
            "passed(2)\n", "x = 1\n", f"{END_HIDDEN}"]},
        {"cell_type": "markdown", "source": "Do not edit the tests."},
    ]}
    second = {"name": "b.ipynb", "cells": [{"cell_type": "code", "source": "passed(2)"}]}
    found = secret_lines(first, second)
    assert found == {"with scenario('hidden: an 8 on an 8'):": "a.ipynb",
                     "check('who moves next', t.to_move, 2)": "a.ipynb"}
    printed = "".join(first["cells"][1]["source"])
    assert leaks(printed, found) == [BEGIN_HIDDEN, END_HIDDEN, "check('who moves next', t.to_move, 2)  [a.ipynb]",
                                     "with scenario('hidden: an 8 on an 8'):  [a.ipynb]"]
    assert leaks(printed, found, markers=False) == [f"{line}  [a.ipynb]" for line in sorted(found)]
    assert leaks(f"Hidden tests sit between `{BEGIN_HIDDEN}` and `{END_HIDDEN}`.", found, markers=False) == []
    assert leaks("# Hidden tests: an 8 on an 8\n# (more tests run here when your notebook is graded)", found) == []


def test_every_exercise_has_hidden_tests(secrets: dict[str, str]) -> None:
    """Otherwise the check below would look for nothing."""
    assert EXERCISES, "no exercises found"
    assert set(secrets.values()) == {path.name for path in EXERCISES}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_outputs_show_no_hidden_test(path: Path, secrets: dict[str, str]) -> None:
    """No committed output of the course shows a line of a hidden test, or the markers around one
    (a printed instructor cell); no cell quotes a hidden test either (its text may name the markers)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    texts = [(cell_id, text, True) for cell_id, text in output_texts(notebook)]
    texts += [(cell.get("id", str(i)), _source(cell), False) for i, cell in enumerate(notebook["cells"])]
    for cell_id, text, is_output in texts:
        found = leaks(text, secrets, markers=is_output)
        assert not found, (f"{path.name} cell {cell_id} shows hidden tests: {found[:3]}; "
                           "show a visible test or the student version instead")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_nbval_comment_markers(path: Path) -> None:
    """``# NBVAL_IGNORE_OUTPUT`` and friends are for the test run, not for learners: use the cell
    tags (nbval-ignore-output, nbval-skip, raises-exception, nbval-check-output)."""
    for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            markers = re.findall(r"^\s*#\s*(NBVAL_\w+)", _source(cell), flags=re.M)
            assert not markers, f"{path.name} cell {cell.get('id', i)}: {markers}: use cell tags instead"


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_exercise_outputs_show_no_hidden_test(path: Path, secrets: dict[str, str]) -> None:
    """The instructor notebooks hold the hidden tests in their cells, never in their committed
    outputs (a traceback of a hidden test would quote it; a learner may see those files)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell_id, text in output_texts(notebook):
        found = leaks(text, secrets)
        assert not found, f"{path.name} cell {cell_id} shows hidden tests in its output: {found[:3]}"
