"""Scenario tests for `joker_mau_mau` (RULES.md §4, JM-1 … JM-12, and §6 decisions 10, 11, 15,
21–25), including `jokers=0`, where the Jacks follow every Joker rule.

Every expected value below is reasoned out from RULES.md, not copied from a run.
Hands are kept sorted by the engine, so hands are compared as sorted card lists.
"""

from collections import Counter

import pytest
from conftest import assert_illegal, assert_sentence, cs, hand, play_seq, plays

import maumau as mm
from maumau.core.cards import RANKS_32, Rank, Suit

V = "joker_mau_mau"
NO_JOKERS = mm.variant(V, jokers=0)


# --- JM-1 deck, players, hand size, jokers=0 (decision 11) ---------------------------------------

@pytest.mark.parametrize("jokers", [0, 1, 2, 3])
def test_JM_1_deck_is_32_cards_plus_jokers(jokers):
    v = mm.variant(V, jokers=jokers)
    assert len(v.deck) == 32 + jokers
    counts = Counter(v.deck)
    assert counts[mm.JOKER] == jokers
    assert {c.rank for c in counts if not c.is_joker} == set(RANKS_32)
    assert all(n == 1 for c, n in counts.items() if not c.is_joker)
    assert v.players == (2, 5)
    assert v.hand_size == 5


def test_JM_1_default_two_jokers_and_bad_options():
    assert Counter(mm.variant(V).deck)[mm.JOKER] == 2
    with pytest.raises(mm.VariantError):
        mm.variant(V, jokers=-1)
    with pytest.raises(mm.CardError):
        mm.position(NO_JOKERS, hands=["JOKER 9C", "KD"], top="9D", stock="")


@pytest.mark.parametrize("players", [2, 5])
def test_JM_1_deal_five_each(players):
    s = mm.deal(V, players=players, seed=5)
    # Seat 0 = next(dealer) also holds 4 more cards if the up-card was a Joker (JM-2).
    assert [len(h) for h in s.hands[1:]] == [5] * (players - 1)
    assert len(s.hands[0]) == (9 if s.top.is_joker else 5)
    everything = Counter(c for h in s.hands for c in h) + Counter(s.stock) + Counter(s.discard)
    assert everything == Counter(mm.variant(V).deck)
    with pytest.raises(mm.VariantError):
        mm.deal(V, players=6, seed=0)


def test_JM_1_jacks_are_ordinary_with_jokers_and_wild_without():
    hands = ["JC 8D 10D", "KS 9S"]
    with_jokers = mm.position(V, hands=hands, top="9H", stock="7C 7D 7S 7H")
    assert_illegal(with_jokers, mm.Play("JC"), "C-3")
    assert_illegal(with_jokers, mm.Play("JC", wish="H"))
    without = mm.position(NO_JOKERS, hands=hands, top="9H", stock="7C 7D 7S 7H")
    assert plays(without) == {mm.Play("JC", wish=s) for s in "CDHS"}
    after = without.apply(mm.Play("JC", wish="S"))
    # JM-4 for the Jack: next(X) draws 4 at once and then takes a normal turn.
    assert hand(after, 1) == cs("KS 9S 7C 7D 7S 7H")
    assert after.wish is Suit.SPADES and after.to_move == 1 and after.pending is None


# --- JM-2 the up-card is the dealer's play (decision 10) -----------------------------------------

def test_JM_2_upcard_counts_as_the_dealers_play():
    v = mm.variant(V)
    raw_v = v.without("upcard_dealers_play")
    seen = set()
    for seed in range(400):
        raw = mm.deal(raw_v, players=3, seed=seed)      # the same shuffle, no effect
        s = mm.deal(V, players=3, seed=seed, wish="H")  # dealer 2, next(dealer) = 0
        up = raw.top
        assert s.top == up and s.dealer == 2
        assert s.to_move == 0 and s.phase == "turn"
        if up.is_joker:
            seen.add("JOKER")
            # The dealer names the suit; next(dealer) draws 4 at once and takes a normal turn.
            assert s.wish is Suit.HEARTS
            assert s.pending is None
            assert hand(s, 0) == sorted(raw.hands[0] + raw.stock[:4])
            assert s.hands[1:] == raw.hands[1:]
            assert s.stock == raw.stock[4:]
            continue
        assert s.hands == raw.hands and s.stock == raw.stock and s.wish is None
        if up.rank is Rank.SEVEN:
            seen.add("7")
            assert s.pending_draw == 2 and s.pending.target == 0
            assert set(s.legal_moves()) == {mm.Play(c) for c in s.hands[0] if c.rank is Rank.SEVEN} | {mm.Draw()}
        elif up.rank is Rank.EIGHT:
            seen.add("8")
            assert s.pending_skip == 1 and s.pending.target == 0
            assert s.apply(mm.Pass()).to_move == 1
        else:  # an Ace (decision 10) and every other card: no effect
            if up.rank is Rank.ACE:
                seen.add("A")
            assert s.pending is None
    assert seen == {"7", "8", "JOKER", "A"}


