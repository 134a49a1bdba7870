"""Hands played by a learner's player, and the grader's count of its wins (exercise 13's tests),
with the player in a process of its own that is fed only Views.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import random
import secrets
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.moves import move_from_dict
from .checks import learners_code

if TYPE_CHECKING:
    from ..league.process import BotProcess, Limits
    from ..league.sandbox import Sandbox

__all__ = [
    "HandSpec", "HandSeeds", "PlayerFailed", "pack", "deals", "play", "LANES", "PACKED_CHARS", "MAX_MOVES",
    "Hands", "play_hands", "judge_hands"
]


# --- the player's own process -------------------------------------------------------------------------------
#
# Exercise 13's hands, played with the learner's player in a process of its own, fed only Views.
#
# A player that runs where the game runs can see everything: up its call stack, in ``gc``, in the
# globals of the module that calls it lie the real GameState, the other hands and the stock.  So
# here the referee (this process: the learner's kernel when it checks its work, the grader when it
# grades) deals the hands and holds the only real state, and the player runs in another process:
# the league's bubblewrap sandbox where there is one, else a plain process under the league
# runner's limits and the grader's audit hook (``player_runner``).  For each move it receives its
# seat's View as the league sends it (``maumau.league.wire``), nothing else; its move must be one
# of the View's legal moves (``players.ask`` judges it, as at a table).
#
# The player reaches that process pickled by ``cloudpickle`` (``pack``): the object the learner
# made, its class and the functions and values it uses, whatever cell defined them.  Hands are
# played ``LANES`` at a time (each lane with its own copy of the player, playing its hands one
# after another), so that 2,000 hands cost a few hundred round trips, not 50,000.
#
# The first fault of the player ends the hands: ``PlayerFailed`` says which hand and what went
# wrong (an illegal move, an exception, no answer in time, a process that died).

#: Hands played side by side (one round trip asks the player once for each).
LANES = 32
#: The longest pickled player (base64 characters) sent to its process: a player is a few kilobytes;
#: this keeps its record well inside the grader's report limit (``execute.REPORT_BYTES``).
PACKED_CHARS = 400_000
#: A hand longer than this ends without a winner (two players who only draw).
MAX_MOVES = 20_000
#: CPU seconds the player may use for one request (up to LANES moves), and for all the hands:
#: BASE_SECONDS and HAND_SECONDS per hand; WALL_FACTOR times as long on the wall clock (a player that
#: sleeps uses no CPU time, and must not hold a grader for hours).
REQUEST_SECONDS = 5.0
BASE_SECONDS = 10.0
HAND_SECONDS = 0.05
WALL_FACTOR = 4.0
#: Where the grader's secret seeds come from: a new generator for each set of hands, by default
#: the operating system's (``secrets``).  The tests give a seeded one, so that whether the
#: instructor's solution passes (0.24% of graded tests fail by luck) is the same in every run.
SECRET_SOURCE: Callable[[], random.Random] = secrets.SystemRandom


class PlayerFailed(Exception):
    """The player failed in its process: the message says in which hand and how."""

    def __init__(self, message: str, kind: str = "") -> None:
        super().__init__(message)
        self.kind = kind   # the exception's class name when the player raised one


@dataclass(frozen=True)
class HandSpec:
    """The hands a test asks for: ``games`` hands of ``variant`` for ``players`` seats against
    computer players of strength ``opponent``; ``seed`` fixes the deals a learner plays."""

    variant: str = "makao"
    players: int = 2
    games: int = 100
    seed: int = 0
    opponent: str = "easy"

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "players": self.players, "games": self.games, "seed": self.seed,
                "opponent": self.opponent}

    @classmethod
    def from_dict(cls, data: Any) -> HandSpec:
        """The spec of a record; ValueError when it is not one."""
        if not isinstance(data, dict) or set(data) != {"variant", "players", "games", "seed", "opponent"}:
            raise ValueError("not a description of hands")
        spec = cls(**data)
        if not (type(spec.variant) is str and type(spec.opponent) is str and type(spec.players) is int
                and type(spec.games) is int and type(spec.seed) is int and 1 <= spec.games <= 100_000):
            raise ValueError("not a description of hands")
        return spec


@dataclass(frozen=True)
class HandSeeds:
    """One hand: the deal's seed, the player's seat, the opponents' seeds (by seat)."""

    seed: int
    seat: int
    opponents: tuple[int, ...]


