"""The pace of the computers' moves at the card table.

In JupyterLab each computer moves ``delay`` seconds after the last move, scheduled on the
kernel's event loop with ``call_later``: the kernel stays free in between, so the learner sees
every move and can still click.  With ``step=True`` a computer moves only when asked ("Next
move").  Without a running event loop (tests, scripts) nobody could wait, so the computers
move at once.  The scheduler decides only *when*; what a move is, the controller decides.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from ..core.state import GameState

__all__ = ["Scheduler", "Turns", "running_loop", "MAX_MOVES"]

MAX_MOVES = 20_000  # a hand of random players can be long, but not endless


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread (a Jupyter kernel's), or None (tests, scripts)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Turns(Protocol):
    """What the scheduler needs of the hand in progress (the table's controller)."""

    @property
    def state(self) -> GameState: ...

    @property
    def me(self) -> int | None: ...

    def computer_move(self, show: bool = True) -> None: ...

    def changed(self) -> None: ...

    def end_hand(self) -> None: ...


class Scheduler:
    """Lets the computers move, one after another, until it is the learner's turn."""

    def __init__(self, delay: float, step: bool) -> None:
        self.delay, self.step = float(delay), bool(step)
        # A scheduled move carries the token of its time; cancel() moves the token on, so a
        # move already on its way (undo, a new hand) is dropped even if the loop runs it.
        self._token = 0
        self._handle: asyncio.TimerHandle | None = None

    def advance(self, turns: Turns) -> None:
        """Let the computers move until it is the learner's turn or the hand is over."""
        state = turns.state
        if state.is_over:
            turns.end_hand()
            return
        if state.to_move == turns.me or (self.step and turns.me is not None):
            return
        # Out of the match, the learner just sees the hand's end; else the computers take their time.
        loop = running_loop() if self.delay > 0 and turns.me is not None else None
        if loop is not None:
            self._handle = loop.call_later(self.delay, self._tick, turns, self._token)
            return
        for _ in range(MAX_MOVES):
            state = turns.state
            if state.is_over or state.to_move == turns.me:
                break
            turns.computer_move(show=False)  # drawn once at the end: nobody could see the moves between
        turns.changed()
        if turns.state.is_over:
            turns.end_hand()

    def _tick(self, turns: Turns, token: int) -> None:
        if token != self._token:  # cancelled after it was scheduled
            return
        self._handle = None
        turns.computer_move()
        self.advance(turns)

    def cancel(self) -> None:
        """Drop the computer move that is waiting, if any (the hand changed under it)."""
        self._token += 1
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
