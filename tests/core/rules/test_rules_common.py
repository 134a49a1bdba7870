"""Scenario tests for the common rules C-1 … C-9 of RULES.md §0, and the cards,
notation and decks every variant builds on.

Every expected value below is reasoned from RULES.md, not copied from a run.
Most scenarios use lite_macau (whose ordinary cards have no effect); a few use
the other variants where a common rule only shows there (C-4 play after drawing).
"""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import play_seq

import maumau as mm
from maumau import Draw, Pass, Play

LITE = "lite_macau"


# --- helpers -------------------------------------------------------------------------------------

def snapshot(s: mm.GameState) -> tuple:
    """Everything a player can see of a state, to show a rejected move changed nothing."""
    return (s.hands, s.stock, s.discard, s.to_move, s.direction, s.wish, s.pending_draw,
            s.pending_skip, s.is_over, s.winner)


def rejected(s: mm.GameState, move: mm.Move, *rule_ids: str) -> str:
    """Assert that ``move`` is illegal in ``s``, the message names every rule id, the state
    is unchanged, and ``explain`` gives the same reason.  Returns the message."""
    before = snapshot(s)
    assert move not in s.legal_moves()
    with pytest.raises(mm.IllegalMove) as info:
        s.apply(move)
    message = str(info.value)
    for rule_id in rule_ids:
        assert f"{rule_id}" in message, (rule_id, message)
    assert snapshot(s) == before
    reason = s.explain(move)
    assert isinstance(reason, str) and reason
    for rule_id in rule_ids:
        assert rule_id in reason
    return message


def cs(text: str) -> tuple:
    """Cards in hand order (a hand is kept sorted, so card order inside it never matters)."""
    return tuple(sorted(mm.cards(text)))


def deck_count(s: mm.GameState) -> Counter:
    return Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(s.discard)


def assert_sentence(text: str) -> None:
    assert isinstance(text, str) and len(text) > 10 and text.endswith(".")


# --- cards, notation, decks (C-1) ----------------------------------------------------------------

def test_C_1_notation_parses_ranks_suits_ten_and_symbols():
    c = mm.Card.parse
    assert c("7H").rank is mm.Rank.SEVEN and c("7H").suit is mm.Suit.HEARTS
    assert c("10D") == c("TD") == c("T♦") and c("10D").rank is mm.Rank.TEN
    assert c("QS").rank is mm.Rank.QUEEN and c("QS").suit is mm.Suit.SPADES
    assert c("7♥") == c("7H") and c("Q♠") == c("QS") and c("A♣") == c("AC") and c("2♦") == c("2D")
    assert str(c("TD")) == "10D" and str(c("7♥")) == "7H"
    assert mm.cards("7H 10D TD QS JOKER 7♥") == (c("7H"), c("10D"), c("10D"), c("QS"), mm.JOKER, c("7H"))
    # cards are values: equal when rank and suit are equal, usable in sets and as keys
    assert len({c("7H"), c("7♥"), c("7h")}) == 1


def test_C_1_joker_has_no_suit_and_no_rank():
    assert mm.Card.parse("JOKER") is mm.JOKER
    assert mm.JOKER.rank is None and mm.JOKER.suit is None
    assert str(mm.JOKER) == "JOKER"


def test_C_1_all_ranks_and_suits():
    assert [r.value for r in mm.Rank] == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert [s.value for s in mm.Suit] == ["C", "D", "H", "S"]


@pytest.mark.parametrize("junk", ["1H", "ZZ", "11S", "H7", "7X", "10", "JOKERS", "", "0C", "1 H"])
def test_C_1_junk_notation_is_a_clear_card_error(junk):
    with pytest.raises(mm.CardError) as info:
        mm.Card.parse(junk)
    assert repr(junk) in str(info.value)  # the error shows what was written


def test_C_1_card_error_inside_a_list_of_cards():
    with pytest.raises(mm.CardError, match="'1H'"):
        mm.cards("7H 1H 8S")


