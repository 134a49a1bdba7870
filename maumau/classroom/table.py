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

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.moves import Move
from ..core.state import GameState, IllegalMove
from ..play.game import Game
from ..play.match import Match, MatchError
from ..players import ask, for_strength
from ..text.i18n import check_language
from .messages import move_from_wire
from .names import NameError_, check_name, clean_name, computer_name
from .spec import TableError, TableSpec, random_seed
from .store import Store, new_token, same_token, token_hash

if TYPE_CHECKING:  # pragma: no cover
    from .messages import SeatInfo

__all__ = ["TableSpec", "TableSeat", "ClassTable", "TableError"]


@dataclass
class TableSeat:
    """A seat of the match: who sits there and whether they are connected."""

    number: int
    name: str = ""
    kind: str = "open"            # "open", "human", "computer", "left" or "waiting" (joins next hand)
    token_hash: str | None = None
    connected: bool = False
    robot: bool = False           # a computer holds a dropped learner's seat until they come back
    user: str | None = None       # who sits here: the hub user (--hub) or the roster learner (--roster)
    player: Any = field(default=None, repr=False)

    @property
    def played_by_computer(self) -> bool:
        return self.kind == "computer" or (self.kind == "human" and self.robot)

    def display(self, lang: str) -> str:
        """The seat's name: a learner's own, a computer's its seat as the notebook table says it."""
        return computer_name(self.number, lang) if self.kind == "computer" or not self.name else self.name

    def public(self, lang: str | None = None) -> SeatInfo:
        lang = check_language(lang)
        return {"seat": self.number, "name": self.display(lang) if self.kind != "open" else "",
                "kind": self.kind, "connected": self.connected, "computer": self.played_by_computer}


