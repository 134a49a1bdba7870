"""Scenario tests for `makao` (RULES.md §3, MK-1 … MK-14, and §6 decisions 18–20, 25).

Every expected value below is reasoned out from RULES.md, not copied from a run.
Hands are kept sorted by the engine, so hands are compared as sorted card lists.
"""

from collections import Counter

import pytest
from conftest import assert_illegal, assert_sentence, cs, hand, play_seq

import maumau as mm
from maumau.core.cards import Rank, Suit

V = "makao"
ACTION_RANKS = {Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.ACE}


# --- MK-1 deck, players, hand size ---------------------------------------------------------------

def test_MK_1_deck_is_two_52_card_decks_without_jokers():
    v = mm.variant(V)
    assert len(v.deck) == 104
    counts = Counter(v.deck)
    assert len(counts) == 52
    assert set(counts.values()) == {2}
    assert mm.JOKER not in counts
    assert {c.rank for c in counts} == set(Rank)
    assert v.players == (2, 5)
    assert v.hand_size == 7


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_MK_1_deal_gives_seven_cards_each_and_conserves_cards(players):
    s = mm.deal(V, players=players, seed=3)
    assert [len(h) for h in s.hands] == [7] * players
    everything = Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(s.discard)
    assert everything == Counter(mm.variant(V).deck)
    # C-2: the last seat deals, next(dealer) = seat 0 starts.
    assert s.dealer == players - 1
    assert s.to_move == 0


def test_MK_1_player_count_and_card_copies_are_checked():
    with pytest.raises(mm.VariantError):
        mm.deal(V, players=6, seed=0)
    with pytest.raises(mm.VariantError):
        mm.deal(V, players=1, seed=0)
    # Two copies of each card exist, a third one does not.
    mm.position(V, hands=["7H 7H", "5C"], top="9C", stock="")
    with pytest.raises(mm.CardError):
        mm.position(V, hands=["7H 7H", "7H"], top="9C", stock="")
    with pytest.raises(mm.CardError):
        mm.position(V, hands=["JOKER", "5C"], top="9C", stock="")


# --- MK-2 covering the up-card (decision 20: covering repeats) ------------------------------------

def test_MK_2_action_upcard_is_covered_without_effect():
    v = mm.variant(V)
    raw_v = v.without("upcard_covered")
    seen_ranks = set()
    max_covered = 0
    for seed in range(400):
        raw = mm.deal(raw_v, players=3, seed=seed)   # the same shuffle, nothing covered
        dealt = mm.deal(V, players=3, seed=seed)
        seq = (raw.top,) + raw.stock
        k = next(i for i, c in enumerate(seq) if c.rank not in ACTION_RANKS)
        # The covered cards stay in the pile under the first non-action card.
        assert dealt.discard == seq[:k + 1]
        assert dealt.top.rank not in ACTION_RANKS
        assert dealt.stock == raw.stock[k:]
        assert dealt.hands == raw.hands
        # Covered cards have no effect: no penalty, no reverse, no wish, seat 0 starts.
        assert dealt.pending is None and dealt.pending_draw == 0
        assert dealt.direction == 1
        assert dealt.wish is None
        assert dealt.phase == "turn"
        assert dealt.to_move == 0
        if k:
            seen_ranks.add(raw.top.rank)
        max_covered = max(max_covered, k)
    # The search really met every action rank and a repeated cover.
    assert seen_ranks == ACTION_RANKS
    assert max_covered >= 2


# --- MK-3 drawing ends the turn -------------------------------------------------------------------

def test_MK_3_drawing_ends_the_turn_even_if_the_card_fits():
    s = mm.position(V, hands=["KC QC", "2S 3S"], top="5H", stock="5S 2D 3D")
    after = s.apply(mm.Draw())
    assert hand(after, 0) == cs("KC QC 5S")  # 5S fits on 5H, but is not played
    assert after.to_move == 1
    assert after.phase == "turn"
    assert after.stock == tuple(mm.cards("2D 3D"))
    assert after.top == mm.Card.parse("5H")
    assert_sentence(s, mm.Draw())


