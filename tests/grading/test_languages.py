"""Grading is the same in every language (issue 36, item 4).

An exercise's translations sit beside its English source (``exercises/de/NAME.ipynb``,
``exercises/hu/NAME.ipynb``): loaded with it and checked against it, released beside it
(``student/de/NAME.ipynb``), and used to grade the hand-ins that say they are in their language,
so the checks and the feedback speak it; the points, scores and grades.csv never depend on it.

The fixture translations are made here from ``02_skip_on_eight`` (a few strings translated,
the metadata and ``set_language`` set); the real translations in ``exercises/de|hu`` are checked
the same way, whichever exist when the tests run.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from maumau.grading.exercise import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_SOLUTION,
    HIDDEN_NOTES,
    STUB,
    NotebookError,
    _code_difference,
    declared_language,
    leaks,
    load_exercises,
    notebook_language,
    secret_lines,
)
from maumau.grading.releaser import release

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
NAME = "02_skip_on_eight"
LANGS = ("en", "de", "hu")

#: The strings translated in the fixture translations (code stays; only strings and comments change).
WORDS = {
    "de": {
        "# An 8 skips the next player": "# Eine 8 setzt den nächsten Spieler aus",
        "# With 2 players the player of the 8 moves again": "# Zu zweit ist, wer die 8 spielt, gleich wieder dran",
        "# Hidden tests: other directions and an 8 on an 8": "# Verdeckte Tests: andere Richtungen, eine 8 auf eine 8",
        '"3 players, seat 0 plays 8♥"': '"3 Spieler, Platz 0 spielt 8♥"',
        '"who moves next"': '"wer ist als Nächstes dran"',
        '"hidden: an 8 on an 8 skips again, nobody answers"': '"verdeckt: eine 8 auf eine 8 setzt wieder aus"',
        "## Your solution": "## Deine Lösung",
        'mm.set_language("en")': 'mm.set_language("de")',
    },
    "hu": {
        "# An 8 skips the next player": "# A 8-as kihagyja a következő játékost",
        "# With 2 players the player of the 8 moves again": "# Ketten a 8-as kijátszója újra jön",
        "# Hidden tests: other directions and an 8 on an 8": "# Rejtett tesztek: más irányok, 8-as a 8-asra",
        '"3 players, seat 0 plays 8♥"': '"3 játékos, a 0. hely 8♥-t tesz"',
        '"who moves next"': '"ki következik"',
        '"hidden: an 8 on an 8 skips again, nobody answers"': '"rejtett: 8-as a 8-asra megint kihagy"',
        "## Your solution": "## A megoldásod",
        'mm.set_language("en")': 'mm.set_language("hu")',
    },
}


def _read(path: Path) -> dict[str, Any]:
    nb: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if isinstance(cell["source"], list):
            cell["source"] = "".join(cell["source"])
    return nb


def _write(nb: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def translated(lang: str) -> dict[str, Any]:
    """The fixture translation of NAME into ``lang``: every WORDS string changed, the language set."""
    nb = _read(EXERCISES / f"{NAME}.ipynb")
    for old, new in WORDS[lang].items():
        assert any(old in c["source"] for c in nb["cells"]), old  # the fixture translates something real
        for cell in nb["cells"]:
            cell["source"] = cell["source"].replace(old, new)
    nb["metadata"]["maumau"] = {"language": lang}
    return nb


def make_course(root: Path, langs: tuple[str, ...] = ("de", "hu")) -> Path:
    """``root/exercises`` holding NAME and its fixture translations."""
    source = root / "exercises"
    source.mkdir(parents=True)
    shutil.copy(EXERCISES / f"{NAME}.ipynb", source)
    for lang in langs:
        _write(translated(lang), source / lang / f"{NAME}.ipynb")
    return source


@pytest.fixture
def course(tmp_path: Path) -> Path:
    return make_course(tmp_path)


# --- the translations, loaded and checked ---------------------------------------------------------------

def test_an_exercise_knows_its_translations(course):
    (exercise,) = load_exercises(course)
    assert exercise.language == "en" and sorted(exercise.translations) == ["de", "hu"]
    for lang, tr in exercise.translations.items():
        assert tr.language == lang and tr.name == NAME and tr.path == course / lang / f"{NAME}.ipynb"
        assert [c.key for c in tr.cells] == [c.key for c in exercise.cells]
        assert [c.points for c in tr.cells] == [c.points for c in exercise.cells]
        assert tr.max_score == exercise.max_score == 6
        assert tr.files == exercise.files
        assert exercise.in_language(lang) is tr
        assert 'set_language("' + lang + '")' in tr.cells[2].source
    for odd in (None, "en", "xx", "../de", "DE", "de/../hu"):
        assert exercise.in_language(odd) is exercise


def test_a_translations_folder_graded_on_its_own_keeps_its_language(course, tmp_path):
    """Notebook 08 of the German course releases and grades exercises/de itself."""
    (exercise,) = load_exercises(course / "de")
    assert exercise.language == "de" and exercise.translations == {}
    out = tmp_path / "student"
    assert release(course / "de", out) == [out / f"{NAME}.ipynb"]
    assert _read(out / f"{NAME}.ipynb")["metadata"]["maumau"] == {"language": "de"}
    subs = tmp_path / "subs"
    _hand_in(_read(out / f"{NAME}.ipynb"), subs / "ann", "de")
    (job,) = _plan(course / "de", subs).jobs
    assert job[1].language == "de" and WORDS["de"]['"who moves next"'] in job[2][3].source


def test_a_folder_that_is_not_a_language_is_not_looked_into(course):
    (course / "xx").mkdir()
    (course / "xx" / f"{NAME}.ipynb").write_text("not a notebook", encoding="utf-8")
    (course / "figures").mkdir()
    (course / "figures" / "other.ipynb").write_text("{}", encoding="utf-8")
    (exercise,) = load_exercises(course)
    assert sorted(exercise.translations) == ["de", "hu"]


def test_a_translation_without_its_source_is_refused(course):
    _write(translated("de"), course / "de" / "99_lost.ipynb")
    with pytest.raises(NotebookError, match=r"de/99_lost\.ipynb .* without its English source"):
        load_exercises(course)


def _cell(nb: dict[str, Any], cell_id: str) -> dict[str, Any]:
    return next(c for c in nb["cells"] if c.get("id") == cell_id)


def _points(nb: dict[str, Any]) -> None:
    _cell(nb, "skip_on_eight_test1")["metadata"]["nbgrader"]["points"] = 3


def _grade_id(nb: dict[str, Any]) -> None:
    _cell(nb, "skip_on_eight_test2")["metadata"]["nbgrader"]["grade_id"] = "skip_on_eight_test9"


def _cell_id(nb: dict[str, Any]) -> None:
    nb["cells"][1]["id"] = "somewhere-else"


def _cell_type(nb: dict[str, Any]) -> None:
    nb["cells"][1]["cell_type"] = "raw"


def _dropped(nb: dict[str, Any]) -> None:
    del nb["cells"][1]


def _solution(nb: dict[str, Any]) -> None:
    cell = _cell(nb, "skip_on_eight_test1")
    cell["metadata"]["nbgrader"]["solution"] = True


def _hidden_region(nb: dict[str, Any]) -> None:
    cell = _cell(nb, "skip_on_eight_hidden")
    cell["source"] = cell["source"].replace(BEGIN_HIDDEN + "\n", "").replace(END_HIDDEN, "")


def _solution_region(nb: dict[str, Any]) -> None:
    cell = _cell(nb, "skip_on_eight_solution")
    lines = cell["source"].split("\n")
    first = lines.index(next(line for line in lines if line.strip() == BEGIN_SOLUTION))
    end = lines.index(next(line for line in lines if line.strip() == END_SOLUTION))
    cell["source"] = "\n".join(lines[:first] + lines[first + 1:end] + lines[end + 1:])


def _code(nb: dict[str, Any]) -> None:
    cell = _cell(nb, "skip_on_eight_hidden")
    cell["source"] = cell["source"].replace("t.to_move, 1)", "t.to_move, 2)")


def _language(nb: dict[str, Any]) -> None:
    nb["metadata"]["maumau"]["language"] = "hu"


MISMATCHES = {
    "points": (_points, r"cell 7 \(skip_on_eight_test1\): its nbgrader metadata differ: points 3 \(the source: 2\)"),
    "grade id": (_grade_id, r"cell 8 .*grade_id 'skip_on_eight_test9'"),
    "cell id": (_cell_id, r"cell 2 .*its id is 'somewhere-else'"),
    "cell type": (_cell_type, r"cell 2 .*it is a raw cell, the source's is a markdown cell"),
    "a cell less": (_dropped, r"it has \d+ cells, the source \d+"),
    "solution flag": (_solution, r"cell 7 .*nbgrader metadata differ: solution True"),
    "hidden region": (_hidden_region, r"cell 9 .*it has 0 hidden test regions, the source 1"),
    "solution region": (_solution_region, r"cell 5 .*it has 1 solution regions, the source 2"),
    "code": (_code, r"cell 9 .*its code differs from the source's beyond strings and comments"),
    "language": (_language, r"says it is in 'hu'"),
}


@pytest.mark.parametrize("what", sorted(MISMATCHES))
def test_a_translation_that_does_not_match_its_source_is_refused(course, what):
    change, said = MISMATCHES[what]
    nb = translated("de")
    change(nb)
    _write(nb, course / "de" / f"{NAME}.ipynb")
    with pytest.raises(NotebookError, match=r"the translation de/02_skip_on_eight\.ipynb") as err:
        load_exercises(course)
    assert re.search(said, str(err.value)), str(err.value)
    out = course.parent / "student"
    with pytest.raises(NotebookError, match=r"de/02_skip_on_eight\.ipynb"):
        release(course, out)
    assert not out.exists()


def test_only_strings_and_comments_may_differ_in_code():
    assert _code_difference('print(f"{a} and {b}")  # two', 'print(f"{b} und {a}")  # zwei\n# mehr') is None
    assert _code_difference('x = ("a"\n     "b")', 'x = ("ein langer Satz "\n     "auf zwei Zeilen"\n     "")') is None
    assert _code_difference('"""Doc."""\nx = 1', '"""Doku."""\nx = 1') is None
    assert _code_difference("print(x)", "print(y)") is not None
    assert _code_difference("check('a', t, 2)", "check('a', t, 3)") is not None
    assert _code_difference("x = 1", "x = 1\ny = 2") is not None


# --- a hand-in's language -----------------------------------------------------------------------------------

@pytest.mark.parametrize("value, lang", [
    ("de", "de"), ("hu", "hu"), ("en", "en"), (None, None), ("xx", None), ("../../etc", None), ("de/", None),
    ("DE", None), ("", None), (["de"], None), ({"de": 1}, None), (7, None),
])
def test_a_hand_in_says_its_language_only_as_one_of_the_languages(value, lang):
    nb = {"metadata": {"maumau": {"language": value}}, "cells": []}
    assert declared_language(nb) == lang
    assert notebook_language(nb) == (lang or "en")
    for odd in ({}, {"metadata": []}, {"metadata": {"maumau": "de"}}, [], None):
        assert declared_language(odd) is None


# --- release ------------------------------------------------------------------------------------------------

def test_release_writes_each_languages_student_version_without_hidden_lines(course, tmp_path):
    out = tmp_path / "student"
    written = release(course, out)
    assert sorted(p.relative_to(out).as_posix() for p in written) == [
        f"{NAME}.ipynb", f"de/{NAME}.ipynb", f"hu/{NAME}.ipynb"]
    (exercise,) = load_exercises(course)
    english = _read(out / f"{NAME}.ipynb")
    assert "maumau" not in english["metadata"]  # as before: a hand-in naming no language is English
    for lang in ("de", "hu"):
        tr = exercise.translations[lang]
        raw = (out / lang / f"{NAME}.ipynb").read_text(encoding="utf-8")
        nb = _read(out / lang / f"{NAME}.ipynb")
        assert nb["metadata"]["maumau"]["language"] == lang
        assert [c.get("id") for c in nb["cells"]] == [c.get("id") for c in english["cells"]]
        assert not leaks(tr, raw) and not leaks(exercise, raw)
        for marker in (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN):
            assert marker not in raw
        hidden = WORDS[lang]['"hidden: an 8 on an 8 skips again, nobody answers"']
        assert hidden in tr.cells[8].source and hidden not in raw  # the translated hidden test stays behind
        assert any(line in tr.cells[8].source for line in secret_lines(tr))
        text = "\n".join(c["source"] for c in nb["cells"])
        assert WORDS[lang]['"who moves next"'] in text and '"who moves next"' not in text
        assert f'set_language("{lang}")' in text
        assert STUB[1] in text
        assert HIDDEN_NOTES[lang] in text and HIDDEN_NOTES["en"] not in text


def test_release_refuses_a_translation_that_shows_the_sources_hidden_test(course, tmp_path):
    nb = translated("hu")
    nb["cells"][1]["source"] += '\n\n    with scenario("hidden: 4 players playing anticlockwise, seat 0 plays 8♥"):\n'
    _write(nb, course / "hu" / f"{NAME}.ipynb")
    with pytest.raises(NotebookError, match=r"hu/02_skip_on_eight\.ipynb: the student version would show"):
        release(course, tmp_path / "student")
    assert not (tmp_path / "student").exists()


# --- grading: the plan (no kernel) ------------------------------------------------------------------------

def _hand_in(nb: dict[str, Any], folder: Path, lang: Any = "absent") -> Path:
    return _hand_in_as(nb, folder, NAME, lang)


def _plan(course: Path, subs: Path) -> Any:
    from maumau.grading.deadlines import Deadlines
    from maumau.grading.grader import _Plan
    from maumau.grading.submissions import find_submissions

    exercises = {e.name: e for e in load_exercises(course)}
    plan = _Plan(course, exercises, {NAME}, Deadlines())
    for sub in find_submissions([subs]):
        plan.add(sub)
    return plan


@pytest.mark.parametrize("claim, graded_in", [
    ("de", "de"), ("hu", "hu"), ("en", "en"), ("absent", "en"), ("xx", "en"), ("../../etc", "en"),
    ("../de", "en"), ("/etc/passwd", "en"), (["de"], "en"), (None, "en"),
])
def test_a_hand_in_is_assembled_with_the_cells_of_its_language(course, tmp_path, claim, graded_in):
    released = tmp_path / "student"
    release(course, released)
    subs = tmp_path / "subs"
    _hand_in(_read(released / f"{NAME}.ipynb"), subs / "ann", claim)
    (job,) = _plan(course, subs).jobs
    row, exercise, cells, _ = job
    assert exercise.language == graded_in and row.max_score == 6
    tests = [c for c in cells if c.role == "test"]
    assert [(c.key, c.points) for c in tests] == [
        ("skip_on_eight_test1", 2), ("skip_on_eight_test2", 2), ("skip_on_eight_hidden", 2)]
    who = WORDS[graded_in]['"who moves next"'] if graded_in != "en" else '"who moves next"'
    assert who in tests[0].source
    assert f'set_language("{graded_in}")' in cells[0].source


def test_a_hand_in_cannot_change_its_points_by_naming_a_language(course, tmp_path):
    """Even a translation with other points (refused when loaded) could not give them: the points
    of the graded cells are the source's."""
    (exercise,) = load_exercises(course)
    tr = exercise.translations["de"]
    _cell(tr.notebook, "skip_on_eight_test1")["metadata"]["nbgrader"]["points"] = 50  # after the check
    subs = tmp_path / "subs"
    _hand_in(_read(course / f"{NAME}.ipynb"), subs / "ann", "de")

    from maumau.grading.deadlines import Deadlines
    from maumau.grading.grader import _Plan
    from maumau.grading.submissions import find_submissions

    plan = _Plan(course, {NAME: exercise}, {NAME}, Deadlines())
    for sub in find_submissions([subs]):
        plan.add(sub)
    (job,) = plan.jobs
    assert job[1] is tr
    assert [c.points for c in job[2] if c.role == "test"] == [2, 2, 2]


