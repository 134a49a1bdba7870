"""The sentence audit (issue 24, item 4) extended to every word a screen shows besides the engine's
sentences: the grading reports (summary.md, the summary ``maumau grade`` prints, feedback, the
lateness sentence, the exercises' check lines), the graph pictures (titles, legend values,
tooltips, the charts drawn instead of a graph too big to read, in Vega-Lite and matplotlib) and
the seat names, per language.

In German and Hungarian: no word that only the English texts use, numbers with a decimal comma
(5,4 and 42,3 %, never 5.4 or 12,406), no placeholder left unfilled; every catalogue has every
key in every language with the same placeholders.  A learner's own text (names, exercise ids,
test titles, messages) is shown as written and is left out of the audit.
"""

from __future__ import annotations

import re
import string

import matplotlib
import pytest

matplotlib.use("Agg")

import maumau as mm  # noqa: E402
from maumau import graph as gr  # noqa: E402
from maumau.grading import checks, report  # noqa: E402
from maumau.grading.gradebook import STATUSES, Row  # noqa: E402
from maumau.grading.gradebook import TestResult as Result  # noqa: E402
from maumau.grading.report import feedback_markdown, summary_markdown  # noqa: E402
from maumau.text import graph_words as gw  # noqa: E402
from maumau.text.i18n import use_language  # noqa: E402
from maumau.text.locale import seats  # noqa: E402

CATALOGUES = {"report": report.REPORT_WORDS, "checks": checks.TEXT, "lateness": report.LATE_WORDS,
              "seats": seats.SEAT_WORDS, "graph sentences": gw.SENTENCES}
WORD = re.compile(r"[A-Za-zÀ-ÿőűŐŰ]{3,}")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("name", sorted(CATALOGUES))
@pytest.mark.parametrize("lang", ["de", "hu"])
def test_every_catalogue_says_every_key_with_the_same_placeholders(name, lang):
    english, other = CATALOGUES[name]["en"], CATALOGUES[name][lang]
    assert set(other) == set(english), set(english) ^ set(other)
    for key, text in english.items():
        assert placeholders(other[key]) == placeholders(text), (key, other[key])


def test_every_status_has_a_word_in_german_and_hungarian():
    for lang in ("de", "hu"):
        assert set(report.STATUS_WORDS[lang]) == set(STATUSES)
        assert len(set(report.STATUS_WORDS[lang].values())) == len(STATUSES)  # no two read alike


def english_only_words() -> set[str]:
    """Words the English texts use and neither German nor Hungarian does."""
    def words(texts) -> set[str]:
        return {w.lower() for text in texts for w in WORD.findall(re.sub(r"\{[^}]*\}", "", text))}
    english = words([*gw._DE, *(t for c in CATALOGUES.values() for t in c["en"].values()), *STATUSES])
    others = words([*gw._DE.values(), *gw._HU.values(), *(t for c in CATALOGUES.values() for lang in ("de", "hu")
                                                         for t in c[lang].values()),
                    *(w for lang in ("de", "hu") for w in report.STATUS_WORDS[lang].values())])
    return english - others - {"state", "radius", "limit", "none", "draw", "around", "graph"}  # mm.graph.draw(...)


ENGLISH = english_only_words()


def audit(texts: list[str], lang: str, learner: tuple[str, ...] = ()) -> None:
    """No English-only word, no English number, no unfilled placeholder in ``texts``."""
    for text in texts:
        for own in learner:
            text = text.replace(own, " ")
        text = re.sub(r"mm\.graph\.\w+\([^)]*\)*", " ", text)  # code to type stays code
        found = {w for w in WORD.findall(text) if w.lower() in ENGLISH}
        assert not found, f"English in {lang}: {sorted(found)} in {text!r}"
        assert not re.search(r"\d\.\d(?!\d\d)", text), f"a decimal point in {lang}: {text!r}"  # 11.724 is German
        assert not re.search(r"\d,\d{3}\b", text), f"a thousands comma in {lang}: {text!r}"
        assert not re.search(r"\{\w*\}", text), f"a placeholder left: {text!r}"


def test_the_audit_finds_what_it_looks_for():
    for bad in ("Statuses", "5.4 von 6", "12,406 Zustände", "Stand: {status}", "hidden test"):
        with pytest.raises(AssertionError):
            audit([bad], "de")
    audit(["Noten: 5,4 von 6, 42,3 % der Entscheidungen"], "de")


