"""Computer players: legal moves, Mau, hidden cards never seen, strengths, heuristic habits."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import maumau as mm
from maumau.players import STRENGTHS, Heuristic, Player, Random, Search, View, for_strength, strength_names

VARIANTS = mm.variant_names()


def states_along_play(variant: str, players: int = 2, games: int = 3, every: int = 3, seed: int = 0) -> list:
    """States met along a few games of random and heuristic play (every few decisions)."""
    rng = random.Random(seed)
    found = []
    for game in range(games):
        state = mm.deal(variant, players=players, seed=seed * 100 + game)
        policy = [Random(game), Heuristic()] * 3
        moves = 0
        while not state.is_over and moves < 400:
            if moves % every == 0:
                found.append(state)
            state = state.apply(policy[state.to_move].choose(state))
            moves += 1
        rng.shuffle(found)
    return found


def reshuffle_hidden(state, rng: random.Random):
    """The same situation for the player to move, with the other hands, the stock and the
    reshuffle seed replaced by a consistent reshuffle of the cards it cannot see."""
    me = state.to_move
    hidden = [c for seat, hand in enumerate(state.hands) if seat != me for c in hand] + list(state.stock)
    rng.shuffle(hidden)
    hands, at = [], 0
    for seat, hand in enumerate(state.hands):
        if seat == me:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(hidden[at:at + len(hand)], key=lambda c: c.index)))
            at += len(hand)
    return state.replace(hands=tuple(hands), stock=tuple(hidden[at:]), seed=rng.getrandbits(63))


# --- every player -----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_players_choose_legal_moves_and_always_announce(variant):
    players = [Random(1), Heuristic(), Search(samples=4, seed=1)]
    for state in states_along_play(variant, players=3, games=2, every=4)[:40]:
        legal = state.legal_moves()
        for player in players:
            move = player.choose(state)
            assert move in legal, (player, move, legal)
            if isinstance(move, mm.Play) and len(state.hands[state.to_move]) - len(move.cards) == 1:
                assert move.mau, (player, move)


def test_players_follow_the_protocol():
    for player in (Random(), Heuristic(), Search()):
        assert isinstance(player, Player)
        player.reseed(5)
    assert repr(Search(samples=8, depth=4)) == "Search(samples=8, depth=4)"


@pytest.mark.parametrize("variant", VARIANTS)
def test_players_never_see_hidden_cards(variant):
    """A player handed the same situation with the others' hands and the stock reshuffled
    (consistently: same sizes, same unseen cards) makes the same move."""
    rng = random.Random(7)
    states = [s for s in states_along_play(variant, players=3, games=3) if len(s.legal_moves()) > 1]
    assert len(states) >= 10
    changed = 0
    for state in states[:25]:
        other = reshuffle_hidden(state, rng)
        changed += other.hands != state.hands or other.stock != state.stock
        assert View(other) == View(state)
        assert Heuristic().choose(other) == Heuristic().choose(state)
        assert Search(samples=6, seed=3).choose(other) == Search(samples=6, seed=3).choose(state)
    assert changed >= 10  # the test really changed what the players cannot see


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_sampled_deal_agrees_with_the_view(variant):
    rng = random.Random(2)
    for state in states_along_play(variant, players=3, games=1)[:15]:
        view = View(state)
        guess = view.sample(rng)
        assert View(guess) == view
        assert guess.hands[view.seat] == state.hands[view.seat]
        assert Counter(c for h in guess.hands for c in h) + Counter(guess.stock) + Counter(guess.discard) \
            == Counter(state.variant.deck)
        assert guess.legal_moves() == state.legal_moves()


def test_search_deals_a_player_who_just_drew_no_card_that_fits():
    from maumau.core.playable import legal_cards
    from maumau.players.search import drew_for_want

    s = mm.position("makao", hands=["5H 6C 9D", "2S 3S 4S KD"], top="5C", stock="QH 8D 10S 4D", to_move=1)
    s = s.apply(mm.Draw())  # seat 1 had nothing to play on 5C
    view = View(s)
    lacking = drew_for_want(view)
    assert list(lacking) == [1] and lacking[1][1] == 1  # all but the card just drawn
    playable = legal_cards(s.variant, s.table)
    rng = random.Random(3)
    for _ in range(30):
        guess = view.sample(rng, lacking=lacking)
        assert View(guess) == view
        assert sum(c in playable for c in guess.hands[1]) <= 1
    assert drew_for_want(View(mm.deal("makao", seed=1))) == {}


def test_a_view_hides_the_drawn_card_from_other_seats():
    s = mm.position("mau_mau_runde", hands=["7H 8C", "9S KS"], top="9H", stock="10H QC QD", to_move=0)
    after = s.apply(mm.Play("7H")).apply(mm.Draw())  # seat 1 takes 2 and moves on normally
    drawn = mm.position("mau_mau_runde", hands=["8C", "9S KS"], top="7D", stock="10D QC", to_move=1)
    drawn = drawn.apply(mm.Draw())
    assert drawn.phase == "drawn"
    assert View(drawn).drawn is not None and View(drawn, seat=0).drawn is None
    assert View(after, seat=0).legal_moves == ()
    with pytest.raises(ValueError, match="seat"):
        View(s, seat=5)


# --- strengths -----------------------------------------------------------------------------------------

def test_strength_names_map_to_the_players():
    assert STRENGTHS == {"easy": "Random", "medium": "Heuristic", "hard": "Search"}
    assert type(for_strength("easy")) is Random
    assert type(for_strength("medium")) is Heuristic
    assert type(for_strength("hard", seed=4)) is Search
    assert type(for_strength("Search")) is Search and type(for_strength(" heuristic ")) is Heuristic
    assert for_strength("hard", seed=4).seed == 4
    assert strength_names() == ["easy", "medium", "hard", "random", "heuristic", "search"]


@pytest.mark.parametrize("bad", ["expert", "", "hardest"])
def test_unknown_strength_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="unknown strength .*choose one of easy, medium, hard"):
        for_strength(bad)


def test_strength_must_be_a_name():
    with pytest.raises(TypeError, match="a strength is a name"):
        for_strength(3)


@pytest.mark.parametrize("options, message", [
    ({"samples": 0}, "samples"), ({"depth": -1}, "depth"), ({"time_limit": 0}, "time_limit"),
    ({"confidence": -1}, "confidence"), ({"width": 0}, "width"),
])
def test_search_rejects_bad_budgets(options, message):
    with pytest.raises(ValueError, match=message):
        Search(**options)


def test_search_is_reproducible_with_a_seed_and_honours_a_time_limit():
    state = next(s for s in states_along_play("makao", games=2) if len(Search().candidates(s)) > 2)
    assert Search(seed=9, samples=10).choose(state) == Search(seed=9, samples=10).choose(state)
    assert Search(seed=9, samples=10_000, time_limit=0.01).choose(state) in state.legal_moves()


# --- what the heuristic does ------------------------------------------------------------------------------

def test_heuristic_goes_out_when_it_can():
    s = mm.position("makao", hands=["5H", "2C 3C"], top="9H", stock="4D 5D 6D")
    assert Heuristic().choose(s) == mm.Play("5H")
    s = mm.position("makao", hands=["5H JC", "2C 3C"], top="5C", stock="4D 5D 6D")
    assert Search(seed=1).choose(s.apply(mm.Play("5H", mau=True)).apply(mm.Draw())) == mm.Play("JC", wish="C")


def test_heuristic_answers_a_penalty_instead_of_drawing():
    s = mm.position("makao", hands=["7S 4D 9C", "7H 3C 2D"], top="7H", stock="4H 5H 6H 8D", pending_draw=2)
    assert Heuristic().choose(s) == mm.Play("7S")


def test_heuristic_keeps_wild_cards_and_wishes_the_suit_it_holds_most():
    s = mm.position("makao", hands=["JC 5H 6S", "2C 3C 4C"], top="5D", stock="4H 5C 6D")
    assert Heuristic().choose(s) == mm.Play("5H")  # not the Jack
    s = mm.position("makao", hands=["JC 2S 6S 10D", "2C 3C 4C"], top="5H", stock="4H 5C 6D")
    assert Heuristic().choose(s) == mm.Play("JC", wish="S")


def test_heuristic_plays_sets_and_opens_a_runde_that_pays():
    s = mm.position("lite_macau", hands=["5S 5D 5C 9H", "6C 7C 8C"], top="5H", stock="10H 10C 10D")
    assert len(Heuristic().choose(s).cards) == 3
    s = mm.position("mau_mau_runde", hands=["QH QS QC 9D", "7C 8S 10S"], top="10H", stock="KH KD KS")
    assert Heuristic().choose(s) == mm.Play("QH", runde=True)


def test_heuristic_beats_random_in_a_short_run():
    r = mm.simulate("makao", players=["heuristic", "random"], games=60, seed=5, executor="serial", progress=False)
    assert r.by_player()[0]["win_rate"] > 0.75
