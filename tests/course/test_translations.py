"""The course's translations stay in step with the English notebooks (issue 36, item 2).

The first test reads the real course: every English notebook and exercise has a German and a
Hungarian translation with the same cells and the same code, each cell stamped with the English
text it was translated from. The others build small notebooks and show that each way a translation
can fall out of step is caught (a change to an English cell reads as outdated, a new English cell
as untranslated), and that translating words does not count as changing code.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from maumau.course import translations as tr

ROOT = Path(__file__).resolve().parents[2]


def test_every_translation_of_the_course_is_in_step():
    found = tr.course_problems(ROOT)
    assert not found, "\n".join(map(str, found[:40])) + f"\n({len(found)} problems)"


def test_the_course_has_all_three_languages():
    sources = tr.course_sources(ROOT)
    assert len(sources) == 25
    for lang in tr.TRANSLATED:
        assert all(tr.translation_path(s, lang).exists() for s in sources), lang


# --- small notebooks ---------------------------------------------------------------------------

def code(cid: str, source: str, **meta: object) -> dict:
    return {"cell_type": "code", "id": cid, "metadata": dict(meta), "execution_count": None,
            "outputs": [], "source": source}


def markdown(cid: str, source: str) -> dict:
    return {"cell_type": "markdown", "id": cid, "metadata": {}, "source": source}


SETUP = 'import maumau as mm\n\nmm.set_language("en")  # the language of this notebook\n'
TEST = ('# Seven makes the next player draw\n'
        'with scenario("seat 0 plays 7♥"):\n'
        '    s = mm.position("makao", hands=["7H 5C", "8S"], top="5H")\n'
        '    check("cards to draw", s.apply(mm.Play("7H")).pending.count, 2)\n'
        '### BEGIN HIDDEN TESTS\n'
        'check("hidden", 1, 1)\n'
        '### END HIDDEN TESTS\n')


def english() -> dict:
    return {"cells": [markdown("a", "# Sevens\n\nA 7 makes the next player draw two."),
                      code("setup", SETUP),
                      code("test", TEST, nbgrader={"grade": True, "grade_id": "test", "points": 2}),
                      code("say", 'n = 3\nprint(f"{n} cards, say {\'Mau\'!r}")  # a greeting\n')],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def german() -> dict:
    nb = copy.deepcopy(english())
    nb["cells"][0]["source"] = "# Siebener\n\nEine 7 lässt den nächsten Spieler zwei Karten ziehen."
    nb["cells"][1]["source"] = SETUP.replace('"en"', '"de"').replace("the language of this notebook",
                                                                        "die Sprache dieses Notebooks")
    nb["cells"][2]["source"] = (TEST.replace("Seven makes the next player draw", "Die 7 lässt ziehen")
                                .replace("seat 0 plays 7♥", "Platz 0 spielt 7♥")
                                .replace("cards to draw", "zu ziehende Karten"))
    nb["cells"][3]["source"] = 'n = 3\nprint(f"{n} Karten, sag {\'Mau\'!r}")  # ein Gruß\n'
    tr.stamp(english(), nb, "de")
    return nb


def kinds(source: dict, translation: dict, lang: str = "de") -> list[str]:
    return [p.kind for p in tr.problems(source, translation, lang, Path("x.ipynb"))]


def test_translated_words_comments_and_docstrings_are_not_code():
    assert kinds(english(), german()) == []


def test_a_changed_english_cell_reads_as_outdated():
    source = english()
    source["cells"][0]["source"] += " Unless they answer with a 7."
    assert kinds(source, german()) == ["outdated"]


def test_restamping_one_cell_brings_it_in_step():
    source, translation = english(), german()
    source["cells"][0]["source"] += " Unless they answer with a 7."
    assert tr.stamp(source, translation, "de", ["a"]) == ["a"]
    assert kinds(source, translation) == []


def test_a_new_english_cell_is_missing_then_untranslated_after_sync():
    source = english()
    source["cells"].insert(1, markdown("new", "A new paragraph."))
    assert kinds(source, german()) == ["missing"]
    synced = tr.sync(source, german(), "de")
    assert [c["id"] for c in synced["cells"]] == [c["id"] for c in source["cells"]]
    assert kinds(source, synced) == ["untranslated"]


def test_a_cell_gone_from_english_is_extra_and_sync_removes_it():
    source = english()
    del source["cells"][3]
    assert kinds(source, german()) == ["extra"]
    assert kinds(source, tr.sync(source, german(), "de")) == []


@pytest.mark.parametrize("change", [
    ('check("cards to draw", s.apply(mm.Play("7H")).pending.count, 2)',
     'check("zu ziehende Karten", s.apply(mm.Play("7H")).pending.count, 3)'),   # another expected value
    ("pending.count", "pending"),                                                 # another attribute
    ("with scenario", "if scenario"),                                             # another statement
])
def test_code_that_does_something_else_is_caught(change):
    translation = german()
    old, new = change
    cell = translation["cells"][2]
    assert old in cell["source"] or old.replace("cards to draw", "zu ziehende Karten") in cell["source"]
    cell["source"] = cell["source"].replace(old.replace("cards to draw", "zu ziehende Karten"), new).replace(old, new)
    assert kinds(english(), translation) == ["code"]


def test_an_f_string_field_may_move_but_not_change():
    translation = german()
    translation["cells"][3]["source"] = "n = 3\nprint(f\"sag {'Mau'!r} mit {n} Karten\")\n"
    assert kinds(english(), translation) == []
    translation["cells"][3]["source"] = "n = 3\nprint(f\"sag {'Mau'!r} mit {n + 1} Karten\")\n"
    assert kinds(english(), translation) == ["code"]


def test_the_graders_markers_must_stay():
    translation = german()
    translation["cells"][2]["source"] = translation["cells"][2]["source"].replace(
        "### BEGIN HIDDEN TESTS", "### BEGINN VERSTECKTE TESTS")
    assert kinds(english(), translation) == ["markers"]


def test_grading_metadata_must_stay():
    translation = german()
    translation["cells"][2]["metadata"]["nbgrader"]["points"] = 5
    assert kinds(english(), translation) == ["metadata"]


def test_the_notebook_must_speak_its_language():
    translation = german()
    translation["cells"][1]["source"] = SETUP
    assert kinds(english(), translation) == ["language", "language"]
    assert kinds(english(), german(), "hu")[:1] == ["language"]


def test_a_missing_translation_file_is_reported(tmp_path):
    (tmp_path / "notebooks").mkdir()
    tr.write(tmp_path / "notebooks" / "01_x.ipynb", english())
    tr.write(tmp_path / "notebooks" / "de" / "01_x.ipynb", german())
    tr.write(tmp_path / "notebooks" / "de" / "02_gone.ipynb", german())
    found = tr.course_problems(tmp_path)
    assert {(str(p.path), p.kind) for p in found} == {
        ("notebooks/hu/01_x.ipynb", "missing"), ("notebooks/de/02_gone.ipynb", "extra")}


def test_the_command_line_syncs_stamps_and_checks(tmp_path, capsys):
    (tmp_path / "exercises").mkdir()
    tr.write(tmp_path / "exercises" / "01_x.ipynb", english())
    assert tr.main(["sync", "de", "--root", str(tmp_path)]) == 0
    path = tmp_path / "exercises" / "de" / "01_x.ipynb"
    assert tr.main(["check", str(path)]) == 1
    assert "untranslated" in capsys.readouterr().out
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["cells"][1]["source"] = SETUP.replace('"en"', '"de"')
    tr.write(path, nb)
    assert tr.main(["stamp", str(path)]) == 0
    assert tr.main(["check", str(path)]) == 0
    assert "in step" in capsys.readouterr().out