def test_a_worker_of_a_dask_cluster_gets_each_language_of_an_exercise(course, tmp_path):
    """``maumau grade --dask``: the chunks carry each language's instructor notebook, so a worker runs
    the reference of each language and grades each hand-in with its own (no kernel runs here)."""
    from maumau.grading.grader import chunks, exercise_key, materialised

    released = tmp_path / "student"
    release(course, released)
    subs = tmp_path / "subs"
    for lang in LANGS:
        _hand_in(_read(released / (f"{NAME}.ipynb" if lang == "en" else f"{lang}/{NAME}.ipynb")),
                 subs / f"learner_{lang}", "absent" if lang == "en" else lang)
    jobs = _plan(course, subs).jobs
    (chunk,) = chunks(jobs, 1, None, None, None)
    assert sorted(chunk.exercises) == [NAME, f"{NAME}@de", f"{NAME}@hu"]
    with materialised(chunk) as (worker_jobs, _):
        for row, exercise, cells, _files in worker_jobs:
            lang = row.student.removeprefix("learner_")
            assert exercise.language == lang and exercise_key(exercise) == (NAME if lang == "en" else f"{NAME}@{lang}")
            assert f'set_language("{lang}")' in cells[0].source


def test_feedback_follows_the_language_of_a_learners_hand_ins():
    from maumau.grading.grader import feedback_languages

    said = {("ann", "01"): "de", ("ann", "02"): "de", ("ben", "01"): "en", ("cem", "01"): "hu",
            ("cem", "02"): "de", ("dan", "01"): "hu", ("dan", "02"): "de", ("dan", "03"): "de"}
    assert feedback_languages(said) == {"ann": "de", "ben": "en", "cem": "hu", "dan": "de"}