def test_JM_2_jack_upcard_acts_as_a_joker_when_jokers_0():
    raw_v = NO_JOKERS.without("upcard_dealers_play")
    found = 0
    for seed in range(200):
        raw = mm.deal(raw_v, players=2, seed=seed)
        if raw.top.rank is not Rank.JACK:
            continue
        found += 1
        s = mm.deal(NO_JOKERS, players=2, seed=seed, wish="C")
        assert s.wish is Suit.CLUBS
        assert hand(s, 0) == sorted(raw.hands[0] + raw.stock[:4])
        assert s.stock == raw.stock[4:]
        assert s.to_move == 0 and s.pending is None
    assert found >= 3


# --- JM-3 after drawing (decision 24) --------------------------------------------------------------

def test_JM_3_draw_allowed_and_then_any_legal_card_or_pass():
    s = mm.position(V, hands=["KC 10H 8D", "7S 9S"], top="9H", stock="KH 7D")
    assert mm.Play("10H") in s.legal_moves() and mm.Draw() in s.legal_moves()
    drew = s.apply(mm.Draw())
    assert hand(drew, 0) == cs("KC 10H 8D KH")
    assert drew.to_move == 0 and drew.phase == "drawn"
    # Any legal card of the hand, not only the drawn one, or Pass.
    assert set(drew.legal_moves()) == {mm.Play("10H"), mm.Play("KH"), mm.Pass()}
    assert_illegal(drew, mm.Draw())
    assert_illegal(drew, mm.Play("KC"), "C-3")
    played = drew.apply(mm.Play("10H"))
    assert played.to_move == 1 and played.top == mm.Card.parse("10H")
    passed = drew.apply(mm.Pass())
    assert passed.to_move == 1 and passed.phase == "turn"
    assert hand(passed, 0) == cs("KC 10H 8D KH")
    assert_sentence(drew, mm.Pass())


def test_JM_3_drawn_card_unfit_but_another_card_fits():
    s = mm.position(V, hands=["KC 10H", "8S 9S"], top="9H", stock="7S 7D")
    drew = s.apply(mm.Draw())
    assert drew.phase == "drawn" and drew.to_move == 0
    assert set(drew.legal_moves()) == {mm.Play("10H"), mm.Pass()}


def test_JM_3_nothing_fits_after_drawing_the_turn_ends():
    s = mm.position(V, hands=["KC 10D", "8S 9S"], top="9H", stock="7S QH")
    after = s.apply(mm.Draw())
    assert hand(after, 0) == cs("KC 10D 7S")
    assert after.to_move == 1 and after.phase == "turn"


# --- JM-4 the Joker (decision 21) ---------------------------------------------------------------------

def test_JM_4_joker_next_draws_four_at_once_then_takes_a_normal_turn():
    s = mm.position(V, hands=["JOKER 9C KD", "10C QH", "AS KS"], top="10H",
                    stock="7C 8C 9S 10S QC")
    assert plays(s) >= {mm.Play("JOKER", wish=w) for w in "CDHS"}
    assert_illegal(s, mm.Play("JOKER"))  # a suit must be named
    assert "JM-4" in assert_sentence(s, mm.Play("JOKER", wish="C"))
    after = s.apply(mm.Play("JOKER", wish="C"))
    assert hand(after, 1) == cs("10C QH 7C 8C 9S 10S")
    assert after.stock == tuple(mm.cards("QC"))
    assert hand(after, 2) == cs("AS KS")
    assert after.to_move == 1
    assert after.pending is None and after.pending_draw == 0
    assert after.wish is Suit.CLUBS
    # A normal turn on the named suit: clubs, or a draw (no forced play in 004).
    assert set(after.legal_moves()) == {mm.Play("10C"), mm.Play("7C"), mm.Play("8C"), mm.Draw()}


