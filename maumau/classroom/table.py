"""One class table: the authoritative match, its seats, and every change as a recorded action.

A table has ``seats`` seats; ``computers`` of them are the server's computer players from the
start, the others wait for learners.  The first hand is dealt when every seat is taken (or the
teacher starts the table: open seats go to computers).  Seats are the match's seats
(``Match``); a hand is dealt to the seats still in play, so hand seat ``i`` is match seat
``hand_seats[i]``.

Everything that changes the table is an action (take, start, move, leave, join, deal), written
to the store before it counts and replayed in the same order when a server resumes the table.
Who plays a seat (a learner, a computer, a computer holding a dropped learner's seat) is not an
action: the computer's moves are recorded like anyone's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.moves import Move
from ..core.state import GameState
from ..core.variants import Variant, VariantError, variant
from ..play.game import Game
from ..play.match import Match, MatchError
from ..players import ask, for_strength, strength_names
from .protocol import ProtocolError, move_from_json, move_to_json
from .store import Store, new_token, same_token, token_hash

__all__ = ["TableSpec", "Seat", "ClassTable", "TableError"]


class TableError(ProtocolError):
    """Something this table does not allow now (a full table, a move out of turn, ...)."""


@dataclass(frozen=True)
class TableSpec:
    """What the teacher chose: the variant (with house rules taken out), the seats, how many of
    them computers hold and how strong they are, the seed of the match, the table's language."""

    variant: str = "makao"
    seats: int = 4
    computers: int = 0
    strength: str = "medium"
    without: tuple[str, ...] = ()
    seed: int = 0
    lang: str = "en"
    options: dict[str, Any] = field(default_factory=dict)  # the variant's options (limit=50, jokers=0)

    def make_variant(self) -> Variant:
        return variant(self.variant, **self.options).without(*self.without)

    def check(self) -> TableSpec:
        """This spec, or TableError saying what is wrong with it."""
        try:
            v = self.make_variant()
        except (VariantError, ValueError, TypeError) as err:
            raise TableError("bad_table", str(err)) from None
        lo, hi = v.players
        if type(self.seats) is not int or not lo <= self.seats <= hi:
            raise TableError("bad_table", f"{v.name} is played by {lo} to {hi} players, not {self.seats!r}")
        if type(self.computers) is not int or not 0 <= self.computers <= self.seats:
            raise TableError("bad_table", f"computers must be 0 to {self.seats}, not {self.computers!r}")
        if self.strength not in strength_names():
            raise TableError("bad_table", f"strength must be one of {', '.join(strength_names())}")
        if type(self.seed) is not int or self.lang not in ("en", "de", "hu"):
            raise TableError("bad_table", "seed is a whole number; lang is en, de or hu")
        return self

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSpec:
        allowed = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - allowed
        if unknown:
            raise TableError("bad_table", f"a table has no setting {sorted(unknown)[0]!r}")
        without = data.get("without", ())
        if not isinstance(without, (list, tuple)) or not all(isinstance(n, str) for n in without):
            raise TableError("bad_table", "without lists rule names")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise TableError("bad_table", "options map a variant's option names to values")
        return cls(**{**data, "without": tuple(without), "options": dict(options)}).check()

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "without": list(self.without), "options": dict(self.options)}


@dataclass
class Seat:
    """A seat of the match: who sits there and whether they are connected."""

    number: int
    name: str = ""
    kind: str = "open"            # "open", "human", "computer", "left" or "waiting" (joins next hand)
    token_hash: str | None = None
    connected: bool = False
    robot: bool = False           # a computer holds a dropped learner's seat until they come back
    user: str | None = None       # on JupyterHub: the hub user who sits here
    player: Any = field(default=None, repr=False)

    @property
    def played_by_computer(self) -> bool:
        return self.kind == "computer" or (self.kind == "human" and self.robot)

    def public(self) -> dict[str, Any]:
        return {"seat": self.number, "name": self.name, "kind": self.kind, "connected": self.connected,
                "computer": self.played_by_computer}


