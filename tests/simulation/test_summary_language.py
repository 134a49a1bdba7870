"""Issue 36: ``print(mm.simulate(...))`` speaks the course's language (``mm.set_language``): its words
from the catalogue, its numbers as the language writes them, the rules by their RULES.md id and
plain sentence (no code names in German or Hungarian); the English text as it always was."""

from __future__ import annotations

import re

import pytest

import maumau as mm
from maumau.text.i18n import rule_summary, set_language, use_language

NBSP = "\u00a0"


def duel():
    return mm.simulate("makao", players=["random", "heuristic"], games=30, seed=3, executor="serial", progress=False)


def three():
    """Fixed seats and a hand cut off at 60 moves (no winner)."""
    return mm.simulate("mau_mau_runde", players=["heuristic"] * 3, games=40, seed=2, rotate=False,
                       executor="serial", progress=False, max_moves=60)


DUEL_EN = """\
makao: 30 hands, 2 players (seats rotate after each hand), seed 3

player                     games    wins  win rate   95% CI
Random()                      30       0     0.0%   [0.0%, 11.4%]
Heuristic()                   30      30   100.0%   [88.6%, 100.0%]
seat 0 (moves first)          30      15    50.0%   [33.2%, 66.8%]
seat 1                        30      15    50.0%   [33.2%, 66.8%]

hand length (decisions): mean 73.8, median 47, 5-95% 14-208, longest 249

rules acting per hand:
  jack_wishes_suit               3.97
  skip_on_eight                  3.43
  seven_draws_two                3.40
  ace_extra_play                 3.37
  reverse_on_nine                2.73
  reshuffle                      0.13"""

THREE_EN = """\
mau_mau_runde: 40 hands, 3 players (fixed seats), seed 2

player                     games    wins  win rate   95% CI
Heuristic() #1                40      12    30.0%   [18.1%, 45.4%]
Heuristic() #2                40      11    27.5%   [16.1%, 42.8%]
Heuristic() #3                40      16    40.0%   [26.3%, 55.4%]
seat 0 (moves first)          40      12    30.0%   [18.1%, 45.4%]
seat 1                        40      11    27.5%   [16.1%, 42.8%]
seat 2                        40      16    40.0%   [26.3%, 55.4%]
no winner (blocked or cut off): 1 hand

hand length (decisions): mean 36.0, median 35.5, 5-95% 16-57, longest 60

rules acting per hand:
  runde                          6.35
  seven_draws_two                3.15
  skip_on_eight                  3.12
  jack_wishes_suit               2.98
  reshuffle                      0.42"""

#: English words of the summary a German or Hungarian class must not read.
ENGLISH = ("player", "games", "wins", "win rate", "seat", "moves first", "hands", "hand length", "decisions",
           "mean", "median", "longest", "rules acting", "seed", "no winner", "rotate", "fixed", " vs ", "CI")


@pytest.fixture
def course_language():
    """Sets the course's language as a teacher does (``set_language``), and back to English after."""
    yield set_language
    set_language("en")


def test_the_english_summary_is_as_it_was():
    assert str(duel()) == DUEL_EN
    assert repr(duel()) == "<Simulation makao: 30 hands, Random() vs Heuristic()>"
    assert str(three()) == THREE_EN  # one hand cut off: "1 hand" (it said "1 hands")
    assert duel()._repr_html_() == "<pre>" + DUEL_EN.replace("<", "&lt;").replace(">", "&gt;") + "</pre>"


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_print_speaks_the_course_language(course_language, lang):
    course_language(lang)
    for result in (duel(), three()):
        text, shown, html = str(result), repr(result), result._repr_html_()
        assert text == result.summary() and html.startswith("<pre>") and "Simulation" in shown
        for english in ENGLISH:
            assert english not in text, (english, text)
            assert english not in shown, (english, shown)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no code name (jack_wishes_suit, mau_mau_runde)
        assert not re.search(r"\d\.\d", text), text  # 42,3 %, never 42.3%
        assert f"{NBSP}%" in text
    assert "Heuristic() #2" in str(three())  # the players' own names stay


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_rules_by_id_and_sentence(lang):
    result = duel()
    makao = mm.variant("makao")
    with use_language(lang):
        text = str(result)
        lines = text.splitlines()
        assert max(map(len, lines)) <= 90  # a long sentence goes on under itself
        for rule in makao.rules:
            if rule.name in result.rules_fired():
                at = next(i for i, line in enumerate(lines) if line.strip().startswith(rule.rule_id + " "))
                told = lines[at]
                for more in lines[at + 1:]:
                    if not more.startswith("    "):  # the next rule's line starts with two spaces
                        break
                    told += " " + more.strip()
                assert told.endswith(rule_summary(rule)), told


def test_each_language_shows_the_same_numbers():
    result = three()
    digits = {}
    for lang in ("en", "de", "hu"):
        with use_language(lang):
            text = str(result)
        rows = text.split("\n\n")[1].splitlines()[1:]  # the table without its head
        digits[lang] = [re.findall(r"\d+", row.replace("#", "")) for row in rows]
    assert digits["en"] == digits["de"] == digits["hu"]


def test_the_command_line_speaks_the_language_too():
    import io

    from maumau.cli import main

    out = io.StringIO()
    with use_language("hu"):
        assert main(["simulate", "makao", "--games", "30", "--players", "random", "heuristic", "--seed", "3",
                     "--serial", "--no-progress"], out=out, err=io.StringIO()) == 0
        assert out.getvalue().strip() == str(duel()).strip()