def deals(spec: HandSpec, secret: bool = False) -> list[HandSeeds]:
    """The hands of ``spec``, the player taking every seat in turn: from ``spec.seed`` (the same
    hands every time, as a learner checks its work), or with ``secret`` from seeds drawn now by
    the operating system's generator, which no player can know or search (as the grader plays)."""
    n = spec.players
    if secret:
        draw = SECRET_SOURCE().getrandbits
        return [HandSeeds(draw(62), g % n, tuple(draw(62) for _ in range(n))) for g in range(spec.games)]
    return [HandSeeds(spec.seed + g, g % n, tuple(spec.seed * 1000 + g * 10 + i for i in range(n)))
            for g in range(spec.games)]


def pack(player: Any) -> str:
    """``player`` as its process receives it (cloudpickle, base64); PlayerFailed saying why not."""
    import cloudpickle

    if not callable(getattr(player, "choose", None)):
        raise PlayerFailed(f"{type(player).__name__} has no method choose(view)")
    module = sys.modules.get(type(player).__module__)
    file = getattr(module, "__file__", None) if module is not None and module.__name__ != "__main__" else None
    own = isinstance(file, str) and learners_code(file)
    if own:  # a player imported from the learner's own file: sent by value (the process cannot import it)
        cloudpickle.register_pickle_by_value(module)
    try:
        packed = base64.b64encode(cloudpickle.dumps(player)).decode()
    except Exception as err:  # anything the player holds that cannot be copied to another process
        raise PlayerFailed(f"your player cannot be sent to a process of its own: {type(err).__name__}: {err}"
                           [:300]) from None
    finally:
        if own:
            cloudpickle.unregister_pickle_by_value(module)
    if len(packed) > PACKED_CHARS:
        raise PlayerFailed(f"your player takes {len(packed):,} characters to send to its process; at most "
                           f"{PACKED_CHARS:,} are taken (keep large tables out of the player)")
    return packed


@functools.cache
def _sandbox_class() -> type[Sandbox]:
    from ..league.sandbox import Sandbox

    @dataclass(frozen=True)
    class PlayerSandbox(Sandbox):
        """The league's sandbox, starting the player's runner instead of a bot's."""

        def command(self) -> list[str]:
            argv = [sys.executable, "-m", "maumau.grading.player_runner"]
            return argv if self.jail is None else self.jail.command(argv, disk_mb=16)

    return PlayerSandbox


def _sandbox() -> Sandbox:
    """The bubblewrap sandbox where the machine has one, else a plain process (the runner's
    limits and audit hook): either way the player's process holds no state of the game."""
    from ..league.errors import LeagueError

    try:
        return _sandbox_class().find([])
    except LeagueError:
        return _sandbox_class().find([], unsandboxed=True)


class _Answer:
    """The move the player's process chose, asked as a player is asked at a table (``ask``)."""

    def __init__(self, move: Any) -> None:
        self.move = move

    def __repr__(self) -> str:  # "your player at seat 0 chose an illegal move ..."
        return "your player"

    def choose(self, view: Any) -> Any:
        return self.move