def test_JM_4_joker_penalties_are_never_summed():
    s = mm.position(V, hands=["JOKER 9C KD", "JOKER QH", "AS KS"], top="10H",
                    stock="7C 8C 9S 10S QC KC AC 7D 8D")
    s1 = s.apply(mm.Play("JOKER", wish="C"))
    assert hand(s1, 1) == cs("JOKER QH 7C 8C 9S 10S")
    s2 = s1.apply(mm.Play("JOKER", wish="S"))
    # Seat 2 draws 4, not 8, and moves; nothing is left pending.
    assert hand(s2, 2) == cs("AS KS QC KC AC 7D")
    assert s2.stock == tuple(mm.cards("8D"))
    assert s2.to_move == 2 and s2.pending is None and s2.wish is Suit.SPADES


def test_JM_4_joker_legal_on_anything_without_a_pending_effect():
    on_seven = mm.position(V, hands=["JOKER 9C", "KD"], top="7S", stock="7C 8C 9S 10S")
    assert mm.Play("JOKER", wish="H", mau=True) in on_seven.legal_moves()
    on_wish = mm.position(V, hands=["JOKER 9C", "KD"], top="JOKER", wish="D", stock="7C 8C 9S 10S")
    assert mm.Play("JOKER", wish="S", mau=True) in on_wish.legal_moves()
    assert_illegal(on_wish, mm.Play("9C", mau=True), "C-3")


def test_JM_4_two_players_opponent_draws_and_moves():
    s = mm.position(V, hands=["JOKER 9C KD", "10C QH"], top="10H", stock="7C 8C 9S 10S QC")
    after = s.apply(mm.Play("JOKER", wish="D"))
    assert hand(after, 1) == cs("10C QH 7C 8C 9S 10S")
    assert after.to_move == 1


# --- JM-5 the 7 (decision 15) ------------------------------------------------------------------------

def test_JM_5_seven_chain_then_the_acceptor_takes_a_normal_turn():
    s = mm.position(V, hands=["7H 9C KD", "7S 10S JD", "8D QD AC"], top="9H",
                    stock="7C 10C QC KC AD")
    s1 = s.apply(mm.Play("7H"))
    assert s1.pending_draw == 2 and s1.to_move == 1
    assert set(s1.legal_moves()) == {mm.Play("7S"), mm.Draw()}
    s2 = s1.apply(mm.Play("7S"))
    assert s2.pending_draw == 4 and s2.to_move == 2
    assert s2.legal_moves() == [mm.Draw()]
    s3 = s2.apply(mm.Draw())
    assert hand(s3, 2) == cs("8D QD AC 7C 10C QC KC")
    assert s3.to_move == 2 and s3.pending is None and s3.phase == "turn"
    assert s3.top == mm.Card.parse("7S")
    # A normal turn on the 7S: the 7C by rank, or a draw.
    assert set(s3.legal_moves()) == {mm.Play("7C"), mm.Draw()}


def test_JM_5_chain_totals_grow_by_two():
    s = mm.position(V, hands=["7H 9C KD", "7S 10S", "7D QD", "7C AC"], top="9H",
                    stock="8C 10C QC KC AD 8H 9D 10D")
    s1 = play_seq(s, mm.Play("7H"), mm.Play("7S", mau=True), mm.Play("7D", mau=True))
    assert s1.pending_draw == 6 and s1.to_move == 3
    s2 = s1.apply(mm.Play("7C", mau=True))
    assert s2.pending_draw == 8 and s2.to_move == 0
    s3 = s2.apply(mm.Draw())
    assert len(s3.hands[0]) == 2 + 8
    assert s3.to_move == 0


# --- JM-6 summed 8s (decision 23) ------------------------------------------------------------------------

def eights():
    return mm.position(V, hands=["8H KC 9D", "8S 10H 7C", "8D KH QC"], top="9H", stock="7D 10D")


