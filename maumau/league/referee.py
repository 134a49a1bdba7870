"""One league game: the bots in their sandboxes, the referee holding the only real state.

Each seat's bot is asked with its View (``wire``), and its answer must be one of its legal
moves.  An illegal move, a late answer, an exception or garbage is a *fault*: the referee
makes the default move for it (draw if it may, else pass, else its first legal move) and
counts it; ``max_faults`` faults, a process that dies or breaks the wire, or a game's CPU or
wall-clock budget spent *forfeit* the game: the referee plays that seat's default moves to the
end, and the bot ranks last.  Whatever a bot's process sends or does, the game goes on to its
end and has a record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.dealing import deal
from ..core.moves import Draw, Move, Pass, Play
from ..core.state import GameState
from ..core.variants import variant
from ..play.game import Game
from .process import BotDied, BotProcess, Limits
from .sandbox import Sandbox
from .wire import view_message

__all__ = ["Entry", "GameSpec", "play_game", "default_move", "chosen_move", "MAX_MOVES"]

#: A game longer than this is stopped and counted as blocked (no winner).
MAX_MOVES = 3000


@dataclass(frozen=True)
class Entry:
    """A bot as it sits down: its name, the version of its source, the source, its seed."""

    name: str
    version: int
    source: str
    seed: int


@dataclass(frozen=True)
class GameSpec:
    """Everything one game needs (picklable: games run in worker processes)."""

    game: str
    options: tuple[tuple[str, Any], ...]
    deal_seed: int
    entries: tuple[Entry, ...]     # by seat
    sandbox: Sandbox
    limits: Limits


def default_move(state: GameState) -> Move:
    """The move made for a seat that faulted or forfeited."""
    legal = state.legal_moves()
    for kind in (Draw, Pass):
        if kind() in legal:
            return kind()
    return legal[0]


#: The keys of a move's dict (``Move.to_dict``).
_MOVE_KEYS = {"play", "wish", "mau", "runde", "draw", "pass"}


def chosen_move(said: Any, state: GameState) -> Move:
    """The legal move of ``state`` whose ``to_dict()`` is ``said`` (a Play without its Mau whose
    Mau is legal, too: the rules punish the forgotten word); ValueError saying what is wrong.

    The answer is looked up among the legal moves, never given to ``Play(...)``: Play's cache
    keeps every text it is made from, so a bot answering ``"JC "``, ``"JC  "``, ... would grow
    the referee's memory by a line a move."""
    if not isinstance(said, dict) or not said or not set(said) <= _MOVE_KEYS:
        raise ValueError(f"garbage: not a move: {_short(repr(said))}")
    for move in state.legal_moves():
        if move.to_dict() == said:
            return move
        if type(move) is Play and move.mau and move.replace(mau=False).to_dict() == said:
            return move.replace(mau=False)
    words = " ".join(str(key) if value is True else f"{key} {value}" for key, value in said.items())
    raise ValueError(f"illegal move {_short(words)}")


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


