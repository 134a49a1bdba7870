"""A learner's house rule plays, refuses and narrates exactly like the shipped rule it imitates,
in en, de and hu: a Runde that also opens on 8s, a skip on 4s, a reverse on Queens written with
``on_play`` and no ``affects``.  The engine names no rule, rank set or rule id: the rules say
why they refuse (``why_not``, ``forbids``) with their own ids."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import maumau as mm
from maumau import Rank, Role, Rule
from maumau.core.rules import Runde, SkipOnEight
from maumau.text.i18n import card_symbol, use_language

LANGS = ("en", "de", "hu")
PACKAGE = Path(mm.__file__).resolve().parent


class SkipOnFour(Rule):
    """4: next(X) is skipped (a house rule: MK-5 on 4s)."""

    name = "skip_on_four"
    rule_id = "MK-5"
    roles = frozenset((Role.SKIP,))

    def affects(self, card: mm.Card) -> bool:
        return card.rank is Rank.FOUR

    def on_play(self, turn, card: mm.Card) -> None:
        turn.skip()


class ReverseOnQueens(Rule):
    """Q: the direction of play reverses (a house rule with on_play and no affects)."""

    name = "reverse_on_queens"
    rule_id = "MK-6"
    roles = frozenset((Role.REVERSE,))

    def on_play(self, turn, card: mm.Card) -> None:
        if card.rank is Rank.QUEEN:
            turn.reverse()


class EightRunde(Runde):
    """Runde: open with an 8, 9, 10, Q, K or A, holding another (a house rule)."""

    ranks = Runde.ranks | {Rank.EIGHT}


def _said(state: mm.GameState, move: mm.Move) -> dict[str, str]:
    said = {}
    for lang in LANGS:
        with use_language(lang):
            said[lang] = state.explain(move)
    return said


def _swap(sentences: dict[str, str], old: str, new: str) -> dict[str, str]:
    """The sentences with card ``old`` said as card ``new``, as each language writes cards."""
    return {lang: text.replace(card_symbol(mm.Card.parse(old), lang), card_symbol(mm.Card.parse(new), lang))
            for lang, text in sentences.items()}


HOUSE = mm.variant("makao").without("skip_on_eight", "reverse_on_nine").with_rules(SkipOnFour(), ReverseOnQueens())


@pytest.mark.parametrize(("house_card", "shipped_card"), [("4H", "8H"), ("QH", "9H")])
def test_a_house_skip_and_reverse_play_and_narrate_like_the_shipped_ones(house_card, shipped_card):
    others = ["7S 9C KD", "6S 6C 2D"]
    house = mm.position(HOUSE, hands=[f"{house_card} 5C 3H", *others], top="5H", stock="3C 3D 3S")
    shipped = mm.position("makao", hands=[f"{shipped_card} 5C 3H", *others], top="5H", stock="3C 3D 3S")
    after_house, after_shipped = house.apply(mm.Play(house_card)), shipped.apply(mm.Play(shipped_card))
    assert (after_house.to_move, after_house.direction) == (after_shipped.to_move, after_shipped.direction)
    assert [type(e) for e in after_house.events] == [type(e) for e in after_shipped.events]
    assert all(e.rule.name in ("skip_on_four", "reverse_on_queens") for e in after_house.events)
    house_words = _said(house, mm.Play(house_card))
    shipped_words = _said(shipped, mm.Play(shipped_card))
    assert house_words == _swap(shipped_words, shipped_card, house_card)


def test_the_shipped_cards_lose_their_effect_under_the_house_rules():
    s = mm.position(HOUSE, hands=["8H 9H 5C", "7S 9C KD", "6S 6C 2D"], top="5H", stock="3C 3D 3S")
    assert s.apply(mm.Play("8H")).to_move == 1 and s.apply(mm.Play("9H")).direction == 1


def test_a_rule_with_on_play_and_no_affects_is_asked_about_every_card():
    assert HOUSE.rule("reverse_on_queens") in HOUSE._effects[mm.Card.parse("QH")]
    assert HOUSE.rule("reverse_on_queens") in HOUSE._effects[mm.Card.parse("5C")]
    s = mm.position(HOUSE, hands=["5C QC 3H", "7S 9C KD", "6S 6D 2D"], top="5C", stock="3C 3D 3S")
    assert s.apply(mm.Play("5C")).direction == 1 and s.apply(mm.Play("QC")).direction == -1


RUNDE = mm.variant("mau_mau_runde").with_rules(EightRunde())


def test_a_house_runde_opens_on_eights_and_refuses_like_the_shipped_one():
    s = mm.position(RUNDE, hands=["8H 8C 7H KC", "7S 9C KD QD"], top="8D", stock="10C 10D 10S 10H")
    assert mm.Play("8H", runde=True) in s.legal_moves()
    opened = s.apply(mm.Play("8H", runde=True))
    assert opened.runde == (Rank.EIGHT, 0)
    shipped = mm.position("mau_mau_runde", runde=(Rank.NINE, 0), hands=["9C KC 7H", "7S 9S KD QD"],
                          top="9H", stock="10C 10D 10S 10H")
    house = mm.position(RUNDE, runde=(Rank.EIGHT, 0), hands=["8C KC 7H", "7S 8S KD QD"],
                        top="8H", stock="10C 10D 10S 10H")
    for move in (mm.Draw(), mm.Play("KC")):
        assert _said(house, move) == _said_swapped(shipped, move)


def _said_swapped(state: mm.GameState, move: mm.Move) -> dict[str, str]:
    """The shipped Runde's sentences, with its rank 9 said as 8 (the house Runde's)."""
    said = _said(state, move)
    return {lang: re.sub(r"(?<![-\w])9\b", "8", text) for lang, text in said.items()}


@pytest.mark.parametrize(("lang", "ranks"), [
    ("en", "8, 9, 10, Q, K or A (MR-8)"),
    ("de", "8, 9, 10, Dame, König oder Ass eröffnet (MR-8)"),
    ("hu", "8, 9, 10, dáma, király vagy ász (MR-8)"),
])
def test_a_house_runde_names_its_own_ranks(lang, ranks):
    s = mm.position(RUNDE, hands=["7H 7C 8H 8C", "7S 9C KD QD"], top="7D", stock="10C 10D 10S 10H")
    with use_language(lang):
        assert ranks in s.why_illegal(mm.Play("7H", runde=True))
    shipped = mm.position("mau_mau_runde", hands=["7H 7C 9H 9C", "7S 9S KD QD"], top="7D", stock="10C 10D 10S")
    with use_language(lang):
        assert ranks.replace("8, ", "", 1) in shipped.why_illegal(mm.Play("7H", runde=True))


def test_a_refusal_is_data_with_the_rules_own_id():
    s = mm.position(RUNDE, hands=["7H 7C 8H 8C", "7S 9C KD QD"], top="7D", stock="10C 10D 10S 10H")
    said = s.refusal(mm.Play("7H", runde=True))
    assert said is not None and said.key == "illegal.runde_rank" and said.rule == "MR-8"
    assert set(said.value("ranks")) == EightRunde.ranks
    assert s.refusal(mm.Play("7H")) is None


class NoDrawOnFives(Rule):
    """A learner's veto: a 5 may not be played on a 5."""

    name = "no_fives"
    rule_id = "HR-1"

    def forbids(self, card, table):
        if card.rank is Rank.FIVE and table.top.rank is Rank.FIVE:
            return mm.core.refusal.refuse("illegal.generic", self.rule_id, card=card)
        return None