def test_JM_6_single_eight_skips_the_target():
    s1 = eights().apply(mm.Play("8H"))
    assert s1.pending_skip == 1 and s1.to_move == 1
    assert set(s1.legal_moves()) == {mm.Play("8S"), mm.Pass()}
    assert_sentence(s1, mm.Pass())
    s2 = s1.apply(mm.Pass())
    assert s2.to_move == 2 and s2.pending is None
    assert hand(s2, 1) == cs("8S 10H 7C")


def test_JM_6_two_eights_skip_two_and_wrap_round():
    s2 = play_seq(eights(), mm.Play("8H"), mm.Play("8S"))
    assert s2.pending_skip == 2 and s2.to_move == 2
    s3 = s2.apply(mm.Pass())
    # Seat 2 (the target) and seat 0 are skipped: seat 1 moves.
    assert s3.to_move == 1 and s3.pending is None


def test_JM_6_three_eights_pass_over_the_last_eight_player():
    s3 = play_seq(eights(), mm.Play("8H"), mm.Play("8S"), mm.Play("8D"))
    assert s3.pending_skip == 3 and s3.to_move == 0
    assert s3.legal_moves() == [mm.Pass()]
    s4 = s3.apply(mm.Pass())
    # Skipped: 0 (target), 1, 2 (who played the last 8); the count wraps round to 0.
    assert s4.to_move == 0 and s4.pending is None and s4.phase == "turn"


def test_JM_6_two_players():
    s = mm.position(V, hands=["8H KC 9D", "8S 10H 7C"], top="9H", stock="7D 10D")
    s1 = s.apply(mm.Play("8H"))
    assert s1.apply(mm.Pass()).to_move == 0
    s2 = s1.apply(mm.Play("8S"))
    assert s2.pending_skip == 2 and s2.to_move == 0
    # Seat 0 and seat 1 are skipped: the count wraps round to seat 0.
    assert s2.apply(mm.Pass()).to_move == 0


# --- JM-7 only responses against a pending 7 or 8 -----------------------------------------------------

def test_JM_7_only_sevens_answer_a_pending_seven():
    s = mm.position(V, hands=["7C 9H JOKER JH", "KD"], top="7H", stock="8C 9C 10C", pending_draw=2)
    assert set(s.legal_moves()) == {mm.Play("7C"), mm.Draw()}
    assert_illegal(s, mm.Play("9H"), "C-5")
    assert_illegal(s, mm.Play("JOKER", wish="H"), "C-5")
    assert_illegal(s, mm.Pass(), "C-5")


def test_JM_7_only_eights_answer_a_pending_eight():
    s = mm.position(V, hands=["8S 9H JOKER 10H", "KD"], top="8H", stock="8C 9C 10C", pending_skip=1)
    assert set(s.legal_moves()) == {mm.Play("8S"), mm.Pass()}
    assert_illegal(s, mm.Play("9H"), "C-5")
    assert_illegal(s, mm.Play("JOKER", wish="H"), "C-5")
    assert_illegal(s, mm.Draw(), "C-5")


def test_JM_7_jack_is_no_answer_when_jokers_0():
    s = mm.position(NO_JOKERS, hands=["JH 9C KD", "KS"], top="7H", stock="8C 9D 10C", pending_draw=2)
    assert s.legal_moves() == [mm.Draw()]
    assert_illegal(s, mm.Play("JH", wish="H"), "C-5")


# --- JM-8 the optional Ace extra play (decision 24) ------------------------------------------------------

def aces():
    return mm.position(V, hands=["AH AS 10H 7H 8H KS", "9C 10C", "QD KD"], top="9H",
                       stock="7C 7S QC QS")


def test_JM_8_ace_extra_play_is_optional():
    s1 = aces().apply(mm.Play("AH"))
    assert s1.to_move == 0 and s1.phase == "extra"
    assert set(s1.legal_moves()) == {mm.Play("AS"), mm.Play("10H"), mm.Play("7H"), mm.Play("8H"),
                                     mm.Pass()}
    assert_illegal(s1, mm.Draw(), "JM-8")
    assert_illegal(s1, mm.Play("KS"), "C-3")
    passed = s1.apply(mm.Pass())
    # Nothing has to be drawn.
    assert passed.to_move == 1 and passed.phase == "turn"
    assert hand(passed, 0) == cs("AS 10H 7H 8H KS")
    assert passed.stock == aces().stock