def test_MK_3_drawing_is_allowed_while_a_play_is_possible():
    s = mm.position(V, hands=["5C KC 9S", "2S 3S"], top="5H", stock="2D 3D")
    moves = s.legal_moves()
    assert mm.Play("5C") in moves
    assert mm.Draw() in moves
    after = s.apply(mm.Draw())
    assert hand(after, 0) == cs("5C KC 9S 2D")
    assert after.to_move == 1


# --- MK-4 the 7 chain -----------------------------------------------------------------------------

def test_MK_4_seven_chain_and_accepting_ends_the_turn():
    s = mm.position(V, hands=["7H 3C 5D", "7S 4D 6C", "5C 6H 8D"], top="9H",
                    stock="2C 3D 4H 5S 6S 2D")
    s1 = s.apply(mm.Play("7H"))
    assert s1.pending_draw == 2
    assert s1.to_move == 1
    # Only a 7 answers; 4D and 6C are not legal, Pass is not an answer to a draw penalty.
    assert set(s1.legal_moves()) == {mm.Play("7S"), mm.Draw()}
    assert_illegal(s1, mm.Play("4D"), "C-5")
    assert_illegal(s1, mm.Pass(), "C-5")
    s2 = s1.apply(mm.Play("7S"))
    assert s2.pending_draw == 4
    assert s2.to_move == 2
    assert s2.legal_moves() == [mm.Draw()]
    assert_sentence(s2, mm.Draw())
    s3 = s2.apply(mm.Draw())
    # Seat 2 takes the whole total from the top of the stock, and the turn passes on.
    assert hand(s3, 2) == cs("5C 6H 8D 2C 3D 4H 5S")
    assert s3.stock == tuple(mm.cards("6S 2D"))
    assert s3.pending_draw == 0
    assert s3.to_move == 0
    assert s3.top == mm.Card.parse("7S")


def test_MK_4_accepting_ends_the_turn_with_two_players():
    s = mm.position(V, hands=["7H 3C 5D", "4D 6H"], top="9H", stock="2C 3D 4H")
    s1 = s.apply(mm.Play("7H"))
    assert s1.to_move == 1 and s1.pending_draw == 2
    s2 = s1.apply(mm.Draw())
    assert hand(s2, 1) == cs("4D 6H 2C 3D")
    # 6H would fit on 7H, but accepting ended seat 1's turn: seat 0 moves.
    assert s2.to_move == 0
    assert s2.pending_draw == 0


# --- MK-5 the 8 skips -------------------------------------------------------------------------------

def test_MK_5_eight_with_two_players_x_moves_again():
    s = mm.position(V, hands=["8H KC 5D", "5C 6C"], top="5H", stock="2C 3D")
    after = s.apply(mm.Play("8H"))
    assert after.to_move == 0
    assert after.pending_skip == 0 and after.pending is None
    assert hand(after, 1) == cs("5C 6C")
    assert after.stock == s.stock
    assert_sentence(s, mm.Play("8H"))


def test_MK_5_eight_with_three_players_skips_next_without_answer():
    s = mm.position(V, hands=["8H KC 5D", "8S 8C 6C", "2H 3C"], top="5H", stock="2C 3D")
    after = s.apply(mm.Play("8H"))
    # Seat 1 is skipped at once: it never gets to answer, although it holds 8s (no chaining).
    assert after.to_move == 2
    assert after.pending is None
    assert hand(after, 1) == cs("8S 8C 6C")
    # Seat 2 plays an ordinary card, then seat 0 (not the skipped seat 1's turn retaken).
    after2 = after.apply(mm.Play("2H"))
    assert after2.to_move == 0


def test_MK_5_eight_skips_against_the_direction_after_a_reverse():
    s = mm.position(V, hands=["8H KC 5D", "6C 4C", "2H 3C"], top="5H", stock="2C 3D",
                    direction=-1)
    after = s.apply(mm.Play("8H"))
    # next(0) with direction -1 is 2, which is skipped: seat 1 moves.
    assert after.to_move == 1