@pytest.mark.parametrize("name, size, jokers, ranks", [
    ("lite_macau", 52, 0, 13),
    ("mau_mau_runde", 32, 0, 8),
    ("makao", 104, 0, 13),
    ("joker_mau_mau", 34, 2, 8),
])
def test_deck_sizes_per_variant(name, size, jokers, ranks):
    deck = mm.variant(name).deck
    assert len(deck) == size
    assert deck.count(mm.JOKER) == jokers
    assert len({c.rank for c in deck if c.rank is not None}) == ranks
    # every real card once, or twice in makao's double deck (MK-1)
    copies = 2 if name == "makao" else 1
    assert set(Counter(c for c in deck if not c.is_joker).values()) == {copies}


def test_deck_ranks_32_card_variants_are_seven_to_ace():
    for name in ("mau_mau_runde", "joker_mau_mau"):
        ranks = {c.rank.value for c in mm.variant(name).deck if c.rank is not None}
        assert ranks == {"7", "8", "9", "10", "J", "Q", "K", "A"}


def test_variant_names_and_unknown_variant():
    names = mm.variant_names()
    for name in ("joker_mau_mau", "lite_macau", "makao", "mau_mau_runde"):
        assert name in names
    with pytest.raises(mm.VariantError, match="uno"):
        mm.variant("uno")
    with pytest.raises(mm.VariantError):
        mm.deal("uno", players=2, seed=0)
    with pytest.raises(mm.VariantError):
        mm.position("uno", hands=["7H", "8H"], top="9H")


@pytest.mark.parametrize("name, lo, hi", [
    ("lite_macau", 2, 4), ("mau_mau_runde", 2, 4), ("makao", 2, 5), ("joker_mau_mau", 2, 5),
])
def test_player_counts(name, lo, hi):
    assert mm.variant(name).players == (lo, hi)
    for n in (lo, hi):
        assert len(mm.deal(name, players=n, seed=1).hands) == n
    for n in (0, 1, lo - 1, hi + 1):
        if lo <= n <= hi:
            continue
        with pytest.raises(mm.VariantError):
            mm.deal(name, players=n, seed=1)


def test_position_with_wrong_player_count():
    with pytest.raises(mm.VariantError):
        mm.position(LITE, hands=["7H 8H"], top="9H")
    with pytest.raises(mm.VariantError):
        mm.position(LITE, hands=["2C", "3C", "4C", "5C", "6C"], top="9H")


def test_position_with_unknown_card():
    with pytest.raises(mm.CardError, match="'XX'"):
        mm.position(LITE, hands=["7H", "XX"], top="9H")
    with pytest.raises(mm.CardError):
        mm.position(LITE, hands=["7H", "8H"], top="1H")
    with pytest.raises(mm.CardError):
        mm.position(LITE, hands=["7H", "8H"], top="9H", stock="2C 11C")


def test_position_card_more_often_than_the_deck_holds():
    with pytest.raises(mm.CardError, match="7H"):
        mm.position(LITE, hands=["7H", "7H"], top="9H")  # across hands
    with pytest.raises(mm.CardError, match="9H"):
        mm.position(LITE, hands=["7H", "8H"], top="9H", stock="9H")  # top and stock
    with pytest.raises(mm.CardError, match="JOKER"):
        mm.position(LITE, hands=["7H", "JOKER"], top="9H")  # LM-1: no jokers
    with pytest.raises(mm.CardError, match="2H"):
        mm.position("mau_mau_runde", hands=["7H", "2H"], top="9H")  # MR-1: 7-A only
    # makao's double deck holds each card twice (MK-1), but not three times
    s = mm.position("makao", hands=["7H 7H", "8C"], top="9H")
    assert s.hands[0] == cs("7H 7H")
    with pytest.raises(mm.CardError, match="7H"):
        mm.position("makao", hands=["7H 7H", "7H"], top="9H")
    # two jokers in joker_mau_mau, not three
    mm.position("joker_mau_mau", hands=["JOKER", "JOKER"], top="9H")
    with pytest.raises(mm.CardError, match="JOKER"):
        mm.position("joker_mau_mau", hands=["JOKER JOKER", "JOKER"], top="9H")


def test_position_without_stock_fills_the_rest_of_the_deck():
    s = mm.position(LITE, hands=["7H 8H", "9C"], top="9H")
    assert deck_count(s) == Counter(mm.variant(LITE).deck)
    assert len(s.stock) == 52 - 3 - 1


# --- C-1 direction and seats ------------------------------------------------------------------

