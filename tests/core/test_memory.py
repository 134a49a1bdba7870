"""Rules that remember (issue 13 item 3): a rule's own memory slot in the state, with the Runde
(MR-8..MR-13) as the shipped proof and a learner's house rule written in one class.

The house rule here is the one notebook 07 builds: the third card of one suit played in a row
skips the next player.  It remembers (suit, how many in a row) from turn to turn."""

from __future__ import annotations

import json
import pickle

import pytest

import maumau as mm
from maumau.core.cards import Rank, Suit
from maumau.players import Random, View


class ThreeInASuit(mm.Rule):
    """House rule: the third card of one suit played in a row skips the next player."""

    name = "three_in_a_suit"
    rule_id = "HOUSE-1"
    remembers = True
    memory_at_deal = (None, 0)

    def affects(self, card: mm.Card) -> bool:
        return card.suit is not None

    def on_play(self, turn, card):
        suit, run = turn.memory_of(self)
        run = run + 1 if card.suit is suit else 1
        if run == 3:
            turn.skip()
            run = 0
        turn.remember(self, (card.suit, run))

    def describe_memory(self, value, name_of):
        suit, run = value
        return None if run == 0 else f"{run} × {suit.symbol} in a row"


V = mm.variant("makao").with_rules(ThreeInASuit())
RULE = next(r for r in V.rules if isinstance(r, ThreeInASuit))


def three_hands(top="4H", **kw):
    return mm.position(V, hands=["5H 6C 10S", "6H 10C QC", "10H QD KS"], top=top, stock="5C 6D 4S 4C", **kw)


# --- the slot: starts as declared, changes only through turn.remember ----------------------------
def test_a_rule_that_remembers_gets_a_slot_that_starts_as_declared():
    s = mm.deal(V, players=3, seed=1)
    assert s.memory_of(RULE) == (None, 0)
    assert [rule for rule, _ in s.memory] == [RULE]
    assert mm.deal("makao", players=3, seed=1).memory == ()


def test_the_third_card_of_a_suit_in_a_row_skips_the_next_player():
    s = three_hands()
    s = s.apply(mm.Play("5H"))  # hearts 1
    assert s.memory_of(RULE) == (Suit.HEARTS, 1) and s.to_move == 1
    s = s.apply(mm.Play("6H"))  # hearts 2
    assert s.memory_of(RULE) == (Suit.HEARTS, 2) and s.to_move == 2
    s = s.apply(mm.Play("10H"))  # hearts 3: seat 0 is skipped
    assert s.memory_of(RULE) == (Suit.HEARTS, 0)
    assert s.to_move == 1
    assert [type(e).__name__ for e in s.events] == ["Skipped"] and s.events[0].rule is RULE


def test_another_suit_starts_the_count_again():
    s = three_hands(top="6H", memory={"three_in_a_suit": (Suit.HEARTS, 2)})
    assert s.apply(mm.Play("6C")).memory_of(RULE) == (Suit.CLUBS, 1)
    t = s.apply(mm.Play("5H"))
    assert t.memory_of(RULE) == (Suit.HEARTS, 0) and t.to_move == 2


def test_what_a_rule_remembers_is_part_of_the_state_value():
    a = three_hands()
    b = three_hands(memory={"three_in_a_suit": (Suit.HEARTS, 2)})
    assert a != b and len({a, b}) == 2
    assert three_hands(memory={"three_in_a_suit": (Suit.HEARTS, 2)}) == b
    assert "three_in_a_suit: (Suit.HEARTS, 2)" in repr(b) and "three_in_a_suit" not in repr(a)


def test_stepping_back_restores_the_memory():
    game = mm.Game(three_hands())
    game.apply(mm.Play("5H"))
    game.apply(mm.Play("6H"))
    assert game.state.memory_of(RULE) == (Suit.HEARTS, 2)
    game.undo()
    assert game.state.memory_of(RULE) == (Suit.HEARTS, 1)


# --- saved games and pickles keep it -------------------------------------------------------------
def test_a_saved_game_keeps_what_the_rule_remembers():
    game = mm.Game(three_hands(top="6H", memory={"three_in_a_suit": (Suit.HEARTS, 2)}))
    game.apply(mm.Play("6C"))
    data = json.loads(game.to_json())
    assert data["start"]["memory"] == {"three_in_a_suit": [{"suit": "H"}, 2]}
    assert data["start"]["runde"] is None
    loaded = mm.Game.from_json(game.to_json())
    assert loaded.start == game.start and loaded.state == game.state
    assert loaded.state.memory_of(RULE) == (Suit.CLUBS, 1)
    assert pickle.loads(pickle.dumps(game.state)) == game.state


def test_a_variant_without_remembering_rules_saves_no_memory_field():
    assert "memory" not in mm.deal("makao", players=2, seed=3).to_dict()