class ClassTable:
    """The authoritative table (see the module docstring)."""

    def __init__(self, code: str, spec: TableSpec, store: Store | None = None) -> None:
        self.code, self.spec, self.store = code, spec, store
        self.variant = spec.make_variant()
        self.match = Match(self.variant, players=spec.seats, seed=spec.seed)
        self.seats = [Seat(i) for i in range(spec.seats)]
        for seat in self.seats[spec.seats - spec.computers:]:
            self._computer(seat)
        self.game: Game | None = None
        self.hand_seats: list[int] = []
        self.n = 0                # actions so far; a client's move names the n it saw
        #: What happened lately, to tell: (number, kind, what) for moves, deals, seats taken and left.
        self.log: list[tuple[int, str, Any]] = []
        self.told = 0

    # --- what clients read ---------------------------------------------------------------------------
    @property
    def state(self) -> GameState | None:
        return None if self.game is None else self.game.state

    @property
    def hand_over(self) -> bool:
        return self.game is not None and self.game.state.is_over

    def hand_seat(self, seat: int) -> int | None:
        """The hand seat of match seat ``seat`` in the hand being played, or None."""
        return self.hand_seats.index(seat) if seat in self.hand_seats else None

    def to_move(self) -> int | None:
        """The match seat that must decide now, or None (no hand running, or it is over)."""
        state = self.state
        if state is None or state.is_over:
            return None
        return self.hand_seats[state.to_move]

    def seat_by_token(self, token: str) -> Seat:
        for seat in self.seats:
            if seat.kind in ("human", "waiting") and same_token(token, seat.token_hash):
                return seat
        raise TableError("bad_token", "no seat at this table has that token")

    # --- actions -------------------------------------------------------------------------------------
    def _record(self, kind: str, data: dict[str, Any]) -> None:
        if self.store is not None:
            self.store.append(self.code, self.n, kind, data)
        self.n += 1

    def seat_of_user(self, user: str) -> Seat | None:
        """The seat of a hub user (on JupyterHub a learner is known by the hub, not by a token)."""
        return next((s for s in self.seats if s.user == user and s.kind in ("human", "waiting")), None)

    def take(self, name: str, user: str | None = None) -> tuple[Seat, str]:
        """A learner sits down: an open seat, a seat a computer holds, or (makao, MK-13) a new
        seat from the next hand on.  Returns the seat and its secret token."""
        name = " ".join(name.split())[:40] or "Guest"
        seat = self._free_seat()
        token = new_token()
        data = {"seat": seat, "name": name, "token_hash": token_hash(token), "user": user}
        self._record("take", data)
        self._apply("take", data)
        return self.seats[seat], token

    def _free_seat(self) -> int:
        for kind in ("open", "computer"):
            for seat in self.seats:
                if seat.kind == kind and not (kind == "computer" and self.match.is_over):
                    return seat.number
        if self.variant.join_and_leave and not self.match.is_over:  # MK-13: join at the next hand
            return len(self.seats)
        raise TableError("full", "every seat at this table is taken")

    def start(self) -> None:
        """The teacher starts the table: computers take the open seats and the first hand is dealt."""
        if self.game is not None:
            raise TableError("started", "the table has started already")
        self._record("start", {})
        self._apply("start", {})

    def move(self, seat: int, move: Move, seen: int | None = None) -> GameState:
        """Seat ``seat`` makes ``move``; ``seen`` is the action count the client saw (a move made
        on an older table is refused, so a replayed or delayed message changes nothing)."""
        if seen is not None and seen != self.n:
            raise TableError("stale", f"the table has changed since action {seen} (now {self.n}): look again")
        if self.to_move() != seat:
            raise TableError("not_your_turn", "it is not this seat's turn")
        state = self.state
        assert state is not None
        if not state.is_legal(move) and state.why_illegal(move) is not None:
            raise TableError("illegal", str(state.why_illegal(move)))
        data = {"seat": seat, "move": move_to_json(move)}
        self._record("move", data)
        return self._apply("move", data)

    def leave(self, seat: int) -> None:
        """A learner leaves: before the start the seat opens again; in makao they leave the match
        (MK-14, mid-hand too); elsewhere a computer takes the seat over."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind not in ("human", "waiting"):
            raise TableError("not_seated", f"seat {seat} has no learner")
        self._record("leave", {"seat": seat})
        self._apply("leave", {"seat": seat})

    def deal(self) -> None:
        """The next hand (after a finished one)."""
        if self.game is not None and not self.game.state.is_over:
            raise TableError("playing", "the hand is still being played")
        if self.match.is_over:
            raise TableError("over", "the match is over")
        self._record("deal", {})
        self._apply("deal", {})

    def computer_move(self) -> GameState | None:
        """If a computer must decide, its move (recorded like any); else None."""
        seat = self.to_move()
        if seat is None or not self.seats[seat].played_by_computer:
            return None
        player = self.seats[seat].player or self._computer_player(seat)
        state = self.state
        assert state is not None
        data = {"seat": seat, "move": move_to_json(ask(player, state))}
        self._record("move", data)
        return self._apply("move", data)

    # --- applying actions (live and on replay) -------------------------------------------------------
    def _apply(self, kind: str, data: dict[str, Any]) -> Any:
        if kind == "take":
            return self._apply_take(data)
        if kind == "start":
            for seat in self.seats:
                if seat.kind == "open":
                    self._computer(seat)
            return self._apply_deal()
        if kind == "move":
            return self._apply_move(data["seat"], move_from_json(data["move"]))
        if kind == "leave":
            return self._apply_leave(data["seat"])
        if kind == "deal":
            return self._apply_deal()
        raise ValueError(f"unknown action {kind!r}")

    def _tell(self, kind: str, what: Any) -> None:
        self.log = [*self.log[-49:], (self.told, kind, what)]
        self.told += 1

    def _apply_take(self, data: dict[str, Any]) -> None:
        number = data["seat"]
        self._tell("sat", data["name"])
        if number == len(self.seats):
            self.seats.append(Seat(number, kind="waiting"))
        seat = self.seats[number]
        seat.name, seat.token_hash, seat.player, seat.robot = data["name"], data["token_hash"], None, False
        seat.user = data.get("user")
        if seat.kind != "waiting":
            seat.kind = "human"
        if self.game is None and all(s.kind != "open" for s in self.seats):
            self._apply_deal()

    def _apply_move(self, seat: int, move: Move) -> GameState:
        assert self.game is not None
        before = self.game.state
        after = self.game.apply(move)
        self._tell("move", (before, move, after, tuple(self.hand_seats)))
        if after.is_over:
            self.match.record(self.game)
        return after

    def _apply_leave(self, number: int) -> None:
        seat = self.seats[number]
        self._tell("left", seat.name)
        if self.game is None:
            seat.kind, seat.name, seat.token_hash, seat.user = "open", "", None, None
            return
        if seat.kind == "waiting":
            seat.kind = "left"
            return
        if self.variant.join_and_leave:  # MK-14
            seat.kind, seat.connected = "left", False
            hand_seat = self.hand_seat(number)
            state = self.state
            if hand_seat is not None and state is not None and not state.is_over:
                after = state.leave(hand_seat)
                self.game = Game(after)  # the hand goes on from here; undo is not offered at a class table
                if after.is_over:
                    self.match.record(self.game)
            elif number in self.match.seats_in_play and not self.match.is_over:
                self.match.leave(number)
            return
        self._computer(seat)

    def _apply_deal(self) -> GameState:
        for seat in self.seats:
            if seat.kind == "waiting":
                try:
                    joined = self.match.join()
                except MatchError:
                    seat.kind = "left"
                    continue
                assert joined == seat.number, (joined, seat.number)
                seat.kind = "human"
        self.hand_seats = self.match.seats_in_play
        self.game = Game(self.match.deal())
        self._tell("dealt", (len(self.match.hands) + 1, self.seats[self.match.dealer].name))
        return self.game.state

    def _computer(self, seat: Seat) -> None:
        seat.kind, seat.name, seat.token_hash, seat.robot = "computer", f"Computer {seat.number + 1}", None, False
        seat.user = None
        seat.player = self._computer_player(seat.number)

    def _computer_player(self, seat: int) -> Any:
        return for_strength(self.spec.strength, seed=self.spec.seed * 100 + seat)

    # --- resuming -------------------------------------------------------------------------------------
    @classmethod
    def resume(cls, code: str, spec: TableSpec, store: Store) -> ClassTable:
        """The table as its recorded actions left it."""
        table = cls(code, spec, None)
        for n, kind, data in store.actions(code):
            if n != table.n:
                raise ValueError(f"table {code}: action {n} follows action {table.n - 1}")
            table.n += 1
            table._apply(kind, data)
        table.store = store
        return table

    def summary(self) -> dict[str, Any]:
        """The table for the lobby: code, variant, seats, hands played."""
        return {"code": self.code, "variant": self.variant.name, "spec": self.spec.to_json(),
                "seats": [s.public() for s in self.seats], "hands": len(self.match.hands),
                "started": self.game is not None, "match_over": self.match.is_over}