def test_C_1_seats_run_clockwise_and_wrap():
    s = mm.position(LITE, hands=["5H 6C", "5C 6D", "5D 6S", "5S 7C"], top="9H", stock="8C 9C 10C",
                    to_move=0)
    assert s.direction == 1
    s = play_seq(s, Play("5H"))
    assert s.to_move == 1
    s = play_seq(s, Play("5C"))
    assert s.to_move == 2
    s = play_seq(s, Play("5D"))
    assert s.to_move == 3
    s = play_seq(s, Play("5S"))
    assert s.to_move == 0  # seat n-1 is followed by seat 0
    assert s.direction == 1


def test_C_1_only_makao_nine_changes_direction():
    # RULES §6.1: lite_macau has no reversing card; a 9 is ordinary
    s = mm.position(LITE, hands=["9C 5D", "9D 6D", "7S 8S"], top="9H", stock="2C 3C")
    s = play_seq(s, Play("9C"))
    assert (s.direction, s.to_move) == (1, 1)
    s = mm.position("makao", hands=["9C 5D 6D", "9D 6D", "7S 8S"], top="9H", stock="2C 3C")
    s = play_seq(s, Play("9C"))
    assert s.direction == -1 and s.to_move == 2  # prev(0) with 3 players


def test_C_1_next_and_prev_are_neighbours_with_and_against_direction():
    s = mm.position(LITE, hands=["5C", "6C", "7C", "8C"], top="9H", stock="2C")
    assert [s.next_seat(p) for p in range(4)] == [1, 2, 3, 0]
    s = mm.position(LITE, hands=["5C", "6C", "7C", "8C"], top="9H", stock="2C", direction=-1)
    assert [s.next_seat(p) for p in range(4)] == [3, 0, 1, 2]


# --- C-2 deal ---------------------------------------------------------------------------------

def _ordinary_upcard(name: str, players: int) -> int:
    """A seed whose (lite_macau) up-card has no effect: not A, J, 2, 3, 4, K♥, K♠."""
    for seed in range(1000):
        s = mm.deal(name, players=players, seed=seed)
        top = s.top
        if top.rank.value not in ("A", "J", "2", "3", "4") and top.text not in ("KH", "KS"):
            return seed
    raise AssertionError("no seed found")


@pytest.mark.parametrize("name, players, size", [
    ("lite_macau", 2, 5), ("lite_macau", 4, 5), ("mau_mau_runde", 3, 5), ("mau_mau_runde", 4, 5),
    ("makao", 2, 7), ("makao", 5, 7), ("joker_mau_mau", 3, 5), ("joker_mau_mau", 5, 5),
])
def test_C_2_deal_sizes_dealer_and_conservation(name, players, size):
    for seed in range(5):
        s = mm.deal(name, players=players, seed=seed)
        assert s.dealer == players - 1  # the last seat deals hand 1
        assert len(s.hands) == players
        deck = Counter(mm.variant(name).deck)
        assert deck_count(s) == deck  # every card in exactly one place
        extra = sorted(len(h) - size for h in s.hands)
        if name == "joker_mau_mau":  # JM-2: a Joker up-card makes next(dealer) draw 4 at once
            assert extra in ([0] * players, [0] * (players - 1) + [4])
        else:
            assert extra == [0] * players
        assert not s.is_over and s.winner is None
        assert s.direction == 1


def test_C_2_one_up_card_and_the_rest_is_the_stock():
    seed = _ordinary_upcard(LITE, 3)
    s = mm.deal(LITE, players=3, seed=seed)
    assert len(s.discard) == 1
    assert len(s.stock) == 52 - 3 * 5 - 1
    assert s.pending_draw == 0 and s.wish is None


def test_C_2_next_of_dealer_starts():
    seed = _ordinary_upcard(LITE, 3)
    s = mm.deal(LITE, players=3, seed=seed)
    assert s.dealer == 2 and s.to_move == 0
    # mau_mau_runde's up-card never has an effect (MR-2)
    for seed in range(10):
        assert mm.deal("mau_mau_runde", players=4, seed=seed).to_move == 0
    for seed in range(10):
        assert mm.deal("makao", players=3, seed=seed).to_move == 0  # MK-2: covered, no effect
    s = mm.deal("mau_mau_runde", players=4, seed=3, dealer=1)
    assert s.dealer == 1 and s.to_move == 2


