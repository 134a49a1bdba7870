"""Cards in the language's letters (issue 36): where the pile shows D♣ and Á♥, every sentence
about a card says D♣ and Á♥ too: refusals, the narration of moves, the table's log; and the
announcement word of a rule is its variant's own ("Makaó" in MK-9, as the button says)."""

from __future__ import annotations

import random
import re

import pytest

import maumau as mm
from maumau.text.explain import narrate, why_illegal
from maumau.text.i18n import RANK_LETTERS, use_language
from maumau.text.rules_table import rulebook, rules_table

SUITS = "♠♥♦♣"


def english_letters(text: str, lang: str) -> list[str]:
    """The English card letters in ``text`` where ``lang`` writes its own (``RANK_LETTERS``): as
    a card (Q♥), in brackets ("(Q)") or, for letters that are no word of the language, alone."""
    found = []
    text = re.sub(r"\b(Play|Draw|Pass)\([^)]*\)", "", text)  # code to type: Play("JH", wish="Q")
    for letter in RANK_LETTERS[lang]:
        as_card = rf"(?<!\w){letter}[{SUITS}]|\({letter}[{SUITS}]?\)"
        alone = "" if letter == "A" else rf"|\b{letter}\b"  # "A" is Hungarian's article
        found += re.findall(as_card + alone, text)
    return found


def test_the_check_finds_english_letters_and_passes_the_languages_own():
    assert sorted(english_letters("Q♥ passt weder zur Farbe ♣ noch zum Wert J (C-3).", "de")) == ["J", "Q♥"]
    assert sorted(english_letters("A kívánt figura (A), A♠", "hu")) == ["(A)", "A♠"]
    assert not english_letters('B♥ verlangt einen Wunsch: sag welchen, z. B. Play("JH", wish="Q").', "de")
    assert not english_letters("A D♥ nem illik: sem a szín (♣), sem a figura (Á) nem egyezik; JOKER, K♦.", "hu")


def sentences_of_random_games(name: str, lang: str, games: int = 3) -> list[str]:
    """Every refusal of a probe (each card of the hand, draw, pass) and every narrated move of
    random games of ``name``, in ``lang``."""
    rng, said = random.Random(7), []
    for seed in range(games):
        s = mm.deal(name, players=3, seed=seed)
        with use_language(lang):
            for _ in range(250):
                if s.is_over:
                    break
                hand = s.hands[s.to_move]
                for probe in [mm.Draw(), mm.Pass(), mm.Play(hand[-1], mau=True)] + [mm.Play(c) for c in hand]:
                    reason = why_illegal(s, probe)
                    if reason is not None:
                        said.append(reason)
                move = rng.choice(s.legal_moves())
                after = s.apply(move)
                said.append(narrate(s, move, after))
                s = after
    return said


@pytest.mark.parametrize("lang", ["de", "hu"])
@pytest.mark.parametrize("name", mm.variant_names())
def test_no_refusal_or_narration_of_random_games_uses_an_english_card_letter(name, lang):
    said = sentences_of_random_games(name, lang)
    bad = [s for s in said if english_letters(s, lang)]
    assert not bad, "\n".join(bad[:10])
    own = {RANK_LETTERS[lang][letter] for letter in RANK_LETTERS[lang]}
    assert any(re.search(rf"[{''.join(own)}][{SUITS}]", s) for s in said)  # the games named court cards


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_tables_log_names_cards_in_the_languages_letters(lang):
    from test_widgets import play_hand_by_clicks

    from maumau.widgets import TableView

    lines: list[str] = []
    for seed in range(3):
        table = TableView("makao", 3, seed=seed, lang=lang, delay=0)
        play_hand_by_clicks(table, random.Random(seed))
        lines += table.log
    bad = [line for line in lines if english_letters(line, lang)]
    assert not bad, "\n".join(bad[:10])


@pytest.mark.parametrize("lang, words", [
    ("de", ["D♣ passt weder zur Farbe ♥ noch zum Wert B (C-3).", "(D♣ 3♦ A♠)"]),  # German's Ace is A (Ass)
    ("hu", ["D♣ nem illik", "sem a figura (B)", "9♣ nincs a kezedben (D♣ 3♦ Á♠)"]),
])
def test_a_refusal_names_the_cards_and_ranks_in_the_languages_letters(lang, words):
    s = mm.position("makao", hands=["QC AS 3D", "4D 5D"], top="JH", stock="2C 3C 4C 5C 6C")
    with use_language(lang):
        said = why_illegal(s, mm.Play("QC")) + " " + why_illegal(s, mm.Play("9C"))
    assert all(word in said for word in words), said


def test_the_hungarian_ace_is_a_in_refusals_and_narration():
    s = mm.position("makao", hands=["AS 9C 3D", "4D 5D"], top="AH", stock="2C 3C 4C 5C 6C")
    with use_language("hu"):
        refused = why_illegal(s, mm.Play("3D"))
        told = narrate(s, mm.Play("AS"), s.apply(mm.Play("AS")))
    assert "sem a figura (Á)" in refused and "(A)" not in refused, refused
    assert "Á♠" in told and "A♠" not in told.replace("Á♠", ""), told


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_makaos_announcement_rule_names_makaos_own_word(lang):
    rows = {rule_id: (plain, formal) for plain, rule_id, formal in rulebook("makao", lang, formal=True).rows()}
    plain, formal = rows["MK-9"]
    assert "Makaó" in plain and "Mau" not in plain, plain
    assert "Makaó" in formal and "Mau" not in formal.replace("mau_penalty", ""), formal
    mau_mau = {rule_id: plain for plain, rule_id, _ in rulebook("mau_mau_runde", lang).rows()}
    assert '"Mau"' in mau_mau["MR-7"]  # the variant without a word of its own says Mau


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_the_announcement_rule_is_told_with_the_word_of_its_variant_everywhere(lang):
    from maumau.text.i18n import fired_rule

    makao = mm.variant("makao")
    assert "Makaó" in fired_rule(makao, "mau_penalty", lang)[1]
    assert "Makaó" in mm.rulebook("makao", lang=lang)._repr_html_()
    with use_language(lang):
        shown = makao._repr_html_().replace("mau_penalty", "")
        compared = rules_table(["mau_mau_runde", "makao"])._repr_html_()
    assert "Makaó" in shown and not re.search(r"\bMau\b", shown), shown
    cells = dict(re.findall(r"<td><code>(\w+)</code></td><td>([\w-]+)</td>", makao._repr_html_()))
    assert cells["mau_penalty"] == "MK-9"
    tips = re.findall(r"title='([^']*)'>([\w-]+)<", compared)
    mk9 = [tip for tip, rule_id in tips if rule_id == "MK-9"]
    mr7 = [tip for tip, rule_id in tips if rule_id == "MR-7"]
    assert mk9 and "Makaó" in mk9[0] and not re.search(r"\bMau\b", mk9[0]), mk9
    assert mr7 and re.search(r"\bMau\b", mr7[0]), mr7  # Mau-Mau mit Runde says Mau


@pytest.mark.parametrize("lang, own, english", [("de", ">D<", ">Q<"), ("hu", ">Á<", ">A<")])
def test_the_teachers_view_of_a_state_draws_the_languages_letters(lang, own, english):
    s = mm.position("makao", hands=["AS QC 3D", "4D 5D"], top="JH", stock="2C 3C 4C 5C 6C")
    with use_language(lang):
        page = s._repr_html_()
    assert own in page and ">B<" in page, page
    assert english not in page and ">J<" not in page and "Q♣" not in page, page
