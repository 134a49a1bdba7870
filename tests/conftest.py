"""Shared test helpers."""


def play_seq(state, *moves):
    """Apply ``moves`` in order and return the final state."""
    for move in moves:
        state = state.apply(move)
    return state
