"""Scenario tests for `lite_macau` (RULES.md §1, LM-1 … LM-14) and the §6 decisions 1–9
about it.

Every expected value is reasoned from RULES.md.  Seats: with 3 players, next(0)=1,
next(1)=2, next(2)=0 and prev(0)=2 (C-1).
"""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import play_seq

import maumau as mm
from maumau import Draw, Pass, Play

LITE = "lite_macau"


def pos(hands, top, stock=None, **kw) -> mm.GameState:
    """A lite_macau position; by default the stock is the rest of the deck (seeded shuffle)."""
    return mm.position(LITE, hands=hands, top=top, stock=stock, **kw)


def cs(text: str) -> tuple:
    """Cards in hand order (hands are kept sorted)."""
    return tuple(sorted(mm.cards(text)))


def card(text: str) -> mm.Card:
    return mm.Card.parse(text)


def rejected(s: mm.GameState, move: mm.Move, *rule_ids: str) -> str:
    """``move`` is illegal: IllegalMove naming the rule ids, nothing changed, and
    ``explain`` gives the reason.  Returns the message."""
    before = (s.hands, s.stock, s.discard, s.to_move, s.wish, s.pending_draw, s.pending_skip)
    assert move not in s.legal_moves()
    with pytest.raises(mm.IllegalMove) as info:
        s.apply(move)
    message = str(info.value)
    for rule_id in rule_ids:
        assert rule_id in message, (rule_id, message)
    assert (s.hands, s.stock, s.discard, s.to_move, s.wish, s.pending_draw, s.pending_skip) == before
    reason = s.explain(move)
    assert isinstance(reason, str) and reason
    for rule_id in rule_ids:
        assert rule_id in reason, (rule_id, reason)
    return message


def plays(s: mm.GameState) -> set:
    """The cards (as text) of the single-card plays among the legal moves."""
    return {m.cards[0].text for m in s.legal_moves() if isinstance(m, Play) and len(m.cards) == 1}


def sentence(text: str) -> str:
    assert isinstance(text, str) and len(text) > 10 and text.endswith("."), text
    return text


# --- LM-1 --------------------------------------------------------------------------------------

def test_LM_1_deck_players_and_hand_size():
    v = mm.variant(LITE)
    assert len(v.deck) == 52 and mm.JOKER not in v.deck
    assert len(set(v.deck)) == 52
    assert v.hand_size == 5 and v.players == (2, 4)
    for n in (2, 3, 4):
        s = mm.deal(LITE, players=n, seed=11)
        assert [len(h) for h in s.hands] == [5] * n
    for n in (1, 5):
        with pytest.raises(mm.VariantError):
            mm.deal(LITE, players=n, seed=11)
    with pytest.raises(mm.CardError):
        pos(["JOKER 5H", "6H"], top="9H")


# --- LM-2 up-card ------------------------------------------------------------------------------

def deal_with_upcard(want, players: int, **kw) -> mm.GameState:
    """Search seeds for a deal whose up-card satisfies ``want(card)``."""
    for seed in range(5000):
        s = mm.deal(LITE, players=players, seed=seed, **kw)
        if want(s.top):
            return s
    raise AssertionError("no seed with that up-card")


def rank_is(*ranks):
    return lambda c: c.rank.value in ranks


def is_card(text):
    return lambda c: c == card(text)


