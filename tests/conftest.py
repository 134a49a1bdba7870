"""Shared test helpers for the rule scenario tests."""

import pytest

import maumau as mm


def play_seq(state, *moves):
    """Apply ``moves`` in order and return the final state."""
    for move in moves:
        state = state.apply(move)
    return state


def cs(text):
    """Cards as a sorted list, for comparing hands."""
    return sorted(mm.cards(text))


def hand(s, seat):
    return sorted(s.hands[seat])


def snapshot(s):
    return (s.hands, s.stock, s.discard, s.to_move, s.direction, s.wish, s.pending, s.phase,
            s.runde, s.locked, s.active, s.is_over, s.winner)


def assert_illegal(s, move, *rule_ids):
    """The move is not listed, apply() raises IllegalMove naming the rule, nothing changes."""
    before = snapshot(s)
    assert move not in s.legal_moves()
    with pytest.raises(mm.IllegalMove) as err:
        s.apply(move)
    message = str(err.value)
    for rule_id in rule_ids:
        assert rule_id in message, message
    assert snapshot(s) == before
    assert s.explain(move) == message
    return message


def assert_sentence(s, move):
    text = s.explain(move)
    assert isinstance(text, str) and text.endswith(".") and len(text.split()) >= 3, text
    return text


def plays(s):
    return {m for m in s.legal_moves() if isinstance(m, mm.Play)}