def test_JM_8_another_ace_repeats_and_the_extra_card_has_its_effect():
    s = play_seq(aces(), mm.Play("AH"), mm.Play("AS"))
    assert s.to_move == 0 and s.phase == "extra"
    plain = s.apply(mm.Play("KS"))
    assert plain.to_move == 1 and plain.phase == "turn"
    seven = play_seq(aces(), mm.Play("AH"), mm.Play("7H"))
    assert seven.pending_draw == 2 and seven.to_move == 1
    eight = play_seq(aces(), mm.Play("AH"), mm.Play("8H"))
    assert eight.pending_skip == 1 and eight.to_move == 1


def test_JM_8_joker_after_an_ace():
    s = mm.position(V, hands=["AH JOKER KC", "9C 10C", "QD KD"], top="9H", stock="7C 7S QC QS")
    after = play_seq(s, mm.Play("AH"), mm.Play("JOKER", wish="D", mau=True))
    assert hand(after, 1) == cs("9C 10C 7C 7S QC QS")
    assert after.to_move == 1 and after.wish is Suit.DIAMONDS


# --- JM-9 a forgotten Mau locks the last card (decision 24) -------------------------------------------

def test_JM_9_forgotten_mau_locks_the_last_card_until_a_draw():
    s = mm.position(V, hands=["9H KC", "KH 10S 7D"], top="9S", stock="7H 10C AD")
    assert s.legal_moves() == [mm.Play("9H", mau=True), mm.Draw()]
    forgot = s.apply(mm.Play("9H"))
    # The move stands; no penalty cards are drawn.
    assert hand(forgot, 0) == cs("KC")
    assert forgot.stock == s.stock
    assert forgot.locked == frozenset({0})
    assert forgot.to_move == 1
    assert "JM-9" in assert_sentence(s, mm.Play("9H"))
    s2 = forgot.apply(mm.Play("KH"))
    assert s2.to_move == 0
    # KC would match KH by rank, but the card is locked: the only move is Draw().
    assert s2.legal_moves() == [mm.Draw()]
    assert_illegal(s2, mm.Play("KC"), "JM-9")
    assert_illegal(s2, mm.Pass())
    s3 = s2.apply(mm.Draw())
    assert s3.locked == frozenset()
    assert hand(s3, 0) == cs("KC 7H")
    # JM-3 applies: any legal card (each leaves one card, so Mau is due) or Pass.
    assert s3.phase == "drawn" and s3.to_move == 0
    assert set(s3.legal_moves()) == {mm.Play("KC", mau=True), mm.Play("7H", mau=True), mm.Pass()}
    s4 = s3.apply(mm.Play("KC", mau=True))
    assert hand(s4, 0) == cs("7H") and s4.locked == frozenset() and s4.to_move == 1


def test_JM_9_said_mau_locks_nothing():
    s = mm.position(V, hands=["9H KC", "KH 10S 7D"], top="9S", stock="7H 10C AD")
    said = s.apply(mm.Play("9H", mau=True))
    assert said.locked == frozenset()
    s2 = said.apply(mm.Play("KH"))
    assert mm.Play("KC") in s2.legal_moves()


def test_JM_9_locked_draw_with_nothing_playable_ends_the_turn():
    s = mm.position(V, hands=["KC", "KH 10S 7D"], top="9S", stock="8D 10C AD", locked=[0])
    assert s.legal_moves() == [mm.Draw()]
    after = s.apply(mm.Draw())
    assert hand(after, 0) == cs("KC 8D")
    assert after.locked == frozenset() and after.to_move == 1 and after.phase == "turn"


def test_JM_9_a_jokers_four_lifts_the_lock_and_a_normal_turn_follows():
    # Seat 1 forgot Mau and holds a locked KC; seat 0's Joker gives seat 1 four cards (JM-4):
    # the player received cards, so the lock lifts and seat 1 takes a normal turn with 5 cards.
    s = mm.position(V, hands=["JOKER 9D 10D", "KC", "QS QH"], top="9S", stock="7H KH 8C 10C AS",
                    locked=[1])
    after = s.apply(mm.Play("JOKER", wish="C"))
    assert hand(after, 1) == cs("KC 7H KH 8C 10C")
    assert after.locked == frozenset()
    assert after.to_move == 1 and after.phase == "turn"
    # KC and 8C follow the wished clubs: the once-locked card is playable again.
    assert {mm.Play("KC"), mm.Play("8C")} <= plays(after)