# --- MK-6 the 9 reverses ------------------------------------------------------------------------------

def test_MK_6_nine_reverses_with_three_players():
    s = mm.position(V, hands=["9H KC 5D", "6C 4C", "2H 3C 4H"], top="5H", stock="2C 3D")
    s1 = s.apply(mm.Play("9H"))
    assert s1.direction == -1
    assert s1.to_move == 2
    s2 = s1.apply(mm.Play("4H"))  # 4H shares the suit with 9H
    assert s2.to_move == 1
    assert s2.direction == -1
    # Another 9 flips back.
    s3 = mm.position(V, hands=["9H KC 5D", "6C 4C", "9S 3C"], top="5H", stock="2C 3D",
                     direction=-1)
    s4 = s3.apply(mm.Play("9H"))
    assert s4.direction == 1 and s4.to_move == 1


def test_MK_6_nine_with_two_players_opponent_still_moves():
    s = mm.position(V, hands=["9H KC 5D", "6H 4C"], top="5H", stock="2C 3D")
    s1 = s.apply(mm.Play("9H"))
    assert s1.direction == -1  # decision 20: the direction flips
    assert s1.to_move == 1     # but the opponent still moves next
    s2 = s1.apply(mm.Play("6H"))
    assert s2.to_move == 0


# --- MK-7 the Jack --------------------------------------------------------------------------------------

def test_MK_7_jack_names_any_suit_and_is_legal_on_anything():
    s = mm.position(V, hands=["JC 4D 5D", "5S 6H 9D"], top="10H", stock="2C 3D")
    moves = s.legal_moves()
    for suit in "CDHS":
        assert mm.Play("JC", wish=suit) in moves
    assert_illegal(s, mm.Play("JC"))  # a Jack must name a suit
    after = s.apply(mm.Play("JC", wish="S"))
    assert after.wish is Suit.SPADES
    assert after.to_move == 1
    # The named suit replaces the top card's suit: only 5S (spade) fits, 6H and 9D do not.
    legal_cards = {m.card for m in after.legal_moves() if isinstance(m, mm.Play)}
    assert legal_cards == {mm.Card.parse("5S")}
    assert_illegal(after, mm.Play("6H"), "C-3")
    s2 = after.apply(mm.Play("5S"))
    assert s2.wish is None


def test_MK_7_jack_is_legal_on_a_named_suit_too():
    s = mm.position(V, hands=["JD 4C", "5S"], top="JC", stock="2C 3D", wish="S")
    assert mm.Play("JD", wish="H", mau=True) in s.legal_moves()


def test_MK_7_jack_may_not_answer_a_pending_seven():
    # Decision 20: "darf keine ablegen" - a Jack does not answer a 7.
    s = mm.position(V, hands=["JH 7C 4D", "5C"], top="7H", stock="2C 3D 4H", pending_draw=2)
    assert set(s.legal_moves()) == {mm.Play("7C"), mm.Draw()}
    for suit in "CDHS":
        assert_illegal(s, mm.Play("JH", wish=suit), "C-5")


# --- MK-8 the Ace ---------------------------------------------------------------------------------------

def test_MK_8_ace_gives_an_extra_play():
    s = mm.position(V, hands=["AH AS 5H KC", "2C 3C", "4C 6C"], top="9H", stock="2D 3D 4D")
    s1 = s.apply(mm.Play("AH"))
    assert s1.to_move == 0
    assert s1.phase == "extra"
    # One more legal card on the Ace (AS by rank, 5H by suit), or draw; KC does not fit.
    assert set(s1.legal_moves()) == {mm.Play("AS"), mm.Play("5H"), mm.Draw()}
    assert_illegal(s1, mm.Play("KC"), "C-3")
    assert_illegal(s1, mm.Pass(), "MK-8")
    s2 = s1.apply(mm.Play("5H"))
    assert s2.to_move == 1
    assert s2.phase == "turn"
    assert hand(s2, 0) == cs("AS KC")