def rows() -> list[Row]:
    tests = [Result("a", "Eights skip", 1.5, 2, False, False, "expected 3, got 4"),
             Result("b", "Hidden ones", 2, 2, True, True)]
    return [Row("anna", "02_skip_on_eight", 3.5, 4, "ok", tests=tests, submitted="2026-12-11T09:30:00+01:00",
                late_days=1, penalty=0.1, notes=["kept cell 3"]),
            Row("ben", "02_skip_on_eight", 0, 4, "timeout", "cell 4 ran past 30 s"),
            Row("ben", "05_strategy", 0, 6, "missing"),
            Row("🙂", "(folder)", 0, 0, "invalid notebook", "not a notebook")]


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_grading_reports_speak_the_language(lang):
    learner = ("anna", "ben", "🙂", "02_skip_on_eight", "05_strategy", "Eights skip", "Hidden ones",
               "expected 3, got 4", "cell 4 ran past 30 s", "not a notebook", "kept cell 3", "(folder)",
               "2026-12-11 09:30 +01:00", "02\\_skip\\_on\\_eight", "05\\_strategy", "grades.csv", "summary.md",
               "feedback/", "OUT")
    summary = summary_markdown(rows(), {"🙂": "_-1a2b3c4d.md"}, isolation="", lang=lang)
    feedback = [feedback_markdown(s, [r for r in rows() if r.student == s], lang) for s in ("anna", "ben", "🙂")]
    printed = report.say("graded", lang, rows=4, seconds=report.points(2.8, lang), out="OUT")
    audit([summary, *feedback, printed], lang, learner + ("_-1a2b3c4d.md",))
    assert ("3,5/4" in summary) and "1,5/2" in feedback[0]  # numbers in the language's format
    assert report.status_word("timeout", lang) in summary
    assert "10 %" in feedback[0]  # the lateness sentence: 10 % of the points


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_check_lines_and_seat_names_speak_the_language(lang):
    values = {"what": "X", "expected": "3", "got": "4", "moves": "[7♥]", "error": "ValueError", "function": "f",
              "line": "3", "code": "f()", "count": "4", "won": "3", "games": "10", "rate": "30 %", "failed": "1",
              "passed": "3", "seat": 2, "name": "Cleo", "seat_words": "X", "n": "3", "when": "W", "days": "2",
              "penalty": "10 %", "final": "5,4", "max": "6", "title": "T", "limit": "150", "list": "L",
              "status": "S", "exercise": "E", "score": "3", "note": "N", "rows": "4", "seconds": "2,8", "out": "O",
              "states": "5", "levels": "2", "ends": "1", "bound": "max_nodes", "variant": "makao", "a": "makao",
              "b": "lite_macau", "side": "makao", "example": "9", "state": "S", "natural": "8♠",
              "natural_value": "V", "best": "B", "value": "V"}
    texts = [text.format(**values) for c in CATALOGUES.values() for text in c[lang].values()]
    audit(texts, lang, ("Cleo", "ValueError", "max_nodes", "lite_macau",
                        "Run → Run All Cells", "raise NotImplementedError()", "f()", "[7♥]",
                        "mm.graph.draw(mm.graph.around(G, state, radius=2))", "mm.graph.draw(G, limit=None)"))


def visible(spec) -> list[str]:
    """Every text of a Vega-Lite spec a viewer sees: titles and subtitles, axis and legend titles,
    legend values (scale domains), texts of text marks and the values shown in tooltips."""
    found: list[str] = []

    def walk(node, shown: set[str]) -> None:
        if isinstance(node, dict):
            enc = node.get("encoding", {})
            fields = {c.get("field") for c in [enc.get("text", {}), *enc.get("tooltip", [])] if isinstance(c, dict)}
            for key, value in node.items():
                if key in ("title", "subtitle", "text") and isinstance(value, (str, list)):
                    found.extend([value] if isinstance(value, str) else [v for v in value if isinstance(v, str)])
                elif key == "domain" and isinstance(value, list):
                    found.extend(v for v in value if isinstance(v, str))
                elif key == "values" and isinstance(value, list):
                    found.extend(str(row[f]) for row in value for f in fields | shown if f in row)
                else:
                    walk(value, shown | {f for f in fields if f})
        elif isinstance(node, list):
            for item in node:
                walk(item, shown)
    walk(spec, set())
    return [text for text in found if text]


def graph_pictures(lang: str) -> list[mm.charts.Chart]:
    start = gr.fixed_stock(mm.position("makao", hands=["8S QD", "3H 3S"], top="10S", stock="8D"))
    G = mm.state_graph(start)
    solved = mm.state_graph(start)
    gr.solve(solved)
    big = mm.state_graph(mm.deal("makao", players=2, seed=3), max_nodes=400)
    hand = gr.game_path(next(gr.random_games("joker_mau_mau", games=1, seed=2)))
    with use_language(lang):
        return [gr.draw(G), gr.draw(solved), gr.draw(big, limit=50), gr.draw(hand, limit=5),
                gr.draw_phases(*(gr.phase_graph(name, games=40, seed=1) for name in mm.variant_names()))]


@pytest.mark.slow  # draws five state graphs per language with matplotlib (10 s)
@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_graph_pictures_speak_the_language(lang):
    from test_pictures import texts

    variants = tuple(mm.variant_names())
    for chart in graph_pictures(lang):
        with use_language(lang):
            fig = chart.figure()
        shown = visible(chart.spec) + [t.get_text() for t, _ in texts(fig)]
        assert len(shown) > 3
        audit(shown, lang, variants)


