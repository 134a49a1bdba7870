"""Game: a hand being played, with its history, undo, replay and a saved form."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..core.moves import Move, move_from_dict
from ..core.state import GameState, IllegalMove
from ..core.validate import is_whole, show
from .serialize import FORMAT_VERSION, FormatError, state_from_dict, state_to_dict

if TYPE_CHECKING:  # pragma: no cover
    from ..players import Player

__all__ = ["Game", "FormatError"]

GAME_FORMAT = "maumau.game"


class Game:
    """A mutable wrapper for stepping through one hand.

    The states are immutable, so the history is simply every state with the move made
    in it; ``undo()`` drops the last one (O(1)) and nothing is recomputed.

    >>> import maumau as mm
    >>> g = mm.Game(mm.deal("makao", players=2, seed=1))
    >>> first = g.state.legal_moves()[0]
    >>> _ = g.apply(first); len(g), g.undo() == first, len(g)
    (1, True, 0)
    """

    def __init__(self, start: GameState) -> None:
        if not isinstance(start, GameState):
            raise TypeError(f"a Game starts from a GameState (mm.deal or mm.position), not {start!r}")
        self._states: list[GameState] = [start]
        self._moves: list[Move] = []

    # --- stepping -------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The current state."""
        return self._states[-1]

    @property
    def start(self) -> GameState:
        return self._states[0]

    @property
    def moves(self) -> list[Move]:
        """The moves made so far, in order."""
        return list(self._moves)

    @property
    def states(self) -> list[GameState]:
        """Every state from the start to now (one more than there are moves)."""
        return list(self._states)

    @property
    def history(self) -> list[tuple[GameState, Move]]:
        """(state, move made in it) for every move so far."""
        return list(zip(self._states, self._moves, strict=False))

    def __len__(self) -> int:
        return len(self._moves)

    def apply(self, move: Move) -> GameState:
        """Make a move; IllegalMove leaves the game as it was."""
        nxt = self.state.apply(move)
        self._states.append(nxt)
        self._moves.append(move)
        return nxt

    def undo(self) -> Move:
        """Take back the last move and return it (O(1))."""
        if not self._moves:
            raise IndexError("nothing to undo: the game is at its start")
        self._states.pop()
        return self._moves.pop()

    def at(self, turn: int) -> GameState:
        """The state after ``turn`` moves (0 is the start; negative counts from the end)."""
        return self._states[turn]

    def play(self, players: Sequence[Player], max_moves: int = 100_000) -> GameState:
        """Let ``players[seat]`` play until the hand ends (or ``max_moves``): each is asked with
        ``maumau.players.ask``, so a player not of maumau's own sees only its seat's View, and
        an illegal move raises ``IllegalChoice`` naming the player."""
        from ..players.base import ask  # not at import time: the players' package imports the engine

        for _ in range(max_moves):
            state = self.state
            if state.is_over:
                break
            self.apply(ask(players[state.to_move], state))
        return self.state

    def explanations(self) -> list[str]:
        """One sentence per move: what it did."""
        from ..text.explain import narrate

        return [narrate(s, m, n) for s, m, n in zip(self._states, self._moves, self._states[1:], strict=False)]

    def __iter__(self) -> Iterator[GameState]:
        return iter(self._states)

    # --- replay and saving -------------------------------------------------------------------------
    @classmethod
    def replay(cls, start: GameState, moves: Sequence[Move]) -> Game:
        """A game made by playing ``moves`` from ``start``; the same moves always give the
        same game, because randomness comes only from the seed."""
        game = cls(start)
        for i, move in enumerate(moves):
            try:
                game.apply(move)
            except IllegalMove as err:
                raise IllegalMove(f"move {i + 1} ({move}) is illegal: {err.reason}", move) from None
        return game

    def to_dict(self) -> dict[str, Any]:
        return {"format": GAME_FORMAT, "version": FORMAT_VERSION,
                "start": state_to_dict(self.start), "moves": [m.to_dict() for m in self._moves]}

    def to_json(self, indent: int | None = None) -> str:
        """The game as JSON: the starting state and the moves (versioned format)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load a saved game; corrupt or mismatched input raises FormatError and loads nothing."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as err:  # RecursionError: nested too deep
            raise FormatError(f"not a saved game: invalid JSON ({err})") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
            raise FormatError("not a saved maumau game (the format field is missing or different)")
        if data.get("version") != FORMAT_VERSION or not is_whole(data.get("version")):
            raise FormatError(f"saved game version {show(data.get('version'))} is not supported "
                              f"(this maumau reads version {FORMAT_VERSION})")
        if "start" not in data:
            raise FormatError("corrupt saved game: the starting state is missing")
        for key in data:
            if key not in ("format", "version", "start", "moves"):
                raise FormatError(f"corrupt saved game: unknown field {show(key)}")
        start = state_from_dict(data["start"])
        raw_moves = data.get("moves")
        if not isinstance(raw_moves, list):
            raise FormatError("corrupt saved game: moves is not a list")
        try:
            moves = [move_from_dict(m) for m in raw_moves]
        except (ValueError, TypeError) as err:
            raise FormatError(f"corrupt saved game: {err}") from None
        try:
            return cls.replay(start, moves)
        except IllegalMove as err:
            raise FormatError(f"saved game does not replay: {err}") from None

    def __repr__(self) -> str:
        return f"<Game {self.start.variant.name}: {len(self)} moves, {self.state!r}>"

    def _repr_html_(self) -> str:
        return f"<div>{len(self)} moves played</div>" + self.state._repr_html_()
