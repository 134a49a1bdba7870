"""The batched engine: many hands of Makaó stepped at once over NumPy arrays, each one the very
hand the scalar engine plays from its seed (issue 39).

A learning agent that plays thousands of hands wants one call per decision of *all* of them.
``Batch("makao", games=4096, players=2, seed=0)`` keeps ``games`` hands side by side as arrays:
the hands as card counts ``[games, players, 52]`` (Makaó's 104 cards are the 52 cards twice,
C-1), the stock as cards with a read pointer, the pile under the top card as counts (its order
never matters: a reshuffle sorts it first, C-6), and the top card, the wish, the pending draw,
the phase, the seat to move and the direction each as one number per hand.

Exactness is the contract: hand ``i`` is dealt by ``mm.deal("makao", players, seed=s)`` with its
seed ``s`` (``seed``, ``seed + 1``, ... and, for each hand that starts when one ends, the next
seed not yet used), and every move follows the scalar engine's rules of Makaó (RULES.md): matching
(C-3), drawing ends the turn (MK-3), the 7's draw chain (MK-4), the 8's skip (MK-5), the 9's
reverse (MK-6), the Jack's wish (MK-7), the Ace's extra play (MK-8), the announcement (C-8: the
legal moves say "Makaó" where it is due), the seeded reshuffle of the pile (C-6, with the
engine's own ``shuffle`` and seed chain) and the blocked hand (C-7).  ``game(i)`` replays hand
``i`` through the scalar engine, move for move; tests/env/test_batch.py checks every decision of
sampled hands against it.

Actions are the numbers of the variant's fixed action list (``maumau.env.actions``), as in the
AEC and Gym environments.  A hand that ends is dealt anew at once, so every step makes one
decision in every hand (or in the hands ``step``'s ``where`` marks).  Of a finished hand the batch
keeps who went out (``winners``), not its last state: MK-10's last draw and the card points (MK-11)
are the scalar engine's, for a hand replayed with ``game(i)`` before it ends.  The cards a seat holds
are also kept as a set of bits (a ``uint64``), so that what is playable is one AND per hand.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.cards import Rank, Suit
from ..core.dealing import deal
from ..core.moves import Draw, Play
from ..core.turn import shuffle
from ..core.variants import Variant, VariantError, variant
from ..play.game import Game
from .actions import Actions, actions_for

__all__ = ["Batch"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

#: Card numbers 0..51 are the engine's ``Card.index``: suit * 13 + rank order (2 is 0, Ace is 12).
CARDS = 52
SEVEN, EIGHT, NINE, JACK, ACE = (Rank.SEVEN.order, Rank.EIGHT.order, Rank.NINE.order, Rank.JACK.order,
                                 Rank.ACE.order)
#: The seeds a batch starts from are below this: the hands' seeds are int64, and each new hand takes
#: the next seed, so ``2**62`` leaves room for as many hands again.
SEEDS = 2**62
#: How many hands are dealt ahead at a time (``Batch._deal``).
SHELF = 256
#: The ranks of the action cards that a turned-up card may not be (MK-2).
ACTION_RANK = np.isin(np.arange(13), [SEVEN, EIGHT, NINE, JACK, ACE])
#: The row of the playable-card table used while a 7 waits to be answered (MK-4).
ANSWER_SEVEN = CARDS * 5


def playable_table() -> Bools:
    """Which cards may be played on each table, as rows ``top + 52 * (wish + 1)`` (wish -1: none,
    0..3: a suit wished with a Jack) and the row ``ANSWER_SEVEN`` (only a 7 answers a 7, MK-4).

    C-3: same suit or same rank; after a wish, the wished suit counts instead of the top card's
    suit; MK-7: a Jack fits on any card."""
    card = np.arange(CARDS)
    rank, suit = card % 13, card // 13
    table = np.zeros((ANSWER_SEVEN + 1, CARDS), dtype=bool)
    for top in range(CARDS):
        for wish in range(-1, 4):
            follow = top // 13 if wish < 0 else wish
            table[top + CARDS * (wish + 1)] = (suit == follow) | (rank == top % 13) | (rank == JACK)
    table[ANSWER_SEVEN] = rank == SEVEN
    return table


U64 = npt.NDArray[np.uint64]
#: Each card's bit in a hand's set of cards (a uint64: the cards a seat holds, whatever the copies).
BIT = np.left_shift(np.uint64(1), np.arange(CARDS, dtype=np.uint64))
JACKS = np.bitwise_or.reduce(BIT[np.arange(CARDS) % 13 == JACK])
DRAW_BIT = np.uint64(1 << 63)  # no card's: where sample() counts Draw
_M1, _M2, _M4 = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F))
_BYTES = np.arange(0, 64, 8, dtype=np.uint64)
_ONES = np.uint64(0x0101010101010101)  # times it, the top byte is the sum of the bytes
LITTLE = sys.byteorder == "little"
#: SELECT[byte, k]: the position of the k-th set bit of ``byte``.
SELECT = np.array([[[i for i in range(8) if b >> i & 1][k] if k < bin(b).count("1") else 0 for k in range(8)]
                   for b in range(256)], dtype=np.uint64)


def byte_prefix(x: U64) -> U64:
    """The set bits of each ``x`` counted up to each of its bytes (byte i holds the count of bytes
    0..i): SWAR's popcount per byte, summed by one multiplication."""
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    prefix: U64 = x * _ONES
    return prefix


