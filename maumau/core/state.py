"""GameState: one immutable situation of a hand, with its legal moves.

A state is a value: ``apply`` returns a new state and never changes the old one, so
stepping back is free and a state can be a dictionary key or a networkx node.
Two states are equal when they are the same game situation: hands are kept sorted,
and the order of the discard pile under its top card does not matter (a reshuffle
sorts it first, C-6).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from .cards import Card, CardTuple, Rank, Suit
from .moves import DRAWN, EXTRA, PHASES, TURN, Move, Play
from .refusal import Refusal
from .rules.base import Memory, Role, locked_in, recall, recall_role, with_locked

if TYPE_CHECKING:  # pragma: no cover
    from .events import Event
    from .rules.base import Pending, Rule
    from .variants import Variant

__all__ = ["GameState", "IllegalMove", "next_active", "make_state", "TURN", "EXTRA", "DRAWN", "PHASES"]



class IllegalMove(ValueError):
    """A move the rules do not allow; the message names the rule (C-9).  ``refusal`` holds the
    reason as data (``maumau.core.refusal``), ``reason`` as the sentence of the language."""

    def __init__(self, reason: str | Refusal, move: Move | None = None) -> None:
        self.refusal = reason if isinstance(reason, Refusal) else None
        if isinstance(reason, Refusal):
            from ..text.refusals import sentence  # words are made above the core (a door up)

            reason = sentence(reason)
        super().__init__(reason)
        self.reason = reason
        self.move = move


_FIELDS = (
    "variant", "hands", "stock", "discard", "to_move", "direction", "wish", "pending",
    "phase", "drawn", "memory", "active", "dealer", "seed", "idle", "winner",
    "over", "blocked", "events",
)
# The fields, then what is computed on demand: legal moves, the value key, the hash.
_SLOTS = (*("_" + field for field in _FIELDS), "_legal", "_key", "_hash", "__weakref__")


def _read(field: str, doc: str) -> Any:
    """A read-only attribute that reads ``field`` (attrgetter: a C-level read, the commonest
    thing players do; the class body says its type)."""
    return property(attrgetter(field), doc=doc)


class GameState:
    """One situation of a hand of a Mau-Mau-family game (see docs/explanation/design.md).

    Read-only attributes: ``variant, hands, stock, discard, top, to_move, direction,
    wish, pending, pending_draw, pending_skip, phase, drawn, memory, runde, locked, active,
    dealer, is_over, winner, blocked``.
    """

    __slots__ = _SLOTS

    if TYPE_CHECKING:  # the fields, for the type checker (state.pxd declares them for Cython)
        _variant: Variant
        _hands: tuple[tuple[Card, ...], ...]
        _stock: tuple[Card, ...]
        _discard: tuple[Card, ...]
        _to_move: int
        _direction: int
        _wish: Suit | Rank | None
        _pending: Pending | None
        _phase: str
        _drawn: Card | None
        _memory: Memory
        _active: tuple[bool, ...]
        _dealer: int
        _seed: int
        _idle: int
        _winner: int | None
        _over: bool
        _blocked: bool
        _events: tuple[Event, ...]
        _legal: tuple[Move, ...] | None
        _key: tuple[Any, ...] | None
        _hash: int | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("make a GameState with mm.deal(...) or mm.position(...)")

    # --- read-only attributes (attrgetter: a C-level read, the commonest thing players do) ------
    variant: Variant = _read("_variant", "The Variant being played.")
    hands: tuple[tuple[Card, ...], ...] = _read("_hands", "Hands by seat (each sorted).")
    stock: tuple[Card, ...] = _read("_stock", "The stock; stock[0] is drawn next.")
    discard: tuple[Card, ...] = _read("_discard", "The discard pile; discard[-1] is the top.")
    to_move: int = _read("_to_move", "The seat whose decision it is.")
    direction: int = _read("_direction", "+1 (clockwise) or -1 (MK-6).")
    wish: Suit | Rank | None = _read("_wish", "The wished Suit or Rank, or None.")
    pending: Pending | None = _read("_pending", "The pending penalty or skip (C-5).")
    phase: str = _read("_phase", '"turn", "extra" (after an Ace) or "drawn".')
    drawn: Card | None = _read("_drawn", "The card just drawn, in the 'drawn' phase.")
    memory: Memory = _read("_memory", "What the rules that remember hold: (rule, value) for each.")
    active: tuple[bool, ...] = _read("_active", "Which seats still take part (MK-14).")
    dealer: int = _read("_dealer", "The seat that dealt this hand (C-2).")
    seed: int = _read("_seed", "The seed of the next reshuffle (C-6).")
    idle: int = _read("_idle", "Turns in a row without play or card (C-7).")
    winner: int | None = _read("_winner", "The seat that went out, or None.")
    is_over: bool = _read("_over", "Whether the hand has ended (C-9, C-7).")
    blocked: bool = _read("_blocked", "The hand ended blocked: void (C-7).")
    events: tuple[Event, ...] = _read("_events", "What the last move set off: records of maumau.events.")

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self._discard[-1]

    @property
    def players(self) -> int:
        """The number of seats at the table."""
        return len(self._hands)

    @property
    def runde(self) -> tuple[Rank, int] | None:
        """(rank, opener) while a Runde runs (MR-8), read from the Runde's memory."""
        return recall_role(self._memory, Role.RUNDE)  # type: ignore[no-any-return]

    @property
    def locked(self) -> frozenset[int]:
        """Seats whose last card is locked (JM-9), read from the lock rule's memory."""
        return locked_in(self._memory, self._variant._lock_slot)

    def memory_of(self, rule: Rule) -> Any:
        """What ``rule`` remembers in this state (its memory slot)."""
        return recall(self._memory, rule)

    @property
    def pending_draw(self) -> int:
        """Cards the target of a pending draw penalty must take (0 if none)."""
        p = self._pending
        return p.amount if p is not None and p.kind == "draw" else 0

    @property
    def pending_skip(self) -> int:
        """Players a pending skip will pass over (0 if none)."""
        p = self._pending
        return p.amount if p is not None and p.kind == "skip" else 0

    def hand(self, seat: int | None = None) -> CardTuple:
        """A seat's hand (by default the player to move's), as a printable tuple."""
        return CardTuple(self._hands[self._to_move if seat is None else seat])

    def next_seat(self, seat: int) -> int:
        """next(p): the neighbouring active seat in the direction of play (C-1)."""
        return next_active(self._active, seat, self._direction)

    # --- the rules ----------------------------------------------------------------------------
    # The engine imports the state, so the state imports the engine at the end of this module
    # (its last lines) and calls the engine's two hot functions by the names it imported there,
    # ``_legal_moves`` and ``_apply_move``: reading a module's attribute on every move cost 500
    # instructions of 21,000 (issue 29), an import inside these methods a third of a move.
    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, each once; empty only at the end."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _legal_moves(self)
        return list(legal)

    def is_legal(self, move: Move) -> bool:
        legal = self._legal
        if legal is None:
            legal = self._legal = _legal_moves(self)
        return move in legal

    def apply(self, move: Move) -> GameState:
        """The next state; raises IllegalMove (and changes nothing) if ``move`` is illegal.

        A Play that leaves one card without ``mau=True`` is accepted and penalised (C-8).
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = _legal_moves(self)
        if move not in legal and not self._forgets_mau(move, legal):
            # an illegal move always has a reason: refusal is None only for legal moves
            raise IllegalMove(cast(Refusal, self.refusal(move)), move)
        return _apply_move(self, move)

    def _forgets_mau(self, move: Move, legal: tuple[Move, ...]) -> bool:
        return type(move) is Play and not move.mau and move.replace(mau=True) in legal

    def refusal(self, move: Move) -> Refusal | None:
        """None for a legal move, else why not, as data: a sentence key, the id of the rule that
        refuses and the values the sentence names (``maumau.core.refusal``)."""
        from .illegal import refusal  # illegal imports the engine: asked when a move is refused

        return refusal(self, move)

    def why_illegal(self, move: Move) -> str | None:
        """None for a legal move, else the sentence naming the rule that forbids it."""
        said = self.refusal(move)
        if said is None:
            return None
        from ..text.refusals import sentence  # words are made above the core (a door up)

        return sentence(said)

    def explain(self, move: Move) -> str:
        """One sentence: what ``move`` does here, or why it is illegal."""
        from ..text.explain import explain

        return explain(self, move)

    def leave(self, seat: int) -> GameState:
        """The state after ``seat`` left mid-hand (MK-14), where the variant allows it."""
        return _leave(self, seat)

    # --- values ------------------------------------------------------------------------------
    def _value(self) -> tuple[Any, ...]:
        key = self._key
        if key is None:
            d = self._discard
            key = self._key = (
                self._variant, self._hands, self._stock, d[-1],
                tuple(sorted(c.index for c in d[:-1])), self._to_move, self._direction,
                self._wish, self._pending, self._phase, self._drawn, self._memory,
                self._active, self._dealer, self._seed, self._idle,
                self._winner, self._over, self._blocked,
            )
        return key

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, GameState):
            return NotImplemented
        return self._value() == other._value()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(self._value())
        return h

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        from ..play.serialize import state_from_dict  # a pickle holds the saved form (play.serialize)

        return (state_from_dict, (self.to_dict(),))

    def replace(self, **changes: Any) -> GameState:
        """A copy with some fields changed (for teaching and tests; not validated)."""
        values = {f: getattr(self, "_" + f) for f in _FIELDS}
        locked = changes.pop("locked", None)  # the locked seats live in the lock rule's memory (JM-9)
        values.update(changes)
        if locked is not None:
            values["memory"] = with_locked(values["memory"], set(locked))
        return make_state(**values)

    def to_dict(self) -> dict[str, Any]:
        """The state as a JSON-ready dictionary (``maumau.play.serialize``)."""
        from ..play.serialize import state_to_dict

        return state_to_dict(self)

    def __repr__(self) -> str:
        from ..text.explain import describe_state

        return describe_state(self)

    def _repr_html_(self) -> str:
        from ..text.explain import state_html

        return state_html(self)


def next_active(active: Sequence[bool], seat: int, step: int) -> int:
    """The seat arithmetic of the whole package (C-1): the first seat after ``seat``, going
    ``step`` (+1 clockwise, -1 against) round the table, that takes part; ``seat`` itself
    when nobody else does."""
    n = len(active)
    for _ in range(n):
        seat = (seat + step) % n
        if active[seat]:
            return seat
    return seat


def make_state(variant: Variant, hands: tuple[tuple[Card, ...], ...], stock: tuple[Card, ...],
               discard: tuple[Card, ...], to_move: int, direction: int,
               wish: Suit | Rank | None, pending: Pending | None, phase: str,
               drawn: Card | None, memory: Memory,
               active: tuple[bool, ...], dealer: int, seed: int, idle: int,
               winner: int | None, over: bool, blocked: bool, events: tuple[Event, ...] = ()) -> GameState:
    """A new state from its fields, unchecked (the engine and the loaders use it)."""
    state = GameState.__new__(GameState)
    state._variant = variant
    state._hands = hands
    state._stock = stock
    state._discard = discard
    state._to_move = to_move
    state._direction = direction
    state._wish = wish
    state._pending = pending
    state._phase = phase
    state._drawn = drawn
    state._memory = memory
    state._active = active
    state._dealer = dealer
    state._seed = seed
    state._idle = idle
    state._winner = winner
    state._over = over
    state._blocked = blocked
    state._events = events
    state._legal = None
    state._key = None
    state._hash = None
    return state


# The engine, last: it imports this module (make_state, IllegalMove, next_active), and the methods
# above call its two hot functions by these names once both are complete (tests/test_layers.py: an
# import at the end of a module).  Importing them by name, not reading ``engine.legal_moves`` on
# every move, saves about 500 instructions a decision (issue 29).  maumau/core/__init__.py loads this
# module first, so the engine is always imported from here, after everything above is defined.
from .engine import apply_move as _apply_move  # noqa: E402
from .engine import leave as _leave  # noqa: E402
from .engine import legal_moves as _legal_moves  # noqa: E402
