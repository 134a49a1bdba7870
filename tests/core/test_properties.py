"""Random-play properties for every variant and every allowed player count.

Seeded loops play many whole games cheaply; hypothesis explores odd corners with the
full set of checks.  Invariants: card conservation, legal moves never empty before the
end and each listed once, every legal move applies, apply never mutates its input, the
same seed gives the same game, a JSON round trip mid-game continues identically, and
games end.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau.core.state import apply_move

CASES = [(name, n) for name in mm.variant_names() for n in range(mm.variant(name).players[0],
                                                                   mm.variant(name).players[1] + 1)]
MOVE_CAP = 20_000


def all_cards(state: mm.GameState) -> Counter:
    return Counter(c for h in state.hands for c in h) + Counter(state.stock) + Counter(state.discard)


def play_random(name: str, players: int, seed: int, cap: int = MOVE_CAP):
    """A random game; returns (states, moves)."""
    rng = random.Random(seed)
    state = mm.deal(name, players=players, seed=seed)
    states, moves = [state], []
    while not state.is_over and len(moves) < cap:
        move = rng.choice(state.legal_moves())
        state = state.apply(move)
        states.append(state)
        moves.append(move)
    return states, moves


GAMES_PER_VARIANT = 1000


@pytest.mark.slow  # 25 s of the pure-Python engine: `make test` runs it, `make test-fast` does not
@pytest.mark.parametrize("name", mm.variant_names())
def test_a_thousand_random_games_keep_every_invariant(name: str) -> None:
    """1000 whole games per variant, over every allowed player count: cheap invariants at
    every state, the full card count and hand order every 25 states and at the end."""
    v = mm.variant(name)
    deck, size = Counter(v.deck), len(v.deck)
    counts = range(v.players[0], v.players[1] + 1)
    capped = blocked = 0
    for seed in range(GAMES_PER_VARIANT):
        players = counts[seed % len(counts)]
        rng = random.Random(seed)
        state = mm.deal(name, players=players, seed=seed)
        for i in range(MOVE_CAP):
            assert len(state.stock) + len(state.discard) + sum(map(len, state.hands)) == size
            if i % 25 == 0:
                assert all_cards(state) == deck  # C-1: every card in exactly one place
                assert all(list(h) == sorted(h) for h in state.hands)
            legal = state.legal_moves()
            if state.is_over:
                assert legal == []
                break
            assert legal, f"no legal move in {state!r}"
            if i % 25 == 0:
                assert len(set(legal)) == len(legal), "a legal move listed twice"
            state = state.apply(rng.choice(legal))
        else:
            capped += 1
        assert all_cards(state) == deck
        if state.is_over:
            blocked += state.blocked
            assert state.blocked == (state.winner is None)
            assert state.winner is None or state.hands[state.winner] == ()
    print(f"{name}: {GAMES_PER_VARIANT} games, {blocked} blocked (C-7), {capped} hit the move cap")
    assert capped == 0, f"{capped} games hit the {MOVE_CAP}-move cap"


@pytest.mark.parametrize(("name", "players"), CASES)
def test_same_seed_same_game(name: str, players: int) -> None:
    a_states, a_moves = play_random(name, players, seed=11)
    b_states, b_moves = play_random(name, players, seed=11)
    assert a_moves == b_moves and a_states == b_states
    assert mm.deal(name, players=players, seed=11) != mm.deal(name, players=players, seed=12)


@pytest.mark.parametrize("name", mm.variant_names())
def test_fast_paths_agree_with_the_general_turn(name: str) -> None:
    """The engine's shortcuts for plain cards and plain draws change nothing."""
    for seed in range(8):
        states, moves = play_random(name, 2 + seed % 2, seed)
        for state, move in zip(states, moves, strict=False):
            fast = apply_move(state, move, fast=True)
            slow = apply_move(state, move, fast=False)
            assert fast == slow and fast.events == slow.events


def check_state_fully(state: mm.GameState, deck: Counter) -> None:
    """Every legal move applies, changes nothing in place, explains itself; JSON round trip."""
    before = state.to_dict()
    assert all_cards(state) == deck
    for move in state.legal_moves():
        after = state.apply(move)
        assert all_cards(after) == deck
        assert state.why_illegal(move) is None
        assert isinstance(state.explain(move), str) and state.explain(move)
    assert state.to_dict() == before, "apply mutated its input"
    again = mm.Game.from_json(mm.Game(state).to_json()).state
    assert again == state and hash(again) == hash(state)
    assert again.legal_moves() == state.legal_moves()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 99), max_size=120))
def test_hypothesis_games(case: tuple[str, int], seed: int, choices: list[int]) -> None:
    name, players = case
    deck = Counter(mm.variant(name).deck)
    state = mm.deal(name, players=players, seed=seed)
    game = mm.Game(state)
    for i, pick in enumerate(choices):
        if state.is_over:
            break
        legal = state.legal_moves()
        if i % 10 == 0:
            check_state_fully(state, deck)
        state = game.apply(legal[pick % len(legal)])
    check_state_fully(state, deck)
    # the saved game replays to the same state, and goes on identically
    loaded = mm.Game.from_json(game.to_json())
    assert loaded.state == state and loaded.moves == game.moves


@settings(max_examples=80, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32), text=st.sampled_from(
    ["2C", "7H", "JD", "AS", "QH", "KS", "8C 8D", "QS QD", "JOKER", "10H"]),
    wish=st.sampled_from([None, "H", "Q"]), mau=st.booleans(), runde=st.booleans())
def test_illegal_moves_change_nothing(case: tuple[str, int], seed: int, text: str, wish: str | None,
                                      mau: bool, runde: bool) -> None:
    name, players = case
    state = mm.deal(name, players=players, seed=seed)
    for move in (mm.Play(text, wish=wish, mau=mau, runde=runde), mm.Draw(), mm.Pass()):
        before = state.to_dict()
        reason = state.why_illegal(move)
        if reason is None:
            state.apply(move)
        else:
            with pytest.raises(mm.IllegalMove) as err:
                state.apply(move)
            assert str(err.value) == reason and reason.endswith((".", ")"))
        assert state.to_dict() == before
