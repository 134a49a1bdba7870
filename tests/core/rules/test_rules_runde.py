"""Scenario tests for `mau_mau_runde` (RULES.md §2, MR-1 … MR-14, and §6 decisions 11–17, 25).

Every expected value below is reasoned out from RULES.md, not copied from a run.
Hands are kept sorted by the engine, so hands are compared as sorted card lists.
"""

from collections import Counter

import pytest
from conftest import assert_illegal, assert_sentence, cs, hand, play_seq, plays

import maumau as mm
from maumau.core.cards import RANKS_32, Rank, Suit

V = "mau_mau_runde"
EXCLUDED = {Rank.SEVEN, Rank.EIGHT, Rank.JACK}


# --- MR-1 deck, players, hand size (decision 11) -------------------------------------------------

def test_MR_1_deck_is_32_cards_seven_to_ace():
    v = mm.variant(V)
    assert len(v.deck) == 32
    counts = Counter(v.deck)
    assert set(counts.values()) == {1}
    assert {c.rank for c in counts} == set(RANKS_32)
    assert {c.rank for c in counts} == {Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK,
                                        Rank.QUEEN, Rank.KING, Rank.ACE}
    assert mm.JOKER not in counts
    assert v.players == (2, 4)
    assert v.hand_size == 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_MR_1_deal_five_each(players):
    s = mm.deal(V, players=players, seed=11)
    assert [len(h) for h in s.hands] == [5] * players
    everything = Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(s.discard)
    assert everything == Counter(mm.variant(V).deck)
    assert s.to_move == 0  # next(dealer), the dealer being the last seat


def test_MR_1_player_count_and_cards_checked():
    with pytest.raises(mm.VariantError):
        mm.deal(V, players=5, seed=0)
    with pytest.raises(mm.CardError):
        mm.position(V, hands=["6H 9C", "KD"], top="9D", stock="")
    with pytest.raises(mm.CardError):
        mm.position(V, hands=["9C 9C", "KD"], top="9D", stock="")


# --- MR-2 the up-card (decision 16) ----------------------------------------------------------------

def test_MR_2_seven_eight_jack_upcard_goes_to_the_bottom():
    v = mm.variant(V)
    raw_v = v.without("upcard_to_bottom")
    moved_ranks = set()
    most = 0
    for seed in range(300):
        raw = mm.deal(raw_v, players=2, seed=seed)  # the same shuffle, nothing moved
        dealt = mm.deal(V, players=2, seed=seed)
        seq = (raw.top,) + raw.stock
        k = next(i for i, c in enumerate(seq) if c.rank not in EXCLUDED)
        # Each excluded up-card goes under the stock, in turn; the next card is turned up.
        assert dealt.top == seq[k]
        assert dealt.discard == (seq[k],)
        assert dealt.stock == seq[k + 1:] + seq[:k]
        assert dealt.hands == raw.hands
        # The up-card has no effect.
        assert dealt.top.rank not in EXCLUDED
        assert dealt.pending is None and dealt.wish is None
        assert dealt.to_move == 0 and dealt.phase == "turn" and dealt.runde is None
        if k:
            moved_ranks.add(raw.top.rank)
        most = max(most, k)
    assert moved_ranks == EXCLUDED
    assert most >= 2


# --- MR-3 the Jack (decision 14) ------------------------------------------------------------------

def test_MR_3_jack_names_a_suit_on_any_card():
    s = mm.position(V, hands=["JC 10S KD", "KS 9D QD"], top="9H", stock="7C 8C")
    for suit in "CDHS":
        assert mm.Play("JC", wish=suit) in s.legal_moves()
    after = s.apply(mm.Play("JC", wish="S"))
    assert after.wish is Suit.SPADES
    assert after.to_move == 1
    # Seat 1 must follow spades: KS only (9D and QD match neither the wish nor the rank J).
    assert after.legal_moves() == [mm.Play("KS")]
    assert_illegal(after, mm.Play("9D"), "C-3")