def popcount(x: U64) -> Ints:
    """The number of set bits of each ``x`` (NumPy's own ``bitwise_count`` where it has one, 2.0 on)."""
    count = getattr(np, "bitwise_count", None)
    counted: Ints = (count(x) if count is not None else byte_prefix(x) >> np.uint64(56)).astype(np.int64)
    return counted


def select_bit(x: U64, k: Ints) -> Ints:
    """The position of the ``k``-th set bit (from 0) of each ``x``, which has more than ``k``: the byte
    that holds it by the counts up to each byte, then the bit within that byte from ``SELECT``."""
    rows = np.arange(len(x))
    counts = _bytes(byte_prefix(x))  # [n, 8]: the set bits up to and with each byte
    below = (counts <= k.astype(np.uint8)[:, None]).view(np.uint64).reshape(-1)  # a 0 or 1 per byte
    byte = ((below * _ONES) >> np.uint64(56)).astype(np.int64)  # how many bytes end at or below k
    at = rows * 8 + byte
    before = _bytes(byte_prefix(x) << np.uint64(8)).reshape(-1)[at]  # the set bits below that byte
    value = _bytes(x).reshape(-1)[at]
    bit: Ints = byte * 8 + SELECT[value, k - before].astype(np.int64)
    return bit


def _bytes(x: U64) -> npt.NDArray[np.uint8]:
    """The eight bytes of each ``x``, least significant first."""
    if LITTLE:
        found: npt.NDArray[np.uint8] = x.view(np.uint8).reshape(-1, 8)
    else:
        found = ((x[:, None] >> _BYTES) & np.uint64(0xFF)).astype(np.uint8)
    return found


def _hands(count: int) -> str:
    """"1 hand", "3 hands": how many hands an error was found in."""
    return f"{count} hand" if count == 1 else f"{count} hands"


class _Moves:
    """The action list read as arrays: each action's card (-1 for Draw and Pass), wish (-1: none)
    and announcement, and back from (card, wish, announcement) to the action."""

    def __init__(self, actions: Actions) -> None:
        n = len(actions)
        self.card = np.full(n, -1, dtype=np.int64)
        self.wish = np.full(n, -1, dtype=np.int64)
        self.mau = np.zeros(n, dtype=bool)
        self.action = np.full((CARDS, 5, 2), -1, dtype=np.int64)  # [card, wish + 1, mau]
        suits = list(Suit)
        for i, move in enumerate(actions.moves):
            if isinstance(move, Play):
                wish = -1 if move.wish is None else suits.index(move.wish)  # type: ignore[arg-type]
                self.card[i], self.wish[i], self.mau[i] = move.card.index, wish, move.mau
                self.action[move.card.index, wish + 1, int(move.mau)] = i
        self.draw = actions.index(Draw())
        self.plays = np.flatnonzero(self.card >= 0)
        if not (np.diff(self.plays) == 1).all():
            raise VariantError("the batched engine needs the plays of the action list side by side")
        #: by_bit[(bit * 5 + wish + 1) * 2 + due]: the action of a card's bit (``DRAW_BIT``'s: Draw).
        by_bit = np.full((64, 5, 2), self.draw, dtype=np.int64)
        by_bit[:CARDS] = self.action
        self.by_bit = by_bit.reshape(-1)
        #: announced[due][i]: whether play i has the announcement as due (1) or not (0) wants it (C-8).
        self.announced = np.array([self.mau[self.plays] == due for due in (False, True)])
        #: How many actions each card makes (a Jack one per suit it may wish, MK-7).
        self.per_card = np.bincount(self.card[self.plays], minlength=CARDS) // 2