class ClassTable:
    """The authoritative table (see the module docstring)."""

    def __init__(self, code: str, spec: TableSpec, store: Store | None = None) -> None:
        self.code, self.spec, self.store = code, spec, store
        self.variant = spec.make_variant()
        self.match = Match(self.variant, players=spec.seats, seed=spec.match_seed)
        self.seed = spec.match_seed  # the match's seed (a restart draws a new one): the server's secret
        self.seats = [TableSeat(i) for i in range(spec.seats)]
        for seat in self.seats[spec.seats - spec.computers:]:
            self._computer(seat)
        self.game: Game | None = None
        self.hand_seats: list[int] = []
        self.n = 0                # actions so far; a client's move names the n it saw
        #: What happened lately, to tell: (number, kind, what) for moves, deals, seats taken and left.
        self.log: list[tuple[int, str, Any]] = []
        self.told = 0
        # the log lines as told, by (line, language, the learner told in the second person)
        self.said_cache: dict[tuple[int, str, int | None], Any] = {}

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

    def seat_by_token(self, token: str) -> TableSeat:
        for seat in self.seats:
            if seat.kind in ("human", "waiting") and same_token(token, seat.token_hash):
                return seat
        raise TableError("bad_token", "no seat at this table has that token")

    # --- actions -------------------------------------------------------------------------------------
    def _record(self, kind: str, data: dict[str, Any]) -> None:
        if self.store is not None:
            self.store.append(self.code, self.n, kind, data)
        self.n += 1

    def seat_of_user(self, user: str) -> TableSeat | None:
        """The seat of a hub user or roster learner (known by the hub or a personal code, not a token)."""
        return next((s for s in self.seats if s.user == user and s.kind in ("human", "waiting")), None)

    def take(self, name: str, user: str | None = None, others: Iterable[str] = ()) -> tuple[TableSeat, str]:
        """A learner sits down: an open seat, a seat a computer holds, or (makao, MK-13) a new
        seat from the next hand on.  ``user``: who they are (a hub user, a roster learner), if the
        server knows; ``others``: names that are other learners' (``names.check_name``).  Returns
        the seat and its secret token."""
        try:
            name = check_name(name, [s.name for s in self.seats if s.kind in ("human", "waiting")], others)
        except NameError_ as err:
            raise TableError("bad_name", str(err)) from None
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
        active = sum(s.kind in ("human", "waiting", "computer") for s in self.seats)
        if self.variant.join_and_leave and not self.match.is_over and active < self.most_players:
            return len(self.seats)  # MK-13: join at the next hand, up to 5 active players
        raise TableError("full", "every seat at this table is taken")

    @property
    def most_players(self) -> int:
        """MK-13: at most this many active players (joined or waiting to join) at a makao table."""
        return min(5, self.variant.players[1])

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
            raise TableError("stale", f"the table has changed since action {seen} (now {self.n}): look again",
                             values={"seen": seen, "now": self.n})
        if self.to_move() != seat:
            raise TableError("not_your_turn", "it is not this seat's turn")
        return self._move(seat, move)

    def _move(self, seat: int, move: Move, clock: bool = False) -> GameState:
        """Make ``move`` (checked here, once, by ``Game.apply``: IllegalMove says why) and record it,
        the Move itself (the store keeps it); a move the store cannot keep is taken back."""
        assert self.game is not None
        data: dict[str, Any] = {"seat": seat, "move": move, **({"clock": True} if clock else {})}
        before = self.game.state
        try:
            after = self.game.apply(move)
        except IllegalMove as err:
            raise TableError("illegal", str(err)) from None
        try:
            self._record("move", data)
        except BaseException:
            self.game.undo()
            raise
        return self._moved(data, before, move, after)

    def leave(self, seat: int) -> None:
        """A learner leaves: before the start the seat opens again; in makao they leave the match
        (MK-14, mid-hand too); elsewhere a computer takes the seat over."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind not in ("human", "waiting"):
            raise TableError("not_seated", f"seat {seat} has no learner", values={"seat": seat})
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
        return self._move(seat, ask(player, state))

    def clock_move(self, seat: int) -> GameState:
        """The turn clock ran out for learner ``seat``: a computer of the table's strength moves
        for them, recorded (and told) as the clock's move."""
        if self.to_move() != seat or self.seats[seat].played_by_computer:
            raise TableError("not_your_turn", "it is not this seat's turn")
        state = self.state
        assert state is not None
        return self._move(seat, ask(self._computer_player(seat), state), clock=True)

    def restart(self) -> dict[int, int]:
        """The teacher starts a new match at a finished table (any variant): the same people, the
        ones who left makao gone, new totals, a new secret seed.  Returns the seats' new numbers."""
        if not self.match.is_over:
            raise TableError("playing", "the match is still being played: restart it when it is over")
        data = {"seed": random_seed()}
        self._record("restart", data)
        return self._apply_restart(data["seed"])

    # --- applying actions (live and on replay) -------------------------------------------------------
    def _apply(self, kind: str, data: dict[str, Any]) -> Any:
        if kind == "take":
            return self._apply_take(data)
        if kind == "start":
            for seat in self.seats:
                if seat.kind == "open":
                    self._computer(seat)
            return self._apply_deal()
        if kind == "move":  # a recorded move, replayed: read from what the store wrote
            assert self.game is not None
            move = move_from_wire(data["move"])
            before = self.game.state
            return self._moved(data, before, move, self.game.apply(move))
        if kind == "restart":
            return self._apply_restart(data["seed"])
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
        if number == len(self.seats):
            self.seats.append(TableSeat(number, kind="waiting"))
        seat = self.seats[number]
        # cleaned again: a name stored by an older server must not stop the table (issue 23)
        name = (clean_name(data["name"]) if isinstance(data["name"], str) else "") or "Guest"
        self._tell("sat", name)
        seat.name, seat.token_hash, seat.player, seat.robot = name, data["token_hash"], None, False
        seat.user = data.get("user")
        if seat.kind != "waiting":
            seat.kind = "human"
        if self.game is None and all(s.kind != "open" for s in self.seats):
            self._apply_deal()

    def _moved(self, data: dict[str, Any], before: GameState, move: Move, after: GameState) -> GameState:
        """Tell a move made (live or replayed), and record the hand it ended."""
        assert self.game is not None
        if data.get("clock"):
            self._tell("clock", data["seat"])
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
        self._tell("dealt", (len(self.match.hands) + 1, self.match.dealer))
        return self.game.state

    def _apply_restart(self, seed: int) -> dict[int, int]:
        self.seed = seed
        staying = [s for s in self.seats if s.kind in ("human", "waiting", "computer")]
        lo = self.variant.players[0]
        while len(staying) < lo:  # too few stayed: computers fill the table up
            staying.append(TableSeat(len(staying), kind="open"))
        numbers = {s.number: i for i, s in enumerate(staying) if s.kind != "open"}
        for i, seat in enumerate(staying):
            seat.number = i
            if seat.kind == "waiting":
                seat.kind = "human"
            elif seat.kind in ("open", "computer"):
                self._computer(seat)
        self.seats, self.game, self.hand_seats, self.log = staying, None, [], []
        self.match = Match(self.variant, players=len(staying), seed=seed)
        self._tell("restarted", None)
        self._apply_deal()
        return numbers

    def _computer(self, seat: TableSeat) -> None:
        seat.kind, seat.name, seat.token_hash, seat.robot = "computer", "", None, False
        seat.user = None
        seat.player = self._computer_player(seat.number)

    def _computer_player(self, seat: int) -> Any:
        return for_strength(self.spec.strength, seed=self.seed * 100 + seat)

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
        return {"code": self.code, "variant": self.variant.name, **self.spec.for_teacher(),
                "seats": [s.public(self.spec.lang) for s in self.seats], "hands": len(self.match.hands),
                "started": self.game is not None, "match_over": self.match.is_over}

