"""Every sentence the engine says, audited: over thousands of random states of every variant, the
explanation of every legal move and of many illegal ones, in English, German and Hungarian, and
every legal move as told to the learner ("You play 7♥", "du bist als Nächstes dran"): as the one
who moved and as the next seat.

What a class reads must be right: a sentence cites only rules of the variant being played (no
JM-9 in lite_macau, no MK-8 in joker_mau_mau), says the variant's own call word (Macau, Makaó,
Mau), has no English words in German or Hungarian, no raw floats, no "1 cards", no unfilled
placeholder.  Scenario tests below pin the cases that were once wrong.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from conftest import play_seq

import maumau as mm
from maumau.core.cards import Card
from maumau.text import i18n
from maumau.text.explain import narrate
from maumau.text.i18n import use_language

LANGS = ("en", "de", "hu")
RULE_ID = re.compile(r"\b([A-Z]{1,2})-(\d+)\b")
CALLS = {"Mau", "Macau", "Makaó"}


def section(variant: mm.Variant) -> str:
    """The variant's own section of RULES.md (LM, MR, MK, JM), from the ids its rules carry."""
    prefixes = [RULE_ID.match(r.rule_id).group(1) for r in variant.rules if RULE_ID.match(r.rule_id)]
    return max((p for p in prefixes if p != "C"), key=prefixes.count)