def test_MR_3_jack_not_against_a_pending_seven():
    s = mm.position(V, hands=["JH 7C KD", "9C"], top="7H", stock="8C 9D 10D", pending_draw=2)
    assert set(s.legal_moves()) == {mm.Play("7C"), mm.Draw()}
    for suit in "CDHS":
        assert_illegal(s, mm.Play("JH", wish=suit), "C-5")


def test_MR_3_jack_not_during_a_runde():
    s = mm.position(V, hands=["KC 9C", "JH KS 8D"], top="KH", stock="7C 8C", to_move=1,
                    runde=("K", 0))
    assert s.legal_moves() == [mm.Play("KS")]
    assert_illegal(s, mm.Play("JH", wish="H"), "MR-9")
    s = mm.position(V, hands=["JH 9C 10C", "KS 8D"], top="KH", stock="7C 8C", to_move=0,
                    runde=("K", 1))
    # Seat 0 holds no K: the Jack is illegal too, so the only move is to draw.
    assert s.legal_moves() == [mm.Draw()]
    assert_illegal(s, mm.Play("JH", wish="C"), "MR-9")


# --- MR-4 forced play, and playing the drawn card (decision 13) --------------------------------

def test_MR_4_a_player_who_can_play_must_play():
    s = mm.position(V, hands=["9H KC 10D", "7S 8S"], top="9S", stock="7C 8C")
    assert s.legal_moves() == [mm.Play("9H")]  # one 9 only: no Runde to open
    assert_illegal(s, mm.Draw(), "MR-4")
    assert_illegal(s, mm.Pass(), "C-4")


def test_MR_4_without_a_play_draw_one_then_play_it_or_pass():
    s = mm.position(V, hands=["KC 10D 7H", "7S 8S"], top="9S", stock="9D KH")
    assert s.legal_moves() == [mm.Draw()]
    drew = s.apply(mm.Draw())
    assert hand(drew, 0) == cs("KC 10D 7H 9D")
    assert drew.to_move == 0
    assert drew.phase == "drawn"
    assert set(drew.legal_moves()) == {mm.Play("9D"), mm.Pass()}
    assert_illegal(drew, mm.Draw())
    assert_illegal(drew, mm.Play("KC"))
    assert_sentence(drew, mm.Pass())
    played = drew.apply(mm.Play("9D"))
    assert played.top == mm.Card.parse("9D")
    assert played.to_move == 1 and played.phase == "turn"
    passed = drew.apply(mm.Pass())
    assert passed.to_move == 1 and passed.phase == "turn"
    assert hand(passed, 0) == cs("KC 10D 7H 9D")
    assert passed.stock == tuple(mm.cards("KH"))


def test_MR_4_drawn_card_that_does_not_fit_ends_the_turn():
    s = mm.position(V, hands=["KC 10D 7H", "7S 8S"], top="9S", stock="KH 9D")
    after = s.apply(mm.Draw())
    assert hand(after, 0) == cs("KC 10D 7H KH")
    assert after.to_move == 1
    assert after.phase == "turn"


def test_MR_4_drawn_jack_may_be_played_and_mau_is_due():
    s = mm.position(V, hands=["KC", "7S 8S"], top="9S", stock="JD 9D")
    drew = s.apply(mm.Draw())
    assert set(drew.legal_moves()) == {mm.Play("JD", wish=w, mau=True) for w in "CDHS"} | {mm.Pass()}
    after = drew.apply(mm.Play("JD", wish="C", mau=True))
    assert hand(after, 0) == cs("KC")
    assert after.wish is Suit.CLUBS and after.to_move == 1


# --- MR-5 the 7 (decision 15) ----------------------------------------------------------------------