@pytest.mark.parametrize("rank, amount", [("2", 2), ("3", 3)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_LM_2_two_three_upcard_targets_next_of_dealer(rank, amount, players):
    s = deal_with_upcard(rank_is(rank), players)
    dealer = players - 1
    assert s.dealer == dealer and s.to_move == 0  # next(dealer)
    assert s.pending_draw == amount
    answers = {c.text for c in s.hands[0] if c.rank.value in ("2", "3") or c == card("QH")}
    assert plays(s) == answers  # LM-6 responses only
    assert Draw() in s.legal_moves() and Pass() not in s.legal_moves()
    after = s.apply(Draw())
    assert len(after.hands[0]) == 5 + amount
    assert after.to_move == 1 and after.pending_draw == 0  # accepting ends the turn: next(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_LM_2_four_upcard_skips_next_of_dealer(players):
    s = deal_with_upcard(rank_is("4"), players)
    assert s.to_move == 0 and s.pending_skip == 1 and s.pending_draw == 0
    fours = {c.text for c in s.hands[0] if c.rank.value == "4"}
    assert plays(s) == fours
    assert Pass() in s.legal_moves() and Draw() not in s.legal_moves()
    after = s.apply(Pass())
    assert after.to_move == 1 and after.hands == s.hands


@pytest.mark.parametrize("players", [2, 3, 4])
def test_LM_2_king_of_hearts_upcard_targets_next_of_dealer(players):
    s = deal_with_upcard(is_card("KH"), players)
    assert s.to_move == 0 and s.pending_draw == 5
    after = s.apply(Draw())
    assert len(after.hands[0]) == 10 and after.to_move == 1


def test_LM_2_king_of_spades_upcard_targets_prev_of_dealer():
    # 3 players: dealer 2, prev(dealer) = 1 answers out of turn, then next(dealer) = 0 moves
    s = deal_with_upcard(is_card("KS"), 3)
    assert s.dealer == 2 and s.to_move == 1 and s.pending_draw == 5
    after = s.apply(Draw())
    assert len(after.hands[1]) == 10 and after.to_move == 0 and after.pending_draw == 0
    # 4 players: dealer 3, prev(dealer) = 2, then next(dealer) = 0
    s = deal_with_upcard(is_card("KS"), 4)
    assert s.to_move == 2 and s.pending_draw == 5
    after = s.apply(Draw())
    assert len(after.hands[2]) == 10 and after.to_move == 0
    # 2 players: K♠ acts like K♥ (LM-9): next(dealer) = 0 draws, then the dealer moves
    s = deal_with_upcard(is_card("KS"), 2)
    assert s.to_move == 0 and s.pending_draw == 5
    after = s.apply(Draw())
    assert len(after.hands[0]) == 10 and after.to_move == 1


@pytest.mark.parametrize("players", [2, 3])
def test_LM_2_ace_upcard_dealer_names_the_suit(players):
    s = deal_with_upcard(rank_is("A"), players)
    assert isinstance(s.wish, mm.Suit) and s.to_move == 0 and s.pending_draw == 0
    s = deal_with_upcard(rank_is("A"), players, wish="H")
    assert s.wish is mm.Suit.HEARTS
    # LM-4 suit wish: hearts or any Ace; a Jack only if it is J♥
    expected = {c.text for c in s.hands[0] if c.suit is mm.Suit.HEARTS or c.rank is mm.Rank.ACE}
    assert plays(s) == expected


@pytest.mark.parametrize("players", [2, 4])
def test_LM_2_jack_upcard_dealer_names_the_rank(players):
    s = deal_with_upcard(rank_is("J"), players)
    assert isinstance(s.wish, mm.Rank) and s.to_move == 0
    s = deal_with_upcard(rank_is("J"), players, wish="7")
    assert s.wish is mm.Rank.SEVEN
    # LM-4 rank wish: sevens or any Jack
    expected = {c.text for c in s.hands[0] if c.rank in (mm.Rank.SEVEN, mm.Rank.JACK)}
    assert plays(s) == expected


@pytest.mark.parametrize("text", ["QH", "KC", "KD", "5S", "10H"])
def test_LM_2_ordinary_upcards_have_no_effect(text):
    # Q♥ is ordinary with no penalty pending (LM-12); K♣/K♦ are ordinary (LM-7)
    s = deal_with_upcard(is_card(text), 3)
    assert s.to_move == 0 and s.pending is None and s.wish is None
    top = s.top
    for c in s.hands[0]:
        if c.rank.value not in ("A", "J") and (c.suit is top.suit or c.rank is top.rank):
            assert c.text in plays(s)
        if c.rank.value not in ("A", "J") and c.suit is not top.suit and c.rank is not top.rank:
            assert c.text not in plays(s)


# --- LM-3 / §6.6 --------------------------------------------------------------------------------

def test_LM_3_drawing_ends_the_turn_even_if_the_drawn_card_fits():
    s = pos(["5C 6C 7C", "8D 9D"], top="9H", stock="5H 2S 3S")
    after = s.apply(Draw())
    assert card("5H") in after.hands[0]  # 5H would fit 9H ...
    assert after.to_move == 1  # ... but the turn is over (§6.6)
    assert after.stock == mm.cards("2S 3S") and after.top == card("9H")
    assert after.hands[0] == cs("5C 6C 7C 5H")


# --- LM-4 wish cards ---------------------------------------------------------------------------

def test_LM_4_ace_names_a_suit_and_is_legal_on_anything():
    s = pos(["AC 5S 6S", "8D 9D 10S"], top="9H")
    legal = s.legal_moves()
    for suit in "CDHS":
        assert Play("AC", wish=suit) in legal
    assert Play("AC") not in legal
    rejected(s, Play("AC"))  # a wish must be named
    assert "wish" in s.explain(Play("AC"))
    after = s.apply(Play("AC", wish="D"))
    assert after.top == card("AC") and after.wish is mm.Suit.DIAMONDS and after.to_move == 1
    assert plays(after) == {"8D", "9D"}  # diamonds only (10S no longer counts)
    assert "♦" in sentence(s.explain(Play("AC", wish="D")))


def test_LM_4_jack_names_a_rank_two_to_ace_and_is_legal_on_anything():
    s = pos(["JC 5S 6S", "8D 9D 10S"], top="9H")
    jack_wishes = {m.wish for m in s.legal_moves() if isinstance(m, Play) and m.card == card("JC")}
    assert jack_wishes == set(mm.Rank)  # 2 … A, J included
    after = s.apply(Play("JC", wish="10"))
    assert after.wish is mm.Rank.TEN and after.top == card("JC")
    assert plays(after) == {"10S"}
    rejected(s, Play("JC", wish="H"))  # a Jack names a rank, not a suit
    rejected(s, Play("AC", wish="H"))  # not in the hand


def test_LM_4_suit_wish_suit_or_any_ace_jack_only_of_that_suit():
    s = pos(["5S AH JS JH 5H 9C", "8D 9D"], top="AC", wish="S")
    assert plays(s) == {"5S", "AH", "JS"}
    legal = s.legal_moves()
    assert Play("AH", wish="C") in legal  # any Ace: a new suit
    assert Play("JS", wish="Q") in legal  # the Jack of the wished suit
    assert not any(isinstance(m, Play) and m.card in (card("JH"), card("5H"), card("9C")) for m in legal)
    msg = rejected(s, Play("JH", wish="Q"), "LM-4")
    assert "♠" in msg
    rejected(s, Play("5H"), "C-3")
    rejected(s, Play("9C"), "C-3")


def test_LM_4_rank_wish_rank_or_any_jack_ace_only_if_rank_is_ace():
    s = pos(["QC AC JS 5D", "8D 9D"], top="JD", wish="Q")
    assert plays(s) == {"QC", "JS"}
    legal = s.legal_moves()
    assert Play("JS", wish="5") in legal  # any Jack: a new rank
    assert not any(isinstance(m, Play) and m.card in (card("AC"), card("5D")) for m in legal)
    msg = rejected(s, Play("AC", wish="H"), "LM-4")
    assert "Q" in msg
    rejected(s, Play("5D"), "LM-4")  # the Jack's suit ♦ does not count under a rank wish
    # rank wish A: an Ace is legal, and it names a new suit (§6.4)
    s = pos(["QC AC 5D", "8D 9D"], top="JD", wish="A")
    assert Play("AC", wish="H") in s.legal_moves() and "QC" not in plays(s)
    after = s.apply(Play("AC", wish="H"))
    assert after.wish is mm.Suit.HEARTS


def test_LM_4_wish_lasts_through_draws_until_the_next_card_is_played():
    s = pos(["AC 5S 6H", "7D 8D 6D", "7H 9H 10S"], top="9C", stock="2C 3C 4C 5D")
    s = s.apply(Play("AC", wish="H"))
    assert s.wish is mm.Suit.HEARTS
    s = s.apply(Draw())  # seat 1 draws
    assert s.wish is mm.Suit.HEARTS and s.top == card("AC")
    s = s.apply(Draw())  # seat 2 draws too
    assert s.wish is mm.Suit.HEARTS
    assert plays(s) == {"6H"}  # seat 0: 5S does not follow ♥
    s = s.apply(Play("6H", mau=True))  # the next card played ends the wish
    assert s.wish is None and s.top == card("6H")
    assert plays(s) == {"6D"}  # seat 1 (2C 6D 7D 8D) matches 6♥ by rank: no wish any more


def test_LM_4_wish_ends_when_a_special_card_fulfils_it():
    s = pos(["AC 5S 6H", "2H 8D 9D", "7H 9H 10S"], top="9C")
    s = play_seq(s, Play("AC", wish="H"), Play("2H"))
    assert s.wish is None and s.pending_draw == 2 and s.to_move == 2


def test_S6_3_same_kind_wish_card_names_a_new_wish_and_is_no_set():
    # an Ace on a suit wish names a new suit
    s = pos(["AH AS 5S", "8D 9D"], top="AC", wish="C")
    after = s.apply(Play("AH", wish="D"))
    assert after.wish is mm.Suit.DIAMONDS and after.top == card("AH")
    rejected(s, Play("AH AS"), "LM-5")  # not a set play
    # a Jack on a rank wish names a new rank
    s = pos(["JH JS 5S", "8D 9D"], top="JC", wish="9")
    after = s.apply(Play("JH", wish="K"))
    assert after.wish is mm.Rank.KING
    rejected(s, Play("JH JS"), "LM-5")


def test_S6_4_wishes_cannot_overwrite_each_other_but_a_fulfilling_wish_card_sets_its_own():
    # suit wish ♠: J♠ fulfils it and sets a rank wish; J♥ may not overwrite it
    s = pos(["JS JH 5H", "8D 9D 8S"], top="AC", wish="S")
    after = s.apply(Play("JS", wish="8"))
    assert after.wish is mm.Rank.EIGHT
    assert plays(after) == {"8D", "8S"}  # the suit wish is gone; 9D does not fit
    rejected(s, Play("JH", wish="8"), "LM-4")
    # rank wish 9: an Ace may not overwrite it (only on a wish for A)
    s = pos(["AH 9S", "8D 9D"], top="JC", wish="9")
    rejected(s, Play("AH", wish="S"), "LM-4")
    assert plays(s) == {"9S"}


# --- LM-5 sets ------------------------------------------------------------------------------------

def test_LM_5_legal_set_moves_are_listed():
    s = pos(["QS QD QC 9C 5H", "7D 8D 9D"], top="9S")
    legal = set(s.legal_moves())
    sets = {m for m in legal if isinstance(m, Play) and len(m.cards) > 1}
    # first card: the only legal queen is Q♠; then any of the others, the last one on top
    assert sets == {Play("QS QD"), Play("QS QC"), Play("QS QD QC"), Play("QS QC QD")}
    assert Play("9C") in legal and Play("QS") in legal and Draw() in legal


def test_LM_5_first_card_must_be_legal_and_last_becomes_top():
    s = pos(["QS QD QC 9C 5H", "5D 5S 6S"], top="9S")
    msg = rejected(s, Play("QD QS"), "C-3")  # Q♦ does not fit 9♠
    assert "Q♦" in msg
    rejected(s, Play("QC QS QD"), "C-3")
    after = s.apply(Play("QS QC QD"))
    assert after.top == card("QD") and after.hands[0] == cs("9C 5H")
    assert list(after.discard[-3:]) == [card("QS"), card("QC"), card("QD")]
    assert after.to_move == 1
    assert plays(after) == {"5D"}  # seat 1 matches Q♦, not Q♠: 5S/6S are out
    assert sentence(s.explain(Play("QS QC QD")))


def test_LM_5_order_of_the_middle_cards_is_normalised():
    s = pos(["7S 7D 7H 7C 9C 8C", "6D 8D 9D"], top="9S")
    assert Play("7S 7D 7H 7C") == Play("7S 7H 7D 7C")  # only first and last matter
    assert Play("7S 7D 7H 7C") != Play("7S 7D 7C 7H")  # a different top card
    after_a = s.apply(Play("7S 7D 7H 7C"))
    after_b = s.apply(Play("7S 7H 7D 7C"))
    assert after_a == after_b and after_a.top == card("7C")
    assert after_a.hands[0] == cs("8C 9C")
    legal = s.legal_moves()
    assert len(legal) == len(set(legal))  # each move once
    four = [m for m in legal if isinstance(m, Play) and len(m.cards) == 4]
    assert {m.last.text for m in four} == {"7D", "7H", "7C"} and len(four) == 3


def test_LM_5_queen_of_hearts_and_other_special_cards_are_not_allowed_in_a_set():
    s = pos(["QS QD QH 9C 5H", "7D 8D 9D"], top="9S")
    assert Play("QS QD") in s.legal_moves()
    assert s.apply(Play("QS QD")).top == card("QD")
    msg = rejected(s, Play("QS QH"), "LM-5")
    assert "Q♥" in msg
    rejected(s, Play("QS QD QH"), "LM-5")
    assert not any(card("QH") in m.cards for m in s.legal_moves() if isinstance(m, Play))


@pytest.mark.parametrize("hand, top, bad", [
    ("2S 2D 9C", "9S", "2S 2D"),
    ("3S 3D 9C", "9S", "3S 3D"),
    ("4S 4D 9C", "9S", "4S 4D"),
    ("AS AD 9C", "9S", "AS AD"),
    ("JS JD 9C", "9S", "JS JD"),
    ("KS KD 9C", "9S", "KS KD"),
    ("KC KH 9D", "9C", "KC KH"),
])
def test_LM_5_special_cards_never_form_a_set(hand, top, bad):
    s = pos([hand, "7D 8D 9H"], top=top)
    assert not any(isinstance(m, Play) and len(m.cards) > 1 for m in s.legal_moves())
    rejected(s, Play(bad), "LM-5")


def test_S6_8_sets_of_any_size_and_special_by_identity_not_rank():
    # K♣ and K♦ are ordinary kings, so they form a set; K♥/K♠ do not (LM-7)
    s = pos(["KC KD KH 5C 6C", "7D 8D 9D"], top="9C")
    legal = s.legal_moves()
    assert Play("KC KD") in legal and Play("KC KH") not in legal
    after = s.apply(Play("KC KD"))
    assert after.top == card("KD") and after.pending is None and after.to_move == 1  # no penalty
    # Q♠ Q♦ Q♣ may be played together, the Q♥ not
    s = pos(["QS QD QC 5C 6C", "7D 8D 9D"], top="9S")
    assert Play("QS QD QC") in s.legal_moves()


def test_LM_5_set_under_a_suit_wish_ends_the_wish():
    s = pos(["7H 7S 5C 6C", "8D 9D 9S"], top="AC", wish="H")
    assert Play("7H 7S") in s.legal_moves()
    assert Play("7S 7H") not in s.legal_moves()  # 7♠ does not follow the wish ♥
    after = s.apply(Play("7H 7S"))
    assert after.wish is None and after.top == card("7S")
    assert plays(after) == {"9S"}


def test_S6_9_set_announcement_and_going_out_with_a_set():
    # a set that leaves one card needs Macau; one that leaves none does not
    s = pos(["7S 7D 9C", "6D 8D 9D"], top="9S")
    legal = s.legal_moves()
    assert Play("7S 7D", mau=True) in legal and Play("7S 7D") not in legal
    forgot = s.apply(Play("7S 7D"))  # LM-13: the move stands, 5 cards at once
    assert forgot.top == card("7D") and len(forgot.hands[0]) == 1 + 5
    s = pos(["7S 7D", "6D 8D 9D"], top="9S")
    assert Play("7S 7D") in s.legal_moves()
    end = s.apply(Play("7S 7D"))
    assert end.is_over and end.winner == 0 and end.hands[0] == ()


# --- LM-6 2/3 ------------------------------------------------------------------------------------

def test_LM_6_two_three_chain_any_suit_and_accepting_ends_the_turn():
    s = pos(["2H 5H 9S", "3S 2D KH QS", "3D 4C 10S", "QC 8S JD"], top="9H")
    s = s.apply(Play("2H"))
    assert s.to_move == 1 and s.pending_draw == 2
    assert plays(s) == {"3S", "2D"}  # any 2/3, suit does not matter; K♥ does not answer
    rejected(s, Play("KH"), "LM-6", "C-5")
    rejected(s, Play("QS"), "C-5")
    s = s.apply(Play("3S"))  # 2 + 3
    assert s.to_move == 2 and s.pending_draw == 5
    assert plays(s) == {"3D"}
    s = s.apply(Play("3D"))  # 5 + 3
    assert s.to_move == 3 and s.pending_draw == 8
    assert s.legal_moves() == [Draw()]
    rejected(s, Pass(), "C-5")
    after = s.apply(Draw())
    assert len(after.hands[3]) == 3 + 8 and after.pending_draw == 0
    assert after.to_move == 0  # accepting ends the turn: next(3)
    # the 3 on top is now an ordinary card: seat 0 matches 3♦ by suit or rank
    assert after.top == card("3D") and after.pending is None
    assert plays(after) == set()  # seat 0 holds 5H 9S: neither ♦ nor 3
    assert after.legal_moves() == [Draw()]


def test_LM_6_accepted_two_is_ordinary_for_the_next_player():
    s = pos(["2H 5H 9S", "7C 8C 9C", "2C 5C KD 6D"], top="9H")
    s = play_seq(s, Play("2H"), Draw())
    assert s.to_move == 2 and s.pending is None
    # 2♥ on top, nothing pending: seat 2 matches ♥ or 2 and is not limited to answers
    assert plays(s) == {"2C"}
    assert Draw() in s.legal_moves()
    s2 = pos(["2H 5H 9S", "7C 8C 9C", "5C 6H KD"], top="9H")
    s2 = play_seq(s2, Play("2H"), Draw())
    assert plays(s2) == {"6H"}  # an ordinary card on the accepted 2


def test_LM_6_queen_of_hearts_cancels_and_next_of_responder_moves():
    s = pos(["2H 5H 9S", "QH 9C 7S", "4C 10S 5S", "QC 8S JD"], top="9H")
    s = s.apply(Play("2H"))
    assert Play("QH") in s.legal_moves()
    after = s.apply(Play("QH"))
    assert after.pending is None and after.pending_draw == 0
    assert after.to_move == 2  # next(responder)
    assert after.top == card("QH") and all(len(h) == 3 for h in after.hands[2:])
    assert after.hands[1] == cs("9C 7S")
    assert "cancel" in sentence(s.explain(Play("QH")))
    # the Q♥ on top is then an ordinary queen of hearts (LM-12)
    assert plays(after) == set()  # seat 2: 4C 10S 5S fit neither ♥ nor Q
    assert after.legal_moves() == [Draw()]


def test_LM_6_two_players_chain_comes_back_to_x():
    s = pos(["2H 3C 9S", "3S 9C 8C"], top="9H")
    s = play_seq(s, Play("2H"), Play("3S"))
    assert s.to_move == 0 and s.pending_draw == 5
    s = s.apply(Play("3C", mau=True))
    assert s.to_move == 1 and s.pending_draw == 8


# --- LM-7 kings -----------------------------------------------------------------------------------

def test_LM_7_king_of_hearts_next_draws_five():
    s = pos(["KH 5H 9S", "7D 8D 9D", "7S 8S 10S"], top="9H")
    after = s.apply(Play("KH"))
    assert after.to_move == 1 and after.pending_draw == 5
    text = sentence(s.explain(Play("KH")))
    assert "5" in text and "1" in text
    after = after.apply(Draw())
    assert len(after.hands[1]) == 3 + 5 and after.stock == s.stock[5:]
    assert after.to_move == 2


def test_LM_7_king_of_spades_prev_draws_five():
    s = pos(["KS 5H 6H", "7D 8D 9D", "7H 8H 10H"], top="9S")
    after = s.apply(Play("KS"))
    assert after.to_move == 2 and after.pending_draw == 5  # prev(0) = 2
    text = sentence(s.explain(Play("KS")))
    assert "2" in text and "5" in text
    after = after.apply(Draw())
    assert len(after.hands[2]) == 3 + 5 and len(after.hands[1]) == 3


@pytest.mark.parametrize("king", ["KC", "KD"])
def test_LM_7_clubs_and_diamonds_kings_are_ordinary(king):
    s = pos([f"{king} 5H 9S", "7D 8D 9D", "7S 8S 10S"], top="KH")
    after = s.apply(Play(king))
    assert after.pending is None and after.to_move == 1
    assert [len(h) for h in after.hands] == [2, 3, 3] and after.stock == s.stock


# --- LM-8 king responses -----------------------------------------------------------------------

def test_LM_8_other_king_raises_to_ten_next_of_responder_if_responder_was_next():
    s = pos(["KH 5H 9S", "KS 8D 9D", "QH 8S 10S", "7C 8C 2C"], top="9H")
    s = s.apply(Play("KH"))
    assert s.to_move == 1 and set(s.legal_moves()) == {Play("KS"), Draw()}
    s = s.apply(Play("KS"))  # seat 1 was next(X): next(responder) = 2 faces 10
    assert s.to_move == 2 and s.pending_draw == 10
    after = s.apply(Draw())
    assert len(after.hands[2]) == 3 + 10 and after.to_move == 3  # accepting ends the turn


def test_LM_8_other_king_raises_to_ten_next_of_x_if_responder_was_prev():
    s = pos(["KS 5H 6H", "QH 8D 9D", "KH 8S 10S", "7C 8C 2C"], top="9S")
    s = s.apply(Play("KS"))
    assert s.to_move == 3 and s.pending_draw == 5  # prev(0) = 3 with 4 players
    assert plays(s) == set()  # seat 3 holds no Q♥/K♥
    s = pos(["KS 5H 6H", "QH 8D 9D", "7C 8C 2C", "KH 8S 10S"], top="9S")
    s = s.apply(Play("KS"))
    assert s.to_move == 3 and set(s.legal_moves()) == {Play("KH"), Draw()}
    s = s.apply(Play("KH"))  # responder was prev(X): next(X) = 1 faces 10
    assert s.to_move == 1 and s.pending_draw == 10
    after = s.apply(Draw())
    assert len(after.hands[1]) == 3 + 10 and after.to_move == 2


def test_LM_8_facing_ten_only_queen_of_hearts_or_draw():
    s = pos(["KH 5H 9S", "KS 8D 9D", "QH 2H 3H 4H KC", "7C 8C 2C"], top="9H")
    s = play_seq(s, Play("KH"), Play("KS"))
    assert s.to_move == 2 and s.pending_draw == 10
    assert set(s.legal_moves()) == {Play("QH"), Draw()}
    rejected(s, Play("2H"), "C-5")
    rejected(s, Play("KC"), "C-5")
    rejected(s, Play("4H"), "C-5")
    after = s.apply(Play("QH"))  # Q♥ cancels the 10
    assert after.pending is None and after.to_move == 3
    assert [len(h) for h in after.hands] == [2, 2, 4, 3]


def test_LM_8_queen_of_hearts_cancels_a_king_penalty():
    s = pos(["KH 5H 9S", "QH 8D 9D", "7S 8S 10S"], top="9H")
    s = s.apply(Play("KH"))
    after = s.apply(Play("QH"))
    assert after.pending is None and after.to_move == 2 and after.stock == s.stock
    assert after.hands[1] == cs("8D 9D")


def test_LM_8_kings_and_two_three_never_answer_each_other():
    s = pos(["KH 5H 9S", "2H 3D 8D", "7S 8S 10S"], top="9H")
    s = s.apply(Play("KH"))
    assert s.legal_moves() == [Draw()]
    # LM-8 says how a king penalty may be answered, so its refusals cite LM-8 (not LM-7).
    rejected(s, Play("2H"), "LM-8", "C-5")
    rejected(s, Play("3D"), "LM-8", "C-5")
    s = pos(["2H 5H 9S", "KH KS 8D", "7S 8S 10S"], top="9H")
    s = s.apply(Play("2H"))
    assert s.legal_moves() == [Draw()]
    rejected(s, Play("KH"), "LM-6", "C-5")
    rejected(s, Play("KS"), "LM-6", "C-5")


# --- LM-9 backward target -------------------------------------------------------------------------

def test_LM_9_king_of_spades_target_answers_out_of_turn_then_next_of_x_moves():
    s = pos(["KS 5H 6H", "7D 8D 9D", "7H 8H 10H"], top="9S")
    s = s.apply(Play("KS"))
    assert s.to_move == 2  # prev(0) answers out of turn
    after = s.apply(Draw())
    assert after.to_move == 1  # then next(X) moves, as usual
    assert len(after.hands[2]) == 8 and after.pending is None


def test_LM_9_queen_of_hearts_from_the_backward_target_then_next_of_x_moves():
    s = pos(["KS 5H 6H", "7D 8D 9D", "QH 8H 10H", "7C 8C 2C"], top="9S")
    s = s.apply(Play("KS"))
    assert s.to_move == 3 and s.pending_draw == 5
    s = pos(["KS 5H 6H", "7D 8D 9D", "7C 8C 2C", "QH 8H 10H"], top="9S")
    s = s.apply(Play("KS"))
    assert s.to_move == 3 and Play("QH") in s.legal_moves()
    after = s.apply(Play("QH"))
    assert after.pending is None and after.to_move == 1  # next(X), not next(3) = 0
    assert after.stock == s.stock


def test_LM_9_next_of_x_is_target_of_ten_after_a_king_answer_three_players():
    s = pos(["KS 5H 6H", "QH 8D 9D", "KH 8H 10H"], top="9S")
    s = play_seq(s, Play("KS"), Play("KH"))
    assert s.to_move == 1 and s.pending_draw == 10
    assert set(s.legal_moves()) == {Play("QH"), Draw()}
    after = s.apply(Play("QH"))
    assert after.to_move == 2 and after.pending is None  # next(responder)


def test_LM_9_two_players_king_of_spades_acts_like_king_of_hearts():
    s = pos(["KS 5H 6H", "7D 8D 9D"], top="9S")
    s = s.apply(Play("KS"))
    assert s.to_move == 1 and s.pending_draw == 5  # nobody targets themselves
    after = s.apply(Draw())
    assert len(after.hands[1]) == 8 and after.to_move == 0
    s = pos(["KS 5H 6H", "KH 8D 9D"], top="9S")
    s = play_seq(s, Play("KS"), Play("KH"))
    assert s.to_move == 0 and s.pending_draw == 10  # next(responder)


# --- LM-10 ------------------------------------------------------------------------------------

def test_LM_10_next_player_target_loses_the_turn_by_accepting():
    s = pos(["KH 5H 9S", "7D 8D 9D", "7S 8S 10S"], top="9H")
    s = play_seq(s, Play("KH"), Draw())
    assert s.to_move == 2  # seat 1 drew 5 and does not play
    s = pos(["2H 5H 9S", "7D 8D 9D", "7S 8S 10S"], top="9H")
    s = play_seq(s, Play("2H"), Draw())
    assert s.to_move == 2 and len(s.hands[1]) == 5


def test_LM_10_a_response_card_is_the_turn():
    s = pos(["KH 5H 9S", "KS 8D 9D", "7S 8S 10S"], top="9H")
    s = play_seq(s, Play("KH"), Play("KS"))
    assert s.to_move == 2 and s.hands[1] == cs("8D 9D")  # seat 1 moved once, with its answer


def test_LM_10_backward_target_keeps_its_own_turn():
    # the K♠ target is not the next player: after accepting, next(X) moves and then it
    # still takes its normal turn
    s = pos(["KS 5H 6H", "7D 8D QS", "7H 8H 10H"], top="9S")
    s = play_seq(s, Play("KS"), Draw())
    assert s.to_move == 1
    s = s.apply(Play("QS"))
    assert s.to_move == 2 and len(s.hands[2]) == 8
    assert Draw() in s.legal_moves()


# --- LM-11 4 (skip) -------------------------------------------------------------------------------

def test_LM_11_four_skips_next():
    s = pos(["4H 5H 9S", "7D 8D 9D", "7S 8S 10S"], top="9H")
    s = s.apply(Play("4H"))
    assert s.to_move == 1 and s.pending_skip == 1
    assert s.legal_moves() == [Pass()]
    rejected(s, Draw(), "C-5")
    rejected(s, Play("9D"), "LM-11", "C-5")
    after = s.apply(Pass())
    assert after.to_move == 2 and after.hands == s.hands and after.stock == s.stock
    assert sentence(s.explain(Pass()))


def test_LM_11_any_four_passes_one_skip_on_and_skips_are_not_summed():
    s = pos(["4H 5H 9S", "4S 8D 9D", "4C 8S 10S", "7C 8C 2C"], top="9H")
    s = s.apply(Play("4H"))
    assert plays(s) == {"4S"}  # any 4 answers (suit does not matter)
    s = s.apply(Play("4S"))
    assert s.to_move == 2 and s.pending_skip == 1  # one skip, passed on
    s = s.apply(Play("4C"))
    assert s.to_move == 3 and s.pending_skip == 1  # still one, not 3
    after = s.apply(Pass())
    assert after.to_move == 0  # exactly seat 3 was skipped


def test_LM_11_queen_of_hearts_and_two_do_not_answer_a_skip():
    s = pos(["4H 5H 9S", "QH 2H 9D", "7S 8S 10S"], top="9H")
    s = s.apply(Play("4H"))
    assert s.legal_moves() == [Pass()]
    rejected(s, Play("QH"), "LM-11", "C-5")
    rejected(s, Play("2H"), "LM-11", "C-5")


def test_LM_11_two_players_x_moves_again():
    s = pos(["4H 5H 9S", "7D 8D 9D"], top="9H")
    s = play_seq(s, Play("4H"), Pass())
    assert s.to_move == 0 and plays(s) == {"5H"}


# --- LM-12 --------------------------------------------------------------------------------------

def test_LM_12_queen_of_hearts_without_a_penalty_is_ordinary():
    s = pos(["QH 5C 9S", "7D 8D 9D", "7S 8S 10S"], top="8C")
    assert "QH" not in plays(s) and "5C" in plays(s)  # must match like any card
    rejected(s, Play("QH"), "C-3")
    s = pos(["QH 5C 9S", "7D 8D 9D", "7S 8S 10S"], top="5H")
    after = s.apply(Play("QH"))
    assert after.pending is None and after.to_move == 1 and after.stock == s.stock
    assert after.top == card("QH")
    s = pos(["QH 5C 9S", "7D 8D 9D", "7S 8S 10S"], top="QC")
    assert "QH" in plays(s)


# --- LM-13 ------------------------------------------------------------------------------------

def test_LM_13_missing_macau_costs_five_cards_drawn_at_once():
    s = pos(["5S 6S", "7D 8D 9D"], top="5C")
    assert s.legal_moves() == [Play("5S", mau=True), Draw()]
    after = s.apply(Play("5S"))  # the move stands
    assert after.top == card("5S") and after.to_move == 1
    assert Counter(after.hands[0]) == Counter(mm.cards("6S") + s.stock[:5])
    assert after.stock == s.stock[5:]
    assert "5" in sentence(s.explain(Play("5S")))
    said = s.apply(Play("5S", mau=True))
    assert said.hands[0] == cs("6S") and said.stock == s.stock


def test_LM_13_missing_macau_on_a_special_card_keeps_its_effect():
    s = pos(["2S 6S", "7D 8D 9D"], top="5S")
    after = s.apply(Play("2S"))
    assert len(after.hands[0]) == 6 and after.pending_draw == 2 and after.to_move == 1
    # answering a penalty also needs the announcement
    s = pos(["2S 6S 7S", "3S 9D", "7D 8D 9H"], top="5S")
    s = s.apply(Play("2S"))
    assert Play("3S", mau=True) in s.legal_moves() and Play("3S") not in s.legal_moves()
    after = s.apply(Play("3S"))
    assert len(after.hands[1]) == 1 + 5 and after.pending_draw == 5 and after.to_move == 2


def test_LM_13_going_out_needs_no_announcement():
    s = pos(["5S", "7D 8D 9D"], top="5C")
    end = s.apply(Play("5S"))
    assert end.is_over and end.winner == 0 and end.stock == s.stock


# --- LM-14 scoring --------------------------------------------------------------------------------

def test_LM_14_going_out_scores_one_point_and_two_win_the_match():
    vp = mm.variant(LITE).rule("victory_points")
    end = pos(["7D 8D 9D", "5S", "6C 7C"], top="5C", to_move=1).apply(Play("5S"))
    assert end.winner == 1
    assert vp.hand_scores(end) == [0, 1, 0]
    alive = [True, True, True]
    assert not vp.match_over([1, 1, 0], alive)
    assert vp.match_over([0, 2, 1], alive)
    assert vp.winners([0, 2, 1], alive) == (1,)
    assert mm.variant(LITE, points_to_win=3).rule("victory_points").match_over([0, 2, 1], alive) is False


# --- RULES.md §6 decisions 1, 2, 5, 7 --------------------------------------------------------------

def test_S6_1_no_jokers_and_nothing_reverses():
    assert mm.JOKER not in mm.variant(LITE).deck
    s = pos(["9C 5D 6D", "9D 6H 7H", "7S 8S 10S"], top="9H")
    for move in (Play("9C"), Play("9D")):
        s = s.apply(move)
        assert s.direction == 1
    assert s.to_move == 2


def test_S6_2_kings_maximum_is_ten():
    # both special kings used: the 10 can only be cancelled or drawn, never raised
    s = pos(["KH 5H 9S", "KS 8D 9D", "QH 7H 8H"], top="9H")
    s = play_seq(s, Play("KH"), Play("KS"))
    assert s.pending_draw == 10
    assert all(isinstance(m, Draw) or m.card == card("QH") for m in s.legal_moves())


def test_S6_5_S6_6_wish_survives_draws_and_the_drawn_card_is_not_played():
    s = pos(["AC 5S 6S", "7D 8D 9D"], top="9C", stock="7H 8C 2C")
    s = play_seq(s, Play("AC", wish="H"), Draw())
    assert card("7H") in s.hands[1]  # 7H fulfils the wish, but seat 1's turn is over
    assert s.to_move == 0 and s.wish is mm.Suit.HEARTS


def test_S6_7_penalties_do_not_cross_stack_and_accepting_ends_the_turn():
    s = pos(["3H 5H 9S", "KH 2C 8D", "7S 8S 10S"], top="9H")
    s = s.apply(Play("3H"))
    assert plays(s) == {"2C"}  # K♥ does not answer a 3
    s = s.apply(Play("2C"))
    assert s.pending_draw == 5 and s.to_move == 2
    after = s.apply(Draw())
    assert after.to_move == 0 and len(after.hands[2]) == 8