def test_JM_9_a_seven_penalty_taken_lifts_the_lock():
    s = mm.position(V, hands=["7D 9H 10D", "KC", "QS QH"], top="9D", stock="8H AS 10C", locked=[1])
    facing = s.apply(mm.Play("7D"))
    assert facing.to_move == 1 and facing.pending_draw == 2
    assert facing.legal_moves() == [mm.Draw()]  # the locked KC cannot answer, nor could it
    after = facing.apply(mm.Draw())
    assert hand(after, 1) == cs("KC 8H AS") and after.locked == frozenset()
    assert after.to_move == 1 and after.phase == "turn"  # JM-5: a normal turn on the 7


def test_JM_9_a_draw_that_finds_nothing_keeps_the_lock():
    # Nothing in the stock and nothing under the top card: Draw() acts as a pass (C-7), and the
    # player received no card, so the last card stays locked.
    s = mm.position(V, hands=["KC", "KH 10S 7D"], top="9C", stock="", locked=[0])
    assert s.legal_moves() == [mm.Draw()]
    after = s.apply(mm.Draw())
    assert hand(after, 0) == cs("KC") and after.locked == frozenset({0}) and after.to_move == 1
    assert "C-7" in s.explain(mm.Draw())


def test_JM_9_at_an_aces_extra_play_the_only_move_is_pass():
    # The Ace leaves one card without Mau: it is locked, and the extra play (JM-8) can only end.
    s = mm.position(V, hands=["AH KH", "9C 10C"], top="9H", stock="7C 7S QC")
    after = s.apply(mm.Play("AH"))
    assert after.locked == frozenset({0}) and after.phase == "extra" and after.to_move == 0
    assert after.legal_moves() == [mm.Pass()]
    message = assert_illegal(after, mm.Play("KH"), "JM-9")
    assert "Pass()" in message and "Draw()" not in message and "draw" not in message.lower()
    assert "Pass()" in assert_illegal(after, mm.Draw())
    done = after.apply(mm.Pass())
    assert done.locked == frozenset({0}) and done.to_move == 1


def test_JM_9_facing_a_skip_the_locked_player_passes():
    s = mm.position(V, hands=["8D 9H 10D", "KC", "QS QH"], top="9D", stock="8H AS 10C", locked=[1])
    facing = s.apply(mm.Play("8D"))
    assert facing.to_move == 1 and facing.legal_moves() == [mm.Pass()]
    message = assert_illegal(facing, mm.Play("KC"), "JM-9")
    assert "Pass()" in message
    after = facing.apply(mm.Pass())
    assert after.locked == frozenset({1}) and after.to_move == 2


def test_JM_9_refusals_name_exactly_the_legal_moves():
    # Wherever a locked player tries the locked card, the sentence names the moves that are legal.
    cases = [
        mm.position(V, hands=["KC", "KH 10S 7D"], top="9C", stock="7H", locked=[0]),          # Draw()
        mm.position(V, hands=["KC", "KH 10S 7D"], top="7C", stock="7H 8H", locked=[0],
                    pending_draw=2),                                                     # Draw()
        mm.position(V, hands=["KC", "KH 10S 7D"], top="8C", stock="7H 8H", locked=[0],
                    pending_skip=1),                                                     # Pass()
    ]
    for s in cases:
        message = assert_illegal(s, mm.Play("KC"), "JM-9")
        for move in s.legal_moves():
            assert repr(move) in message, (message, s.legal_moves())
        for other in (mm.Draw(), mm.Pass()):
            if other not in s.legal_moves():
                assert repr(other) not in message, message


# --- JM-10 the last card's effects lapse ---------------------------------------------------------------