def test_C_2_first_stock_card_is_drawn_first():
    seed = _ordinary_upcard(LITE, 2)
    s = mm.deal(LITE, players=2, seed=seed)
    first = s.stock[0]
    after = s.apply(Draw())
    assert first in after.hands[0]
    assert after.stock == s.stock[1:]


def test_C_2_deal_reproducible_by_seed_and_seeds_differ():
    for name in mm.variant_names():
        a = mm.deal(name, players=3, seed=42)
        b = mm.deal(name, players=3, seed=42)
        assert a == b and hash(a) == hash(b)
        assert a.hands == b.hands and a.stock == b.stock and a.discard == b.discard
        c = mm.deal(name, players=3, seed=43)
        assert (c.hands, c.stock) != (a.hands, a.stock)
    deals = {mm.deal(LITE, players=2, seed=seed).hands for seed in range(20)}
    assert len(deals) == 20


# --- C-3 matching --------------------------------------------------------------------------------

def test_C_3_suit_or_rank_matches():
    s = mm.position(LITE, hands=["9S 5H 5S KC", "6D"], top="9H", stock="2C 3C")
    legal = s.legal_moves()
    assert Play("9S") in legal  # same rank
    assert Play("5H") in legal  # same suit
    assert Play("5S") not in legal and Play("KC") not in legal
    msg = rejected(s, Play("5S"), "C-3")
    assert "♥" in msg and "9" in msg  # says what it fails to match
    rejected(s, Play("KC"), "C-3")
    after = s.apply(Play("5H"))
    assert after.top == mm.Card.parse("5H") and after.hands[0] == cs("5S 9S KC")


def test_C_3_named_suit_replaces_the_top_suit_lite():
    # an Ace on top with the suit wish ♠: ♣ no longer matches
    s = mm.position(LITE, hands=["5C 5S 9H", "6D"], top="AC", wish="S", stock="2C 3C")
    legal = s.legal_moves()
    assert Play("5S") in legal
    assert Play("5C") not in legal and Play("9H") not in legal
    rejected(s, Play("5C"), "C-3")
    # ... until the next card is played
    after = s.apply(Play("5S"))
    assert after.wish is None and after.top == mm.Card.parse("5S")


def test_C_3_named_suit_replaces_the_top_suit_jack_variants():
    for name in ("mau_mau_runde", "makao"):
        s = mm.position(name, hands=["9C 9S 10H", "10D"], top="JC", wish="S", stock="7C 8C")
        legal = s.legal_moves()
        assert Play("9S") in legal, name
        assert Play("9C") not in legal and Play("10H") not in legal, name
        rejected(s, Play("9C"), "C-3")


# --- C-4 turn ---------------------------------------------------------------------------------

def test_C_4_turn_is_one_play_or_one_draw_even_when_a_play_is_possible():
    s = mm.position(LITE, hands=["5H 6C 7C", "7D 8D"], top="9H", stock="2C 3C 4C")
    assert Play("5H") in s.legal_moves() and Draw() in s.legal_moves()
    after = s.apply(Draw())
    assert after.hands[0] == cs("2C 5H 6C 7C")  # exactly one card drawn
    assert after.to_move == 1 and after.stock == mm.cards("3C 4C")
    rejected(s, Pass(), "C-4")


def test_C_4_play_after_drawing_turn_ends_at_once_if_nothing_playable():
    # mau_mau_runde: the drawn card may be played if legal (MR-4)
    s = mm.position("mau_mau_runde", hands=["9C 10C", "8D 9D"], top="QH", stock="8S KH")
    assert s.legal_moves() == [Draw()]
    after = s.apply(Draw())
    assert after.to_move == 1 and after.hands[0] == cs("9C 10C 8S")  # 8S does not fit QH
    s = mm.position("mau_mau_runde", hands=["9C 10C", "8D 9D"], top="QH", stock="KH 8S")
    after = s.apply(Draw())
    assert after.to_move == 0 and set(after.legal_moves()) == {Play("KH"), Pass()}
    # joker_mau_mau: any legal card may follow a draw (JM-3)
    s = mm.position("joker_mau_mau", hands=["9C 10C", "8D 9D"], top="QH", stock="8S KH")
    after = s.apply(Draw())
    assert after.to_move == 1 and after.hands[0] == cs("9C 10C 8S")