def test_MK_8_another_ace_repeats_the_extra_play():
    s = mm.position(V, hands=["AH AS KS KC", "2C 3C", "4C 6C"], top="9H", stock="2D 3D 4D")
    s1 = play_seq(s, mm.Play("AH"), mm.Play("AS"))
    assert s1.to_move == 0
    assert s1.phase == "extra"
    assert set(s1.legal_moves()) == {mm.Play("KS", mau=True), mm.Draw()}
    s2 = s1.apply(mm.Play("KS", mau=True))
    assert s2.to_move == 1 and s2.phase == "turn"
    assert hand(s2, 0) == cs("KC")


def test_MK_8_drawing_after_the_ace_ends_the_turn():
    s = mm.position(V, hands=["AH 5H KC", "2C 3C", "4C 6C"], top="9H", stock="5S 3D 4D")
    s1 = s.apply(mm.Play("AH"))
    assert_sentence(s1, mm.Draw())
    s2 = s1.apply(mm.Draw())
    assert hand(s2, 0) == cs("5H KC 5S")
    assert s2.to_move == 1
    assert s2.phase == "turn"
    assert s2.top == mm.Card.parse("AH")


@pytest.mark.parametrize("extra, expect", [
    ("7H", {"to_move": 1, "pending_draw": 2, "direction": 1}),
    ("8H", {"to_move": 2, "pending_draw": 0, "direction": 1}),
    ("9H", {"to_move": 2, "pending_draw": 0, "direction": -1}),
])
def test_MK_8_the_extra_card_has_its_effect(extra, expect):
    s = mm.position(V, hands=[f"AH {extra} KC", "2C 3C", "4C 6C"], top="9H", stock="2D 3D 4D")
    s1 = play_seq(s, mm.Play("AH"), mm.Play(extra, mau=True))
    assert s1.phase == "turn"
    assert s1.to_move == expect["to_move"]
    assert s1.pending_draw == expect["pending_draw"]
    assert s1.direction == expect["direction"]


def test_MK_8_extra_jack_names_a_suit():
    s = mm.position(V, hands=["AH JC KC", "2C 3C", "4C 6C"], top="9H", stock="2D 3D 4D")
    s1 = play_seq(s, mm.Play("AH"), mm.Play("JC", wish="D", mau=True))
    assert s1.wish is Suit.DIAMONDS
    assert s1.to_move == 1


# --- MK-9 forgotten Makaó ---------------------------------------------------------------------------------

def test_MK_9_forgotten_makao_costs_two_cards_at_once():
    s = mm.position(V, hands=["5H 6C", "7S 4D"], top="5D", stock="2C 3D 4H")
    moves = s.legal_moves()
    assert mm.Play("5H", mau=True) in moves
    assert mm.Play("5H") not in moves  # listed with the announcement (C-8)
    forgot = s.apply(mm.Play("5H"))
    assert hand(forgot, 0) == cs("6C 2C 3D")
    assert forgot.stock == tuple(mm.cards("4H"))
    assert forgot.to_move == 1
    assert forgot.top == mm.Card.parse("5H")
    said = s.apply(mm.Play("5H", mau=True))
    assert hand(said, 0) == cs("6C")
    assert said.stock == s.stock
    assert "2" in assert_sentence(s, mm.Play("5H"))


def test_MK_9_going_out_needs_no_announcement():
    s = mm.position(V, hands=["5H", "7S 4D"], top="5D", stock="2C 3D 4H")
    after = s.apply(mm.Play("5H"))
    assert after.is_over and after.winner == 0
    assert after.hands[0] == ()
    assert after.stock == s.stock


# --- MK-10 a final 7 still hits (decision 19) ----------------------------------------------------------