# --- grading: the kernels ---------------------------------------------------------------------------------

def _wrong(nb: dict[str, Any]) -> dict[str, Any]:
    """The instructor's solution, wrong for an 8 on an 8 (only 8♥ skips): 4 of 6 points."""
    nb = json.loads(json.dumps(nb))
    cell = _cell(nb, "skip_on_eight_solution")
    assert "turn.skip()" in cell["source"]
    cell["source"] = cell["source"].replace("turn.skip()", "turn.skip() if card.suit is Suit.HEARTS else None")
    return nb


def _broken(nb: dict[str, Any]) -> dict[str, Any]:
    """The instructor's solution with no effect for 8♥: the visible tests fail with a check's sentence."""
    nb = json.loads(json.dumps(nb))
    cell = _cell(nb, "skip_on_eight_solution")
    assert "return card.rank is Rank.EIGHT" in cell["source"]
    cell["source"] = cell["source"].replace("return card.rank is Rank.EIGHT",
                                            "return card.rank is Rank.EIGHT and card.suit is not Suit.HEARTS")
    return nb


def _scores(grades: Any) -> dict[str, tuple[float, float, str, tuple[tuple[str, float, bool], ...]]]:
    return {r.student: (r.score, r.max_score, r.status, tuple((t.key, t.points, t.passed) for t in r.tests))
            for r in grades if r.exercise == NAME}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from maumau.grading.grader import grade

    root = tmp_path_factory.mktemp("languages")
    course = make_course(root)
    released, subs, out = root / "student", root / "subs", root / "out"
    release(course, released)
    for lang in LANGS:
        teacher = _read(course / lang / f"{NAME}.ipynb") if lang != "en" else _read(course / f"{NAME}.ipynb")
        stub = _read(released / lang / f"{NAME}.ipynb") if lang != "en" else _read(released / f"{NAME}.ipynb")
        claim = lang if lang != "en" else "absent"
        _hand_in(teacher, subs / f"teacher_{lang}", claim)
        _hand_in(stub, subs / f"stub_{lang}", claim)
        _hand_in(_wrong(teacher), subs / f"wrong_{lang}", claim)
        _hand_in(_broken(teacher), subs / f"broken_{lang}", claim)
    english = _read(course / f"{NAME}.ipynb")
    _hand_in(english, subs / "teacher_dotdot", "../../etc")        # graded as English
    _hand_in(_read(released / f"{NAME}.ipynb"), subs / "stub_xx", "xx")
    _hand_in(_wrong(english), subs / "wrong_claims_hu", "hu")     # English code, Hungarian checks
    grades = grade(course, [subs], out, jobs=2)
    return {"scores": _scores(grades), "out": out, "grades": grades}


