"""What a class reads, in its language (issue 24 items 4-6): numbers in the language's format,
the explorer's numbers describing real play (a cut-off hand is reported as cut off, never as a
length), plain rule sentences, ``mm.source`` where the learner is."""

from __future__ import annotations

import re

import pytest

import maumau as mm
from maumau.text.i18n import number, percent, rule_summary, use_language
from maumau.text.locale.plain import PLAIN
from maumau.widgets.explorer import RulesExplorer, random_stats, simulated_stats, stats_html

NBSP = "\u00a0"


@pytest.mark.parametrize("lang, share, text", [("en", 0.423, "42.3%"), ("de", 0.423, f"42,3{NBSP}%"),
                                               ("hu", 0.423, f"42,3{NBSP}%")])
def test_percentages_in_the_languages_format(lang, share, text):
    assert percent(share, 1, lang) == text


def test_numbers_in_the_languages_format():
    assert [number(12345.67, 1, lang) for lang in ("en", "de", "hu")] == ["12,345.7", "12.345,7", f"12{NBSP}345,7"]
    with use_language("de"):
        assert number(0.5, 2) == "0,50"


def test_the_explorers_default_opponents_play_sensibly_and_hands_end():
    ex = RulesExplorer("makao")
    assert ex.strength.value == "medium"
    stats = ex.simulate(40)
    assert stats["cut_off"] == 0 and stats["finished"] + stats["blocked"] == 40
    assert stats["longest"] < stats["cap"] and stats["mean_moves"] < 200


def test_a_cut_off_hand_is_reported_as_cut_off_never_as_a_length():
    stats = random_stats(mm.variant("makao"), 2, 6, seed=3, cap=40)  # random play rarely ends in 40 moves
    assert stats["cut_off"] > 0
    assert stats["longest"] < 40 or stats["finished"] + stats["blocked"] == 0
    page = stats_html(stats, "en", mm.variant("makao"))
    assert f"Hands cut off unfinished after 40 moves</td><td><b>{stats['cut_off']}<" in page
    assert "/ 40<" not in page


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_explorer_speaks_the_language_with_no_code_names_or_decimal_points(lang):
    v = mm.variant("makao")
    page = stats_html(simulated_stats(v, 2, 30, seed=1), lang, v)
    shown = re.sub(r'title="[^"]*"', "", page)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", re.sub(r"<[^>]+>", " ", shown)), shown  # jack_wishes_suit
    assert not re.search(r"\d\.\d", re.sub(r"<[^>]+>", " ", shown)), shown  # 42.3
    assert f"{NBSP}%" in shown


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_every_builtin_rule_has_a_plain_sentence_without_notation(lang):
    classes = {type(r).__name__: r for name in mm.variant_names() for r in mm.variant(name).rules}
    assert set(classes) <= set(PLAIN[lang])
    for cls, rule in classes.items():
        text = rule_summary(rule, lang)
        assert text == PLAIN[lang][cls] and text.endswith(".")
        assert not re.search(r"next\(|prev\(|\bX\b|≥|[A-Z]{1,2}-\d", text), (lang, cls, text)


def test_the_first_rules_table_learners_see_is_sentences():
    sheet = mm.rulebook("makao")
    text = str(sheet)
    assert "A 7 makes the next player draw 2 cards, unless they answer with a 7" in text
    assert "next(X)" not in text and "≥ L" not in text
    assert "next(X)" in str(mm.rulebook("makao", formal=True))  # the teacher's option
    assert "Eine 7 lässt den nächsten Spieler 2 Karten ziehen" in mm.rulebook("makao", lang="de")._repr_html_()


def test_source_shows_a_rule_from_the_package():
    text = str(mm.source("skip_on_eight"))
    assert "class SkipOnEight" in text and "def on_play" in text
    assert str(mm.source("MK-5")) == text
    assert "def affects" in str(mm.source(mm.Rule))
    assert "<span" in mm.source("skip_on_eight")._repr_html_()
    with pytest.raises(ValueError, match="no built-in rule is called 'skip_on_nine'"):
        mm.source("skip_on_nine")