@pytest.mark.parametrize("saved, words", [
    ({"no_such_rule": 1}, "has no rule 'no_such_rule' that remembers"),
    ({"three_in_a_suit": {"suit": "Z"}}, "corrupt saved state"),
    ({"three_in_a_suit": {"colour": "red"}}, "a remembered value is null, a number, a text, a list"),
    ({"three_in_a_suit": [[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]}, "nested too deep"),
    ([1, 2], "memory must map rule names"),
])
def test_a_corrupt_memory_in_a_saved_game_is_refused_by_name(saved, words):
    data = three_hands().to_dict()
    data["memory"] = saved
    with pytest.raises(mm.FormatError, match=words.replace("(", r"\(")):
        _load(data)


def _load(data):
    from maumau.play.serialize import state_from_dict

    return state_from_dict(data)


# --- bad memories are refused with a clear message -----------------------------------------------
def test_position_refuses_a_memory_for_a_rule_the_variant_lacks():
    with pytest.raises(mm.VariantError, match="makao has no rule 'three_in_a_suit' that remembers"):
        mm.position("makao", hands=["5H", "6C"], top="4H", memory={"three_in_a_suit": (None, 0)})


def test_a_memory_must_be_hashable():
    with pytest.raises(mm.VariantError, match="three_in_a_suit remembers .*which cannot be part of a state"):
        three_hands(memory={"three_in_a_suit": [Suit.HEARTS, 1]})


def test_remembering_a_list_fails_at_once_in_the_rule():
    class Forgetful(ThreeInASuit):
        name = "forgetful"

        def on_play(self, turn, card):
            turn.remember(self, [card.suit])

    s = mm.position(mm.variant("makao").with_rules(Forgetful()), hands=["5H 6C", "6H"], top="4H")
    with pytest.raises(TypeError, match="unhashable"):
        s.apply(mm.Play("5H"))


def test_a_rule_without_a_slot_is_told_how_to_get_one():
    class NoSlot(ThreeInASuit):
        name = "no_slot"
        remembers = False

    s = mm.position(mm.variant("makao").with_rules(NoSlot()), hands=["5H 6C", "6H"], top="4H")
    with pytest.raises(LookupError, match="no_slot has no memory in this variant: .*remembers = True"):
        s.apply(mm.Play("5H"))


# --- everyone sees it: players, the table, the terminal --------------------------------------------
def test_players_see_the_memory_in_their_view():
    s = three_hands(memory={"three_in_a_suit": (Suit.HEARTS, 2)})
    view = View(s, 0)
    assert view.memory == s.memory
    assert view.sample(__import__("random").Random(1)).memory == s.memory
    assert Random(seed=1).choose(view) in s.legal_moves()


def test_the_table_tells_what_the_rule_remembers():
    from maumau.widgets import play

    t = play(V, opponents=2, start=three_hands(memory={"three_in_a_suit": (Suit.HEARTS, 2)}), step=True)
    assert "2 × ♥ in a row" in t.board.status.value


# --- the Runde, ported onto its memory slot (MR-8..MR-13) ------------------------------------------
RUNDE = mm.variant("mau_mau_runde")
RUNDE_RULE = RUNDE.having(mm.Role.RUNDE)[0]


def test_the_runde_lives_in_its_memory_slot():
    s = mm.position(RUNDE, hands=["QC QH 8S 9D", "QD 8C JD", "9S AS 10C"], top="QS", stock="7C 8D 9C")
    assert s.memory == ((RUNDE_RULE, None),) and s.runde is None
    t = s.apply(mm.Play("QC", runde=True))
    assert t.memory_of(RUNDE_RULE) == (Rank.QUEEN, 0) == t.runde
    assert t.to_dict()["runde"] == ["Q", 0] and "memory" not in t.to_dict()


@pytest.mark.parametrize("lang, words", [
    ("en", "Runde of rank Queen (opened by Anna): only that rank may be played."),
    ("de", "Runde mit dem Wert Dame (eröffnet von Anna): nur dieser Wert darf gelegt werden."),
    ("hu", "Runde (dáma, nyitotta: Anna): csak ilyen figurájú lap rakható le."),
])
def test_the_runde_tells_itself_in_every_language(lang, words):
    from maumau.text.explain import memory_sentence
    from maumau.text.i18n import use_language

    with use_language(lang):
        assert memory_sentence(RUNDE_RULE, (Rank.QUEEN, 0), lambda seat: "Anna") == words
        assert memory_sentence(RUNDE_RULE, None, lambda seat: "Anna") is None


def test_a_saved_runde_of_the_first_format_still_loads():
    s = mm.position(RUNDE, hands=["QC QH 8S 9D", "QD 8C JD", "9S AS 10C"], top="QS", stock="7C 8D 9C")
    data = s.apply(mm.Play("QC", runde=True)).to_dict()
    assert set(data) >= {"runde"} and data["version"] == 1
    assert _load(data).runde == (Rank.QUEEN, 0)
