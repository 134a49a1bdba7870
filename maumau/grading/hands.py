"""Hands played by a learner's player, replayed by the grader (exercise 13's tests).

A test of a *player* cannot compare values with a reference: any strong player passes. And
whatever the learner's kernel computes, the learner can fake (a ``win_rate`` that returns 1.0,
opponents made to draw forever).  So the kernel only *plays*: ``play_hands`` deals hands with
fixed seeds against computer opponents (``Random``, or ``Heuristic`` with ``opponent="medium"``)
and keeps, per hand, its set-up and the moves the learner's player chose.
``check_wins(what, hands, expected)`` then passes when the player won at least ``expected`` of
them.  When ``maumau grade`` runs the cell, ``expected`` is removed (as for every check) and the
record goes to the grader, which plays every hand again in its own process (``replay``): the
set-ups of the instructor's run, its own opponents, and the learner's moves at the learner's
seat, each of which must be legal there.  The wins
it counts are the ones that count.  Moves recorded against opponents the learner weakened do
not fit the real opponents' moves and are refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Hands", "play_hands", "replay", "judge_hands", "MAX_MOVES"]

#: A hand longer than this ends without a winner (two players who only draw).
MAX_MOVES = 20_000


@dataclass
class Hands:
    """Hands played by one player: per hand its set-up, the player's moves and whether it won."""

    setups: list[dict[str, Any]] = field(default_factory=list)
    moves: list[list[dict[str, Any]]] = field(default_factory=list)
    won: list[bool] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return sum(self.won) / len(self.won) if self.won else 0.0

    def __len__(self) -> int:
        return len(self.won)

    def __repr__(self) -> str:
        return f"<{len(self)} hands, {sum(self.won)} won ({self.win_rate:.0%})>"


class _Recording:
    """Asks the player and keeps what it chose (as the player sees it: a View)."""

    def __init__(self, player: Any, moves: list[dict[str, Any]]) -> None:
        self.player, self.moves = player, moves

    def choose(self, view: Any) -> Any:
        move = self.player.choose(view)
        try:
            self.moves.append(move.to_dict())
        except Exception:  # not a move: ask() says so, naming the player
            self.moves.append({"not a move": repr(move)[:80]})
        return move


def _table(setup: dict[str, Any], seat_player: Any) -> list[Any]:
    from ..players.strength import player_class

    opponent = player_class(setup.get("opponent", "easy"))
    table: list[Any] = [opponent(seed=s) for s in setup["opponents"]]
    table[setup["seat"]] = seat_player
    return table


def _play(setup: dict[str, Any], seat_player: Any) -> bool:
    from ..core.dealing import deal
    from ..play.game import Game

    start = deal(setup["variant"], players=setup["players"], seed=setup["seed"])
    end = Game(start).play(_table(setup, seat_player), max_moves=MAX_MOVES)
    return bool(end.is_over and end.winner == setup["seat"])


def play_hands(player: Any, variant: str = "makao", players: int = 2, games: int = 100, seed: int = 0,
               opponent: str = "easy") -> Hands:
    """``games`` hands of ``variant`` for ``player`` against computer players of strength
    ``opponent`` (``easy``: Random, ``medium``: Heuristic), taking every seat in turn; the
    deals and the opponents' seeds follow from ``seed``."""
    hands = Hands()
    for g in range(games):
        setup = {"variant": variant, "players": players, "seed": seed + g, "seat": g % players,
                 "opponents": [seed * 1000 + g * 10 + i for i in range(players)]}
        if opponent != "easy":  # (set-ups against Random stay as they were)
            setup["opponent"] = opponent
        moves: list[dict[str, Any]] = []
        hands.setups.append(setup)
        hands.moves.append(moves)
        hands.won.append(_play(setup, _Recording(player, moves)))
    return hands


class _Script:
    """Plays the recorded moves again; a missing or malformed one ends the replay."""

    def __init__(self, moves: list[Any]) -> None:
        self.moves = iter(moves)

    def __repr__(self) -> str:  # how an illegal move is reported: "your player at seat 0 chose ..."
        return "your player"

    def choose(self, view: Any) -> Any:
        from ..core.moves import move_from_dict

        data = next(self.moves, None)
        if data is None:
            raise ReplayError("the hand ended early: the recorded moves ran out")
        try:
            return move_from_dict(data)
        except ValueError as err:
            raise ReplayError(f"a recorded move is no move ({err})") from None


class ReplayError(Exception):
    """The recorded moves do not make the hand again."""


def replay(setup: dict[str, Any], moves: list[Any]) -> tuple[bool, str]:
    """Play the hand of ``setup`` again with ``moves`` at the player's seat: (won, problem),
    problem "" when every move was legal where it was played."""
    from ..players.base import IllegalChoice

    try:
        return _play(setup, _Script(moves)), ""
    except (ReplayError, IllegalChoice) as err:
        return False, str(err)


def judge_hands(want: Any, got: Any) -> tuple[bool, str]:
    """The instructor's record ``{"setups", "at_least"}`` against the learner's ``{"setups",
    "moves"}``: (passed, what happened, in words)."""
    if not isinstance(want, dict) or not isinstance(got, dict):
        return False, "no hands were recorded"
    at_least: Any  # a number, checked below
    setups, moves, at_least = want.get("setups"), got.get("moves"), want.get("at_least")
    if not isinstance(setups, list) or got.get("setups") != setups:
        return False, "these are not the hands the test deals (were they played with other seeds?)"
    if not isinstance(moves, list) or len(moves) != len(setups) or not all(isinstance(m, list) for m in moves):
        return False, "the moves of some hands are missing"
    won = 0
    for i, (setup, mine) in enumerate(zip(setups, moves, strict=True)):
        ok, problem = replay(setup, mine)
        if problem:
            return False, f"hand {i + 1} (seed {setup.get('seed')}) does not replay: {problem}"
        won += ok
    rate = won / len(setups) if setups else 0.0
    if type(at_least) not in (int, float):
        return False, "the instructor's test names no share of hands to win"
    if rate < at_least:
        return False, f"won {won} of {len(setups)} hands ({rate:.0%}), at least {at_least:.0%} needed"
    return True, f"won {won} of {len(setups)} hands ({rate:.0%})"