def test_MR_5_seven_chain_then_the_acceptor_takes_a_normal_turn():
    s = mm.position(V, hands=["7H 9C KD", "7S 10S JD", "8D QD AC"], top="9H",
                    stock="7C 10C QC KC AD")
    s1 = s.apply(mm.Play("7H"))
    assert s1.pending_draw == 2 and s1.to_move == 1
    # Only a 7 answers: not 10S (which matches nothing anyway), not the Jack.
    assert set(s1.legal_moves()) == {mm.Play("7S"), mm.Draw()}
    assert_illegal(s1, mm.Play("JD", wish="S"), "C-5")
    s2 = s1.apply(mm.Play("7S"))
    assert s2.pending_draw == 4 and s2.to_move == 2
    assert s2.legal_moves() == [mm.Draw()]
    s3 = s2.apply(mm.Draw())
    assert hand(s3, 2) == cs("8D QD AC 7C 10C QC KC")
    assert s3.stock == tuple(mm.cards("AD"))
    # The acceptor stays on turn, on the 7S: a normal turn with forced play (MR-4).
    assert s3.to_move == 2
    assert s3.pending is None and s3.phase == "turn"
    assert s3.top == mm.Card.parse("7S")
    assert s3.legal_moves() == [mm.Play("7C")]
    # Playing that 7 starts a fresh +2 for next(2) = 0.
    s4 = s3.apply(mm.Play("7C"))
    assert s4.pending_draw == 2 and s4.to_move == 0


def test_MR_5_acceptor_without_a_play_then_draws_one():
    s = mm.position(V, hands=["7H 9C KD", "10D QD AC"], top="9H", stock="8C 9D KC")
    s1 = play_seq(s, mm.Play("7H"), mm.Draw())
    assert hand(s1, 1) == cs("10D QD AC 8C 9D")
    assert s1.to_move == 1
    # Nothing of hearts or 7s: the normal turn is a draw of one (MR-4).
    assert s1.legal_moves() == [mm.Draw()]
    s2 = s1.apply(mm.Draw())
    assert hand(s2, 1) == cs("10D QD AC 8C 9D KC")
    assert s2.to_move == 0


# --- MR-6 the 8 ---------------------------------------------------------------------------------------

def test_MR_6_eight_with_two_players_x_moves_again():
    s = mm.position(V, hands=["8H KC 9D", "8S 10H"], top="9H", stock="7C 7D")
    after = s.apply(mm.Play("8H"))
    assert after.to_move == 0
    assert after.pending is None
    assert hand(after, 1) == cs("8S 10H")


def test_MR_6_eight_skips_next_without_answer():
    s = mm.position(V, hands=["8H KC 9D", "8S 10H", "QH KH"], top="9H", stock="7C 7D")
    after = s.apply(mm.Play("8H"))
    assert after.to_move == 2  # seat 1 holds 8S and 10H but gets no turn
    assert after.pending is None
    assert hand(after, 1) == cs("8S 10H")


# --- MR-7 forgotten Mau ----------------------------------------------------------------------------------

def test_MR_7_missing_mau_costs_two_cards():
    s = mm.position(V, hands=["9H KC", "7S 8S"], top="9S", stock="7C 8C 10C")
    assert s.legal_moves() == [mm.Play("9H", mau=True)]
    forgot = s.apply(mm.Play("9H"))
    assert hand(forgot, 0) == cs("KC 7C 8C")
    assert forgot.stock == tuple(mm.cards("10C"))
    assert forgot.to_move == 1
    said = s.apply(mm.Play("9H", mau=True))
    assert hand(said, 0) == cs("KC")
    assert_sentence(s, mm.Play("9H"))


# --- MR-8 opening a Runde (decision 12) ----------------------------------------------------------------------

@pytest.mark.parametrize("rank", ["9", "10", "Q", "K", "A"])
def test_MR_8_open_with_9_10_q_k_a_holding_another(rank):
    s = mm.position(V, hands=[f"{rank}H {rank}C 7D", "7S 8S"], top="8H", stock="7C 8C")
    moves = s.legal_moves()
    assert mm.Play(f"{rank}H", runde=True) in moves
    assert mm.Play(f"{rank}H") in moves
    # {rank}C does not match 8H, so it cannot open (MR-8: a legal play).
    assert mm.Play(f"{rank}C", runde=True) not in moves
    after = s.apply(mm.Play(f"{rank}H", runde=True))
    assert after.runde == (Rank.parse(rank), 0)
    assert after.to_move == 1
    assert hand(after, 0) == cs(f"{rank}C 7D")
    assert "Runde" in assert_sentence(s, mm.Play(f"{rank}H", runde=True))


