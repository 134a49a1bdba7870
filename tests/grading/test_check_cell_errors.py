"""An error on a check cell's own line is not the learner's code (issue 36).

When a learner deletes or renames a function (or never runs its cell), the exercise's locked test
cell hits a NameError on its own line.  The ✗ line then says that the check calls a name the
notebook does not define, and the line under it is the check cell's, never "in your code"; an
error inside the learner's function still reads "your code raised ..., in f, line n".
"""

from __future__ import annotations

import linecache
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from test_checks import fresh_checks  # noqa: F401  (autouse: each test starts with no recorded results)

from maumau.grading import checks
from maumau.grading.checks import CheckFailed, scenario
from maumau.grading.releaser import release
from maumau.text.i18n import use_language

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"

#: What each language must not say of a line in the check cell: that it is the learner's code.
YOUR_CODE = {"en": "your code", "de": "dein Code", "hu": "a kódod"}
#: The check cell, as each language names it in the line under the message.
CHECK_CELL = {"en": "in the check cell, line", "de": "in der Prüfzelle, Zeile", "hu": "az ellenőrző cella"}
#: The sentence naming the missing name, as each language says it.
NOT_DEFINED = {"en": "the check calls `play_card`, which your notebook does not define",
               "de": "die Prüfung ruft `play_card` auf, aber dein Notebook definiert es nicht",
               "hu": "az ellenőrzés meghívja ezt: `play_card`, de a notebookod nem definiálja"}



def run_cell(source: str, name: str = "<cell-check-9>") -> dict[str, object]:
    """Run ``source`` as a notebook cell does: compiled under a name linecache knows (IPython's way)."""
    filename = f"/tmp/ipykernel_0/{name}.py"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    space: dict[str, object] = {"scenario": scenario}
    try:
        exec(compile(source, filename, "exec"), space)
    finally:
        linecache.cache.pop(filename, None)
    return space


CHECK = '''\
with scenario("3 players"):
    hand = ["8H"]
    play_card(hand)
'''


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_a_name_the_check_calls_is_missing_from_the_notebook(lang):
    checks.record()  # raise, as graded, to read the exception
    with use_language(lang), pytest.raises(CheckFailed) as err:
        run_cell(CHECK)
    message = str(err.value)
    assert message.startswith("3 players: " + NOT_DEFINED[lang]), message
    assert YOUR_CODE[lang] not in message.replace("notebook", ""), message
    where = err.value.where
    assert where.startswith(CHECK_CELL[lang]) and "3" in where and "play_card(hand)" in where, where
    assert YOUR_CODE[lang] not in where, where


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_a_name_set_by_a_failed_scenario_before_is_the_checks_line(lang, capsys):
    source = ('with scenario("first"):\n    raise ValueError("boom")\n    s = 1\n'
              'with scenario("second"):\n    print(s)\n')
    with use_language(lang):
        run_cell(source)
    out = capsys.readouterr().out
    second = out[out.index("second"):]
    assert "NameError" in second and CHECK_CELL[lang] in second, second
    assert YOUR_CODE[lang] not in second, second


def test_an_error_inside_the_learners_function_still_reads_your_code():
    checks.record()
    source = 'def play_card(hand):\n    return hand[5]\n\nwith scenario("3 players"):\n    play_card([])\n'
    with pytest.raises(CheckFailed) as err:
        run_cell(source)
    assert str(err.value) == "3 players: your code raised IndexError: list index out of range"
    assert err.value.where == "in play_card, line 2: return hand[5]"


def test_a_name_the_learners_function_misses_is_the_learners_code():
    checks.record()
    source = 'def play_card(hand):\n    return helper(hand)\n\nwith scenario("3 players"):\n    play_card([])\n'
    with pytest.raises(CheckFailed) as err:
        run_cell(source)
    assert str(err.value) == "3 players: your code raised NameError: name 'helper' is not defined"
    assert err.value.where == "in play_card, line 2: return helper(hand)"


def test_a_renamed_class_in_a_released_exercise_names_what_the_locked_test_cell_calls(tmp_path):
    """Exercise 02 as a learner hands it in after renaming SkipOnEight: each language's ✗ line of
    the locked test cell names SkipOnEight and the check cell, not the learner's code."""
    release(EXERCISES, tmp_path / "student")
    path = tmp_path / "student" / "02_skip_on_eight.ipynb"
    nb = nbformat.read(path, as_version=4)
    solution = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution"))
    solution.source = solution.source.replace("class SkipOnEight(", "class SkipEight(")
    test = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "skip_on_eight_test1")
    at = nb.cells.index(test)
    cells = nb.cells[:at]
    for lang in ("en", "de", "hu"):
        cells += [nbformat.v4.new_code_cell(f"mm.set_language({lang!r})"), nbformat.v4.new_code_cell(test.source)]
    nb.cells = cells
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    shown = ["".join(o.get("text", "") for o in c.outputs) for c in nb.cells[at + 1::2]]
    for lang, text in zip(("en", "de", "hu"), shown, strict=True):
        named = NOT_DEFINED[lang].replace("play_card", "SkipOnEight")
        assert named in text and CHECK_CELL[lang] in text, text
        assert "SkipOnEight()" in text and YOUR_CODE[lang] not in text.replace("notebook", ""), text