def test_MK_10_going_out_on_a_seven_makes_next_draw_two():
    s = mm.position(V, hands=["7H", "KD QS"], top="5H", stock="2C 3D 4H 5S")
    after = s.apply(mm.Play("7H"))
    assert after.is_over and after.winner == 0
    assert hand(after, 1) == cs("KD QS 2C 3D")
    assert after.stock == tuple(mm.cards("4H 5S"))
    assert after.pending_draw == 0
    assert_sentence(s, mm.Play("7H"))
    # MK-11 then scores the drawn cards too: K 10 + Q 10 + 2 + 3.
    assert mm.variant(V).scoring.hand_scores(after) == [0, 25]


def test_MK_10_last_seven_of_a_chain_makes_next_draw_the_whole_total():
    s = mm.position(V, hands=["KS", "7H", "KD"], top="7S", stock="2C 3D 4H 5S 6S",
                    to_move=1, pending_draw=2)
    after = s.apply(mm.Play("7H"))
    assert after.is_over and after.winner == 1
    # next(1) = 2 draws 2 + 2 = 4; seat 0 (who started the chain) draws nothing.
    assert hand(after, 2) == cs("KD 2C 3D 4H 5S")
    assert hand(after, 0) == cs("KS")
    assert after.stock == tuple(mm.cards("6S"))
    assert mm.variant(V).scoring.hand_scores(after) == [10, 0, 10 + 2 + 3 + 4 + 5]


def test_MK_10_last_seven_follows_the_direction():
    s = mm.position(V, hands=["7H", "KD", "QS"], top="5H", stock="2C 3D 4H", direction=-1)
    after = s.apply(mm.Play("7H"))
    assert hand(after, 2) == cs("QS 2C 3D")  # next(0) against the clock is 2
    assert hand(after, 1) == cs("KD")


@pytest.mark.parametrize("last, kw", [("8H", {}), ("9H", {}), ("AH", {}), ("JH", {"wish": "S"})])
def test_MK_10_no_other_last_card_effect(last, kw):
    s = mm.position(V, hands=[last, "KD", "QS"], top="5H", stock="2C 3D 4H")
    after = s.apply(mm.Play(last, **kw))
    assert after.is_over and after.winner == 0
    assert hand(after, 1) == cs("KD") and hand(after, 2) == cs("QS")
    assert after.stock == s.stock
    assert after.direction == 1            # a final 9 does not reverse
    assert after.phase == "turn"           # a final Ace gives no extra play
    assert after.legal_moves() == []
    assert_illegal(after, mm.Draw(), "C-9")


# --- MK-11 scoring ---------------------------------------------------------------------------------------------

def test_MK_11_card_values():
    s = mm.position(V, hands=["5H", "2C 10D JS QH KC AD", "9S 9S 3H", "4C 5C 6C 7C 8C"],
                    top="5D", stock="2D 3D")
    after = s.apply(mm.Play("5H"))
    scoring = mm.variant(V).scoring
    # 2 + 10 + 20 + 10 + 10 + 11 = 63;  9 + 9 + 3 = 21;  4+5+6+7+8 = 30; the winner adds 0.
    assert scoring.hand_scores(after) == [0, 63, 21, 30]
    values = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
              "J": 20, "Q": 10, "K": 10, "A": 11}
    for rank, points in values.items():
        assert scoring.card_points(mm.Card.parse(rank + "H")) == points


def test_MK_11_unfinished_hand_scores_nothing():
    s = mm.position(V, hands=["5H 6H", "2C 10D"], top="5D", stock="2D 3D")
    assert mm.variant(V).scoring.hand_scores(s) == [0, 0]


# --- MK-12 elimination (decision 18) ------------------------------------------------------------------------

def test_MK_12_elimination_at_limit_or_more():
    scoring = mm.variant(V).scoring
    assert scoring.eliminated([99, 100, 101, 0]) == [False, True, True, False]