def test_MR_8_opening_needs_another_card_of_the_rank():
    s = mm.position(V, hands=["9H KD 10C", "7S 8S"], top="9S", stock="7C 8C")
    assert_illegal(s, mm.Play("9H", runde=True), "MR-8")
    # A plain play of the same card is fine, and does not open anything.
    after = s.apply(mm.Play("9H"))
    assert after.runde is None


@pytest.mark.parametrize("hand_text, move", [
    ("7H 7C KD", mm.Play("7H", runde=True)),
    ("8H 8C KD", mm.Play("8H", runde=True)),
    ("JH JC KD", mm.Play("JH", wish="S", runde=True)),
])
def test_MR_8_only_nine_ten_queen_king_ace_open(hand_text, move):
    s = mm.position(V, hands=[hand_text, "7S 8S"], top="10H", stock="7D 8D")
    assert_illegal(s, move, "MR-8")


def test_MR_8_opening_card_must_be_a_legal_play():
    s = mm.position(V, hands=["KC KD 9H", "7S 8S"], top="9S", stock="7C 8C")
    assert_illegal(s, mm.Play("KC", runde=True), "C-3")
    assert mm.Play("9H") in s.legal_moves()


def test_MR_8_not_while_a_seven_is_pending():
    s = mm.position(V, hands=["9S 9H KD", "10C"], top="7S", stock="7C 8C 10D", pending_draw=2)
    assert set(s.legal_moves()) == {mm.Draw()}
    assert_illegal(s, mm.Play("9S", runde=True), "C-5")


def test_MR_8_not_while_a_runde_is_running():
    s = mm.position(V, hands=["9H 9C KD", "9S 10C"], top="9D", stock="7C 8C", runde=("9", 1))
    assert mm.Play("9H") in s.legal_moves()
    assert_illegal(s, mm.Play("9H", runde=True), "MR-8")


def test_MR_8_opening_with_two_cards_left_announces_mau():
    s = mm.position(V, hands=["QH QC", "7S 8S 9S"], top="10H", stock="7C 8C")
    assert mm.Play("QH", runde=True, mau=True) in s.legal_moves()
    after = s.apply(mm.Play("QH", runde=True, mau=True))
    assert after.runde == (Rank.QUEEN, 0)
    assert hand(after, 0) == cs("QC")


# --- MR-9 .. MR-13 a whole Runde --------------------------------------------------------------------------------

def runde_table():
    return mm.position(V, hands=["KH KD 9C 10S", "KS 8D 7H", "9D 10D QD"], top="KC",
                       stock="AH AS AD 7C 8C")


def test_MR_9_only_the_runde_rank_is_legal():
    s = runde_table().apply(mm.Play("KH", runde=True))
    assert s.runde == (Rank.KING, 0)
    assert s.to_move == 1
    # 8D, 7H: not Ks. Even a heart (7H matches the top KH by suit) is illegal.
    assert s.legal_moves() == [mm.Play("KS")]
    assert_illegal(s, mm.Play("7H"), "MR-9")
    assert_illegal(s, mm.Play("8D"), "MR-9")


def test_MR_9_any_suit_and_one_card_per_turn():
    s = mm.position(V, hands=["QC 9H", "QS QD 9C"], top="QH", stock="7C 8C", to_move=1,
                    runde=("Q", 0), discard="10H")
    assert plays(s) == {mm.Play("QS"), mm.Play("QD")}
    assert_illegal(s, mm.Play("QS QD"))


def test_MR_10_non_opener_with_the_rank_must_play():
    s = runde_table().apply(mm.Play("KH", runde=True))
    assert_illegal(s, mm.Draw(), "MR-10")