# --- the grader's own messages inside the reports ----------------------------------------------------

def grader_messages() -> list[str]:
    """Messages and notes as the grader writes them (maumau/grading: grader, rows, assembly, session)."""
    from maumau.grading.gradebook import QUIET_PROBLEM

    return ["no 05_strategy.ipynb handed in", "x.ipynb matches no exercise in exercises",
            "another 02_skip_on_eight.ipynb of ben was graded",
            "grading stopped: the total time limit of 300 s (CPU time)",
            "the kernel stopped after your cell 'while True: pass' (it was restarted, earlier cells rerun)",
            "your cell 'while True: pass' ran longer than the limit and was interrupted",
            "your solution cell stopped the kernel (it was restarted, earlier cells rerun)",
            "setup cell 'setup' ran out of memory (the grader's limit)", "your cell 3 raised an error",
            "your solution cell raised ValueError: bad", "1.5 points wait for a teacher", QUIET_PROBLEM,
            "hidden test 'Hidden ones' failed", "test 'Eights skip': expected 3, got 4",
            "your solution cell raised ZeroDivisionError: division by zero; test 'Eights skip' failed",
            "solution cell 'skip' is missing: the empty stub was graded",
            "test cell 't1' was missing and has been restored",
            "your changes to the instructor cell 'setup' were undone",
            "a copy of the instructor cell 'setup' was ignored",
            "tests 'A', 'B' have no check(): judged only by running without an error", "not run"]


def grader_english() -> set[str]:
    """Words of the grader's English messages that neither their German nor Hungarian wording uses."""
    def words(text: str) -> set[str]:
        return {w.lower() for w in WORD.findall(text)}
    english = set().union(*(words(re.sub(r"\(\?P<\w+>[^)]*\)|\\.", " ", p)) for p, _ in report.MESSAGES))
    other = set().union(*(words(re.sub(r"\{\w+\}", " ", t)) for _, ws in report.MESSAGES for t in ws.values()))
    return english - other - {"check"}  # check(): the function's name


LEARNER_BITS = ("05_strategy.ipynb", "x.ipynb", "exercises", "02_skip_on_eight.ipynb", "ben", "'while True: pass'",
                "'setup'", "ValueError: bad", "'Hidden ones'", "expected 3, got 4",
                "ZeroDivisionError: division by zero", "'Eights skip'", "'skip'", "'t1'", "'A', 'B'", "check()")


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_graders_own_messages_speak_the_language(lang):
    english = grader_english()
    assert {"handed", "kernel", "interrupted", "memory", "teacher", "restored"} & english  # the audit has words
    for message in grader_messages():
        said = report.message_words(message, lang)
        assert said != message, f"not translated: {message!r}"
        text = said
        for own in LEARNER_BITS:
            text = text.replace(own, " ")
        found = {w for w in WORD.findall(text) if w.lower() in english}
        assert not found, f"English in {lang}: {sorted(found)} in {said!r}"
        audit([text], lang)
    assert "1,5" in report.message_words("1.5 points wait for a teacher", lang)


def test_a_learners_own_text_stays_as_written():
    for lang in ("de", "hu"):
        for text in ("expected 3, got 4", "KeyError: 'x'", "", "test"):
            assert report.message_words(text, lang) == text
    assert report.message_words("no a.ipynb handed in", "en") == "no a.ipynb handed in"


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_reports_show_the_graders_messages_in_the_language(lang):
    row = Row("ben", "02_skip_on_eight", 0, 4, "timeout",
              "your cell 'while True: pass' ran longer than the limit and was interrupted",
              notes=["solution cell 'skip' is missing: the empty stub was graded"])
    summary = summary_markdown([row, Row("ben", "05_strategy", 0, 6, "missing", "no 05_strategy.ipynb handed in")],
                               {}, isolation="", lang=lang)
    feedback = feedback_markdown("ben", [row], lang)
    for text in (summary, feedback):
        assert "ran longer" not in text and "handed in" not in text.replace("handed_in", "")
    assert report.message_words(row.notes[0], lang) in feedback.replace("\\_", "_")


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_a_learners_text_with_a_semicolon_is_never_cut_or_half_translated(lang):
    """An exception's own message may hold "; " or grader-like words: it stays whole and as written,
    and a grader's message inside another (a hidden test's reason) is said whole in the language."""
    from maumau.grading.report import message_words

    said = message_words("your cell raised ValueError: a; b", lang)
    assert "ValueError: a; b" in said and "raised" not in said, said
    said = message_words("hidden test 'B': your cell raised ValueError: bad test", lang)
    assert "ValueError: bad test" in said and "raised" not in said and "your cell" not in said, said
    said = message_words("your cell raised ValueError: a; test 'B' failed", lang)  # two parts of the grader's
    assert "ValueError: a" in said and "failed" not in said, said
