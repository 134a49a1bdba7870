"""The message catalogue in English, German and Hungarian (maumau.text.i18n, maumau.text.locale)."""

from __future__ import annotations

import asyncio
import random
import re
import string
import threading

import pytest

import maumau as mm
from maumau.text import i18n
from maumau.text.explain import narrate, why_illegal
from maumau.text.i18n import CATALOGUE, EN, LANGUAGES, card_name, rule_summary, seat_regex, t, use_language

IDS = re.compile(r"\b(?:C|LM|MR|MK|JM)-\d+(?:\.\.\d+)?\b")


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_every_key_is_translated_with_the_same_placeholders(lang):
    table = CATALOGUE[lang]
    assert set(table) == set(EN)
    for key, english in EN.items():
        # {kind} is the English word "suit" or "rank": the translations say it their own way
        dropped = {"kind"} if key == "illegal.wish_wrong" else set()
        assert fields(table[key]) == fields(english) - dropped, key
        assert IDS.findall(table[key]) == IDS.findall(english), key
        assert table[key].strip(), key


def _builtin_rules():
    found = {}
    for name in mm.variant_names():
        for options in ({}, {"jokers": 0} if name == "joker_mau_mau" else {}):
            for rule in mm.variant(name, **options).rules:
                found.setdefault(type(rule).__name__, rule)
    return found


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_every_builtin_rule_has_a_summary_citing_the_same_rules(lang):
    for cls_name, rule in _builtin_rules().items():
        text = rule_summary(rule, lang, formal=True)
        assert text != rule.summary, cls_name
        assert IDS.findall(text) == IDS.findall(rule.summary), cls_name
    assert set(i18n.RULE_TEXT[lang]) == set(_builtin_rules())


def test_a_learners_own_rule_speaks_its_docstring():
    class SkipOnEight(mm.Rule):
        """My eights skip two players."""

        name = "skip_on_eight"

    assert rule_summary(SkipOnEight(), "de") == "My eights skip two players."
    assert rule_summary(mm.variant("makao").rule("skip_on_eight"), "en", formal=True).startswith("8: next(X) is")
    assert rule_summary(mm.variant("makao").rule("skip_on_eight"), "en").startswith("An 8 makes the next player")


def test_card_names_in_each_language():
    qh, ten_d, js, joker = mm.cards("QH 10D JS JOKER")
    assert [card_name(c) for c in (qh, ten_d, js, joker)] == ["Queen of Hearts", "10 of Diamonds", "Jack of Spades",
                                                               "Joker"]
    assert [card_name(c, "de") for c in (qh, ten_d, js)] == ["Herz Dame", "Karo 10", "Pik Bube"]
    assert [card_name(c, "hu") for c in (qh, ten_d, js)] == ["kőr dáma", "káró 10", "pikk bubi"]
    assert [t("suit." + s, "de") for s in "CDHS"] == ["Kreuz", "Karo", "Herz", "Pik"]
    assert [t("suit." + s, "hu") for s in "CDHS"] == ["treff", "káró", "kőr", "pikk"]
    assert i18n.wish_name(mm.Suit.HEARTS, "de") == "♥ Herz" and i18n.wish_name(mm.Rank.QUEEN, "hu") == "dáma"


def test_the_german_table_uses_the_words_of_the_online_game():
    words = {t(k, "de") for k in ("ui.stock", "ui.discard", "ui.wish_suit", "ui.your_hand", "ui.rules")}
    assert words == {"Nachziehstapel", "Ablage", "Wunschfarbe wählen", "Deine Hand", "Spielregeln"}
    assert t("ui.rules", "hu") == "Játékszabályok" and t("ui.stock", "hu") == "Talon"


def test_explanations_follow_the_language_and_it_comes_back():
    s = mm.position("makao", hands=["7H 3C JD", "7S 4D", "5C 6C 9C"], top="9H", stock="2C 3D 4H 5S 6H")
    assert s.explain(mm.Play("3C")) == "3♣ matches neither the suit ♥ nor the rank 9 (C-3)."
    with use_language("de"):
        assert s.explain(mm.Play("3C")) == "3♣ passt weder zur Farbe ♥ noch zum Wert 9 (C-3)."
        assert s.explain(mm.Play("7H")) == "Platz 0 legt 7♥: Platz 1 muss 2 ziehen oder antworten."
    with use_language("hu"):
        assert s.explain(mm.Play("7H")) == "0. játékos 7♥ lapot rak: 1. játékos húz 2 lapot, ha nem felel."
        assert "(MK-4, C-5)" in s.apply(mm.Play("7H")).explain(mm.Play("4D"))
    assert i18n.language() == "en"
    assert t("ui.draw", lang="de") == "Ziehen"
    with pytest.raises(ValueError, match="unknown language"):
        i18n.set_language("fr")


