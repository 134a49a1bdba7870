"""A seat's observation kept up to date move by move: only the entries a move changed are rewritten.

``Observer(view)`` (``maumau.env.observe``) builds the vector afresh from a ``View``: clear, but most of
the time of an environment's step went into it.  A move changes little of what a seat sees: a card
leaves or joins its hand, one lands on the pile, a hand size and the stock count change, the turn
passes.  ``Seen`` keeps one seat's last vector and the values it was made from, compares each part
with the new state (``is`` first: the engine hands on unchanged parts as the same objects) and
rewrites only the parts that differ, giving exactly the numbers ``Observer`` gives (tested over
thousands of states of every variant against the builder of before).

It reads the GameState, but only what the seat may see, the same fields as ``View``: its own hand,
the *sizes* of the other hands and of the stock, the card just drawn only when it is that seat's turn,
and the public table.  Never another hand's cards nor the stock's order, so dealing the hidden cards
anew gives the same vector (tested).  Each call returns a new array; the kept one is never handed out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.cards import CARD_AT, Card
from ..core.state import PHASES, GameState
from .observe import Observer

__all__ = ["Seen"]

#: Nothing seen yet: differs from every value, so that the first look writes every part.
_UNSEEN: Any = object()

#: Entries are (index, value) pairs of the vector.
Entries = tuple[tuple[int, float], ...]

#: The part of what rules remember, among ``Seen``'s parts that change now and then.
_MEMORY = 3

#: How many values of the public parts each ``Seen`` remembers the entries of (a bound on memory).
_KEPT = 50_000


class Seen:
    """What ``seat`` sees, as ``observer``'s vector, updated from the last state it looked at."""

    def __init__(self, observer: Observer, seat: int) -> None:
        self.observer, self.seat = observer, seat
        n, at = observer.players, observer.parts
        self._order = tuple((seat + k) % n for k in range(n))  # relative slot k is this absolute seat
        self._slot = {card: i for i, card in enumerate(observer.cards)}
        #: The same, by card index: the engine keeps a hand as the bytes of its cards' indices.
        self._slot_at = tuple(self._slot.get(card, -1) for card in CARD_AT)
        self._hand, self._pile, self._top, self._drawn = (at[p].start for p in ("hand", "pile", "top", "drawn"))
        self._sizes, self._to_move, self._phase = (at[p].start for p in ("hand_sizes", "to_move", "phase"))
        self._stock, self._idle = at["stock"].start, at["idle"].start
        self._phases = {phase: at["phase"].start + i for i, phase in enumerate(PHASES)}
        #: The parts that change now and then, each made by ``Observer``'s own writer from one value.
        self._writers: tuple[Callable[[np.ndarray, Any], None], ...] = (
            lambda v, call: observer.write_call(v, call[0], call[1]),
            lambda v, pending: observer.write_pending(v, seat, pending),
            lambda v, seats: observer.write_seats(v, seat, *seats),
            lambda v, memory: observer.write_memory(v, seat, memory))
        self._entries: list[dict[Any, Entries]] = [{} for _ in self._writers]
        self.forget()

    def forget(self) -> None:
        """Start afresh: the next look writes every part."""
        self._vector: np.ndarray = np.zeros(self.observer.size, dtype=np.float32)
        # Entries written one at a time through the buffer take a third of numpy's time per entry
        # (typed Any: typeshed's memoryview takes ints only, the float32 format takes floats too);
        # compiled, the buffer is a C array of floats (seen.pxd).
        self._cells: Any = self._vector.data
        self._seen_hand = b""
        self._seen_pile = b""
        self._seen_top = -1  # the top card's index; none seen yet
        self._seen_drawn: Card | None = None
        self._seen_to_move = -1  # nobody's turn seen yet
        self._seen_phase: str | None = None
        self._seen_table: tuple[Any, ...] = ()
        self._seen_locked: frozenset[int] = frozenset()
        self._seen_values: list[Any] = [_UNSEEN] * len(self._writers)
        self._seen_entries: list[Entries] = [()] * len(self._writers)

    def __call__(self, state: GameState) -> np.ndarray:
        """The seat's vector of ``state`` (a new float32 array; equal to ``Observer(View(state, seat))``)."""
        return self.look(state)

    def look(self, state: GameState) -> np.ndarray:
        """The seat's vector of ``state``, as a method: compiled, a C method (seen.pxd) that the
        compiled Hand calls directly.

        It reads the state's own fields (``_hands`` for ``hands``, each hand the bytes of its cards'
        indices): the compiled module reads them as C fields of the compiled GameState, without a
        Python call each."""
        cells, seat = self._cells, self.seat
        hands: tuple[bytes, ...] = state._hands
        hand = hands[seat]
        if hand is not self._seen_hand:
            self._change_hand(hand)
        pile: bytes = state._discard
        if pile is not self._seen_pile:
            self._change_pile(pile)
        to_move: int = state._to_move
        drawn = state._drawn if seat == to_move else None  # the card just drawn: only its owner sees it
        if drawn is not self._seen_drawn:
            self._change_drawn(drawn)
        order, at = self._order, self._sizes
        for k in range(len(order)):  # the sizes live in the vector: compared there, no second copy
            other = order[k]
            size = len(hands[other])
            if cells[at + k] != size:
                cells[at + k] = size
        self._table(state, to_move)
        memory = state._memory
        if memory is not self._seen_values[_MEMORY]:  # the engine hands on an unchanged memory as it was
            self._seen_locked = state.locked  # made from the memory: the same memory, the same seats
        table = (state._direction, state._wish, state._pending, self._seen_locked, state._active, state._dealer)
        if table != self._seen_table:  # one comparison for the parts most moves leave alone
            self._change_table(table)
        if memory is not self._seen_values[_MEMORY]:
            self._change(_MEMORY, memory)
        fresh: np.ndarray = self._vector.copy()
        return fresh

    def _change_table(self, table: tuple[Any, ...]) -> None:
        direction, wish, pending, locked, active, dealer = table
        seen = self._seen_values
        for part, value in enumerate(((direction, wish), pending, (locked, active, dealer))):
            if value != seen[part]:
                self._change(part, value)
        self._seen_table = table

    def _table(self, state: GameState, to_move: int) -> None:
        """The stock count, whose turn, the phase and the idle count: most moves change one or two."""
        cells = self._cells
        stock = len(state._stock)
        if cells[self._stock] != stock:
            cells[self._stock] = stock
        if to_move != self._seen_to_move:
            n = len(self._order)
            if self._seen_to_move >= 0:
                cells[self._to_move + (self._seen_to_move - self.seat) % n] = 0
            cells[self._to_move + (to_move - self.seat) % n] = 1
            self._seen_to_move = to_move
        phase = state._phase
        if phase is not self._seen_phase and phase != self._seen_phase:
            if self._seen_phase is not None:
                cells[self._phases[self._seen_phase]] = 0
            cells[self._phases[phase]] = 1
            self._seen_phase = phase
        idle: int = state._idle
        if cells[self._idle] != idle:
            cells[self._idle] = idle

    def _change_hand(self, hand: bytes) -> None:
        """Count out the cards that left the hand and count in those that joined: the part both hands
        share at the front and at the back (hands are kept sorted) stays as it is."""
        old, cells, slot, at = self._seen_hand, self._cells, self._slot_at, self._hand
        front, shorter = 0, min(len(old), len(hand))
        while front < shorter and old[front] == hand[front]:
            front += 1
        back = 0
        while back < shorter - front and old[len(old) - 1 - back] == hand[len(hand) - 1 - back]:
            back += 1
        for i in range(front, len(old) - back):
            cells[at + slot[old[i]]] -= 1
        for i in range(front, len(hand) - back):
            cells[at + slot[hand[i]]] += 1
        self._seen_hand = hand

    def _change_pile(self, pile: bytes) -> None:
        """The pile mostly grows by a card or two: count the new ones; a reshuffle counts afresh."""
        old, cells, slot, at = self._seen_pile, self._cells, self._slot_at, self._pile
        k = len(old)
        first = k
        if len(pile) < k or not pile.startswith(old):  # a reshuffle: counted afresh
            self._vector[at:at + len(self._slot)] = 0
            first = 0
        for i in range(first, len(pile)):
            cells[at + slot[pile[i]]] += 1
        self._seen_pile = pile
        top = pile[len(pile) - 1]
        if top != self._seen_top:
            if self._seen_top >= 0:
                cells[self._top + slot[self._seen_top]] = 0
            cells[self._top + slot[top]] = 1
            self._seen_top = top

    def _change_drawn(self, drawn: Card | None) -> None:
        cells, at = self._cells, self._drawn
        if self._seen_drawn is not None:
            cells[at + self._slot[self._seen_drawn]] = 0
        if drawn is not None:
            cells[at + self._slot[drawn]] = 1
        self._seen_drawn = drawn

    def _change(self, part: int, value: Any) -> None:
        """Part ``part`` now shows ``value``: its old entries cleared, the new ones written (worked out
        by ``Observer``'s writer the first time this value is seen, then remembered).  What a rule
        remembers is worked out each time it changes, never remembered: its values may be anything a
        house rule keeps, and True == 1 as a key, where the writer tells them apart."""
        known = self._entries[part]
        entries = None if part == _MEMORY else known.get(value)
        if entries is None:
            scratch = np.zeros(self.observer.size, dtype=np.float32)
            self._writers[part](scratch, value)
            entries = tuple((int(i), float(scratch[i])) for i in np.flatnonzero(scratch))
            if len(known) >= _KEPT:
                known.clear()
            if part != _MEMORY:
                known[value] = entries
        cells = self._cells
        for index, _ in self._seen_entries[part]:
            cells[index] = 0
        for index, number in entries:
            cells[index] = number
        self._seen_values[part], self._seen_entries[part] = value, entries