class _Hand:
    """One hand in a lane: the real state, the opponents, whose turn."""

    def __init__(self, number: int, where: HandSeeds, spec: HandSpec) -> None:
        from ..core.dealing import deal
        from ..players.strength import player_class

        opponent = player_class(spec.opponent)
        self.number, self.seat = number, where.seat
        self.state = deal(spec.variant, players=spec.players, seed=where.seed)
        self.table = [opponent(seed=s) for s in where.opponents]
        self.moves = 0
        self.advance()

    @property
    def over(self) -> bool:
        return self.state.is_over or self.moves >= MAX_MOVES

    @property
    def won(self) -> bool:
        return bool(self.state.is_over and self.state.winner == self.seat)

    def apply(self, move: Any) -> None:
        self.state = self.state.apply(move)
        self.moves += 1

    def advance(self) -> None:
        """The opponents move until it is the player's turn or the hand is over."""
        from ..players.base import ask

        while not self.over and self.state.to_move != self.seat:
            self.apply(ask(self.table[self.state.to_move], self.state))


def play(packed: str, spec: HandSpec, hands: list[HandSeeds]) -> list[bool]:
    """Play ``hands`` with the player ``packed`` in its process: whether it won each;
    PlayerFailed at the player's first fault."""
    from ..league.process import BotDied, BotProcess, Limits

    limits = Limits(move_seconds=REQUEST_SECONDS, game_seconds=BASE_SECONDS + HAND_SECONDS * len(hands),
                    start_seconds=30.0, wall_factor=WALL_FACTOR)
    if "game_wall_seconds" in {f.name for f in dataclasses.fields(Limits)}:
        # the league's wall budget for a game's answers, where it has one: here all the hands' (``_Table``)
        wall: dict[str, Any] = {"game_wall_seconds": limits.game_seconds * WALL_FACTOR}
        limits = dataclasses.replace(limits, **wall)
    bot = BotProcess(packed, LANES, _sandbox(), limits)
    try:
        try:
            bot.ready()
        except BotDied as err:
            raise PlayerFailed(f"your player did not start in its process: {err}") from None
        return _Table(bot, spec, hands, limits).run()
    finally:
        bot.close()


