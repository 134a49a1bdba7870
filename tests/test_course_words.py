"""What a class reads, in its language (issue 24 items 4-6): numbers in the language's format,
the explorer's numbers describing real play (a cut-off hand is reported as cut off, never as a
length), plain rule sentences, ``mm.source`` where the learner is."""

from __future__ import annotations

import re

import pytest

import maumau as mm
from maumau.text.i18n import number, percent, rule_summary, use_language
from maumau.text.plain_rules import PLAIN
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
    sheet = mm.rules("makao")
    text = str(sheet)
    assert "A 7 makes the next player draw 2 cards, unless they answer with a 7" in text
    assert "next(X)" not in text and "≥ L" not in text
    assert "next(X)" in str(mm.rules("makao", formal=True))  # the teacher's option
    assert "Eine 7 lässt den nächsten Spieler 2 Karten ziehen" in mm.rules("makao", lang="de")._repr_html_()


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

    written = (Path(__file__).resolve().parents[1] / "RULES.md").read_text(encoding="utf-8")
    assert written == rules_markdown(), "run: maumau rules --markdown > RULES.md"
    assert "## Deutsch" in written and "Eine 7 lässt den nächsten Spieler 2 Karten ziehen" in written