def test_a_learners_veto_is_said_in_every_language():
    v = mm.variant("makao").with_rules(NoDrawOnFives())
    s = mm.position(v, hands=["5C 3H", "7S 9C"], top="5H", stock="3C 3D 3S")
    assert mm.Play("5C") not in s.legal_moves()
    for lang in LANGS:
        with use_language(lang):
            assert "5♣" in s.why_illegal(mm.Play("5C"))
    with pytest.raises(mm.IllegalMove) as raised:
        s.apply(mm.Play("5C"))
    assert raised.value.refusal is not None and raised.value.refusal.rule == "HR-1"


def test_the_shipped_skip_is_unchanged_by_the_house_variant():
    assert isinstance(mm.variant("makao").rule("skip_on_eight"), SkipOnEight)


RULE_ID = re.compile(r"^(C|LM|MR|MK|JM)-\d+$")


def test_no_rule_id_is_written_outside_the_rules_and_the_catalogues():
    """The engine, the words and the tools name no rule id: the rules carry their own."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        inside = path.relative_to(PACKAGE).as_posix()
        if inside.startswith(("core/rules/", "text/locale/")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if RULE_ID.match(node.value) or re.search(r"[\"'](C|LM|MR|MK|JM)-\d+[\"']", node.value):
                    found.append(f"{inside}:{node.lineno}: {node.value[:60]!r}")
    assert not found, "rule ids outside the rules:\n" + "\n".join(found)


def test_the_engine_names_no_rule_class_or_rank_set():
    for name in ("illegal.py", "playable.py", "turn.py", "variants.py", "state.py"):
        text = (PACKAGE / "core" / name).read_text(encoding="utf-8")
        for word in ("RUNDE_RANKS", "SameRankSets", "Runde(", "SkipOnEight", "from .rules.turns"):
            assert word not in text, f"core/{name} names {word}"


class FoursSkipUnlessAnswered(Rule):
    """4: next(X) is skipped unless they answer with a 4 (a house rule; its kind is its role)."""

    name = "fours_skip"
    rule_id = "LM-11"
    roles = frozenset((Role.SKIP,))

    def affects(self, card: mm.Card) -> bool:
        return card.rank is Rank.FOUR

    def answers(self, card: mm.Card, pending) -> bool:
        return pending.rule == self and card.rank is Rank.FOUR

    def on_play(self, turn, card: mm.Card) -> None:
        turn.start_pending(1, turn.following())


def test_a_penaltys_kind_is_said_once_by_its_role():
    shipped = [r for name in mm.variant_names() for r in mm.variant(name).rules]
    assert not [r for r in shipped if "pending_kind" in type(r).__dict__]
    kinds = {r.name: r.pending_kind for r in shipped if r.pending_kind}
    assert kinds == {"two_three_draw": "draw", "kings_draw_five": "draw", "seven_draws_two": "draw",
                     "four_skips": "skip", "eight_skips_summed": "skip"}
    v = mm.variant("makao").with_rules(FoursSkipUnlessAnswered())
    s = mm.position(v, hands=["4H 5C 6D", "4S 9C KD", "6S 6C 2D"], top="5H", stock="3C 3D 3S")
    after = s.apply(mm.Play("4H"))
    assert after.pending is not None and after.pending.kind == "skip" and after.pending_skip == 1
    assert mm.Play("4S") in after.legal_moves() and mm.Pass() in after.legal_moves()


class StartsWithoutARole(Rule):
    name = "no_role"

    def affects(self, card: mm.Card) -> bool:
        return card.rank is Rank.FOUR

    def on_play(self, turn, card: mm.Card) -> None:
        turn.start_pending(1, turn.following())


def test_a_rule_that_starts_a_pending_effect_without_a_role_is_told_what_to_declare():
    v = mm.variant("makao").with_rules(StartsWithoutARole())
    s = mm.position(v, hands=["4H 5C 6D", "4S 9C KD", "6S 6C 2D"], top="5H", stock="3C 3D 3S")
    with pytest.raises(ValueError, match="Role.DRAW_PENALTY or Role.SKIP"):
        s.apply(mm.Play("4H"))


def test_the_jm9_lock_lives_in_its_rules_memory_like_the_runde():
    s = mm.position("joker_mau_mau", hands=["KC 9H", "KH 10S 7D"], top="9S", stock="8D 10C AD 7C")
    locked = s.apply(mm.Play("9H"))  # the second-to-last card without Mau: the last card locks
    lock = mm.variant("joker_mau_mau").having(Role.LOCK)[0]
    assert locked.locked == frozenset({0}) and locked.memory_of(lock) == (0,)
    assert "_locked" not in mm.GameState.__slots__ and "locked" not in mm.core.state.FIELDS
    with pytest.raises(AttributeError):
        locked.locked = frozenset()  # read-only, derived from the memory
    unlocked = locked.apply(locked.legal_moves()[0]).apply(mm.Draw())  # seat 0 draws: the lock lifts
    assert unlocked.locked == frozenset() and unlocked.memory_of(lock) == ()