@pytest.mark.parametrize("last", [mm.Play("JOKER", wish="H"), mm.Play("7H"), mm.Play("8H"), mm.Play("AH")])
def test_JM_10_final_card_effects_lapse(last):
    s = mm.position(V, hands=[" ".join(c.text for c in last.cards), "7C 8C"], top="9H",
                    stock="QC KC AC 10C")
    after = s.apply(last)
    assert after.is_over and after.winner == 0
    assert hand(after, 1) == cs("7C 8C")  # nobody draws, even after a final Joker
    assert after.stock == s.stock
    assert after.pending is None and after.phase == "turn"
    assert after.legal_moves() == []


def test_JM_10_final_jack_draws_nothing_when_jokers_0():
    s = mm.position(NO_JOKERS, hands=["JD", "7C 8C"], top="9H", stock="QC KC AC 10C")
    after = s.apply(mm.Play("JD", wish="S"))
    assert after.is_over and after.winner == 0
    assert hand(after, 1) == cs("7C 8C") and after.stock == s.stock


# --- JM-11 scoring (decision 22) ----------------------------------------------------------------------

def test_JM_11_card_values():
    scoring = mm.variant(V).scoring
    values = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 20, "Q": 10, "K": 10, "A": 11}
    for rank, points in values.items():
        assert scoring.card_points(mm.Card.parse(rank + "S")) == points
    assert scoring.card_points(mm.JOKER) == 20


def test_JM_11_others_score_their_cards():
    s = mm.position(V, hands=["10C", "7C 8D 9H 10S", "JC QD KH AS JOKER"], top="10D", stock="7D 8S")
    after = s.apply(mm.Play("10C"))
    # 7 + 8 + 9 + 10 = 34;  20 + 10 + 10 + 11 + 20 = 71.
    assert mm.variant(V).scoring.hand_scores(after) == [0, 34, 71]


def test_JM_11_a_final_joker_doubles():
    s = mm.position(V, hands=["JOKER", "7C 8D 9H 10S", "JC QD KH AS JOKER"], top="10D", stock="7D 8S")
    after = s.apply(mm.Play("JOKER", wish="C"))
    assert mm.variant(V).scoring.hand_scores(after) == [0, 68, 142]


def test_JM_11_a_final_jack_doubles_only_when_jokers_0():
    hands = ["JD", "7C 8D", "QS"]
    with_jokers = mm.position(V, hands=hands, top="10D", stock="7D 8S").apply(mm.Play("JD"))
    assert mm.variant(V).scoring.hand_scores(with_jokers) == [0, 15, 10]
    without = mm.position(NO_JOKERS, hands=hands, top="10H", stock="7D 8S")
    after = without.apply(mm.Play("JD", wish="C"))
    assert NO_JOKERS.scoring.hand_scores(after) == [0, 30, 20]


def test_JM_11_a_final_ace_does_not_double():
    s = mm.position(V, hands=["AD", "7C 8D"], top="10D", stock="7D 8S")
    after = s.apply(mm.Play("AD"))
    assert after.is_over
    assert mm.variant(V).scoring.hand_scores(after) == [0, 15]


# --- JM-12 match end at threshold, lowest wins (decision 22) --------------------------------------------

def test_JM_12_threshold_and_lowest_total_wins():
    scoring = mm.variant(V).scoring
    alive = [True, True, True]
    assert not scoring.match_over([99, 50, 0], alive)
    assert scoring.match_over([100, 50, 0], alive)
    assert scoring.winners([100, 30, 40], alive) == (1,)
    assert scoring.winners([100, 30, 30], alive) == (1, 2)  # ties share the win
    low = mm.variant(V, threshold=60).scoring
    assert not low.match_over([59, 10], [True, True])
    assert low.match_over([60, 10], [True, True])
    assert low.winners([60, 10], [True, True]) == (1,)


# --- decision 25 / C-7 --------------------------------------------------------------------------------

def test_decision_25_joker_from_a_short_stock_gives_what_exists():
    s = mm.position(V, hands=["JOKER 9C KD", "10C QH"], top="10H", stock="7C 8C")
    after = s.apply(mm.Play("JOKER", wish="C"))
    # C-6: after the stock, the pile under the Joker (just 10H) is reshuffled and drawn;
    # C-7: then nothing is left, so seat 1 takes 3 cards, not 4.
    assert hand(after, 1) == cs("10C QH 7C 8C 10H")
    assert after.stock == () and after.discard == (mm.JOKER,)
    assert after.to_move == 1 and after.pending is None