# --- C-5 responses ----------------------------------------------------------------------------

def test_C_5_only_the_target_acts_and_draw_takes_the_whole_total():
    s = mm.position(LITE, hands=["2H 5C 6C", "3H 9S 10S", "2S 9D"], top="9H",
                    stock="5D 6D 7D 8D 10D JD QD KD")
    s = s.apply(Play("2H"))
    assert s.to_move == 1 and s.pending_draw == 2
    assert set(s.legal_moves()) == {Play("3H"), Draw()}
    rejected(s, Play("9S"), "C-5")
    rejected(s, Pass(), "C-5")
    s = s.apply(Play("3H"))  # a response adds to the total; next(responder) is the target
    assert s.to_move == 2 and s.pending_draw == 5
    after = s.apply(Draw())
    assert Counter(after.hands[2]) == Counter(mm.cards("2S 9D 5D 6D 7D 8D 10D"))
    assert after.pending_draw == 0 and after.to_move == 0  # LM-6: accepting ends the turn
    assert after.stock == mm.cards("JD QD KD")


def test_C_5_pass_accepts_a_skip():
    s = mm.position(LITE, hands=["4H 5C", "9S 9C", "9D 10D"], top="9H", stock="2C")
    s = s.apply(Play("4H"))
    assert s.to_move == 1 and s.pending_skip == 1
    assert s.legal_moves() == [Pass()]
    rejected(s, Draw(), "C-5")
    after = s.apply(Pass())
    assert after.to_move == 2 and after.hands[1] == s.hands[1]


# --- C-6 reshuffle ----------------------------------------------------------------------------

def test_C_6_pile_minus_top_becomes_the_stock_wish_kept():
    s = mm.position(LITE, hands=["5D 6D", "7D 8D 9D"], top="AC", wish="S", stock="",
                    discard="2C 3C 4C")
    after = s.apply(Draw())
    assert after.discard == mm.cards("AC")  # the top stays
    drawn = Counter(after.hands[0]) - Counter(s.hands[0])
    assert sum(drawn.values()) == 1
    assert Counter(after.stock) + drawn == Counter(mm.cards("2C 3C 4C"))
    assert after.wish is mm.Suit.SPADES  # the wish stays
    assert after.to_move == 1
    assert deck_count(after) == deck_count(s)


def test_C_6_no_reshuffle_while_the_stock_has_cards():
    s = mm.position(LITE, hands=["5D 6D", "7D 8D 9D"], top="9C", stock="2S", discard="2C 3C 4C")
    after = s.apply(Draw())
    assert after.stock == () and after.discard == s.discard and mm.Card.parse("2S") in after.hands[0]
    # the next draw needs the reshuffle
    again = after.apply(Draw())
    assert again.discard == mm.cards("9C") and len(again.stock) == 2 and len(again.hands[1]) == 4


def test_C_6_penalty_is_drawn_in_full_across_a_reshuffle():
    s = mm.position(LITE, hands=["5S 6S", "7D 8D 9D"], top="KH", stock="2H 3H",
                    discard="2C 3C 4C 5C 6C 7C", pending_draw=5, to_move=1)
    after = s.apply(Draw())
    assert len(after.hands[1]) == 3 + 5
    assert {mm.Card.parse("2H"), mm.Card.parse("3H")} <= set(after.hands[1])  # the stock first
    assert after.discard == mm.cards("KH") and len(after.stock) == 6 - 3
    assert after.pending_draw == 0 and after.to_move == 0
    assert deck_count(after) == deck_count(s)


def test_C_6_pending_effect_stays_through_a_reshuffle():
    # X forgets Macau (LM-13) with K♥ on an empty stock: the penalty cards come from the
    # reshuffled pile, and next(X) still faces the K♥ penalty.
    s = mm.position(LITE, hands=["KH 6H", "7D 8D 9D"], top="9H", stock="",
                    discard="2C 3C 4C 5C 6C 7C 8C")
    after = s.apply(Play("KH"))
    assert len(after.hands[0]) == 1 + 5
    assert after.pending_draw == 5 and after.to_move == 1
    # the pile under K♥ was 2C…8C and 9H: 8 cards, 5 of them drawn
    assert after.discard == mm.cards("KH") and len(after.stock) == 8 - 5