def test_MR_10_non_opener_without_the_rank_draws_exactly_one():
    s = play_seq(runde_table(), mm.Play("KH", runde=True), mm.Play("KS"))
    assert s.to_move == 2
    assert s.legal_moves() == [mm.Draw()]  # 9D 10D QD: no K
    after = s.apply(mm.Draw())
    # AH is not a K: the turn ends after exactly one card.
    assert hand(after, 2) == cs("9D 10D QD AH")
    assert after.stock == tuple(mm.cards("AS AD 7C 8C"))
    assert after.to_move == 0
    assert after.phase == "turn"
    assert after.runde == (Rank.KING, 0)


def test_MR_10_drawn_runde_card_may_be_played_at_once():
    s = mm.position(V, hands=["KD 9C", "8D 7H", "9D 10D"], top="KH", stock="KS AS",
                    runde=("K", 0), to_move=1, discard="KC")
    drew = s.apply(mm.Draw())
    assert drew.phase == "drawn" and drew.to_move == 1
    assert set(drew.legal_moves()) == {mm.Play("KS"), mm.Pass()}
    played = drew.apply(mm.Play("KS"))
    assert played.to_move == 2 and played.runde == (Rank.KING, 0)
    passed = drew.apply(mm.Pass())
    assert passed.to_move == 2 and hand(passed, 1) == cs("8D 7H KS")


def test_MR_10_drawn_jack_is_not_playable_in_a_runde():
    s = mm.position(V, hands=["KD 9C", "8D 7H", "9D 10D"], top="KH", stock="JH AS",
                    runde=("K", 0), to_move=1, discard="KC")
    after = s.apply(mm.Draw())
    assert after.to_move == 2 and after.phase == "turn"
    assert hand(after, 1) == cs("8D 7H JH")


def test_MR_11_opener_plays_after_the_circuit_and_never_draws():
    s = play_seq(runde_table(), mm.Play("KH", runde=True), mm.Play("KS"), mm.Draw())
    assert s.to_move == 0
    assert s.runde == (Rank.KING, 0)
    assert s.legal_moves() == [mm.Play("KD")]
    assert_illegal(s, mm.Draw(), "MR-11")  # the opener never draws
    assert_illegal(s, mm.Play("9C"), "MR-9")


def test_MR_12_runde_ends_when_the_opener_holds_no_more():
    s = play_seq(runde_table(), mm.Play("KH", runde=True), mm.Play("KS"), mm.Draw())
    assert "MR-12" in assert_sentence(s, mm.Play("KD"))
    after = s.apply(mm.Play("KD"))
    assert after.runde is None
    # MR-13: next(opener) takes a normal turn: 8D matches KD by suit; 7H does not.
    assert after.to_move == 1
    assert after.legal_moves() == [mm.Play("8D", mau=True)]


def test_MR_12_otherwise_another_circuit_follows():
    s = mm.position(V, hands=["KD KS 9C", "8D 7H", "9D 10D"], top="KH", stock="AH AS AD",
                    runde=("K", 0), to_move=0, discard="KC")
    after = s.apply(mm.Play("KD"))
    assert after.runde == (Rank.KING, 0)  # KS is still held
    assert after.to_move == 1
    # A non-opener running out of Ks does not end it either.
    s2 = mm.position(V, hands=["KD KS 9C", "KC 7H 8D", "9D 10D"], top="KH", stock="AH AS AD",
                     runde=("K", 0), to_move=1)
    after2 = s2.apply(mm.Play("KC"))
    assert after2.runde == (Rank.KING, 0)
    assert after2.to_move == 2


def test_MR_12_end_is_checked_before_the_mau_penalty():
    s = mm.position(V, hands=["KD 9C", "8D 7H", "9D 10D"], top="KH", stock="KC 7C AH",
                    runde=("K", 0), to_move=0, discard="KS")
    forgot = s.apply(mm.Play("KD"))
    # After KD the opener holds no K, so the Runde ends, although the penalty brings KC.
    assert forgot.runde is None
    assert hand(forgot, 0) == cs("9C KC 7C")
    assert forgot.to_move == 1
    said = s.apply(mm.Play("KD", mau=True))
    assert said.runde is None and hand(said, 0) == cs("9C")


