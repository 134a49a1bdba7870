"""GameState: one immutable situation of a hand, and how a move leads to the next.

A state is a value: ``apply`` returns a new state and never changes the old one, so
stepping back is free and a state can be a dictionary key or a networkx node.
A hand is kept as the bytes of its cards' indices (``maumau.core.turn.add_cards``), which ``hands``
reads back as cards; the legal moves walk those bytes and read each card's plays by its index.
Two states are equal when they are the same game situation: hands are kept sorted,
and the order of the discard pile under its top card does not matter (a reshuffle
sorts it first, C-6).

This module reads from the top down as the rulebook does:

1. the state's fields (``FIELDS``, declared once: the compiled declarations in ``state.pxd``,
   the saved form, a seat's View and the class table's wire follow them; tests/core/test_fields.py
   holds them together), the state itself and ``make_state``;
2. the legal moves: the rules decide, and this module only asks them, in the order a card game
   asks: what may be played (C-3 and the wild cards, ``maumau.core.playable``), what playing does
   (the effects), whether the hand ended (C-9), whether Mau was said (C-8), and who moves next;
3. applying a move: the two commonest moves on a fast path, every other one carried out on a
   ``maumau.core.turn.Turn`` that the rules write on, then made the next state (``next_state``);
4. leaving mid-hand (MK-14).

The state's methods and the engine's functions live together so that neither needs the other
half-loaded: everything this module imports sits below it.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from . import illegal
from .cards import CARD_AT, Card, CardTuple, Rank, Suit
from .events import Drew, Left, NoMau, Skipped, Wished
from .moves import DRAWN, EXTRA, PHASES, TURN, Draw, Move, Pass, Play
from .playable import legal_cards, plays_on
from .refusal import Refusal, refuse
from .rules.base import Memory, Role, Table, locked_in, recall, recall_role, with_locked
from .turn import ONE, Turn, add_index, cards_of, next_active, packed, remove_cards
from .validate import check_hands, check_pile

if TYPE_CHECKING:  # pragma: no cover
    from .events import Event
    from .rules.base import Pending, Rule
    from .variants import Variant

__all__ = ["GameState", "IllegalMove", "FIELDS", "make_state", "next_state", "legal_moves_of", "apply_move",
           "play_effects", "leave", "DRAW", "PASS", "TURN", "EXTRA", "DRAWN", "PHASES"]


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


#: The state's fields, in ``make_state``'s order: the one list that everything holding a state's
#: fields follows (tests/core/test_fields.py).
FIELDS = (
    "variant", "hands", "stock", "discard", "to_move", "direction", "wish", "pending",
    "phase", "drawn", "memory", "active", "dealer", "seed", "idle", "winner",
    "over", "blocked", "events",
)
# The fields, then what is computed on demand: legal moves, the value key, the hash.
_SLOTS = (*("_" + field for field in FIELDS), "_legal", "_key", "_hash", "_held", "__weakref__")


def _read(field: str, doc: str) -> Any:
    """A read-only attribute that reads ``field`` (attrgetter: a C-level read, the commonest
    thing players do; the class body says its type)."""
    return property(attrgetter(field), doc=doc)


class GameState:
    """One situation of a hand of a Mau-Mau-family game (see docs/explanation/design.md).

    Read-only attributes: ``variant, hands, stock, stock_size, discard, top, to_move, direction,
    wish, pending, pending_draw, pending_skip, phase, drawn, memory, runde, locked, active,
    dealer, is_over, winner, blocked``.
    """

    __slots__ = _SLOTS

    if TYPE_CHECKING:  # the fields, for the type checker (state.pxd declares them for Cython)
        _variant: Variant
        _hands: tuple[bytes, ...]  # each seat's cards as the bytes of their indices, sorted (turn.add_cards)
        _stock: bytes  # the stock's cards as the bytes of their indices, the next drawn first
        _discard: bytes  # the discard pile's, its top last
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
        _held: tuple[tuple[Card, ...], ...] | None  # ``hands`` as cards, made when first read

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("make a GameState with mm.deal(...) or mm.position(...)")

    # --- read-only attributes (attrgetter: a C-level read, the commonest thing players do) ------
    variant: Variant = _read("_variant", "The Variant being played.")
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
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Hands by seat (each sorted by card)."""
        held = self._held
        if held is None:
            held = self._held = tuple([cards_of(hand) for hand in self._hands])
        return held

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock; stock[0] is drawn next."""
        return cards_of(self._stock)

    @property
    def stock_size(self) -> int:
        """How many cards the stock holds."""
        return len(self._stock)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile; discard[-1] is the top."""
        return cards_of(self._discard)

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return CARD_AT[self._discard[-1]]

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
        return CardTuple(self.hands[self._to_move if seat is None else seat])

    def next_seat(self, seat: int) -> int:
        """next(p): the neighbouring active seat in the direction of play (C-1)."""
        return next_active(self._active, seat, self._direction)

    @property
    def table(self) -> Table:
        """What a card is played on here: the top card, the wish, the pending effect and the
        memory (``maumau.core.playable`` asks the rules about it)."""
        return Table(self.top, self._wish, self._pending, self._memory)

    # --- the rules: this module's functions below ------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, each once; empty only at the end."""
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_moves_of(self)
        return list(legal)

    def is_legal(self, move: Move) -> bool:
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_moves_of(self)
        return move in legal

    def apply(self, move: Move) -> GameState:
        """The next state; raises IllegalMove (and changes nothing) if ``move`` is illegal.

        A Play that leaves one card without ``mau=True`` is accepted and penalised (C-8).
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_moves_of(self)
        if move not in legal and not self._forgets_mau(move, legal):
            # an illegal move always has a reason: refusal is None only for legal moves
            raise IllegalMove(cast(Refusal, self.refusal(move)), move)
        return apply_move(self, move)

    def _forgets_mau(self, move: Move, legal: tuple[Move, ...]) -> bool:
        return type(move) is Play and not move.mau and move.replace(mau=True) in legal

    def refusal(self, move: Move) -> Refusal | None:
        """None for a legal move, else why not, as data: a sentence key, the id of the rule that
        refuses and the values the sentence names (``maumau.core.refusal``)."""
        return illegal.refusal(self, move)

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
        return leave(self, seat)

    # --- values ------------------------------------------------------------------------------
    def _value(self) -> tuple[Any, ...]:
        key = self._key
        if key is None:
            d = self._discard
            key = self._key = (
                self._variant, self._hands, self._stock, d[-1],
                bytes(sorted(d[:-1])), self._to_move, self._direction,
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
        values = {f: getattr(self, "_" + f) for f in FIELDS}
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


def make_state(variant: Variant, hands: tuple[tuple[Card, ...], ...] | tuple[bytes, ...],
               stock: tuple[Card, ...] | bytes, discard: tuple[Card, ...] | bytes, to_move: int, direction: int,
               wish: Suit | Rank | None, pending: Pending | None, phase: str,
               drawn: Card | None, memory: Memory,
               active: tuple[bool, ...], dealer: int, seed: int, idle: int,
               winner: int | None, over: bool, blocked: bool, events: tuple[Event, ...] = ()) -> GameState:
    """A new state from its fields (the loaders and ``replace`` use it): unchecked, but for the hands,
    the stock and the discard pile, which must be tuples of cards (InvalidState otherwise; or a state's
    own, already bytes), and which the state keeps as the bytes of their cards' indices."""
    return _new_state(variant, _packed_hands(hands), _packed_pile("the stock", stock),
                      _packed_pile("the discard pile", discard), to_move, direction, wish, pending,
                      phase, drawn, memory, active, dealer, seed, idle, winner, over, blocked, events)


