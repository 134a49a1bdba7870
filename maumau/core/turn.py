"""The turn machinery: a move being carried out (Turn), a deal being prepared (Deal), and the
seat arithmetic and card drawing they share (C-1, C-6, C-7).

Rules write on a Turn through its API (``skip``, ``reverse``, ``draw``, ``set_pending``,
``play_again``, ``lock``, ``cancel``); each call records a typed event naming the rule whose
hook is running (``maumau.core.events``).  The state (``maumau.core.state``) decides which rules
act and turns the finished Turn into the next immutable GameState (``next_state``): a Turn reads a
state and never makes one, so this module needs nothing of the state's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from .cards import CARD_AT, CARD_INDEX, Card, Rank, Suit
from .events import (
    Blocked,
    Cancelled,
    Drew,
    EffectPending,
    Event,
    Locked,
    PenaltyDrawn,
    PlaysAgain,
    Reshuffled,
    Reversed,
    Skipped,
    drew_cards,
)
from .moves import DRAWN, EXTRA, TURN, Move
from .rules.base import Pending, Role, Rule, locked_in, recall, recall_role, remembered, with_locked

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState
    from .variants import Variant

__all__ = ["Turn", "Deal", "next_active", "add_cards", "add_index", "remove_cards", "cards_of", "packed",
           "shuffle", "ONE"]


#: Each card index as a hand of that one card, made once.
ONE: tuple[bytes, ...] = tuple(bytes((i,)) for i in range(len(CARD_AT)))


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


def add_cards(hand: bytes, new: list[Card] | tuple[Card, ...]) -> bytes:
    """The hand with ``new`` cards added.  A hand is the bytes of its cards' indices, kept sorted, so
    that card order inside a hand never matters and two hands of the same cards are equal bytes."""
    index_of = CARD_INDEX
    for card in new:
        hand = add_index(hand, index_of[card])
    return hand


def add_index(hand: bytes, index: int) -> bytes:
    """The hand with the card of ``index`` added, in its place."""
    i = 0
    for held in hand:
        if held > index:
            break
        i += 1
    if i == len(hand):
        return hand + ONE[index]
    # The card goes before the first greater card, whose first copy sits at i (the hand is sorted):
    # one C call, where two slices and a join cost the compiled engine a Python call each.
    after = ONE[hand[i]]
    return hand.replace(after, ONE[index] + after, 1)


def remove_cards(hand: bytes, gone: bytes) -> bytes:
    """The hand without the cards of the ``gone`` indices (a Play's ``indices``; one copy each, the
    caller knows they are held): copies of a card are the same byte, so the first one goes."""
    one = ONE
    for index in gone:
        hand = hand.replace(one[index], b"", 1)
    return hand


def cards_of(hand: bytes) -> tuple[Card, ...]:
    """The cards of a hand kept as bytes (``add_cards``), in its order."""
    at = CARD_AT
    return tuple([at[i] for i in hand])


def packed(cards: Sequence[Card]) -> bytes:
    """A hand of cards as the bytes of their indices, in the order given (``add_cards`` keeps it sorted;
    a hand that was not stays so, for the loader's check to name)."""
    index_of = CARD_INDEX
    if len(cards) == 1:  # a single card, the commonest play: its bytes made once (ONE)
        return ONE[index_of[cards[0]]]
    return bytes([index_of[card] for card in cards])


def shuffle(cards: list[Any], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle``, swap for swap: the same order from the same generator (the same
    random bits drawn for each position, as ``_randbelow`` draws them), written out so that the
    compiled engine runs it without a Python call per card (cards, or their indices as a reshuffle
    shuffles the pile's bytes).  A reshuffle (C-6) is seeded: the
    seeded games, and tests/core/test_digest.py, stay as they were."""
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


class _Seats:
    """Seat arithmetic shared by a Turn and a Deal: next(p) and prev(p) (C-1)."""

    __slots__ = ("active", "direction")  # which seats take part (MK-14); +1 or -1 (MK-6)

    if TYPE_CHECKING:  # the fields, for the type checker (turn.pxd declares them for Cython)
        active: tuple[bool, ...]
        direction: int

    def next(self, seat: int, direction: int | None = None) -> int:
        """The neighbouring active player in the direction of play (C-1)."""
        return next_active(self.active, seat, self.direction if direction is None else direction)

    def prev(self, seat: int) -> int:
        """The neighbouring active player against the direction of play (C-1)."""
        return self.next(seat, -self.direction)

    @property
    def active_count(self) -> int:
        return sum(self.active)


class _Tabletop(_Seats):
    """The cards on the table (hands, stock, discard pile) of a Turn and a Deal, and drawing from
    the stock with reshuffle (C-6) and exhaustion (C-7).  Each pile is kept as the bytes of its cards'
    indices, as a state keeps them (``cards_of`` reads them as cards): the stock top first, the
    discard pile's top last."""

    __slots__ = ("variant", "hands", "stock", "discard", "seed", "events", "acting")

    if TYPE_CHECKING:
        variant: Variant
        hands: list[bytes]  # each seat's cards as the bytes of their indices, sorted (add_cards)
        stock: bytes
        discard: bytes
        seed: int
        events: list[Event]
        acting: Rule | None

    def draw(self, seat: int, n: int, why: str = "draw") -> list[Card]:
        """Seat draws n cards; an empty stock is refilled from the pile (C-6).

        If nothing is left to draw, the player takes what exists (C-7).  ``why`` is
        ``"penalty"`` for cards a rule deals as a penalty, ``"draw"`` for a player's own draw.
        """
        got: list[Card] = []
        while len(got) < n:
            if not self.stock and not self.reshuffle():
                break
            take = n - len(got)
            got.extend(cards_of(self.stock[:take]))
            self.stock = self.stock[take:]
        if got:
            self.hands[seat] = add_cards(self.hands[seat], got)
        record = PenaltyDrawn if why == "penalty" else Drew
        self.events.append(record(seat, len(got), n, self.acting))
        return got

    def reshuffle(self) -> bool:
        """C-6: the discard pile minus its top card, shuffled, becomes the stock."""
        pile = self.discard[:-1]
        if not pile or not self.variant.reshuffles:  # a fixed-stock house rule never reshuffles
            return False
        order = sorted(pile)  # by card index: the order under the top never matters
        rng = random.Random(self.seed)
        shuffle(order, rng.getrandbits)
        self.seed = rng.getrandbits(63)
        self.stock = bytes(order)
        self.discard = self.discard[-1:]
        self.events.append(Reshuffled(len(order)))
        return True

    def can_draw(self) -> bool:
        return bool(self.stock) or (len(self.discard) > 1 and self.variant.reshuffles)


class Turn(_Tabletop):
    """One move being carried out: the mutable scratch pad that rules write on.

    ``player`` is X, the player who played the card in question (C-1).  Rules call
    ``next``/``prev``, ``following()``, ``set_pending``, ``skip``, ``reverse``,
    ``draw``, ``play_again``, ``lock`` and ``cancel``; each records what it did as a typed
    event (``maumau.core.events``) naming ``acting``, the rule whose hook is running, so a rule
    never writes an event by hand.  The state turns the result into the next immutable
    GameState.
    """

    __slots__ = (
        "state", "player", "move", "wish", "answered", "pending", "phase", "drawn", "memory",
        "to_move", "skips", "idle", "winner", "over", "blocked",
    )

    def __init__(self, state: GameState, move: Move) -> None:
        self.state = state
        self.variant = state._variant
        self.player = state._to_move
        self.move = move
        self.hands = list(state._hands)
        self.stock = state._stock
        self.discard = state._discard
        self.seed = state._seed
        self.direction = state._direction
        self.wish = state._wish
        self.answered = state._pending
        self.pending: Pending | None = None
        self.phase = TURN
        self.drawn: Card | None = None
        self.memory = state._memory
        self.active = state._active
        self.to_move: int | None = None
        self.skips = 0
        self.idle = state._idle
        self.winner: int | None = None
        self.over = False
        self.blocked = False
        self.events: list[Event] = []
        self.acting: Rule | None = None

    # --- what rules ask ---------------------------------------------------------
    def hand(self, seat: int | None = None) -> tuple[Card, ...]:
        """A seat's cards (by default X's), as changed so far in this turn."""
        return cards_of(self.hands[self.player if seat is None else seat])

    def memory_of(self, rule: Rule) -> Any:
        """What ``rule`` remembers, as changed so far in this turn."""
        return recall(self.memory, rule)

    def remember(self, rule: Rule, value: Hashable) -> None:
        """``rule`` remembers ``value`` from now on (its memory slot in the next state)."""
        self.memory = remembered(self.memory, rule, value)

    @property
    def runde(self) -> tuple[Rank, int] | None:
        """(rank, opener) while a Runde runs (MR-8): the Runde's memory."""
        return recall_role(self.memory, Role.RUNDE)  # type: ignore[no-any-return]

    @runde.setter
    def runde(self, value: tuple[Rank, int] | None) -> None:
        for owner, _ in self.memory:
            if Role.RUNDE in owner.roles:
                self.remember(owner, value)
                return
        raise LookupError("this variant has no rule that runs a Runde (MR-8)")

    def following(self) -> int:
        """Who moves next in normal order: next(X), or the seat an answered
        backward penalty handed the turn back to (LM-9)."""
        answered = self.answered
        if answered is not None and answered.resume is not None:
            return answered.resume
        return self.next(self.player)

    def answering(self, rule: Rule) -> Pending | None:
        """The pending effect of ``rule`` this move answers, if any."""
        answered = self.answered
        if answered is not None and (answered.rule is rule or answered.rule == rule):
            return answered
        return None

    # --- what rules do ------------------------------------------------------------
    def start_pending(self, amount: int, target: int, resume: int | None = None) -> None:
        """The rule whose hook runs starts its draw penalty or skip (its ``pending_kind``, said by
        its role) of ``amount``, that ``target`` must answer or accept (C-5)."""
        rule = self.acting
        assert rule is not None, "start_pending is called from a rule's hook"
        kind = rule.pending_kind
        if kind is None:
            raise ValueError(f"the rule {rule.name} starts no pending effect: it declares "
                             "Role.DRAW_PENALTY or Role.SKIP in its roles, and answers(card, pending)")
        self.set_pending(kind, amount, target, rule, resume)

    def set_pending(self, kind: str, amount: int, target: int, rule: Rule,
                    resume: int | None = None) -> None:
        """Start a draw penalty or skip that ``target`` must answer or accept (C-5); ``kind`` is
        the rule's own (``start_pending`` reads it from the rule)."""
        self.pending = Pending(kind, amount, target, rule, resume)
        self.to_move = target
        self.events.append(EffectPending(kind, amount, target, rule))

    def draw(self, seat: int, n: int, why: str = "draw") -> list[Card]:
        """Seat draws n cards (C-6, C-7); a card received lifts a JM-9 lock, whoever's
        rule dealt it (a Joker's 4, a penalty, the player's own draw)."""
        got = _Tabletop.draw(self, seat, n, why)
        if got and self.variant._lock_slot >= 0 and seat in self.locked:
            self.memory = with_locked(self.memory, self.locked - {seat})
        return got

    def skip(self, players: int = 1) -> None:
        """The next ``players`` players lose their turn (MK-5, MR-6)."""
        self.events.append(Skipped(self.following(), players, self.acting))
        self.skips += players

    def reverse(self) -> None:
        """Play goes the other way round from now on (MK-6)."""
        self.direction = -self.direction
        self.events.append(Reversed(self.acting))

    def play_again(self) -> None:
        """X continues at once with an extra play (MK-8, JM-8)."""
        self.to_move = self.player
        self.phase = EXTRA
        self.events.append(PlaysAgain(self.player, self.acting))

    def lock(self, seat: int) -> None:
        """The seat's last card may not be played until they receive a card (JM-9)."""
        self.memory = with_locked(self.memory, self.locked | {seat})
        self.events.append(Locked(seat, self.acting))

    @property
    def locked(self) -> frozenset[int]:
        """Seats whose last card is locked (JM-9), as changed so far in this turn."""
        return locked_in(self.memory, self.variant._lock_slot)

    def cancel(self) -> None:
        """The pending penalty this move answers is cancelled, not passed on (LM-12)."""
        answered = self.answered
        if answered is not None:
            self.events.append(Cancelled(answered.amount, answered.rule, self.acting))

    def emit(self, event: Event) -> None:
        """Record an event of a rule's own (a Runde opened or ended, MR-7, MR-12)."""
        self.events.append(event)

    # --- how a turn ends -------------------------------------------------------------
    def end_turn(self, played: bool) -> None:
        """Pass the turn on, and watch for a blocked hand (C-7)."""
        if self.to_move is None:
            seat = self.following()
            for _ in range(self.skips):
                seat = self.next(seat)
            self.to_move = seat
        if played:
            self.idle = 0
        elif not self.can_draw() and not self.drew_this_turn():
            self.idle += 1
            if self.idle >= self.active_count:
                self.over, self.blocked = True, True
                self.events.append(Blocked())
        else:
            self.idle = 0

    def drew_this_turn(self) -> bool:
        """Whether this turn drew a card (also before a play-or-pass choice): such a turn was
        not taken "while nothing can be drawn", even if it took the last card (C-7)."""
        return self.state._phase == DRAWN or drew_cards(self.events)


class Deal(_Tabletop):
    """The deal being prepared: hands, stock and up-card, before the first turn (C-2)."""

    __slots__ = ("dealer", "to_move", "choose_wish")

    def __init__(self, variant: Variant, hands: list[bytes], stock: bytes,
                 upcard: Card, dealer: int, seed: int, wish: Suit | Rank | None) -> None:
        self.variant = variant
        self.hands = hands
        self.stock = stock
        self.discard = ONE[CARD_INDEX[upcard]]
        self.seed = seed
        self.direction = 1
        self.active = (True,) * len(hands)
        self.dealer = dealer
        self.choose_wish = wish
        self.to_move = self.next(dealer)
        self.events: list[Event] = []
        self.acting: Rule | None = None

    @property
    def upcard(self) -> Card:
        return CARD_AT[self.discard[-1]]

    def dealers_wish(self, kind: type) -> Suit | Rank:
        """The dealer names a wish (LM-2, JM-2): the one given to ``deal``, or else
        the suit (rank) the dealer holds most of, first in order on a tie."""
        chosen = self.choose_wish
        if chosen is not None and isinstance(chosen, kind):
            return chosen
        hand = cards_of(self.hands[self.dealer])
        if kind is Suit:
            return max(Suit, key=lambda s: (sum(c.suit is s for c in hand), -list(Suit).index(s)))
        held = [c.rank for c in hand if c.rank is not None]
        return max(Rank, key=lambda r: (held.count(r), r.order)) if held else Rank.ACE