def test_MK_12_strict_option_and_configurable_limit():
    strict = mm.variant(V, strict=True).scoring
    assert strict.eliminated([99, 100, 101]) == [False, False, True]
    low = mm.variant(V, limit=50).scoring
    assert low.eliminated([49, 50, 51]) == [False, True, True]
    both = mm.variant(V, limit=50, strict=True).scoring
    assert both.eliminated([49, 50, 51]) == [False, False, True]


def test_MK_12_last_player_left_wins():
    scoring = mm.variant(V).scoring
    assert not scoring.match_over([40, 120, 90], [True, False, True])
    assert scoring.match_over([40, 120, 130], [True, False, False])
    assert scoring.winners([40, 120, 130], [True, False, False]) == (0,)


# --- MK-13 joining (what the variant object says; the Match is tested elsewhere) ----------------------------

def test_MK_13_at_most_five_active_players():
    v = mm.variant(V)
    assert "join_and_leave" in v
    assert v.rule("join_and_leave").max_players == 5
    assert v.players[1] == 5
    mm.position(V, hands=["5H", "5C", "5D", "5S", "6H"], top="6D", stock="")
    with pytest.raises(mm.VariantError):
        mm.position(V, hands=["5H", "5C", "5D", "5S", "6H", "6C"], top="6D", stock="")
    assert "join_and_leave" not in mm.variant("mau_mau_runde")
    assert "join_and_leave" not in mm.variant("joker_mau_mau")


# --- MK-14 leaving mid-hand -----------------------------------------------------------------------------------

def test_MK_14_leaver_cards_go_under_the_stock_and_are_skipped():
    s = mm.position(V, hands=["5H 6C", "KD QS 2H", "6H 4C"], top="5D", stock="2C 3D")
    after = s.leave(1)
    assert after.active == (True, False, True)
    assert after.hands[1] == ()
    # Under the stock: the old stock is still drawn first, the leaver's cards come last.
    assert after.stock[:2] == tuple(mm.cards("2C 3D"))
    assert sorted(after.stock[2:]) == cs("KD QS 2H")
    assert after.to_move == 0
    assert not after.is_over
    # Card conservation.
    assert (Counter(c for h in after.hands for c in h) + Counter(after.stock) + Counter(after.discard)
            == Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(s.discard))
    # The turn now skips the empty seat: 0 -> 2 -> 0.
    s2 = after.apply(mm.Play("5H", mau=True))
    assert s2.to_move == 2
    s3 = s2.apply(mm.Play("6H", mau=True))
    assert s3.to_move == 0


def test_MK_14_leaver_to_move_passes_the_turn_on():
    s = mm.position(V, hands=["5H 6C", "KD QS 2H", "6H 4C"], top="5D", stock="2C 3D", to_move=1)
    assert s.leave(1).to_move == 2
    back = mm.position(V, hands=["5H 6C", "KD QS 2H", "6H 4C"], top="5D", stock="2C 3D",
                       to_move=1, direction=-1)
    assert back.leave(1).to_move == 0


def test_MK_14_effects_aimed_at_the_leaver_lapse():
    s = mm.position(V, hands=["5H 6C", "KD QS 2H", "6H 4C"], top="7S", stock="2C 3D 4H 5S 6S",
                    to_move=1, pending_draw=4)
    after = s.leave(1)
    assert after.pending is None and after.pending_draw == 0
    assert after.to_move == 2
    # Seat 2 takes a normal turn: a Draw is one card, not the lapsed 4.
    s2 = after.apply(mm.Draw())
    assert hand(s2, 2) == cs("6H 4C 2C")
    assert s2.to_move == 0


def test_MK_14_penalty_aimed_at_someone_else_stays():
    s = mm.position(V, hands=["5H 6C", "KD QS 2H", "6H 4C"], top="7S", stock="2C 3D 4H 5S 6S",
                    to_move=1, pending_draw=4)
    after = s.leave(0)
    assert after.pending_draw == 4 and after.to_move == 1