def _packed_hands(hands: Any) -> tuple[bytes, ...]:
    """Hands as a state keeps them, each as the bytes of its cards' indices (``turn.packed``); hands
    kept so already (a state's own, in ``replace``) are kept as they are."""
    if isinstance(hands, tuple) and all(type(hand) is bytes for hand in hands):
        return hands
    check_hands(hands)
    return tuple([packed(hand) for hand in hands])


def _packed_pile(where: str, pile: Any) -> bytes:
    """The stock or the discard pile as a state keeps it (``_packed_hands``)."""
    if type(pile) is bytes:
        return pile
    check_pile(where, pile)
    return packed(pile)


def _new_state(variant: Variant, hands: tuple[bytes, ...], stock: bytes,
               discard: bytes, to_move: int, direction: int,
               wish: Suit | Rank | None, pending: Pending | None, phase: str,
               drawn: Card | None, memory: Memory,
               active: tuple[bool, ...], dealer: int, seed: int, idle: int,
               winner: int | None, over: bool, blocked: bool, events: tuple[Event, ...] = ()) -> GameState:
    """A new state from its fields as it keeps them (the engine's own moves: the cards already bytes)."""
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
    state._held = None
    return state


def next_state(turn: Turn) -> GameState:
    """The state a carried-out move (or the dealer's up-card, C-2) leads to."""
    if turn.over:
        turn.pending, turn.phase, turn.drawn = None, TURN, None
    assert turn.to_move is not None  # end_turn, an accepted effect or the last card set it
    return _new_state(
        turn.variant, tuple(turn.hands), turn.stock, turn.discard, turn.to_move, turn.direction, turn.wish,
        turn.pending, turn.phase, turn.drawn, turn.memory, turn.active, turn.state._dealer, turn.seed,
        turn.idle, turn.winner, turn.over, turn.blocked, tuple(turn.events) if turn.events else ())