@pytest.mark.slow
def test_a_hand_in_scores_the_same_in_every_language(graded):
    scores = graded["scores"]
    assert scores["teacher_en"][:3] == (6, 6, "ok")
    assert scores["wrong_en"][:2] == (4, 6)
    assert scores["stub_en"][:2] == (0, 6)
    assert scores["broken_en"][:2] == (0, 6)
    for kind in ("teacher", "stub", "wrong", "broken"):
        assert scores[f"{kind}_de"] == scores[f"{kind}_hu"] == scores[f"{kind}_en"], kind
    assert scores["teacher_dotdot"] == scores["teacher_en"]
    assert scores["stub_xx"] == scores["stub_en"]
    assert scores["wrong_claims_hu"] == scores["wrong_en"]


@pytest.mark.slow
def test_grades_csv_does_not_depend_on_the_language(graded):
    """Every number and status of grades.csv is the same; only the message (the first failure, as
    the learner's checks said it) is in the learner's language."""
    with open(graded["out"] / "grades.csv", newline="", encoding="utf-8") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    for kind in ("teacher", "stub", "wrong", "broken"):
        same = [{k: v for k, v in rows[f"{kind}_{lang}"].items() if k not in ("student", "seconds", "message")}
                for lang in LANGS]
        assert same[0] == same[1] == same[2], kind
    assert "3 players, seat 0 plays 8♥" in rows["stub_en"]["message"]
    assert "3 Spieler, Platz 0 spielt 8♥" in rows["stub_de"]["message"]
    assert "3 játékos, a 0. hely 8♥-t tesz" in rows["stub_hu"]["message"]


