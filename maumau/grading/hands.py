"""Hands played by a learner's player, and the grader's count of its wins (exercise 13's tests).

A test of a *player* cannot compare values with a reference: any strong player passes.  And a
player that runs where the game runs sees more than its View (the real GameState is up its call
stack and in ``gc``), while whatever a learner's kernel computes, the learner can fake.  So:

- ``play_hands(player, games=2000, seed=0, opponent="medium")`` plays the hands with the player
  in a process of its own that receives only its seat's View (``player_process``), against
  computer opponents (``Random``, or ``Heuristic`` with ``opponent="medium"``), the deals fixed
  by ``seed``: the win rate a learner sees is that of a player that sees only its View.
- ``check_wins(what, hands, expected)`` passes when the player won at least ``expected`` of
  them.  When ``maumau grade`` runs the cell, ``play_hands`` plays nothing: the record holds
  what the test asks for and the player itself (pickled), a few kilobytes whatever the hands.
  The grader (``judge_hands``) then plays that many hands with the player in its own sandboxed
  process, on deals whose seeds it draws in secret (a player cannot look them up), and counts
  the wins.  The kernel's wins count for nothing.

In a browser (Pyodide) no process can be started: there ``play_hands`` plays in the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .player_process import MAX_MOVES, PACKED_CHARS, HandSeeds, HandSpec, PlayerFailed, deals, pack, play

__all__ = ["Hands", "play_hands", "judge_hands", "MAX_MOVES"]


@dataclass
class Hands:
    """Hands played by one player: what was asked (``spec``), whether it won each, and (while
    graded, when nothing is played) the player as the grader receives it or why it cannot be."""

    spec: HandSpec = field(default_factory=HandSpec)
    won: list[bool] = field(default_factory=list)
    player: str = ""
    problem: str = ""

    @property
    def win_rate(self) -> float:
        return sum(self.won) / len(self.won) if self.won else 0.0

    def __len__(self) -> int:
        return len(self.won)

    def __repr__(self) -> str:
        if not self.won and (self.player or self.problem):
            return f"<{self.spec.games} hands, played by the grader>"
        return f"<{len(self)} hands, {sum(self.won)} won ({self.win_rate:.0%})>"

    def record(self) -> dict[str, Any]:
        """What ``check_wins`` sends the grader of a learner's hands."""
        return {"spec": self.spec.to_dict(), "player": self.player, "problem": self.problem}


def _graded() -> bool:
    from . import checks

    return checks._records is not None


def _in_kernel(player: Any, spec: HandSpec, hands: list[HandSeeds]) -> list[bool]:
    """The hands played in this process (where no other can be started: a browser)."""
    from ..core.dealing import deal
    from ..play.game import Game
    from ..players.strength import player_class

    opponent = player_class(spec.opponent)
    won = []
    for where in hands:
        table: list[Any] = [opponent(seed=s) for s in where.opponents]
        table[where.seat] = player
        end = Game(deal(spec.variant, players=spec.players, seed=where.seed)).play(table, max_moves=MAX_MOVES)
        won.append(bool(end.is_over and end.winner == where.seat))
    return won


def _failed(err: PlayerFailed, player: Any) -> Exception:
    """The check's sentence for a player that failed in its process (a stub: "not written yet")."""
    from . import checks

    if err.kind == "NotImplementedError":
        name = f"{type(player).__name__}.choose"
        return checks.CheckFailed(checks._prefix() + checks._t("not_written", function=name))
    return checks.CheckFailed(checks._prefix() + str(err))


def play_hands(player: Any, variant: str = "makao", players: int = 2, games: int = 100, seed: int = 0,
               opponent: str = "easy") -> Hands:
    """``games`` hands of ``variant`` for ``player`` against computer players of strength
    ``opponent`` (``easy``: Random, ``medium``: Heuristic), taking every seat in turn; the
    deals and the opponents' seeds follow from ``seed``.  The player plays in a process of its
    own and sees only its View; a fault of it (an illegal move, an exception) raises
    CheckFailed naming the hand.  While graded nothing is played (the grader plays)."""
    from ..simulation.run import can_start_workers

    spec = HandSpec(variant, players, games, seed, opponent)
    if _graded():
        try:
            return Hands(spec, player=pack(player))
        except PlayerFailed as err:
            return Hands(spec, problem=str(err))
    if not can_start_workers():
        return Hands(spec, _in_kernel(player, spec, deals(spec)))
    try:
        return Hands(spec, play(pack(player), spec, deals(spec)))
    except PlayerFailed as err:
        raise _failed(err, player) from None


def judge_hands(want: Any, got: Any) -> tuple[bool, str]:
    """The instructor's record ``{"spec", "at_least"}`` against the learner's ``{"spec",
    "player", "problem"}``: the hands played here with the learner's player on secret deals,
    (passed, what happened, in words)."""
    if not isinstance(want, dict) or not isinstance(got, dict):
        return False, "no hands were recorded"
    try:
        spec = HandSpec.from_dict(want.get("spec"))
    except (TypeError, ValueError):
        return False, "the instructor's test names no hands"
    at_least: Any = want.get("at_least")
    if type(at_least) not in (int, float):
        return False, "the instructor's test names no share of hands to win"
    if got.get("spec") != want.get("spec"):
        return False, "these are not the hands the test asks for (were they asked for with other arguments?)"
    problem, player = got.get("problem"), got.get("player")
    if isinstance(problem, str) and problem:
        return False, problem[:300]
    if not isinstance(player, str) or not player:
        return False, "no player was recorded"
    if len(player) > PACKED_CHARS:
        return False, "the recorded player is too large"
    try:
        won = play(player, spec, deals(spec, secret=True))
    except PlayerFailed as err:
        if err.kind == "NotImplementedError":
            return False, "your player's choose is not written yet: replace raise NotImplementedError() with your code"
        return False, str(err)
    rate = sum(won) / len(won)
    if rate < at_least:
        return False, f"won {sum(won)} of {len(won)} hands ({rate:.0%}), at least {at_least:.0%} needed"
    return True, f"won {sum(won)} of {len(won)} hands ({rate:.0%})"