# --- C-7 exhaustion ---------------------------------------------------------------------------

def test_C_7_penalty_takes_what_exists_and_the_rest_lapses():
    s = mm.position(LITE, hands=["5S 6S", "7D 8D 9D"], top="KH", stock="2H", discard="2C",
                    pending_draw=5, to_move=1)
    after = s.apply(Draw())
    assert Counter(after.hands[1]) == Counter(mm.cards("7D 8D 9D 2H 2C"))
    assert after.stock == () and after.discard == mm.cards("KH")
    assert after.pending_draw == 0 and after.pending is None
    assert after.to_move == 0 and not after.is_over


def test_C_7_one_card_draw_with_nothing_to_draw_acts_as_a_pass():
    s = mm.position(LITE, hands=["5S 6S", "7D 8D 9D", "10C JC"], top="KH", stock="")
    after = s.apply(Draw())
    assert after.hands == s.hands and after.stock == () and after.discard == s.discard
    assert after.to_move == 1 and not after.is_over
    assert_sentence(s.explain(Draw()))
    assert "C-7" in s.explain(Draw())


def test_C_7_blocked_when_every_player_in_a_row_ends_a_turn_without_playing():
    s = mm.position(LITE, hands=["5S 6S", "7D 8D 9D", "10C 10S"], top="KH", stock="")
    s1 = play_seq(s, Draw(), Draw())
    assert not s1.is_over and s1.to_move == 2
    end = s1.apply(Draw())
    assert end.is_over and end.blocked and end.winner is None
    assert end.legal_moves() == []
    assert end.hands == s.hands
    rejected(end, Draw(), "C-9")
    # scoring: a blocked hand is void
    assert mm.variant(LITE).rule("victory_points").hand_scores(end) == [0, 0, 0]


def test_C_7_a_play_breaks_the_row():
    s = mm.position(LITE, hands=["5S 6S", "7D 8D 9D", "10C 10S"], top="KH", stock="")
    s = play_seq(s, Draw(), Draw())  # seats 0 and 1 could not draw
    s = s.apply(Draw())  # seat 2 too: blocked (3 players)
    assert s.blocked
    s = mm.position(LITE, hands=["5S 6S", "7D 8D KD", "10C 10S"], top="KH", stock="")
    s = play_seq(s, Draw(), Play("KD"))  # seat 1 plays: the pile under the top can be drawn again
    assert not s.is_over and s.to_move == 2
    s = s.apply(Draw())
    assert mm.Card.parse("KH") in s.hands[2] and s.discard == mm.cards("KD")


def test_C_7_drawing_the_last_card_is_not_a_turn_while_nothing_can_be_drawn():
    # Seat 0 draws the last card (2H, which fits K♥).  Seat 1 cannot play or draw.  Seat 0's
    # turn was not one "while nothing can be drawn" (a card was drawn in it), so the row is
    # not complete and seat 0 gets to play 2H.
    s = mm.position(LITE, hands=["5S 6S", "7D 8D 9D"], top="KH", stock="2H")
    s = play_seq(s, Draw(), Draw())
    assert not s.is_over and not s.blocked and s.to_move == 0
    assert Play("2H") in s.legal_moves()
    # ... but if seat 0 now ends a turn without playing too, seats 1 and 0 did so in a row
    end = s.apply(Draw())
    assert end.is_over and end.blocked and end.winner is None
    assert mm.Card.parse("2H") in end.hands[0]


def test_C_7_drawing_the_last_card_then_passing_is_not_a_turn_while_nothing_can_be_drawn():
    # mau_mau_runde (MR-4): seat 0 draws the last card K♥ and passes instead of playing it;
    # seat 1 can neither play nor draw.  Seat 0 drew in its turn, so the hand goes on, and
    # seat 0 (who holds a legal card) must now play it.
    s = mm.position("mau_mau_runde", hands=["9C 10C", "8D 9D"], top="QH", stock="KH")
    s = play_seq(s, Draw(), Pass(), Draw())
    assert not s.is_over and s.to_move == 0
    assert [m for m in s.legal_moves() if isinstance(m, Play)] == [Play("KH")]
    assert Draw() not in s.legal_moves()  # MR-4 forced play


# --- C-8 announcement -------------------------------------------------------------------------