def _feedback(out: Path, student: str) -> str:
    return (out / "feedback" / f"{student}.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_feedback_comes_in_the_hand_ins_language(graded):
    out = graded["out"]
    de, hu, en = (_feedback(out, f"stub_{lang}") for lang in ("de", "hu", "en"))
    assert de.startswith("# Rückmeldung für stub_de")
    assert "Test *Eine 8 setzt den nächsten Spieler aus*: 0/2" in de
    assert "verdeckter Test *Verdeckte Tests: andere Richtungen, eine 8 auf eine 8*: 0/2" in de
    assert "noch nicht geschrieben" in de  # the check's line, from the German kernel
    assert "A 8-as kihagyja a következő játékost" in hu and "még nincs megírva" in hu
    assert en.startswith("# Feedback for stub_en") and "An 8 skips the next player" in en
    for text in (de, hu):
        assert "An 8 skips the next player" not in text and "not written yet" not in text
    # a wrong German solution's first visible failure names the German scenario and check
    wrong = _feedback(out, "wrong_de")
    assert "4 von 6 Punkten" in wrong
    # a check's sentence, made by the grader from the learner's records, in the hand-in's language
    assert "3 players, seat 0 plays 8♥: who moves next: expected 2, got 1" in _feedback(out, "broken_en")
    assert "3 Spieler, Platz 0 spielt 8♥: wer ist als Nächstes dran: erwartet 2, erhalten 1" in _feedback(
        out, "broken_de")
    assert "3 játékos, a 0. hely 8♥-t tesz: ki következik: várt érték 2, kapott 1" in _feedback(out, "broken_hu")
    # path tricks and unknown languages: English, from the English source
    assert "An 8 skips the next player" in _feedback(out, "teacher_dotdot")
    assert "An 8 skips the next player" in _feedback(out, "stub_xx")
    claims = _feedback(out, "wrong_claims_hu")
    assert "A 8-as kihagyja a következő játékost" in claims  # it asked for Hungarian: its words, not its points


# --- the real translations (exercises/de, exercises/hu), whichever exist --------------------------------------

REAL = [(lang, p.stem) for lang in ("de", "hu") for p in sorted((EXERCISES / lang).glob("*.ipynb"))
        if (EXERCISES / p.name).is_file()]
REAL_NAMES = sorted({name for _, name in REAL})
#: The exercises graded in all three languages below: a simple effect (02), a rule whose solution
#: writes its own refusal sentence (06), a rule with memory (10) and the graph exercise (14). Every
#: translation is held to its source cell by cell, code included, when it is loaded
#: (``test_the_real_translations_match_their_sources``) and by tests/course/test_translations.py;
#: grading all fourteen three times over takes minutes of CI for what those already show.
GRADED_IN_EVERY_LANGUAGE = [n for n in ("02_skip_on_eight", "06_rank_wish", "10_runde", "14_state_graph")
                            if n in REAL_NAMES]


@pytest.mark.skipif(not REAL, reason="no translated exercises in exercises/de or exercises/hu yet")
def test_the_real_translations_match_their_sources():
    exercises = {e.name: e for e in load_exercises(EXERCISES)}
    for lang, name in REAL:
        tr = exercises[name].translations[lang]
        assert tr.language == lang and tr.max_score == exercises[name].max_score
        assert notebook_language(tr.notebook) == lang, f"{lang}/{name}.ipynb: notebook metadata maumau.language"
        setup = next(c for c in tr.cells if c.cell.cell_type == "code")
        assert f'set_language("{lang}")' in setup.source, f"{lang}/{name}.ipynb: its first code cell"


@pytest.mark.skipif(not REAL, reason="no translated exercises in exercises/de or exercises/hu yet")
def test_release_writes_the_real_translations_without_hidden_lines(tmp_path):
    out = tmp_path / "student"
    release(EXERCISES, out)
    exercises = {e.name: e for e in load_exercises(EXERCISES)}
    for lang, name in REAL:
        raw = (out / lang / f"{name}.ipynb").read_text(encoding="utf-8")
        assert json.loads(raw)["metadata"]["maumau"]["language"] == lang
        assert not leaks(exercises[name].translations[lang], raw) and not leaks(exercises[name], raw)
        for marker in (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN):
            assert marker not in raw


def _partly_solved(nb: dict[str, Any]) -> dict[str, Any]:
    """The instructor's notebook with only its first solution region kept (the others stubbed): a
    deliberately wrong solution for any exercise (one whole-cell solution: the stub)."""
    nb = json.loads(json.dumps(nb))
    kept = False
    for cell in nb["cells"]:
        data = cell.get("metadata", {}).get("nbgrader", {})
        if not data.get("solution") or cell["cell_type"] != "code":
            continue
        if not any(line.strip() == BEGIN_SOLUTION for line in cell["source"].split("\n")):
            cell["source"] = "\n".join(STUB)
            continue
        out, inside = [], False
        for line in cell["source"].split("\n"):
            if line.strip() == BEGIN_SOLUTION:
                inside = True
                indent = line[: len(line) - len(line.lstrip())]
                if kept:
                    out += [indent + s for s in STUB]
                continue
            if line.strip() == END_SOLUTION:
                inside, kept = False, True
                continue
            if not inside or not kept:
                out.append(line)
        cell["source"] = "\n".join(out)
    return nb


@pytest.mark.slow
@pytest.mark.skipif(not REAL, reason="no translated exercises in exercises/de or exercises/hu yet")
@pytest.mark.parametrize("name", GRADED_IN_EVERY_LANGUAGE)
def test_the_real_translations_grade_the_same(name, tmp_path):
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from maumau.grading.grader import grade

    langs = ["en"] + [lang for lang, n in REAL if n == name]
    released, subs, out = tmp_path / "student", tmp_path / "subs", tmp_path / "out"
    release(EXERCISES, released)
    for lang in langs:
        folder = "" if lang == "en" else f"{lang}/"
        teacher = _read(EXERCISES / f"{folder}{name}.ipynb")
        claim = "absent" if lang == "en" else lang
        _hand_in_as(teacher, subs / f"teacher_{lang}", name, claim)
        _hand_in_as(_read(released / f"{folder}{name}.ipynb"), subs / f"stub_{lang}", name, claim)
        _hand_in_as(_partly_solved(teacher), subs / f"partly_{lang}", name, claim)
    grades = grade(EXERCISES, [subs], out, jobs=2, only=[name])
    scores = {r.student: (r.score, r.max_score, r.status, tuple((t.key, t.points, t.passed) for t in r.tests))
              for r in grades if r.exercise == name}
    for kind in ("teacher", "stub", "partly"):
        for lang in langs[1:]:
            assert scores[f"{kind}_{lang}"] == scores[f"{kind}_en"], (kind, lang)
    assert scores["teacher_en"][0] == scores["teacher_en"][1] - sum(
        c.points for e in load_exercises(EXERCISES / f"{name}.ipynb") for c in e.manual)
    from maumau.grading.report import md_text, say

    for lang in langs[1:]:
        text = _feedback(out, f"stub_{lang}")
        assert text.startswith(f"# {say('feedback_for', lang, name=f'stub_{lang}')}\n"), text[:80]
        (exercise,) = load_exercises(EXERCISES / f"{name}.ipynb")
        for cell in exercise.translations[lang].tests:  # the tests of its language were run
            assert f"*{md_text(cell.title)}*" in text, (lang, cell.title)


def _hand_in_as(nb: dict[str, Any], folder: Path, name: str, lang: Any) -> Path:
    nb = json.loads(json.dumps(nb))
    if lang == "absent":
        nb["metadata"].pop("maumau", None)
    else:
        nb["metadata"]["maumau"] = {"language": lang}
    return _write(nb, folder / f"{name}.ipynb")
