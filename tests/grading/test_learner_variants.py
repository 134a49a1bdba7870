"""A variant of an exercise per learner (maumau.grading.learner_variants, issue 38 item 3).

Each learner's test cells are the instructor's with the cards relabeled by a draw from the course
key and the learner's name.  What must hold: every draw of exercises 01-12 is the same situation
(the reference solution passes its own relabeled checks, visible and hidden, in every language);
two learners' draws differ and each grades right; an output copied from another learner is wrong
for the copier; regrading gives the same grades; without the key (or for an exercise that says
so) everyone has today's positions; and nothing the learner's notebook says picks the draw.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import nbformat
import pytest

import maumau.grading.checks as checks
from maumau.grading import learner_variants as lv
from maumau.grading.exercise import BEGIN_SOLUTION, END_SOLUTION, SOLUTION, NotebookError, load_exercise, secret_lines
from maumau.grading.releaser import release

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
VARIED = sorted(p.stem for p in EXERCISES.glob("*.ipynb") if p.name[:2] <= "12")
KEY = bytes(range(32))


def run_in_process(exercise, solution: str | None = None) -> None:
    """Run the instructor notebook's code cells here, solutions in (or ``solution`` for every solution
    cell), with the checks recording, so that a failed check raises (CheckFailed)."""
    from maumau.text.i18n import language, set_language

    namespace: dict[str, object] = {}
    results, failed, spoken = dict(checks._results), list(checks._failed_here), language()
    checks.record()
    try:  # the notebook's mm.set_language and its scenarios' results stay in here
        with contextlib.redirect_stdout(io.StringIO()):
            for cell in exercise.cells:
                if cell.cell.cell_type != "code":
                    continue
                source = solution if solution is not None and cell.role == SOLUTION else cell.source
                exec(compile(source, f"<{cell.key}>", "exec"), namespace)  # noqa: S102 - the instructor's own cells
    finally:
        checks._records = None
        checks._results.clear()
        checks._results.update(results)
        checks._failed_here[:] = failed
        set_language(spoken)


def test_exercises_01_to_12_allow_variants_and_the_others_do_not():
    assert len(VARIED) == 12
    for name in VARIED:
        swaps = lv.swaps_of(load_exercise(EXERCISES / f"{name}.ipynb").notebook)
        assert swaps.any, name
    assert not lv.swaps_of(load_exercise(EXERCISES / "13_strategy.ipynb").notebook).any
    # the grader reads the English source's entry: each translation says the same, so nobody edits one in vain
    for name in VARIED:
        source = load_exercise(EXERCISES / f"{name}.ipynb")
        for lang, translated in source.translations.items():
            assert lv.swaps_of(translated.notebook) == lv.swaps_of(source.notebook), (name, lang)


@pytest.mark.parametrize("name", VARIED)
def test_every_learners_draw_is_the_same_situation(name):
    """The reference solution passes its own checks, visible and hidden, on every learner's draw
    (en, de, hu): the relabeling keeps what each check tests."""
    exercise = load_exercise(EXERCISES / f"{name}.ipynb")
    draws = {}
    for n in range(12):
        draw = lv.learners_draw(KEY, f"learner{n}", exercise)
        draws[draw.name] = draw
        mine = lv.for_learner(exercise, draw)
        run_in_process(mine)
        if n < 2:
            for translated in mine.translations.values():
                run_in_process(translated)
    assert len({(d.suits, d.ranks) for d in draws.values()}) >= 2, name


def test_a_relabeling_that_changes_the_situation_fails_the_reference():
    """The check above can fail: swapping the 8 (the rule's own rank) with a 5 breaks exercise 02."""
    exercise = load_exercise(EXERCISES / "02_skip_on_eight.ipynb")
    wrong = lv.Relabeling(ranks=(("5", "8"), ("8", "5")), name="wrong")
    with pytest.raises(checks.CheckFailed, match="who moves next"):
        run_in_process(lv.for_learner(exercise, wrong))


def test_relabel_source_changes_cards_wishes_names_and_comments_only():
    draw = lv.Relabeling(suits=(("H", "S"), ("S", "H")), ranks=(("5", "10"), ("10", "5")), name="x")
    source = ('# 5♥ on top, ♠ wished\n'
              'with scenario("top 5♥, hand 10H 9C"):\n'
              '    s = mm.position(v, hands=["10H 9C", "5S"], top="5H", wish="S", stock="2C")\n'
              '    check("the wish", t.wish, Suit.SPADES)\n'
              '    check("rank", r, Rank.FIVE)\n'
              '    check("hand", sorted(str(c) for c in t.hands[0]), ["5S", "9C", "10H"])\n'
              '    check("text", x, "SHOP 58 HS")\n')
    out = lv.relabel_source(source, draw)
    assert out.splitlines() == [
        '# 10♠ on top, ♥ wished',
        'with scenario("top 10♠, hand 5S 9C"):',
        '    s = mm.position(v, hands=["5S 9C", "10H"], top="10S", wish="H", stock="2C")',
        '    check("the wish", t.wish, Suit.HEARTS)',
        '    check("rank", r, Rank.TEN)',
        '    check("hand", sorted(str(c) for c in t.hands[0]), ["10H", "5S", "9C"])',  # sorted again
        '    check("text", x, "SHOP 58 HS")']
    assert lv.relabel_source(source, lv.COMMON) == source


def test_draws_are_fixed_by_key_learner_and_exercise():
    swaps = lv.Swaps("CDHS", ("3", "4", "5", "6"))
    anna = lv.draw_relabeling(KEY, "anna", "02_skip_on_eight", swaps)
    assert anna == lv.draw_relabeling(KEY, "anna", "02_skip_on_eight", swaps)  # regrading draws the same
    others = {lv.draw_relabeling(KEY, f"learner{n}", "02_skip_on_eight", swaps) for n in range(20)}
    assert len(others) > 15  # 576 draws: learners rarely share one
    assert lv.draw_relabeling(bytes(32), "anna", "02_skip_on_eight", swaps) != anna  # another course, other positions
    assert lv.draw_relabeling(KEY, "anna", "03_reverse_on_nine", swaps) != anna
    assert lv.draw_relabeling(None, "anna", "02_skip_on_eight", swaps) is lv.COMMON  # the course without variants
    assert lv.draw_relabeling(KEY, "anna", "02_skip_on_eight", lv.Swaps()) is lv.COMMON  # an exercise without them
    # "anna\nx" for exercise "y" and "anna" for "x\ny" are different messages: no two learners collide so
    assert lv.draw_relabeling(KEY, "anna\nx", "y", swaps) != lv.draw_relabeling(KEY, "anna", "x\ny", swaps)


def test_an_exercise_turns_variants_off_in_its_metadata():
    exercise = load_exercise(EXERCISES / "02_skip_on_eight.ipynb")
    exercise.notebook.metadata["maumau"]["variants"] = False
    assert lv.learners_draw(KEY, "anna", exercise) is lv.COMMON
    assert lv.for_learner(exercise, lv.COMMON) is exercise
    assert lv.learners_draw(None, "anna", load_exercise(EXERCISES / "02_skip_on_eight.ipynb")) is lv.COMMON


@pytest.mark.parametrize("entry, said", [
    ({"suits": "CDX"}, "suits 'CDX' must name each of C, D, H, S"),
    ({"suits": "CC"}, "at most once"),
    ({"ranks": "5 1"}, "ranks '5 1' must name ranks"),
    ({"ranks": 5}, "as text"),
    ("CDHS", "must be false or"),
])
def test_bad_variants_metadata_is_refused_in_one_sentence(entry, said):
    nb = nbformat.v4.new_notebook(metadata={"maumau": {"variants": entry}})
    with pytest.raises(lv.LearnerVariantError, match=re.escape(said)):
        lv.swaps_of(nb, "02.ipynb")


def test_the_course_key_is_made_once_and_read_back(tmp_path):
    path = tmp_path / "course.key"
    key = lv.new_key(path)
    assert len(key) == lv.KEY_BYTES and lv.read_key(path) == key
    assert os.stat(path).st_mode & 0o077 == 0  # the teacher's alone
    with pytest.raises(lv.LearnerVariantError, match="exists already"):
        lv.new_key(path)
    assert lv.read_key(path) == key  # nothing changed
    with pytest.raises(lv.LearnerVariantError, match="no course key"):
        lv.read_key(tmp_path / "missing.key")
    (tmp_path / "bad.key").write_text("not a key\n")
    with pytest.raises(lv.LearnerVariantError, match="not a maumau course key"):
        lv.read_key(tmp_path / "bad.key")


def _test_sources(path: Path) -> list[str]:
    nb = nbformat.read(path, 4)
    return [c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]


def test_release_gives_each_learner_their_own_copy(tmp_path):
    source = tmp_path / "exercises"
    source.mkdir()
    for lang in ("", "de", "hu"):
        (source / lang).mkdir(exist_ok=True)
        for name in ("02_skip_on_eight", "13_strategy"):
            (source / lang / f"{name}.ipynb").write_bytes((EXERCISES / lang / f"{name}.ipynb").read_bytes())
    plain = release(source, tmp_path / "plain")
    written = release(source, tmp_path / "out", variants=KEY, learners=["anna", "ben"])
    out = tmp_path / "out"
    # the common student versions are today's, byte for byte
    for path in plain:
        assert (out / path.relative_to(tmp_path / "plain")).read_bytes() == path.read_bytes()
    anna, ben = out / "learners" / "anna", out / "learners" / "ben"
    assert {p.relative_to(out).as_posix() for p in written} >= {
        "learners/anna/02_skip_on_eight.ipynb", "learners/anna/de/02_skip_on_eight.ipynb",
        "learners/ben/hu/02_skip_on_eight.ipynb", "learners/ben/13_strategy.ipynb"}
    assert _test_sources(anna / "02_skip_on_eight.ipynb") != _test_sources(ben / "02_skip_on_eight.ipynb")
    assert _test_sources(anna / "13_strategy.ipynb") == _test_sources(out / "13_strategy.ipynb")
    nb = nbformat.read(anna / "de" / "02_skip_on_eight.ipynb", 4)
    draw = lv.learners_draw(KEY, "anna", load_exercise(source / "02_skip_on_eight.ipynb"))
    assert nb.metadata["maumau"]["variant"] == {"learner": "anna", "draw": draw.name}
    assert nb.metadata["maumau"]["language"] == "de"
    assert nb.cells[1].source.startswith("**Deine eigenen Situationen.**") and draw.name in nb.cells[1].source
    assert nbformat.read(anna / "13_strategy.ipynb", 4).cells[1].source.startswith("**Common positions.**")
    # the leak check holds for every learner's copy: no solution or hidden-test line, relabeled or not
    exercise = load_exercise(source / "02_skip_on_eight.ipynb")
    secrets = secret_lines(exercise, min_length=6) | secret_lines(lv.for_learner(exercise, draw), min_length=6)
    for path in anna.rglob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert "BEGIN HIDDEN" not in text and "BEGIN SOLUTION" not in text
        assert not [line for line in secrets if line in text and "02_" in path.name], path


def test_a_learner_is_released_into_the_folder_the_grader_files_them_under(tmp_path):
    """A name with a path in it, or not plain, gets the grader's own folder name (never a path), and the
    draw of that folder: the grader, which sees only the folder, draws the same."""
    from maumau.grading.submissions import safe_folder_name

    written = release(EXERCISES / "02_skip_on_eight.ipynb", tmp_path / "out", variants=KEY,
                      learners=["../ben", "José"])
    folders = {p.parent.name for p in written if p.parent.parent.name == "learners"}
    assert folders == {safe_folder_name("../ben"), safe_folder_name("José")} and ".." not in str(written)
    assert all(p.resolve().is_relative_to((tmp_path / "out").resolve()) for p in written)
    jose = nbformat.read(tmp_path / "out" / "learners" / safe_folder_name("José") / "02_skip_on_eight.ipynb", 4)
    exercise = load_exercise(EXERCISES / "02_skip_on_eight.ipynb")
    assert jose.metadata["maumau"]["variant"] == {
        "learner": "José", "draw": lv.learners_draw(KEY, safe_folder_name("José"), exercise).name}
    assert "(José, draw" in jose.cells[1].source


def test_release_without_the_key_refuses_learners_and_writes_nothing(tmp_path):
    with pytest.raises(NotebookError, match="need the course key"):
        release(EXERCISES / "02_skip_on_eight.ipynb", tmp_path / "out", learners=["anna"])
    assert not (tmp_path / "out").exists()


# --- graded in real kernels -------------------------------------------------------------------------------

EXERCISE = "02_skip_on_eight"


def _solution(exercise) -> str:
    cell = next(c for c in exercise.cells if c.role == SOLUTION)
    return "\n".join(line for line in cell.source.split("\n") if line.strip() not in (BEGIN_SOLUTION, END_SOLUTION))


def _copied_for(draw: lv.Relabeling) -> str:
    """A "solution" that hard-codes the answers of ``draw``'s positions: only the eights that learner
    plays skip (the shape of an output copied from them)."""
    eights = sorted(draw.text(c) for c in ("8H", "8C"))
    return ("class SkipOnEight(mm.Rule):\n"
            "    name = 'skip_on_eight'\n"
            "    rule_id = 'MK-5'\n\n"
            f"    def affects(self, card):\n        return str(card) in {eights!r}\n\n"
            "    def on_play(self, turn, card):\n        turn.skip()\n")


def _hand_in(released: Path, folder: Path, solution: str, claims: dict[str, str] | None = None) -> None:
    nb = nbformat.read(released, 4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = solution
    if claims is not None:
        nb.metadata["maumau"]["variant"] = claims
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / released.name)


@pytest.fixture(scope="module")
def class_graded(tmp_path_factory):
    """anna and ben hand in the reference solution in their own copies; a copier hands in anna's copy
    (her cells, her draw in its metadata) with answers hard-coded for her positions.  Graded twice."""
    from maumau.grading import grade

    root = tmp_path_factory.mktemp("variants")
    exercise = load_exercise(EXERCISES / f"{EXERCISE}.ipynb")
    anna = lv.learners_draw(KEY, "anna", exercise)
    eights = {anna.text(c) for c in ("8H", "8C")}
    # the copier: a learner none of whose eights in these positions is one of anna's
    copier = next(name for name in (f"copier{n}" for n in range(100))
                  if eights.isdisjoint(lv.learners_draw(KEY, name, exercise).text(c) for c in ("8H", "8C")))
    release(EXERCISES / f"{EXERCISE}.ipynb", root / "student", variants=KEY, learners=["anna", "ben"])
    subs = root / "submissions"
    for learner in ("anna", "ben"):
        _hand_in(root / "student" / "learners" / learner / f"{EXERCISE}.ipynb", subs / learner, _solution(exercise))
    _hand_in(root / "student" / "learners" / "anna" / f"{EXERCISE}.ipynb", subs / copier, _copied_for(anna),
             claims={"learner": "anna", "draw": anna.name})
    key_file = root / "course.key"
    key_file.write_text(KEY.hex() + "\n")
    # a snoop's solution cell tries to read the course key (and would raise it into the feedback)
    _hand_in(root / "student" / f"{EXERCISE}.ipynb", subs / "snoop",
             f"raise RuntimeError('key: ' + open({str(key_file)!r}).read())\n" + _solution(exercise))
    # the second run without bubblewrap: the audit hook alone keeps the key file from the kernels
    runs = [grade(EXERCISES, [subs], out=root / f"out{n}", jobs=2, variants=key_file, isolate=None if n == 0 else False)
            for n in range(2)]
    return {"runs": runs, "exercise": exercise, "anna": anna, "copier": copier, "root": root}


def _rows(grades):
    return {row.student: row for row in grades}


def test_two_learners_draws_differ_and_each_grades_right(class_graded):
    rows = _rows(class_graded["runs"][0])
    for learner in ("anna", "ben"):
        assert rows[learner].status == "ok" and rows[learner].score == rows[learner].max_score == 6, rows[learner]


def test_an_output_copied_from_another_learner_is_wrong_for_the_copier(class_graded):
    exercise, anna = class_graded["exercise"], class_graded["anna"]
    # right for anna: her own positions pass every check, hidden ones too ...
    run_in_process(lv.for_learner(exercise, anna), solution=_copied_for(anna))
    # ... and zero for the copier, whose notebook claims anna's draw: the grader draws the copier's again
    row = _rows(class_graded["runs"][0])[class_graded["copier"]]
    assert row.score == 0 and row.max_score == 6, row


def test_regrading_gives_the_same_grades(class_graded):
    first, second = (_rows(run) for run in class_graded["runs"])
    assert len(first) == 4
    for learner in ("anna", "ben", class_graded["copier"]):  # (the snoop's error is the sandbox's words)
        assert (first[learner].score, first[learner].status, first[learner].message) == \
               (second[learner].score, second[learner].status, second[learner].message)


# --- the command line ----------------------------------------------------------------------------------------

def test_release_on_the_command_line_makes_the_key_once_and_a_copy_per_roster_learner(tmp_path):
    from maumau.cli import main

    (tmp_path / "roster.csv").write_text("learner,name,id\nanna,Anna A,1\nben,Ben B,2\n", encoding="utf-8")
    key, log = tmp_path / "course.key", io.StringIO()
    argv = ["release", str(EXERCISES / "02_skip_on_eight.ipynb"), "--out", str(tmp_path / "student"),
            "--variants", str(key), "--roster", str(tmp_path / "roster.csv")]
    assert main(argv, out=log, err=log) == 0, log.getvalue()
    assert "Made a new course key" in log.getvalue() and key.exists()
    made = key.read_bytes()
    assert (tmp_path / "student" / "learners" / "ben" / "hu" / "02_skip_on_eight.ipynb").exists()
    log = io.StringIO()
    assert main(argv, out=log, err=log) == 0, log.getvalue()
    assert "Made a new course key" not in log.getvalue() and key.read_bytes() == made  # the same key again


@pytest.mark.parametrize("argv, said", [
    (["release", "SOURCE", "--out", "OUT", "--roster", "roster.csv"], "give the course key with --variants"),
    (["release", "SOURCE", "--out", "OUT", "--variants", "bad.key"], "is not a maumau course key"),
    (["grade", "--source", "SOURCE", "subs", "--out", "OUT", "--variants", "missing.key"], "no course key"),
])
def test_a_bad_key_or_roster_is_one_sentence_and_nothing_is_written(tmp_path, argv, said):
    from maumau.cli import main

    (tmp_path / "bad.key").write_text("0123\n")
    (tmp_path / "subs" / "anna").mkdir(parents=True)
    places = {"SOURCE": str(EXERCISES / "02_skip_on_eight.ipynb"), "OUT": str(tmp_path / "out")}
    argv = [places.get(a, a if a.startswith("-") or a == "grade" or a == "release" else str(tmp_path / a))
            for a in argv]
    log = io.StringIO()
    assert main(argv, out=log, err=log) == 1
    assert said in log.getvalue() and "Traceback" not in log.getvalue()
    assert not (tmp_path / "out").exists() and not (tmp_path / "missing.key").exists()


def test_a_hand_in_of_the_common_version_is_not_told_its_cells_were_changed(tmp_path):
    """A learner who worked in the common student version changed no instructor cell: graded on their
    own positions, their notebook gets no "your changes ... were undone"; a changed test cell still does."""
    from maumau.grading.exercise import assemble, student_version

    exercise = load_exercise(EXERCISES / "02_skip_on_eight.ipynb")
    mine = lv.for_learner(exercise, lv.learners_draw(KEY, "anna", exercise))
    common = student_version(exercise)
    assert assemble(mine, common)[1] == []
    assert assemble(mine, student_version(mine))[1] == []
    test = next(c for c in common.cells if c.get("id") == "skip_on_eight_test1")
    test.source = test.source.replace("8H", "8S")
    assert assemble(mine, common)[1] == ["your changes to the instructor cell 'skip_on_eight_test1' were undone"]


def test_no_kernel_reads_the_course_key(class_graded):
    for run in class_graded["runs"]:
        row = _rows(run)["snoop"]
        assert row.score == 0 and "key: " not in row.message, row
    for path in class_graded["root"].glob("out*/**/*"):
        if path.is_file():
            assert KEY.hex() not in path.read_text(encoding="utf-8", errors="replace"), path


def test_a_learners_answer_is_said_on_the_common_positions_by_the_inverse():
    draw = lv.draw_relabeling(KEY, "anna", "02_skip_on_eight", lv.Swaps("CDHS", ("3", "4", "5", "6")))
    text = 'seat 0 plays 8♥ on 5H, wishes ♠: ["play 3C", "draw"]'
    assert draw.text(text) != text and draw.inverse().text(draw.text(text)) == text
    assert lv.COMMON.inverse() is lv.COMMON


def test_serve_with_variants_but_no_exercises_and_grade_with_a_broken_entry_say_so(tmp_path):
    from maumau.cli import main

    (tmp_path / "course.key").write_text(KEY.hex())
    log = io.StringIO()
    argv = ["serve", "--db", str(tmp_path / "class.sqlite"), "--port", "0", "--variants", str(tmp_path / "course.key")]
    assert main(argv, out=log, err=log) == 1
    assert "give the exercises too (--exercises DIR)" in log.getvalue() and "Traceback" not in log.getvalue()
    nb = nbformat.read(EXERCISES / "02_skip_on_eight.ipynb", 4)
    nb.metadata["maumau"]["variants"] = {"suits": "CDX"}
    (tmp_path / "source").mkdir()
    nbformat.write(nb, tmp_path / "source" / "02_skip_on_eight.ipynb")
    (tmp_path / "subs" / "anna").mkdir(parents=True)
    nbformat.write(nb, tmp_path / "subs" / "anna" / "02_skip_on_eight.ipynb")
    log = io.StringIO()
    argv = ["grade", "--source", str(tmp_path / "source"), str(tmp_path / "subs"), "--out", str(tmp_path / "out"),
            "--variants", str(tmp_path / "course.key")]
    assert main(argv, out=log, err=log) == 1
    assert "02_skip_on_eight.ipynb: maumau.variants.suits 'CDX' must name each of C, D, H, S" in log.getvalue()
    assert not (tmp_path / "out" / "grades.csv").exists()


def test_running_a_german_notebook_here_leaves_the_language_and_the_results_as_they_were():
    from maumau.text.i18n import language

    before, results = language(), dict(checks._results)
    run_in_process(load_exercise(EXERCISES / "de" / "02_skip_on_eight.ipynb"))
    assert language() == before and checks._results == results