def english_words() -> set[str]:
    """Words of the English catalogue that neither other catalogue uses (so 'Runde', 'Joker',
    'Hand' or 'Pass' do not count)."""
    def words(texts) -> set[str]:
        return {w.lower() for text in texts for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", text))}
    english = words(i18n.EN.values())
    other = words(i18n.CATALOGUE["de"].values()) | words(i18n.CATALOGUE["hu"].values())
    return english - other


ENGLISH = english_words()


def candidates(state: mm.GameState, rng: random.Random) -> Iterator[mm.Move]:
    """Every legal move and a sample of illegal ones: cards held and not held, wishes of the wrong
    kind, Mau too early or forgotten, a Runde, a set, Draw() and Pass()."""
    yield from state.legal_moves()
    yield mm.Draw()
    yield mm.Pass()
    hand = state.hands[state.to_move]
    for card in rng.sample(sorted(set(hand), key=lambda c: c.index), min(3, len(set(hand)))):
        yield mm.Play(card)
        yield mm.Play(card, mau=True)
        yield mm.Play(card, wish=rng.choice("HQ"))
        if not card.is_joker:
            yield mm.Play(card, runde=True)
    yield mm.Play(rng.choice(state.variant.distinct_cards))
    if len(hand) >= 2:
        yield mm.Play(rng.sample(list(hand), 2))
    for move in state.legal_moves():
        if isinstance(move, mm.Play) and move.mau:
            yield move.replace(mau=False)  # the forgotten announcement (C-8, JM-9)


def random_states(name: str, count: int, seed: int) -> Iterator[mm.GameState]:
    """States met in random play (Mau forgotten now and then), over many hands."""
    rng = random.Random(seed)
    v = mm.variant(name)
    seen = 0
    while seen < count:
        s = mm.deal(name, players=rng.randint(*v.players), seed=rng.randrange(10**6))
        for _ in range(150):
            if s.is_over:
                break
            yield s
            seen += 1
            move = rng.choice(s.legal_moves())
            if isinstance(move, mm.Play) and move.mau and rng.random() < 0.4:
                move = move.replace(mau=False)
            s = s.apply(move)


def audit(name: str, states: int, seed: int) -> list[str]:
    """The problems found in the sentences of ``states`` random states of variant ``name``."""
    rng = random.Random(seed)
    v = mm.variant(name)
    own = section(v)
    problems: list[str] = []

    def check(text: str, lang: str, state: mm.GameState, move: mm.Move) -> None:
        where = f"[{name} {lang}] {move!r}: {text}"
        for prefix, _ in RULE_ID.findall(text):
            if prefix not in ("C", own):
                problems.append(f"cites a rule of another variant: {where}")
        said = set(re.findall(r"\b(Mau|Macau|Makaó)\b", text))
        if said - {v.call}:
            problems.append(f"not the variant's call word {v.call}: {where}")
        if re.search(r"\d\.\d{3,}", text):
            problems.append(f"an unformatted number: {where}")
        if re.search(r"\b1 (cards|Karten|players|Spieler)\b", text):
            problems.append(f"a plural after 1: {where}")
        if "{" in text or "}" in text or not text.endswith("."):
            problems.append(f"not a finished sentence: {where}")
        if lang != "en":
            code = re.sub(r"\w+\([^)]*\)|\w+=\w+|\b[a-z]+_[a-z_]+\b", "", text)  # Draw(), runde=True, names
            english = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", code)} & ENGLISH
            if english:
                problems.append(f"English words {sorted(english)}: {where}")

    audit.sentences = 0  # type: ignore[attr-defined]
    legal_now: set = set()
    for state in random_states(name, states, seed):
        legal_now = set(state.legal_moves())
        for move in set(candidates(state, rng)):
            for lang in LANGS:
                with use_language(lang):
                    check(state.explain(move), lang, state, move)
                    if move in legal_now:  # told to the learner: as the mover, and as the next seat
                        after = state.apply(move)
                        for you in (state.to_move, (state.to_move + 1) % state.players):
                            check(narrate(state, move, after, you=you), lang, state, move)
                audit.sentences += 1  # type: ignore[attr-defined]
    return problems


@pytest.mark.slow  # random games told in three languages (5 s)
@pytest.mark.parametrize("name", mm.variant_names())
def test_every_sentence_of_random_play_is_right_in_three_languages(name):
    problems = audit(name, states=700, seed=11)
    assert audit.sentences > 20_000  # type: ignore[attr-defined]
    assert not problems, f"{len(problems)} problems, e.g.\n" + "\n".join(sorted(set(problems))[:15])


def test_the_audit_finds_what_it_looks_for():
    """The checks themselves: a wrong id, a wrong call word and an English word are caught."""
    assert section(mm.variant("makao")) == "MK" and section(mm.variant("lite_macau")) == "LM"
    assert "after" in ENGLISH and "runde" not in ENGLISH and "hand" not in ENGLISH


# --- the cases once seen wrong --------------------------------------------------------------------

def test_a_forgotten_announcement_whose_penalty_reshuffles_is_not_a_lock():
    # The stock holds one card; the penalty of 2 (MK-9) reshuffles the pile (C-6) first.
    s = mm.position("makao", hands=["5H 6H", "9C 10C"], top="5C", stock="2D", discard="3S 4S 5S")
    text = s.explain(mm.Play("5H"))
    assert "without Makaó: 2 penalty cards" in text and "locked" not in text and "JM-9" not in text


def test_a_too_early_announcement_at_a_runde_opening_says_what_is_wrong():
    s = mm.position("mau_mau_runde", hands=["9C 9H 10D", "QS QD KC"], top="9D", stock="7C 8C AD")
    text = s.explain(mm.Play("9C", runde=True, mau=True))
    assert text == "Mau is said only when the move leaves exactly one card (C-8)."
    lone = mm.position("mau_mau_runde", hands=["9C 10H 10D", "QS QD KC"], top="9D", stock="7C 8C AD")
    assert "another card of rank 9" in lone.explain(mm.Play("9C", runde=True))


@pytest.mark.parametrize("lang, word", [("en", "Makaó"), ("de", "Makaó"), ("hu", "Makaó")])
def test_the_call_word_of_the_variant_everywhere(lang, word):
    s = mm.position("makao", hands=["5H 6H", "9C 10C"], top="5C", stock="2D 3D 4D")
    with use_language(lang):
        assert word in s.explain(mm.Play("5H")) and "Mau " not in s.explain(mm.Play("5H"))
        assert word in s.explain(mm.Play("5H 6H".split()[0], mau=True))


def test_queen_of_hearts_cancelling_kings_cites_LM_8_and_twos_LM_6():
    kings = play_seq(mm.position("lite_macau", hands=["KH 5H 9S", "QH 3D 8D", "7S 8S 10S"], top="9H",
                                 stock="2C 3C 4C 5C 6C 7C"), mm.Play("KH"))
    text = kings.explain(mm.Play("QH"))
    assert "cancelled (LM-8)" in text and "LM-6" not in text
    twos = play_seq(mm.position("lite_macau", hands=["2H 5H 9S", "QH 3D 8D", "7S 8S 10S"], top="9H",
                                stock="2C 3C 4C 5C 6C 7C"), mm.Play("2H"))
    assert "cancelled (LM-6)" in twos.explain(mm.Play("QH"))


def test_a_king_answering_a_king_refusals_cite_LM_8():
    s = play_seq(mm.position("lite_macau", hands=["KH 5H 9S", "KS 3D 8D", "7S 8S 10S"], top="9H",
                             stock="2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC"), mm.Play("KH"), mm.Play("KS"))
    assert s.pending_draw == 10
    text = s.explain(mm.Play("5H")) if s.to_move == 0 else s.explain(mm.Play("7S"))
    assert "(LM-8, C-5)" in text and "LM-7" not in text


def test_a_joker_skip_says_how_many_sit_out():
    s = mm.position("joker_mau_mau", hands=["8H 9H 10H", "8S 9S", "QC KC"], top="8D",
                    stock="7C 7D 7H 7S", pending_skip=2, to_move=2)
    # Seat 2 takes a skip of 2: seats 2 and 0 sit out, seat 1 moves next.
    text = s.explain(mm.Pass())
    assert text == "Seat 2 takes the skip of 2 (JM-6), so seats 2 and 0 sit out in turn: seat 1 moves next."
    with use_language("de"):
        assert "Plätze 2 und 0" in s.explain(mm.Pass())


def test_a_blocked_hand_does_not_claim_that_nobody_could_play():
    # Nothing to draw; seat 0 could play 5S but chooses Draw() (C-4), and so does seat 1: blocked (C-7).
    s = mm.position("makao", hands=["5S 9H", "6C 9D"], top="2S", stock="")
    assert mm.Play("5S", mau=True) in s.legal_moves()
    s = s.apply(mm.Draw())
    text = s.explain(mm.Draw())
    assert "blocked and void (C-7)" in text and "nobody can play" not in text
    assert s.apply(mm.Draw()).blocked


def test_no_english_in_german_and_hungarian_at_an_aces_extra_play():
    s = play_seq(mm.position("makao", hands=["AH 5H 9S", "7C 8C"], top="9H", stock="2C 3C"), mm.Play("AH"))
    for lang in ("de", "hu"):
        with use_language(lang):
            text = s.explain(mm.Pass())
            assert "Draw()" in text and "(draw)" not in text and "MK-8" in text and "JM-8" not in text


def test_a_runde_is_named_by_its_rank():
    s = mm.position("mau_mau_runde", hands=["AC AH 10D", "QS QD KC"], top="AD", stock="7C 8C 9D")
    assert "Runde of rank Ace" in s.explain(mm.Play("AC", runde=True))
    running = s.apply(mm.Play("AC", runde=True))
    assert "rank Ace" in running.explain(mm.Play("QS")) and "As" not in running.explain(mm.Play("QS"))


def test_a_card_not_in_the_deck_or_not_in_the_hand():
    s = mm.position(mm.variant("joker_mau_mau", jokers=0), hands=["8H 9H", "8S 9S"], top="8D",
                    stock="7C 7D")
    assert s.explain(mm.Play(Card.parse("JOKER"))) == "There is no ★ in the joker_mau_mau deck."
    assert s.explain(mm.Play("10H")) == "10♥ is not in your hand (8♥ 9♥)."