def test_MK_14_leaving_during_the_ace_extra_play():
    s = mm.position(V, hands=["AH 5H KC", "2C 3C", "4C 6C"], top="9H", stock="2D 3D 4D")
    s1 = s.apply(mm.Play("AH"))
    after = s1.leave(0)
    assert after.phase == "turn"
    assert after.to_move == 1


def test_MK_14_last_player_left_wins_and_leavers_are_unscored():
    s = mm.position(V, hands=["5H 6C", "KD QS 2H"], top="5D", stock="2C 3D")
    after = s.leave(0)
    assert after.is_over
    assert after.winner == 1
    assert after.legal_moves() == []
    assert mm.variant(V).scoring.hand_scores(after) == [0, 0]
    three = mm.position(V, hands=["5H 6C", "KD QS 2H", "6H 4C"], top="5D", stock="2C 3D")
    one_left = three.leave(1).leave(0)
    assert one_left.is_over and one_left.winner == 2


def test_MK_14_leaver_is_not_scored_when_another_goes_out():
    s = mm.position(V, hands=["5H", "KD QS 2H", "6H 4C"], top="5D", stock="2C 3D")
    after = s.leave(1).apply(mm.Play("5H"))
    assert after.is_over and after.winner == 0
    assert mm.variant(V).scoring.hand_scores(after) == [0, 0, 6 + 4]


def test_MK_14_bad_leaves_are_rejected():
    s = mm.position(V, hands=["5H 6C", "KD QS 2H", "6H 4C"], top="5D", stock="2C 3D")
    gone = s.leave(1)
    with pytest.raises(mm.IllegalMove):
        gone.leave(1)
    with pytest.raises(mm.IllegalMove):
        s.leave(7)
    runde = mm.position("mau_mau_runde", hands=["9H 10C", "KD QS"], top="9D", stock="7C 8C")
    with pytest.raises(mm.IllegalMove, match="MK-14"):
        runde.leave(0)


# --- decision 25 / C-7: exhausted stock -----------------------------------------------------------------------

def test_decision_25_seven_penalty_from_a_short_stock_takes_what_exists():
    s = mm.position(V, hands=["KC 5D", "4D 6S"], top="7H", stock="2C", pending_draw=4, to_move=1)
    after = s.apply(mm.Draw())
    assert hand(after, 1) == cs("4D 6S 2C")
    assert after.stock == ()
    assert after.pending_draw == 0
    assert after.to_move == 0


def test_decision_25_blocked_hand_is_void():
    s = mm.position(V, hands=["KC 5D", "4D 6S"], top="7H", stock="")
    s1 = s.apply(mm.Draw())
    assert not s1.is_over and s1.to_move == 1
    s2 = s1.apply(mm.Draw())
    assert s2.is_over and s2.blocked and s2.winner is None
    assert mm.variant(V).scoring.hand_scores(s2) == [0, 0]


def test_decision_20_reshuffle_keeps_the_pending_penalty():
    # C-6 is not in the seeds but applies: the pile under the top becomes the stock.
    s = mm.position(V, hands=["KC 5D", "4D 6S"], top="7H", stock="", discard="2C 3D 4H",
                    pending_draw=2, to_move=1)
    after = s.apply(mm.Draw())
    drawn = Counter(after.hands[1]) - Counter(mm.cards("4D 6S"))
    assert sum(drawn.values()) == 2
    assert set(drawn) <= set(mm.cards("2C 3D 4H"))
    assert after.discard == tuple(mm.cards("7H"))
    assert len(after.stock) == 1 and after.stock[0] in mm.cards("2C 3D 4H")
    assert after.to_move == 0 and after.pending is None


def test_decision_20_reshuffle_keeps_the_wish():
    s = mm.position(V, hands=["KC 5D", "4D 6S"], top="JC", wish="D", stock="", discard="2C 3D")
    after = s.apply(mm.Draw())
    assert after.wish is Suit.DIAMONDS
    assert after.top == mm.Card.parse("JC")
    assert len(after.hands[0]) == 3 and len(after.stock) == 1