class _Table:
    """The lanes of hands, and the round trips that ask the player for its moves."""

    def __init__(self, bot: BotProcess, spec: HandSpec, hands: list[HandSeeds], limits: Limits) -> None:
        self.bot, self.spec, self.limits = bot, spec, limits
        self.todo = deque(enumerate(hands, 1))
        self.won = [False] * len(hands)
        self.lanes: list[_Hand | None] = [self._next() for _ in range(LANES)]
        self.requests = 0
        # Wall-clock seconds spent waiting for the player's answers: the referee's own moves (the
        # opponents', in the grader's kernel) are not the player's, and on a busy machine they are slow.
        self.waited = 0.0

    def _next(self) -> _Hand | None:
        """The next hand that needs the player (hands over before its first move are scored)."""
        while self.todo:
            number, where = self.todo.popleft()
            hand = _Hand(number, where, self.spec)
            if not hand.over:
                return hand
            self.won[number - 1] = hand.won
        return None

    def _waiting(self) -> Iterator[tuple[int, _Hand]]:
        return ((lane, hand) for lane, hand in enumerate(self.lanes) if hand is not None)

    def run(self) -> list[bool]:
        while any(hand is not None for hand in self.lanes):
            waiting = list(self._waiting())
            answers = self._ask(waiting)
            for (lane, hand), answer in zip(waiting, answers, strict=True):
                hand.apply(self._move(hand, answer))
                hand.advance()
                if hand.over:
                    self.won[hand.number - 1] = hand.won
                    self.lanes[lane] = self._next()
        return self.won

    def _ask(self, waiting: list[tuple[int, _Hand]]) -> list[Any]:
        """The player's moves for the hands ``waiting``, one each; PlayerFailed at its first fault."""
        from ..league.process import BotDied
        from ..league.wire import view_message

        self.requests += 1
        asks = [[lane, view_message(hand.state, hand.seat, 0, first=self.requests == 1 and i == 0)]
                for i, (lane, hand) in enumerate(waiting)]
        first = waiting[0][1].number
        began = time.monotonic()
        try:
            answer = self.bot.ask({"id": self.requests, "asks": asks})
        except BotDied as err:
            spent = f"; it had used {self.bot.cpu_used:.0f} of its {self.limits.game_seconds:g} CPU seconds"
            raise PlayerFailed(f"hand {first}: your player's process ended ({err}){spent}") from None
        except (ValueError, RecursionError):  # an answer the wire cannot read: the player's fault
            raise PlayerFailed(f"hand {first}: your player's process answered with something unreadable") from None
        if self.bot.cpu_used > self.limits.game_seconds:
            raise PlayerFailed(f"your player used more than {self.limits.game_seconds:g} s of CPU time for "
                               f"{len(self.won)} hands")
        self.waited += time.monotonic() - began
        if self.waited > self.limits.game_seconds * self.limits.wall_factor:
            raise PlayerFailed(f"your player took longer than {self.limits.game_seconds * self.limits.wall_factor:g} s "
                               f"(wall-clock time) for {len(self.won)} hands")
        if answer is None:
            raise PlayerFailed(f"hand {first}: your player did not answer within {self.limits.move_seconds:g} s of "
                               f"CPU time ({self.limits.move_seconds * self.limits.wall_factor:g} s on the clock) "
                               f"for {len(waiting)} moves at once")
        moves, fault = answer.get("moves"), answer.get("fault")
        if not isinstance(moves, list) or len(moves) > len(waiting):
            raise PlayerFailed(f"hand {first}: " + str(answer.get("error") or "garbled answers")[:300])
        if len(moves) < len(waiting):
            hand = waiting[len(moves)][1]
            where = f"hand {hand.number} (move {hand.moves + 1})"
            if not isinstance(fault, dict):
                raise PlayerFailed(f"{where}: your player's process gave no move")
            raise PlayerFailed(f"{where}: {str(fault.get('error'))[:300]}", str(fault.get("kind", ""))[:80])
        return moves

    def _move(self, hand: _Hand, answer: Any) -> Any:
        """The player's move for ``hand``, if it is legal there; else PlayerFailed saying why."""
        from ..players.base import IllegalChoice, ask

        where = f"hand {hand.number} (move {hand.moves + 1})"
        try:
            move = move_from_dict(answer)
        except Exception as err:  # whatever the parser says of a malformed move
            raise PlayerFailed(f"{where}: your player's answer is no move ({err})"[:400]) from None
        try:
            return ask(_Answer(move), hand.state)
        except IllegalChoice as err:
            raise PlayerFailed(f"{where}: {err}"[:400]) from None


# --- hands and the count of wins ----------------------------------------------------------------------------
#
# Hands played by a learner's player, and the grader's count of its wins (exercise 13's tests).
#
# A test of a *player* cannot compare values with a reference: any strong player passes.  And a
# player that runs where the game runs sees more than its View (the real GameState is up its call
# stack and in ``gc``), while whatever a learner's kernel computes, the learner can fake.  So:
#
# - ``play_hands(player, games=2000, seed=0, opponent="medium")`` plays the hands with the player
#   in a process of its own that receives only its seat's View (above), against
#   computer opponents (``Random``, or ``Heuristic`` with ``opponent="medium"``), the deals fixed
#   by ``seed``: the win rate a learner sees is that of a player that sees only its View.
# - ``check_wins(what, hands, expected)`` passes when the player won at least ``expected`` of
#   them.  When ``maumau grade`` runs the cell, ``play_hands`` plays nothing: the record holds
#   what the test asks for and the player itself (pickled), a few kilobytes whatever the hands.
#   The grader (``judge_hands``) then plays that many hands with the player in its own sandboxed
#   process, on deals whose seeds it draws in secret (a player cannot look them up), and counts
#   the wins.  The kernel's wins count for nothing.
#
# In a browser (Pyodide) no process can be started: there ``play_hands`` plays in the kernel.

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