def test_MR_13_after_the_runde_a_normal_turn_allows_jacks_and_new_rundes():
    s = mm.position(V, hands=["KD 9C", "JH 10D 10S AD", "9D 7C"], top="KH", stock="7S 8S",
                    runde=("K", 0), to_move=0, discard="KC")
    after = s.apply(mm.Play("KD", mau=True))
    assert after.runde is None and after.to_move == 1
    moves = after.legal_moves()
    assert mm.Play("JH", wish="C") in moves          # the Jack is legal again
    assert mm.Play("10D") in moves                   # suit match, not Runde rank
    assert mm.Play("10D", runde=True) in moves       # a new Runde may be opened
    assert mm.Play("AD") in moves
    assert mm.Play("AD", runde=True) not in moves    # only one A held
    nxt = after.apply(mm.Play("10D", runde=True))
    assert nxt.runde == (Rank.TEN, 1)


def test_MR_13_going_out_inside_a_runde_ends_the_hand():
    s = mm.position(V, hands=["KD KS 9C", "KC", "9D 10D"], top="KH", stock="7S 8S",
                    runde=("K", 0), to_move=1)
    after = s.apply(mm.Play("KC"))
    assert after.is_over and after.winner == 1
    assert after.legal_moves() == []


def test_MR_13_mau_penalty_inside_a_runde_for_a_non_opener():
    s = mm.position(V, hands=["KD KS 9C", "KC 8D", "9D 10D"], top="KH", stock="7S 8S 9S",
                    runde=("K", 0), to_move=1)
    assert s.legal_moves() == [mm.Play("KC", mau=True)]
    forgot = s.apply(mm.Play("KC"))
    assert hand(forgot, 1) == cs("8D 7S 8S")
    assert forgot.runde == (Rank.KING, 0)
    assert forgot.to_move == 2


def test_MR_11_two_player_runde_alternates():
    s = mm.position(V, hands=["AH AC AS 9C", "AD 7H 8H"], top="10H", stock="7C 8C 9D 10D")
    s1 = s.apply(mm.Play("AH", runde=True))
    assert s1.to_move == 1 and s1.legal_moves() == [mm.Play("AD")]
    s2 = s1.apply(mm.Play("AD"))
    assert s2.to_move == 0 and s2.runde == (Rank.ACE, 0)
    assert plays(s2) == {mm.Play("AC"), mm.Play("AS")}
    s3 = s2.apply(mm.Play("AC"))
    assert s3.runde == (Rank.ACE, 0) and s3.to_move == 1
    s4 = s3.apply(mm.Draw())  # 7C, no A: the turn ends
    assert s4.to_move == 0
    s5 = s4.apply(mm.Play("AS", mau=True))
    assert s5.runde is None and s5.to_move == 1


# --- MR-14 hands won (decision 17) ------------------------------------------------------------

def test_MR_14_going_out_wins_the_hand_and_counts_hands():
    s = mm.position(V, hands=["KD 9C", "9H"], top="9S", stock="7C 8C", to_move=1)
    after = s.apply(mm.Play("9H"))
    assert after.is_over and after.winner == 1
    scoring = mm.variant(V).scoring
    assert scoring.hand_scores(after) == [0, 1]
    assert scoring.match_over([0, 1], [True, True])
    assert scoring.winners([0, 1], [True, True]) == (1,)
    three = mm.variant(V, hands_to_win=3).scoring
    assert not three.match_over([2, 1], [True, True])
    assert three.match_over([2, 3], [True, True])
    assert three.winners([2, 3], [True, True]) == (1,)


# --- decision 25 / C-7 ------------------------------------------------------------------------------------------------

def test_decision_25_nothing_to_draw_acts_as_a_pass_and_blocks():
    s = mm.position(V, hands=["KC 10D", "7S 8S"], top="9H", stock="")
    s1 = s.apply(mm.Draw())
    assert hand(s1, 0) == cs("KC 10D") and s1.to_move == 1 and not s1.is_over
    s2 = s1.apply(mm.Draw())
    assert s2.is_over and s2.blocked and s2.winner is None
    assert mm.variant(V).scoring.hand_scores(s2) == [0, 0]