def test_two_tasks_rendering_at_once_in_two_languages_do_not_mix():
    """A server answers a German and a Hungarian learner at the same moment: each task renders in
    its own language however their steps interleave (``use_language`` is a ContextVar)."""
    s = mm.position("makao", hands=["7H 3C JD", "7S 4D", "5C 6C 9C"], top="9H", stock="2C 3D 4H 5S 6H")

    async def render(lang: str, mine: asyncio.Event, other: asyncio.Event) -> list[str]:
        said = []
        with use_language(lang):
            mine.set()
            await other.wait()  # the other task is inside its own use_language now
            for _ in range(5):
                await asyncio.sleep(0)  # and its steps and ours interleave
                said.append(s.explain(mm.Play("7H")) + " | " + t("ui.draw") + " | " + i18n.language())
        return said

    async def both() -> tuple[list[str], list[str]]:
        de, hu = asyncio.Event(), asyncio.Event()
        german, hungarian = await asyncio.gather(render("de", de, hu), render("hu", hu, de))
        return german, hungarian

    german, hungarian = asyncio.run(both())
    assert german == ["Platz 0 legt 7♥: Platz 1 muss 2 ziehen oder antworten. | Ziehen | de"] * 5
    hu_draw = t("ui.draw", "hu")
    assert hungarian == [f"0. játékos 7♥ lapot rak: 1. játékos húz 2 lapot, ha nem felel. | {hu_draw} | hu"] * 5
    assert i18n.language() == "en"


def test_a_thread_in_use_language_does_not_change_the_language_of_another():
    inside, done = threading.Event(), threading.Event()

    def german_for_a_while() -> None:
        with use_language("de"):
            inside.set()
            done.wait(5)

    thread = threading.Thread(target=german_for_a_while)
    thread.start()
    assert inside.wait(5)
    try:
        assert i18n.language() == "en" and t("ui.draw") == "Draw"
    finally:
        done.set()
        thread.join(5)


def test_the_courses_language_holds_in_every_thread_and_a_while_wins_over_it():
    seen: list[str] = []
    i18n.set_language("hu")
    try:
        thread = threading.Thread(target=lambda: seen.append(i18n.language()))
        thread.start()
        thread.join(5)
        with use_language("de"):
            seen.append(i18n.language())
        seen.append(i18n.language())
    finally:
        i18n.set_language("en")
    assert seen == ["hu", "de", "hu"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_seats_in_sentences_can_be_named(lang):
    s = mm.position("makao", hands=["7H 3C JD", "7S 4D", "5C 6C 9C"], top="9H", stock="2C 3D 4H 5S 6H")
    with use_language(lang):
        text = narrate(s, mm.Play("7H"), s.apply(mm.Play("7H")))
    named = seat_regex(lang).sub(lambda m: ["Ann", "Ben", "Cleo"][int(m.group(1))], text)
    assert "Ann" in named and "Ben" in named and not re.search(r"\d\.? ?j", named.replace("7♥", ""))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", mm.variant_names())
def test_every_sentence_of_random_games_formats_in_every_language(lang, name):
    """Placeholders and engine values fit every message: narrate each move and explain illegal ones."""
    rng = random.Random(5)
    for seed in range(3):
        s = mm.deal(name, players=3, seed=seed)
        with use_language(lang):
            for _ in range(400):
                if s.is_over:
                    break
                moves = s.legal_moves()
                hand = s.hands[s.to_move]
                probes = [mm.Draw(), mm.Pass(), mm.Play(hand[0]), mm.Play(hand[-1], mau=True)]
                for probe in probes:
                    reason = why_illegal(s, probe)
                    assert reason is None or "{" not in reason
                move = rng.choice(moves)
                after = s.apply(move)
                assert "{" not in narrate(s, move, after)
                s = after


@pytest.mark.parametrize(("value", "lang"), [
    ("de", "de"), ("hu", "hu"), ("en", "en"), ("de_AT.UTF-8", "de"), ("HU", "hu"), ("hu_HU", "hu"),
    ("fr", "en"), ("", "en"), ("../de", "en"), ("C.UTF-8", "en"),
])
def test_a_process_starts_in_the_language_maumau_lang_names(value, lang):
    from maumau.text.i18n import course_language_from

    assert course_language_from({"MAUMAU_LANG": value}) == lang
    assert course_language_from({}) == "en"


def test_the_commands_speak_the_course_language_by_default():
    """`make lab LANG=hu` sets MAUMAU_LANG for the lab's kernels and terminals: `maumau rules` there
    is Hungarian without --lang (and --lang still wins)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "MAUMAU_LANG": "hu"}
    run = [sys.executable, "-m", "maumau", "rules", "makao"]
    hungarian = subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout
    assert hungarian.startswith("Makaó: 104 lap"), hungarian[:80]
    english = subprocess.run([*run, "--lang", "en"], capture_output=True, text=True, env=env, check=True).stdout
    assert english.startswith("Makaó: 104 cards"), english[:80]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "<Variant makao: 104 cards, 11 rules, house rules: without skip_on_eight>"),
    ("de", "<Variante makao: 104 Karten, 11 Regeln, Hausregeln: ohne skip_on_eight>"),
    ("hu", "<makao változat: 104 lap, 11 szabály, házi szabályok: skip_on_eight nélkül>"),
])
def test_a_variant_says_what_it_is_in_the_course_language(lang, said):
    """An exercise's setup cell prints its variant: the learner reads it in their language; the
    rule's name stays as code writes it."""
    v = mm.variant("makao").without("skip_on_eight")
    with use_language(lang):
        assert repr(v) == said