def test_C_8_a_move_leaving_one_card_must_announce():
    s = mm.position(LITE, hands=["5S 6S", "7D 8D 9D"], top="5C", stock="2H 3H 4H 5H 6H 7H")
    legal = s.legal_moves()
    assert Play("5S", mau=True) in legal and Play("5S") not in legal  # legal_moves announce
    said = s.apply(Play("5S", mau=True))
    assert said.hands[0] == cs("6S") and len(said.stock) == 6
    forgot = s.apply(Play("5S"))  # the move stands, the penalty is drawn at once (LM-13: 5)
    assert forgot.top == mm.Card.parse("5S")
    assert Counter(forgot.hands[0]) == Counter(mm.cards("6S 2H 3H 4H 5H 6H"))
    assert forgot.stock == mm.cards("7H") and forgot.to_move == 1
    # lite_macau's own call word: "without Macau", never "without Mau"
    assert "without Macau: 5 penalty cards" in s.explain(Play("5S"))


def test_C_8_going_out_needs_no_announcement():
    s = mm.position(LITE, hands=["5S", "7D 8D 9D"], top="5C", stock="2H 3H 4H 5H 6H 7H")
    assert Play("5S") in s.legal_moves()
    end = s.apply(Play("5S"))
    assert end.is_over and end.winner == 0 and end.hands[0] == ()
    assert end.stock == s.stock  # no penalty


def test_C_8_a_one_card_hand_in_a_constructed_position_counts_as_announced():
    s = mm.position(LITE, hands=["5S", "7D 8D 9D"], top="5C", stock="2H 3H 4H 5H 6H", to_move=1)
    assert s.hands[0] == cs("5S") and len(s.stock) == 5
    s = s.apply(Draw())
    assert s.hands[0] == cs("5S") and s.to_move == 0
    assert s.apply(Play("5S")).winner == 0
    # in joker_mau_mau an unannounced last card would be locked (JM-9); not here
    j = mm.position("joker_mau_mau", hands=["7H", "8D 9D"], top="8H", stock="7C 8C")
    assert j.locked == frozenset() and Play("7H") in j.legal_moves()


def test_C_8_computer_players_always_announce():
    # a computer player picks from legal_moves(), where every move leaving one card announces
    s = mm.deal(LITE, players=2, seed=5)
    player = mm.players.Random(seed=1)
    for _ in range(200):
        if s.is_over:
            break
        move = player.choose(s)
        if isinstance(move, Play) and len(s.hands[s.to_move]) - len(move.cards) == 1:
            assert move.mau
        s = s.apply(move)


# --- C-9 hand end -----------------------------------------------------------------------------

def test_C_9_hand_ends_when_a_hand_is_empty_and_pending_effects_lapse():
    for last in ("2C", "3C", "KH", "KS", "4C"):
        s = mm.position(LITE, hands=[last, "7D 8D 9D", "10D JD"], top="KC",
                        stock="2H 3H 4H 5H 6H 7H")
        end = s.apply(Play(last))
        assert end.is_over and end.winner == 0 and not end.blocked, last
        assert end.pending_draw == 0 and end.pending_skip == 0, last
        assert end.hands[1:] == s.hands[1:] and end.stock == s.stock, last
        assert end.legal_moves() == []
        rejected(end, Draw(), "C-9")
        rejected(end, Play("7D"), "C-9")


def test_C_9_illegal_moves_change_nothing():
    s = mm.position(LITE, hands=["5H 6C", "7D 8D"], top="9H", stock="2C 3C", wish=None)
    twin = mm.position(LITE, hands=["5H 6C", "7D 8D"], top="9H", stock="2C 3C", wish=None)
    for move in (Play("6C"), Play("7D"), Pass(), Play("5H 6C"), Play("AS", wish="H")):
        with pytest.raises(mm.IllegalMove):
            s.apply(move)
        assert s == twin and snapshot(s) == snapshot(twin)
        assert isinstance(s.explain(move), str)
    assert "not in your hand" in s.explain(Play("7D"))


def test_explain_legal_moves_are_sentences():
    s = mm.position(LITE, hands=["5H 6C", "7D 8D"], top="9H", stock="2C 3C")
    for move in s.legal_moves():
        assert_sentence(s.explain(move))
    assert "1" in s.explain(Play("5H"))  # who moves next
