"""The heuristic's shortcuts choose what its scores choose (maumau.players.heuristic, issue 29): over
random states of every variant and table size, best_move is the first legal move with the highest score,
on the GameState and on the seat's View alike."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau.players import View
from maumau.players.heuristic import best_move, score_moves


def states(variant: str, players: int, seed: int, count: int = 300) -> list[mm.GameState]:
    """States met in hands of random and heuristic play (both make the mixes of moves the shortcuts see)."""
    rng, found, hand = random.Random(seed), [], 0
    while len(found) < count:
        state = mm.deal(variant, players=players, seed=seed * 1000 + hand)
        hand += 1
        while not state.is_over and len(found) < count:
            found.append(state)
            moves = state.legal_moves()
            state = state.apply(rng.choice(moves) if rng.random() < 0.5 else best_move(state))
    return found


@pytest.mark.parametrize("variant", mm.variant_names())
@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_best_move_is_the_first_highest_score(variant, players, seed):
    lo, hi = mm.variant(variant).players
    players = min(max(players, lo), hi)
    for state in states(variant, players, seed):
        moves = state.legal_moves()
        scores = score_moves(state, moves)
        expected = moves[scores.index(max(scores))]
        view = View(state)
        assert best_move(state) == expected == best_move(view)
        assert score_moves(view, view.legal_moves) == scores