class Batch:
    """``games`` hands of ``game`` (Makaó) for ``players`` seats, stepped at once.

    >>> b = Batch("makao", games=8, players=2, seed=0)
    >>> mask = b.legal_mask()                      # bool [games, actions]: the seat to move's legal actions
    >>> finished = b.step(b.sample(np.random.default_rng(0)))
    >>> b.decisions, b.game(3).start == deal("makao", players=2, seed=3)
    (8, True)
    """

    def __init__(self, game: str | Variant = "makao", games: int = 1024, players: int = 2, seed: int = 0, *,
                 record: bool = True) -> None:
        v = variant(game)
        if v.name != "makao" or v.changes:
            raise VariantError(f"the batched engine plays makao as RULES.md has it, not {v.name} "
                               f"{v.house_rules()}".rstrip())
        lo, hi = v.players
        if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
            raise VariantError(f"{v.name} is played by {lo} to {hi} players, not {players!r}")
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"games must be a whole number of 1 or more, not {games!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEEDS:
            # the hands' seeds are kept as 64-bit numbers, and the hands dealt later take the next ones
            raise ValueError(f"seed must be a whole number from 0 to {SEEDS - 1:,}, not {seed!r}")
        self.variant, self.games, self.players, self.record = v, games, players, record
        self.actions = actions_for(v)
        self._moves = _Moves(self.actions)
        self._playable = playable_table()
        #: The sorted deck a deal shuffles (C-2), as card numbers: the engine's ``shuffle`` moves any
        #: items the way it moves cards (it is typed for cards).
        self._deck: list[Any] = [c.index for c in v.deck]
        self._playable_bits = np.bitwise_or.reduce(np.where(self._playable, BIT, np.uint64(0)), axis=1)
        self._rows = np.arange(games)
        self._alloc(games, players, len(v.deck))
        self.decisions = 0
        self._sampled: Ints | None = None  # the last sample(), until a step
        self._sampled_as_made: Ints = np.zeros(0, dtype=np.int64)
        #: Hands finished in each slot, and the seat that went out of the last one (-1: blocked, C-7).
        self.finished = np.zeros(games, dtype=np.int64)
        self.winners = np.full(games, -1, dtype=np.int64)
        self._next_seed = seed
        self._log: list[npt.NDArray[np.int16]] = []
        self._logged = 0  # steps dropped from the front of the log
        self._start = np.zeros(games, dtype=np.int64)  # the step at which each slot's hand began
        self._shelf: dict[str, npt.NDArray[Any]] = self._dealt(0)
        self._shelf_at = 0
        self._deal(self._rows)

    def _alloc(self, games: int, players: int, deck: int) -> None:
        self.hands = np.zeros((games, players, CARDS), dtype=np.int64)
        self.held = np.zeros((games, players), dtype=np.uint64)  # the cards each seat holds, as bits
        self.sizes = np.zeros((games, players), dtype=np.int64)
        self.stock = np.zeros((games, deck), dtype=np.int64)
        self.stock_at = np.zeros(games, dtype=np.int64)  # the next card to draw is stock[g, stock_at[g]]
        self.stock_end = np.zeros(games, dtype=np.int64)
        self.pile = np.zeros((games, CARDS), dtype=np.int64)  # the cards under the top card
        self.pile_size = np.zeros(games, dtype=np.int64)
        self.top = np.zeros(games, dtype=np.int64)
        self.wish = np.full(games, -1, dtype=np.int64)  # the wished suit (MK-7), -1: none
        self.pending = np.zeros(games, dtype=np.int64)  # cards the seat to move must draw or answer (MK-4)
        self.extra = np.zeros(games, dtype=bool)  # the extra play after an Ace (MK-8)
        self.to_move = np.zeros(games, dtype=np.int64)
        self.direction = np.ones(games, dtype=np.int64)
        self.idle = np.zeros(games, dtype=np.int64)  # turns in a row without play or card (C-7)
        self.seeds = np.zeros(games, dtype=np.int64)  # the deal seed of each slot's hand
        self.reshuffle_seeds = np.zeros(games, dtype=np.int64)  # the seed of the next reshuffle (C-6)
        # flat views of the same arrays, for the updates of a step (one index array each)
        self._hands_flat, self._sizes_flat, self._held_flat = (
            self.hands.reshape(-1), self.sizes.reshape(-1), self.held.reshape(-1))
        self._pile_flat, self._stock_flat = self.pile.reshape(-1), self.stock.reshape(-1)

    # --- dealing (C-2) --------------------------------------------------------------------------
    def _deal(self, slots: Ints) -> None:
        """Deal the next seeds into ``slots``, in order, from a shelf of hands dealt ahead (dealing
        many at once costs NumPy's calls once)."""
        shelf = self._shelf
        if self._shelf_at + len(slots) > len(shelf["top"]):
            fresh = self._dealt(max(SHELF, len(slots)))
            shelf = self._shelf = {name: np.concatenate([held[self._shelf_at:], fresh[name]])
                                   for name, held in shelf.items()}
            self._shelf_at = 0
        taken = slice(self._shelf_at, self._shelf_at + len(slots))
        self._shelf_at += len(slots)
        for name, dealt in shelf.items():
            getattr(self, name)[slots] = dealt[taken]
        self.stock_at[slots], self.wish[slots], self.pending[slots], self.extra[slots] = 0, -1, 0, False
        self.to_move[slots], self.direction[slots], self.idle[slots] = 0, 1, 0
        self._start[slots] = self._logged + len(self._log)

    def _dealt(self, count: int) -> dict[str, npt.NDArray[Any]]:
        """The next ``count`` seeds' hands as ``mm.deal`` deals them (C-2): the sorted deck shuffled
        by ``random.Random(seed)`` with the engine's ``shuffle``, seven cards each one at a time round
        the table from seat 0 (the last seat deals), the next card turned up and covered while it is
        an action card (MK-2), and the generator's next 63 bits the seed of the first reshuffle."""
        seeds = np.arange(self._next_seed, self._next_seed + count)
        self._next_seed += count
        decks, after = [], []
        for seed in seeds.tolist():
            rng = random.Random(seed)
            deck = self._deck.copy()
            shuffle(deck, rng.getrandbits)
            decks.append(deck)
            after.append(rng.getrandbits(63))
        dealt = self._spread(np.array(decks, dtype=np.int64).reshape(count, len(self._deck)))
        dealt["seeds"], dealt["reshuffle_seeds"] = seeds, np.array(after, dtype=np.int64)
        return dealt

    def _spread(self, decks: Ints) -> dict[str, npt.NDArray[Any]]:
        """The hands, the up-card, the pile under it and the stock of shuffled ``decks``."""
        n, players, dealt = len(decks), self.players, self.players * self.variant.hand_size
        card = np.arange(CARDS)
        hands = np.stack([(decks[:, seat:dealt:players, None] == card).sum(axis=1) for seat in range(players)], 1)
        rest = decks[:, dealt:]
        action = ACTION_RANK[rest % 13]
        up = np.where(action.all(axis=1), rest.shape[1] - 1, np.argmax(~action, axis=1))  # MK-2
        covered = np.arange(rest.shape[1]) < up[:, None]
        after = np.minimum(up[:, None] + 1 + np.arange(rest.shape[1]), rest.shape[1] - 1)
        stock = np.zeros((n, self.stock.shape[1]), dtype=np.int64)
        stock[:, :rest.shape[1]] = np.take_along_axis(rest, after, axis=1)  # the cards after the up-card
        return {"hands": hands, "held": np.bitwise_or.reduce(np.where(hands > 0, BIT, np.uint64(0)), axis=2),
                "sizes": np.full((n, players), self.variant.hand_size, dtype=np.int64),
                "pile": ((rest[:, :, None] == card) & covered[:, :, None]).sum(axis=1), "pile_size": up,
                "top": rest[np.arange(n), up], "stock": stock, "stock_end": rest.shape[1] - 1 - up}

    # --- what may be played --------------------------------------------------------------------
    def _table_rows(self) -> Ints:
        """Each hand's row of the playable-card table."""
        return np.where(self.pending > 0, ANSWER_SEVEN, self.top + CARDS * (self.wish + 1))

    def _playable_held(self) -> U64:
        """The cards the seat to move holds and may play now, as bits (C-3, MK-4, MK-7)."""
        cards: U64 = self.held[self._rows, self.to_move] & self._playable_bits[self._table_rows()]
        return cards

    def playable_cards(self) -> Bools:
        """bool ``[games, 52]``: the cards the seat to move holds and may play now (C-3, MK-4, MK-7)."""
        cards: Bools = (self._playable_held()[:, None] & BIT) != 0
        return cards

    def legal_mask(self) -> Bools:
        """bool ``[games, actions]``: the legal actions of the seat to move in each hand, as
        ``actions.mask(state)`` has them: the plays of each playable card (a Jack's with each
        wish), with "Makaó" where it leaves one card (C-8), and Draw (MK-3, MK-4, MK-8)."""
        m = self._moves
        mask = np.zeros((self.games, len(m.card)), dtype=bool)
        due = (self.sizes[self._rows, self.to_move] == 2).astype(np.int64)
        cards = np.unpackbits(_bytes(self._playable_held()), axis=1, count=CARDS, bitorder="little")
        first, last = int(m.plays[0]), int(m.plays[-1]) + 1  # the plays stand together in the list
        np.logical_and(cards[:, m.card[first:last]].view(bool), m.announced[due], out=mask[:, first:last])
        mask[:, m.draw] = True
        return mask

    def sample(self, rng: np.random.Generator) -> Ints:
        """One legal action per hand, each drawn uniformly from that hand's legal actions with
        ``rng``, without making the mask: the playable cards are a set of bits, counted and
        picked from at once; a Jack makes four actions (one per suit it may wish, MK-7), Draw one.
        The array is read-only: ``step`` takes it as legal without checking it again, as long as
        no other step came between (any other array is checked in full)."""
        cards = self._playable_held()
        plain = cards & ~JACKS
        jacks = (cards & JACKS) | DRAW_BIT  # Draw counts as the bit after the Jacks, picked as a fifth "Jack"
        n_plain = popcount(plain)
        pick = (rng.random(self.games) * (n_plain + 4 * popcount(jacks) - 3)).astype(np.int64)
        jack = pick >= n_plain  # a Jack's play or Draw
        over = pick - n_plain
        card = select_bit(np.where(jack, jacks, plain), np.where(jack, over >> 2, pick))
        wish = np.where(jack, (over & 3) + 1, 0)  # a Jack's wish + 1 (0: none)
        due = (self.sizes[self._rows, self.to_move] == 2).astype(np.int64)
        actions: Ints = self._moves.by_bit[(card * 5 + wish) * 2 + due]
        actions.flags.writeable = False  # step() knows them legal while nothing changed them or the batch
        # the flag can be flipped back by the caller: a private copy tells whether they are still as made
        self._sampled, self._sampled_as_made = actions, actions.copy()
        return actions

    # --- a step ---------------------------------------------------------------------------------
    def check(self, actions: Any, where: Bools | None = None) -> Ints:
        """``actions`` as an int array of one legal action per hand (per hand of ``where``, the rest
        read as Draw), or a ValueError saying which hands got what, and why (the batch is unchanged)."""
        sampled = self._sampled
        if (sampled is not None and actions is sampled and not sampled.flags.writeable
                and np.array_equal(sampled, self._sampled_as_made)):
            return sampled  # sample()'s own, unchanged, for the batch as it is: legal by making
        array = np.asarray(actions)
        if array.shape != (self.games,):
            raise ValueError(f"step takes one action per hand: an array of shape ({self.games},), "
                             f"not {array.shape}")
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions are whole numbers (an integer array), not {array.dtype}")
        a = array.astype(np.int64)
        if where is not None:
            a = np.where(where, a, self._moves.draw)
        outside = np.flatnonzero((a < 0) | (a >= len(self._moves.card)))
        if outside.size:
            g = int(outside[0])
            raise ValueError(f"action {a[g]} of hand {g} is outside the action list of makao: choose a number "
                             f"from 0 to {len(self._moves.card) - 1} (in {_hands(outside.size)})")
        wrong = np.flatnonzero(~self._legal(a))
        if wrong.size:
            g = int(wrong[0])
            raise ValueError(f"action {a[g]} ({self.actions.moves[a[g]]}) is not legal in hand {g} for seat "
                             f"{self.to_move[g]} (in {_hands(wrong.size)}): legal_mask() marks the legal actions")
        return a

    def _where(self, where: Any) -> Bools:
        """``where`` as a bool array of one entry per hand, or a ValueError."""
        moving = np.asarray(where)
        if moving.shape != (self.games,) or moving.dtype != np.bool_:
            raise ValueError(f"where marks the hands that move: a bool array of shape ({self.games},), "
                             f"not {moving.dtype} {moving.shape}")
        return moving

    def _legal(self, a: Ints) -> Bools:
        m = self._moves
        card = m.card[a]
        play = card >= 0
        c = np.where(play, card, 0)
        fits = (self._playable_held() & BIT[c]) != 0
        due = self.sizes[self._rows, self.to_move] == 2
        legal: Bools = np.where(play, fits & (m.mau[a] == due), a == m.draw)
        return legal

    def step(self, actions: Any, where: Any = None) -> Bools:
        """Make one decision in every hand, or in the hands where ``where`` (bool ``[games]``) is
        True: ``actions[g]`` is hand ``g``'s action (the others' are not read).  Returns which
        hands ended with it (each is dealt anew at once; ``winners`` says who went out).  An
        action of the wrong shape or type, outside the list or not legal raises ValueError and
        changes nothing."""
        moving = None if where is None else self._where(where)
        a = self.check(actions, moving)
        self._sampled = None
        if self.record:
            logged = a.astype(np.int16)
            if moving is not None:
                logged[~moving] = -1  # no decision in that hand this step
            self._log.append(logged)
        card = self._moves.card[a]
        playing, drawing = card >= 0, card < 0
        if moving is not None:
            playing, drawing = playing & moving, drawing & moving
        plays: Ints = np.flatnonzero(playing)
        draws: Ints = np.flatnonzero(drawing)
        won = self._play(plays, card[plays], self._moves.wish[a[plays]])
        blocked = self._draw_turn(draws)
        self.decisions += len(plays) + len(draws)
        over = np.zeros(self.games, dtype=bool)
        over[won] = True
        over[blocked] = True
        ended = np.flatnonzero(over)
        if ended.size:
            self.finished[ended] += 1
            self.winners[blocked] = -1
            self.winners[won] = self.to_move[won]
            self._deal(ended)
            self._trim()
        return over

    def _play(self, g: Ints, card: Ints, wish: Ints) -> Ints:
        """The hands ``g`` play ``card`` (naming ``wish``): C-3 and the effects MK-4..MK-8.
        Returns the hands that ended with it (C-9: the last card)."""
        seat = self.to_move[g]
        at = g * self.players + seat  # flat indices: one index array, not three
        held = at * CARDS + card
        left = self._hands_flat[held] - 1
        self._hands_flat[held] = left
        self._sizes_flat[at] -= 1
        gone = left == 0
        self._held_flat[at[gone]] &= ~BIT[card[gone]]
        self._pile_flat[g * CARDS + self.top[g]] += 1
        self.pile_size[g] += 1
        self.top[g], self.wish[g], self.idle[g] = card, wish, 0
        rank = card % 13
        self.pending[g] = np.where(rank == SEVEN, self.pending[g] + 2, 0)  # MK-4: the chain adds up
        direction = np.where(rank == NINE, -self.direction[g], self.direction[g])  # MK-6
        self.direction[g] = direction
        ace = rank == ACE
        self.extra[g] = ace  # MK-8: the same seat plays on
        following = (seat + direction) % self.players
        skipped = (following + direction) % self.players  # MK-5: next(X) sits out
        self.to_move[g] = np.where(ace, seat, np.where(rank == EIGHT, skipped, following))
        done = self._sizes_flat[at] == 0
        ended: Ints = g[done]
        self.to_move[ended] = seat[done]  # the winner, for step's record
        return ended

    def _draw_turn(self, g: Ints) -> Ints:
        """The hands ``g`` draw: the pending 7s (MK-4) or one card (MK-3, MK-8); the turn passes.
        Returns the hands that ended blocked (C-7: nobody could draw or play for a round)."""
        seat = self.to_move[g]
        n = np.where(self.pending[g] > 0, self.pending[g], 1)
        got = self._draw(g, seat, n)
        self.pending[g], self.extra[g] = 0, False
        self.to_move[g] = (seat + self.direction[g]) % self.players
        self.idle[g] = np.where(got > 0, 0, self.idle[g] + 1)
        blocked: Ints = g[self.idle[g] >= self.players]
        return blocked

    def _draw(self, g: Ints, seat: Ints, n: Ints) -> Ints:
        """Each hand ``g`` gives its ``seat`` up to ``n`` cards from the stock, reshuffling the pile
        when the stock runs out (C-6); fewer if there are none left (C-7).  Returns how many."""
        first: Ints = np.minimum(n, self.stock_end[g] - self.stock_at[g])
        self._take(g, seat, first)
        short = (first < n) & (self.pile_size[g] > 0)
        if not short.any():
            return first
        self._reshuffle(g[short])
        second = np.where(short, np.minimum(n - first, self.stock_end[g] - self.stock_at[g]), 0)
        self._take(g, seat, second)
        got: Ints = first + second
        return got

    def _take(self, g: Ints, seat: Ints, k: Ints) -> None:
        """Hand ``g[i]``'s seat takes the ``k[i]`` cards at the front of its stock."""
        most = int(k.max(initial=0))
        if most == 0:
            return
        at = g * self.players + seat
        front = g * self.stock.shape[1] + self.stock_at[g]  # where each stock's next card is
        for j in range(most):
            more = k > j
            to, where = (at, front + j) if more.all() else (at[more], front[more] + j)
            card = self._stock_flat[where]
            self._hands_flat[to * CARDS + card] += 1
            self._held_flat[to] |= BIT[card]
        self._sizes_flat[at] += k
        self.stock_at[g] += k

    def _reshuffle(self, g: Ints) -> None:
        """C-6, as the engine does it (``maumau.core.turn``): in each hand ``g`` the pile under the top
        card, sorted, shuffled by ``random.Random(seed)`` with the engine's ``shuffle``, becomes the
        stock, and the generator gives the next seed.  Only the shuffles run hand by hand."""
        sizes = self.pile_size[g]
        cards = np.repeat(np.tile(np.arange(CARDS), len(g)), self.pile[g].reshape(-1)).tolist()
        ends = np.cumsum(sizes).tolist()
        seeds = self.reshuffle_seeds[g].tolist()
        start = 0
        for i, end in enumerate(ends):
            order = cards[start:end]
            rng = random.Random(seeds[i])
            shuffle(order, rng.getrandbits)
            cards[start:end] = order
            seeds[i] = rng.getrandbits(63)
            start = end
        self.reshuffle_seeds[g] = seeds
        within = np.arange(len(cards)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        self._stock_flat[np.repeat(g, sizes) * self.stock.shape[1] + within] = cards
        self.stock_at[g], self.stock_end[g] = 0, sizes
        self.pile[g], self.pile_size[g] = 0, 0

    # --- the record ------------------------------------------------------------------------------
    def _trim(self) -> None:
        """Forget the steps before the oldest hand still being played."""
        oldest = int(self._start.min()) - self._logged
        if oldest > 4096 and oldest > len(self._log) // 2:
            del self._log[:oldest]
            self._logged += oldest

    def moves_of(self, i: int) -> list[int]:
        """The actions of hand ``i`` so far (since it was dealt)."""
        self._slot(i)
        if not self.record:
            raise ValueError("this batch keeps no record (record=False): make it with record=True")
        return [int(step[i]) for step in self._log[int(self._start[i]) - self._logged:] if step[i] >= 0]

    def game(self, i: int) -> Game:
        """Hand ``i`` so far as an ``mm.Game``: dealt from its seed by the scalar engine and
        replayed move for move."""
        moves = self.actions.moves
        return Game.replay(deal(self.variant, self.players, seed=int(self.seeds[self._slot(i)])),
                           [moves[a] for a in self.moves_of(i)])

    def _slot(self, i: Any) -> int:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.games:
            raise ValueError(f"a hand of this batch is a number from 0 to {self.games - 1}, not {i!r}")
        return int(i)

    def __repr__(self) -> str:
        return (f"<Batch of {self.games} {self.variant.name} hands, {self.players} players: "
                f"{self.decisions} decisions, {int(self.finished.sum())} hands finished>")
