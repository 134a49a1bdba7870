"""What kind of decision a state asks for: its turn phase (``phase_of``).

This sits apart from ``phases`` (the machines built from many played hands) because both the
state graph and the phase machines name the phase of a state: ``explore`` gives every node
its phase, and ``phases`` builds on ``explore``'s node attributes for a played hand.  With
``phase_of`` here the imports run one way, ``phases`` → ``explore`` → ``turn_phase``, with no
cycle between the two bigger modules.
"""

from __future__ import annotations

from ..core.state import DRAWN, EXTRA, GameState

__all__ = ["phase_of", "NORMAL", "OVER", "BLOCKED"]

NORMAL = "normal turn"
OVER = "hand over"
BLOCKED = "blocked (void)"


def phase_of(state: GameState) -> str:
    """The kind of decision ``state`` asks for, e.g. ``"penalty: seven_draws_two"``.

    A pending effect is named after the rule that started it, so every variant gets the
    phases its own rules make.
    """
    if state.is_over:
        return BLOCKED if state.blocked else OVER
    pending = state.pending
    if pending is not None:
        return f"{'penalty' if pending.kind == 'draw' else 'skip'}: {pending.rule.name}"
    if state.to_move in state.locked:
        return "last card locked"
    if state.phase == DRAWN:
        return "drawn-card choice"
    if state.phase == EXTRA:
        return "Ace extra play"
    if state.runde is not None:
        return "Runde running"
    if state.wish is not None:
        return "wish active"
    return NORMAL
