"""View: what one seat may see of a game, and determinisation (sampling the rest).

A player sees its own hand, the discard pile (every card on it was played in the open),
the number of cards in each hand and in the stock, the wish, a pending effect, the
Runde, the direction and the turn phase.  It never sees the other hands, the order of
the stock or the seed of the next reshuffle.  ``View(state)`` keeps exactly that, and
``view.sample(rng)`` deals the unseen cards at random into a full GameState that agrees
with everything the seat saw: a *determinisation*, as the Search player uses it.

>>> import maumau as mm, random
>>> s = mm.deal("makao", players=3, seed=7)
>>> v = View(s)
>>> v.seat, len(v.hand), v.hand_sizes, v.stock_size
(0, 7, (7, 7, 7), 80)
>>> guess = v.sample(random.Random(1))
>>> View(guess) == v, guess.hands[0] == s.hands[0]
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..core.cards import Card, Rank, Suit
from ..core.state import make_state

if TYPE_CHECKING:  # pragma: no cover
    from ..core.events import Event
    from ..core.moves import Move
    from ..core.rules.base import Memory, Pending
    from ..core.state import GameState
    from ..core.variants import Variant

__all__ = ["View", "Moves", "unseen_cards"]

_FIELDS = ("variant", "seat", "hand", "hand_sizes", "stock_size", "discard", "to_move", "direction",
           "wish", "pending", "phase", "drawn", "memory", "locked", "active", "dealer", "idle", "events")


class Moves(tuple["Move", ...]):
    """``view.legal_moves``: a tuple of moves that can also be called like
    ``state.legal_moves()`` (which returns a list), so a player written for either works."""

    __slots__ = ()

    def __call__(self) -> list[Move]:
        return list(self)


#: What a seat may not see, and what to read instead (the message of the AttributeError).
_HIDDEN = {
    "hands": "the other hands are hidden: view.hand is your hand, view.hand_sizes how many cards each seat holds",
    "stock": "the order of the stock is hidden: view.stock_size is how many cards it holds",
    "seed": "the seed of the next reshuffle is hidden",
    "apply": "a View cannot play a move on: what follows depends on hidden cards "
             "(view.sample(rng) deals them at random into a GameState to try moves on)",
    "state": "a player sees only its seat, never the GameState",
}

#: The same in German ("du") and Hungarian ("te"); "only" starts every one of them.
_HIDDEN_SAID: dict[str, dict[str, str]] = {
    "de": {
        "only": "ein Spieler sieht nur seinen eigenen Platz",
        "hands": "die anderen Hände sind verdeckt: view.hand ist deine Hand, view.hand_sizes sagt, "
                 "wie viele Karten jeder Platz hat",
        "stock": "die Reihenfolge im Nachziehstapel ist verdeckt: view.stock_size sagt, wie viele Karten er hat",
        "seed": "der Seed des nächsten Mischens ist verdeckt",
        "apply": "auf einem View kann man keinen Zug ausführen: was folgt, hängt von verdeckten Karten ab "
                 "(view.sample(rng) verteilt sie zufällig in einen GameState, an dem du Züge ausprobieren kannst)",
        "state": "ein Spieler sieht nur seinen Platz, nie den GameState",
    },
    "hu": {
        "only": "egy játékos csak a saját helyét látja",
        "hands": "a többi kéz rejtve van: view.hand a te kezed, view.hand_sizes megmondja, "
                 "hány lap van az egyes helyeken",
        "stock": "a talon sorrendje rejtve van: view.stock_size megmondja, hány lap van benne",
        "seed": "a következő keverés seedje rejtve van",
        "apply": "egy View-n nem lehet lépést végrehajtani: a folytatás rejtett lapokon múlik "
                 "(view.sample(rng) véletlenszerűen kiosztja őket egy GameState-be, azon kipróbálhatod a lépéseket)",
        "state": "egy játékos csak a saját helyét látja, a GameState-et soha",
    },
}


def _by_index(card: Card) -> int:
    return card.index


def unseen_cards(variant: Variant, hand: tuple[Card, ...], discard: tuple[Card, ...]) -> list[Card]:
    """The cards ``hand``'s owner cannot see: the deck less its hand and the discard pile,
    sorted (so the result depends only on what the seat saw)."""
    rest = Counter(variant.deck)
    rest.subtract(hand)
    rest.subtract(discard)
    return sorted(rest.elements(), key=_by_index)


class View:
    """What ``seat`` (by default the player to move) may see of ``state``.

    Attributes: ``variant, seat, hand, hand_sizes, stock_size, discard, top, to_move,
    direction, wish, pending, phase, drawn, runde, locked, active, dealer, idle``, ``events``
    (what the last move set off, as everyone at the table saw it: who drew how many) and
    ``legal_moves`` (only when ``seat`` is to move: they depend on nothing hidden; a tuple
    that may also be called, ``view.legal_moves()``, like ``state.legal_moves()``).
    Two views are equal when the seat saw the same things.

    A View holds copies of public values only, no reference to the GameState it was made
    from: what the seat may not see (``hands``, ``stock``, ``seed``) is not there, and asking
    for it raises AttributeError saying what to read instead.  ``View(view)`` is a copy.
    """

    __slots__ = (*_FIELDS, "legal_moves")

    variant: Variant
    seat: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard: tuple[Card, ...]
    to_move: int
    direction: int
    wish: Suit | Rank | None
    pending: Pending | None
    phase: str
    drawn: Card | None
    memory: Memory
    locked: frozenset[int]
    active: tuple[bool, ...]
    dealer: int
    idle: int
    events: tuple[Event, ...]
    legal_moves: Moves

    def __init__(self, state: GameState | View, seat: int | None = None) -> None:
        if isinstance(state, View):  # a player written as View(state) also works when handed a View
            if seat is not None and seat != state.seat:
                raise ValueError(f"a View of seat {state.seat} cannot show seat {seat}")
            for name in self.__slots__:
                object.__setattr__(self, name, getattr(state, name))
            return
        seat = state.to_move if seat is None else seat
        if not 0 <= seat < state.players:
            raise ValueError(f"seat must be from 0 to {state.players - 1}, not {seat}")
        self.variant = state.variant
        self.seat = seat
        self.hand = state.hands[seat]
        self.hand_sizes = tuple(len(h) for h in state.hands)
        self.stock_size = state.stock_size
        self.discard = state.discard
        self.to_move = state.to_move
        self.direction = state.direction
        self.wish = state.wish
        self.pending = state.pending
        self.phase = state.phase
        # The card just drawn belongs to the player to move: only they see it.
        self.drawn = state.drawn if seat == state.to_move else None
        self.memory = state.memory
        self.locked = state.locked
        self.active = state.active
        self.dealer = state.dealer
        self.idle = state.idle
        self.events = state.events
        self.legal_moves = Moves(state.legal_moves() if seat == state.to_move else ())

    def __getattr__(self, name: str) -> Any:
        # Only called for names a View does not have: say what the seat may read instead, in the
        # course's language (the first words stay Python's, as every AttributeError says them).
        hint = _HIDDEN.get(name)
        if hint is None:
            raise AttributeError(f"'View' object has no attribute {name!r}")
        from ..text.i18n import language

        lang = language()
        said = _HIDDEN_SAID.get(lang, {})
        if name in said:
            raise AttributeError(f"'View' object has no attribute {name!r}: {said['only']}; {said[name]}")
        raise AttributeError(f"'View' object has no attribute {name!r}: a player sees only its seat; {hint}")

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def pending_draw(self) -> int:
        """Cards the target of a pending draw penalty must take (0 if none)."""
        p = self.pending
        return p.amount if p is not None and p.kind == "draw" else 0

    @property
    def pending_skip(self) -> int:
        """Players a pending skip will pass over (0 if none)."""
        p = self.pending
        return p.amount if p is not None and p.kind == "skip" else 0

    def unseen(self) -> list[Card]:
        """The cards this seat cannot see (other hands and stock), sorted."""
        return unseen_cards(self.variant, self.hand, self.discard)

    def sample(self, rng: random.Random, unseen: list[Card] | None = None,
               lacking: dict[int, tuple[frozenset[Card], int]] | None = None) -> GameState:
        """A full GameState that agrees with this view: the unseen cards dealt at random to
        the other hands and the stock, and a random reshuffle seed (a determinisation).

        ``lacking`` narrows the deal by what a seat showed: ``{seat: (cards, free)}`` deals
        that seat none of ``cards`` except in ``free`` of its places (e.g. a player who drew
        instead of playing holds no playable card, but for the one just drawn).
        """
        pool = list(self.unseen() if unseen is None else unseen)
        rng.shuffle(pool)
        dealt: dict[int, list[Card]] = {}
        for seat, (avoid, free) in (lacking or {}).items():
            need = self.hand_sizes[seat] - free
            fits = [c for c in pool if c not in avoid][:need]
            if len(fits) < need:
                continue  # what was seen cannot be matched: deal this seat freely
            for card in fits:
                pool.remove(card)
            dealt[seat] = fits + pool[:free]
            del pool[:free]
        # A constructed position may hold fewer cards than the deck: deal only as many as it holds.
        del pool[sum(n for s, n in enumerate(self.hand_sizes) if s != self.seat and s not in dealt)
                 + self.stock_size:]
        hands: list[tuple[Card, ...]] = []
        at = 0
        for seat, size in enumerate(self.hand_sizes):
            if seat == self.seat:
                hands.append(self.hand)
            elif seat in dealt:
                hands.append(tuple(sorted(dealt[seat], key=_by_index)))
            else:
                hands.append(tuple(sorted(pool[at:at + size], key=_by_index)))
                at += size
        return make_state(
            variant=self.variant, hands=tuple(hands), stock=tuple(pool[at:]), discard=self.discard,
            to_move=self.to_move, direction=self.direction, wish=self.wish, pending=self.pending,
            phase=self.phase, drawn=self.drawn if self.seat == self.to_move else None, memory=self.memory,
            active=self.active, dealer=self.dealer, seed=rng.getrandbits(63),
            idle=self.idle, winner=None, over=False, blocked=False, events=self.events)

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, View):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        hand = " ".join(c.text for c in self.hand)
        return (f"<View of seat {self.seat}: hand {hand}, top {self.top.text}, "
                f"hand sizes {list(self.hand_sizes)}, stock {self.stock_size}>")