def test_the_rules_beside_the_notebooks_are_up_to_date():
    """RULES.md at the course root (the lab's file browser shows it): ``maumau rules --markdown``."""
    from pathlib import Path

    from maumau.text.rules_table import rules_markdown

    written = (Path(__file__).resolve().parents[2] / "RULES.md").read_text(encoding="utf-8")
    assert written == rules_markdown(), "run: maumau rules --markdown > RULES.md"
    assert "## Deutsch" in written and "Eine 7 lässt den nächsten Spieler 2 Karten ziehen" in written


# --- every string a screen shows, per language ------------------------------------------------------

def shown_strings(widget) -> list[str]:
    """What a widget tree shows: HTML text (tags, styles and scripts stripped), button labels,
    tooltips, descriptions and options of every widget under ``widget``."""
    import ipywidgets as W

    found, todo = [], [widget]
    while todo:
        w = todo.pop()
        todo += list(getattr(w, "children", ()) or ())
        if isinstance(w, W.HTML) or isinstance(w, W.Label):
            text = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", str(w.value), flags=re.S)
            found.append(re.sub(r"<[^>]+>", " ", text))
        for name in ("description", "tooltip", "placeholder"):
            value = getattr(w, name, None)
            if isinstance(value, str):
                found.append(value)
        for option in getattr(w, "_options_labels", ()) or ():
            found.append(str(option))
        for title in getattr(w, "titles", ()) or ():
            found.append(str(title))
    return [s for s in found if s.strip()]


def english_in(strings: list[str], lang: str) -> list[str]:
    """The strings with English words of the catalogue no other catalogue uses (test_sentences'
    audit list), a code name (jack_wishes_suit), a decimal point or the word 'seed'."""
    from test_sentences import ENGLISH

    bad = []
    for text in strings:
        plain = re.sub(r"\b[a-z]+_[a-z_]+\b|[A-Z][a-z]+\(\)", "", text)  # variant names, Draw()
        for name in mm.variant_names():  # the variants' titles are names ("LITE Games Macau")
            plain = plain.replace(mm.variant(name).title, "")
        words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", plain)} & ENGLISH
        if words or re.search(r"\bseed\b|\d\.\d", plain, re.I) or re.search(r"\b[a-z]+_[a-z]+_[a-z]+\b", text):
            bad.append(f"{lang}: {text.strip()[:120]!r} {sorted(words)}")
    return bad


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_every_string_of_the_card_table_replay_and_explorer_is_in_the_language(lang):
    import random as rnd

    from test_widgets import play_hand_by_clicks

    from maumau.widgets import ReplayView, TableView

    table = TableView("makao", 3, seed=7, lang=lang, delay=0)
    play_hand_by_clicks(table, rnd.Random(1))  # a whole hand: the log, the result, the scores
    strings = shown_strings(table.widget) + table.log
    strings += shown_strings(ReplayView(table, lang=lang).widget)
    explorer = RulesExplorer("makao", lang=lang, games=20)
    explorer.simulate(20)
    strings += shown_strings(explorer.widget)
    assert not english_in(strings, lang), "\n".join(english_in(strings, lang)[:12])


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_every_line_of_the_terminal_game_is_in_the_language(lang):
    import io

    from maumau.cli import main

    out = io.StringIO()
    answers = iter(["d"] * 60 + ["q"] * 5)
    main(["play", "makao", "--players", "3", "--seed", "8", "--lang", lang, "--no-color"],
         input_fn=lambda prompt: next(answers), out=out, err=io.StringIO())
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert len(lines) > 20
    assert not english_in(lines, lang), "\n".join(english_in(lines, lang)[:12])


@pytest.mark.parametrize("lang, words", [("de", ("Platz 1 ist dran", "Stapel", "Ablage", "Runde mit 9")),
                                         ("hu", ("1. játékos lép", "talon", "Runde (9)"))])
def test_the_teachers_view_of_a_state_speaks_the_language(lang, words):
    s = mm.position("mau_mau_runde", hands=["9C 9H 10D", "QS QD KC"], top="9D", stock="7C 8C AD")
    s = s.apply(mm.Play("9C", runde=True))
    with use_language(lang):
        page = s._repr_html_()
    assert all(word in page for word in words), page
    assert not re.search(r"\b(seat|stock|pile|cards|top)\b", re.sub(r"<[^>]+>|style='[^']*'", " ", page)), page