# --- legal moves ----------------------------------------------------------------------

#: The two moves without a card, made once.
DRAW, PASS = Draw(), Pass()
#: What a plain draw of one card records, made once per seat: events do not change.
_ONE_DRAWN = tuple((Drew(seat, 1, 1),) for seat in range(16))


def legal_moves_of(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the player to move, each exactly once (docs/explanation/design.md)."""
    if state._over:
        return ()
    variant = state._variant
    seat = state._to_move
    hand = state._hands[seat]
    pile = state._discard
    top, wish, pending, memory = CARD_AT[pile[len(pile) - 1]], state._wish, state._pending, state._memory
    if wish is None and pending is None and memory is variant.memory_at_deal:
        found = variant._plays_by_top.get(top)
    else:
        found = variant._plays_cache.get((top, wish, pending, memory))
    if found is None:
        found = plays_on(variant, top, wish, pending, memory)
    plays = found[len(hand) == 2]  # leaving one card: announce Mau (C-8); the plays by card index
    phase = state._phase
    if phase == DRAWN and variant.after_draw == "drawn":
        drawn = state._drawn
        candidates = b"" if drawn is None else packed((drawn,))
    else:
        candidates = hand
    moves: list[Move] = []
    lock = variant._lock_slot
    if lock < 0 or seat not in cast("tuple[int, ...]", memory[lock][1]):  # JM-9: a locked card
        last = -1
        for index in candidates:  # a hand is sorted: the copies of a card sit side by side
            if index != last:
                card_plays = plays[index]
                if card_plays is not None:
                    moves += card_plays
                last = index
        extenders = variant._extenders
        if extenders and phase == TURN and pending is None:
            for index in sorted(set(candidates)):
                if plays[index] is not None:
                    for rule in extenders:
                        moves += rule.extra_plays(state, CARD_AT[index])

    if pending is not None:
        moves.append(DRAW if pending.kind == "draw" else PASS)
    elif phase == TURN:
        forcers = variant._forcers
        if not (moves and forcers and _forced(forcers, state)):
            moves.append(DRAW)
    elif phase == EXTRA:
        moves.append(variant.extra_closer)
    else:  # DRAWN
        moves.append(PASS)
    return tuple(moves)


def _forced(forcers: tuple[Rule, ...], state: GameState) -> bool:
    """Whether a rule makes the player play a card they can play (MR-4, MR-10)."""
    return any(rule.forces_play(state) for rule in forcers)


# --- applying a move ---------------------------------------------------------------------

def apply_move(state: GameState, move: Move, fast: bool = True) -> GameState:
    """The state after ``move``; the caller has checked that it is legal.

    ``fast`` lets the two commonest moves skip the Turn machinery: a card without
    effect (C-3) that neither ends the hand nor forgets Mau, and a draw of one card
    that ends the turn (MK-3, or closing an Ace's extra play, MK-8).  The result is
    the same either way (tests/core/test_properties.py checks it).
    """
    kind = type(move)
    if fast and state._pending is None:
        if isinstance(move, Play):
            if move.last not in state._variant._effects:
                nxt = _plain_play(state, move)
                if nxt is not None:
                    return nxt
        elif kind is Draw:
            nxt = _plain_draw(state)
            if nxt is not None:
                return nxt
    if isinstance(move, Play):
        return _play(state, move)
    turn = Turn(state, move)
    if state._pending is not None:
        _accept(turn, state._pending)
    elif kind is Draw:
        _draw(turn)
    else:
        turn.end_turn(played=False)
    return next_state(turn)


def _next(state: GameState, seat: int) -> int:
    """next(X) (C-1): the neighbour in the direction of play, unless they left (MK-14)."""
    active = state._active
    following = (seat + state._direction) % len(active)
    return following if active[following] else next_active(active, seat, state._direction)


def _plain_play(state: GameState, move: Play) -> GameState | None:
    """A card without effect onto the pile, and next(X) moves; None if it ends the hand
    or leaves one card without the announcement (C-8, C-9)."""
    seat = state._to_move
    hands = state._hands
    gone = move.indices
    hand = remove_cards(hands[seat], gone)
    variant = state._variant
    if len(hand) < 2 and (not hand or not move.mau and variant.announcement is not None):
        return None
    wish = move.wish
    # Positional, in _new_state's order (variant, hands, stock, discard, to_move, direction, wish,
    # pending, phase, drawn, memory, active, dealer, seed, idle, winner, over, blocked,
    # events): the two fast paths run for most decisions, and matching twenty keywords costs the
    # pure-Python engine a third of a decision (11,000 instructions); compiled, it is the same C call.
    changed = list(hands)
    changed[seat] = hand
    return _new_state(
        variant, tuple(changed), state._stock,
        state._discard + gone, _next(state, seat), state._direction, wish,
        None, TURN, None, state._memory, state._active, state._dealer,
        state._seed, 0, None, False, False,
        () if wish is None else (Wished(wish, variant._wishers.get(move.last)),))


def _plain_draw(state: GameState) -> GameState | None:
    """One card from a stock that keeps at least one, where drawing ends the turn; None
    where the player may still play after drawing (MR-4, JM-3) or is locked (JM-9)."""
    stock = state._stock
    seat = state._to_move
    phase = state._phase
    lock = state._variant._lock_slot
    if (len(stock) < 2 or lock >= 0 and seat in cast("tuple[int, ...]", state._memory[lock][1])
            or not (phase == EXTRA or phase == TURN and state._variant.after_draw == "none")):
        return None
    hands = list(state._hands)
    card = stock[0]
    hands[seat] = add_index(hands[seat], card)
    return _new_state(  # positional, as in _plain_play
        state._variant, tuple(hands), stock.removeprefix(ONE[card]),  # one C call, where a slice is two
        state._discard, _next(state, seat), state._direction, state._wish, None, TURN, None,
        state._memory, state._active, state._dealer, state._seed, 0, None, False, False,
        _ONE_DRAWN[seat] if seat < 16 else (Drew(seat, 1, 1),))


def _play(state: GameState, move: Play) -> GameState:
    turn = Turn(state, move)
    variant = turn.variant
    seat = turn.player
    hand = remove_cards(turn.hands[seat], move.indices)
    turn.hands[seat] = hand
    turn.discard = state._discard + move.indices
    turn.wish = move.wish
    card = move.last
    if move.wish is not None:
        turn.events.append(Wished(move.wish, variant._wishers.get(card)))
    if not hand:  # C-9: the hand ends the moment a hand is empty
        turn.over, turn.winner, turn.to_move = True, seat, seat
        for rule in variant._last_card.get(card, ()):
            turn.acting = rule
            rule.on_last_card(turn, card)
        return next_state(turn)
    play_effects(turn, card)
    announcement = variant.announcement
    if len(hand) == 1 and not move.mau and announcement is not None:
        turn.acting = announcement
        turn.events.append(NoMau(seat, announcement))
        announcement.on_missing_announcement(turn)
    if turn.phase == EXTRA:
        turn.idle = 0
    else:
        turn.end_turn(played=True)
    return next_state(turn)


def play_effects(turn: Turn, card: Card) -> None:
    """Each rule that gives ``card`` an effect acts on the turn, in the variant's order."""
    for rule in turn.variant._effects.get(card, ()):
        turn.acting = rule
        rule.on_play(turn, card)
    turn.acting = None


def _accept(turn: Turn, pending: Pending) -> None:
    """The target accepts the pending effect: takes the cards or sits out (C-5)."""
    target = pending.target
    turn.acting = pending.rule
    if pending.kind == "draw":
        turn.draw(target, pending.amount, "penalty")
        if pending.rule.accept_ends_turn:
            turn.to_move = pending.resume if pending.resume is not None else turn.next(target)
            turn.end_turn(played=False)
        else:
            turn.to_move = target  # MR-5, JM-5: a normal turn follows
    else:
        seat = target
        for _ in range(pending.amount):
            seat = turn.next(seat)
        turn.to_move = pending.resume if pending.resume is not None else seat
        turn.events.append(Skipped(target, pending.amount, pending.rule))
        turn.end_turn(played=False)


def _draw(turn: Turn) -> None:
    """A plain draw of one card, and what the variant lets follow (C-4, C-7)."""
    state = turn.state
    seat = turn.player
    got = turn.draw(seat, 1)  # JM-9: a card received lifts the lock; nothing drawn keeps it
    policy = turn.variant.after_draw
    if state._phase == TURN and got and policy in ("drawn", "any"):
        playable = legal_cards(turn.variant, state.table)  # drawing keeps the table
        can = got[0] in playable if policy == "drawn" else any(CARD_AT[i] in playable for i in turn.hands[seat])
        if can:
            turn.to_move, turn.phase, turn.drawn = seat, DRAWN, got[0]
            return
    turn.end_turn(played=False)


# --- leaving mid-hand (MK-14) --------------------------------------------------------------------

def leave(state: GameState, seat: int) -> GameState:
    """MK-14: the player is removed; their cards go under the stock unscored, effects aimed
    at them lapse, and the turn passes on; a last player left wins."""
    if not state.variant.join_and_leave:
        raise IllegalMove(refuse("leave.variant", variant=state.variant.name))
    if not (0 <= seat < state.players) or not state.active[seat]:
        raise IllegalMove(refuse("leave.seat", seat=seat))
    if state.is_over:
        raise IllegalMove(refuse("illegal.over"))
    active = tuple(a and i != seat for i, a in enumerate(state.active))
    hands = tuple(() if i == seat else h for i, h in enumerate(state.hands))
    pending, phase, to_move, drawn = state.pending, state.phase, state.to_move, state.drawn
    if pending is not None and (pending.target == seat or pending.resume == seat):
        pending = None
    if to_move == seat:
        to_move = next_active(active, seat, state.direction)
        phase, drawn, pending = TURN, None, None
    over: bool = state.is_over
    winner: int | None = state.winner
    if sum(active) == 1:
        over, winner = True, active.index(True)
        to_move, pending, phase = winner, None, TURN
    return state.replace(active=active, hands=hands, stock=state.stock + state.hands[seat], pending=pending,
                         phase=phase, to_move=to_move, drawn=drawn, over=over, winner=winner,
                         memory=with_locked(state.memory, state.locked - {seat}), events=(Left(seat),))