class _Seat:
    def __init__(self, entry: Entry, spec: GameSpec) -> None:
        self.entry = entry
        self.limits = spec.limits
        self.faults: list[str] = []
        self.forfeit = ""
        self.asked = False          # the first request carries the variant, the others refer to it
        self.bot: BotProcess | None = BotProcess(entry.source, entry.seed, spec.sandbox.here(), spec.limits)

    def start(self) -> None:
        assert self.bot is not None
        try:
            self.bot.ready()
        except BotDied as err:
            self.give_up(f"did not start: {err}")
        except Exception as err:  # noqa: BLE001 - what its process sent broke the start: the bot's doing
            self.give_up(f"did not start: what it sent could not be read ({type(err).__name__})")

    def give_up(self, why: str) -> None:
        self.forfeit = self.forfeit or why
        if self.bot is not None:
            self.bot.close()
            self.bot = None

    def fault(self, move_number: int, why: str) -> None:
        self.faults.append(f"move {move_number}: {why}")
        if len(self.faults) >= self.limits.max_faults:
            self.give_up(f"{len(self.faults)} faults")

    def move(self, state: GameState, seat: int, number: int) -> Move:
        if self.bot is None:
            return default_move(state)
        request = view_message(state, seat, number, first=not self.asked)  # (the referee's: outside the try)
        try:
            answer = self.bot.ask(request)
            self.asked = True
        except BotDied as err:
            self.faults.append(f"move {number}: {err}")
            self.give_up(str(err))
            return default_move(state)
        except Exception as err:  # noqa: BLE001 - whatever its process did to the wire is the bot's doing
            self.faults.append(f"move {number}: its answer could not be read ({type(err).__name__})")
            self.give_up("its answer could not be read")
            return default_move(state)
        if self.bot.cpu_used > self.limits.game_seconds:
            self.faults.append(f"move {number}: over its {self.limits.game_seconds:g} CPU seconds for the game")
            self.give_up("over its time for the game")
            return default_move(state)
        if self.bot.wall_left <= 0:
            self.faults.append(f"move {number}: over its {self.limits.game_wall_seconds:g} wall seconds "
                               "for the game")
            self.give_up("over its wall time for the game")
            return default_move(state)
        if answer is None:
            self.fault(number, f"no move within {self.limits.move_seconds:g} s")
            return default_move(state)
        if "error" in answer:
            self.fault(number, str(answer["error"])[:300])  # (bounded: wire.read_answer read it)
            return default_move(state)
        try:
            return chosen_move(answer.get("move"), state)
        except ValueError as err:  # not a move, or not a legal one
            self.fault(number, str(err))
            return default_move(state)


def play_game(spec: GameSpec) -> dict[str, Any]:
    """Play one game of ``spec`` and return its record (JSON-ready)."""
    v = variant(spec.game, **dict(spec.options))
    start = deal(v, players=len(spec.entries), seed=spec.deal_seed)
    seats = [_Seat(entry, spec) for entry in spec.entries]  # every sandbox starts at once
    game = Game(start)
    try:
        for seat in seats:
            seat.start()
        while not game.state.is_over and len(game) < MAX_MOVES:
            state = game.state
            game.apply(seats[state.to_move].move(state, state.to_move, len(game) + 1))
    finally:
        for seat in seats:
            seat.give_up(seat.forfeit)
    return _record(game, seats, v.scoring)


def _record(game: Game, seats: list[_Seat], scoring: Any) -> dict[str, Any]:
    final = game.state
    n = len(seats)
    if final.is_over:
        raw = scoring.hand_scores(final)
        points = [p if scoring.higher_wins else -p for p in raw]
    else:
        points = [0] * n
    winner = final.winner if final.is_over else None
    forfeits = [s.forfeit for s in seats]
    # ranks for the ratings (0 best): forfeits last, the winner first, the others by their points,
    # then by the cards they hold (a blocked hand scores nothing, but hoarding cards is no draw)
    key = [(bool(forfeits[i]), i != winner, -points[i], len(final.hands[i])) for i in range(n)]
    order = sorted(set(key))
    return {"game": game.to_dict(), "points": points, "winner": winner,
            "ranks": [order.index(k) for k in key], "faults": [s.faults for s in seats], "forfeits": forfeits}


def trial(entry: Entry, spec: GameSpec, decisions: int = 8) -> tuple[str, str]:
    """Try a bot on a deal of ``spec`` (the bot in seat 0, maumau's Random in the others):
    (the player class's name, '') if its first ``decisions`` moves are legal and in time, else
    ('', what went wrong)."""
    from ..players import Random

    v = variant(spec.game, **dict(spec.options))
    state = deal(v, players=len(spec.entries), seed=spec.deal_seed)
    others = [Random(seat) for seat in range(state.players)]
    seat = _Seat(entry, spec)
    try:
        assert seat.bot is not None
        try:
            name = seat.bot.ready()
        except BotDied as err:
            return "", str(err)
        except Exception as err:  # noqa: BLE001 - what its process sent broke the start: the bot's doing
            return "", f"what it sent could not be read ({type(err).__name__})"
        asked = 0
        while not state.is_over and asked < decisions:
            if state.to_move == 0:
                asked += 1
                move = seat.move(state, 0, asked)
                if seat.faults:
                    return "", seat.faults[0].split(": ", 1)[1]
            else:
                move = others[state.to_move].choose(state)
            state = state.apply(move)
        return name, ""
    finally:
        seat.give_up("")
