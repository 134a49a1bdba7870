"""What a seat may see, as numbers: the observation vector of a learning environment.

The vector is made from the seat's ``View`` only (``maumau.players.View``): its own hand, the
pile, how many cards each hand and the stock hold, the wish, a pending effect, the phase, the
card it just drew, what a rule remembers (the Runde).  Never another hand or the stock's order:
dealing the hidden cards differently (``view.sample(rng)``) gives the same vector.

Seats are counted from the observer: slot 0 is the seat itself, slot 1 the next seat clockwise,
and so on, so that a policy learnt at seat 0 plays at any seat.  ``Observer.parts`` names the
slices, e.g. ``parts["hand"]`` (one count per distinct card of the deck, in card order).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.cards import Card, Rank, Suit
from ..core.rules.base import Memory, Pending
from ..core.state import PHASES
from ..core.variants import Variant
from ..players.view import View

__all__ = ["Observer"]

_SUITS = tuple(Suit)
_RANKS = tuple(Rank)
_PENDING_KINDS = ("draw", "skip")


class Observer:
    """Turns a ``View`` of ``variant`` at a table of ``players`` into a float32 vector."""

    def __init__(self, variant: Variant, players: int) -> None:
        self.variant, self.players = variant, players
        self.cards: tuple[Card, ...] = tuple(variant.distinct_cards)
        self._numbers = np.array([card.index for card in self.cards], dtype=np.int64)
        self._card_slot = {card: i for i, card in enumerate(self.cards)}  # its place among the distinct cards
        self._rules = {rule: i for i, rule in enumerate(variant.rules)}
        self._memory_rules = [rule for rule, _ in variant.memory_at_deal]
        d, n = len(self.cards), players
        sizes = [("hand", d), ("top", d), ("pile", d), ("drawn", d), ("hand_sizes", n), ("active", n),
                 ("locked", n), ("to_move", n), ("dealer", n), ("stock", 1), ("clockwise", 1),
                 ("wish_suit", 4), ("wish_rank", 13), ("pending_kind", 2), ("pending_amount", 1),
                 ("pending_target", n), ("pending_resume", n), ("pending_rule", len(variant.rules)),
                 ("phase", len(PHASES)), ("idle", 1)]
        for rule in self._memory_rules:
            sizes += [(f"{rule.name}_on", 1), (f"{rule.name}_rank", 13), (f"{rule.name}_suit", 4),
                      (f"{rule.name}_seat", n)]
        self.parts: dict[str, slice] = {}
        at = 0
        for name, size in sizes:
            self.parts[name] = slice(at, at + size)
            at += size
        self.size = at
        self._last_pile: tuple[tuple[Card, ...], np.ndarray] = ((), np.zeros(d, dtype=np.int64))
        self._at = {name: part.start for name, part in self.parts.items()}
        #: No entry is ever above this: every count is at most the deck (idle at most a round).
        self.high = float(max(len(variant.deck), 4 * players))

    def __call__(self, view: View) -> np.ndarray:
        """The vector of ``view`` (float32, ``self.size`` long), built afresh.  The environments keep
        each seat's vector up to date move by move instead (``maumau.env.seen``), to the same numbers."""
        obs = np.zeros(self.size, dtype=np.float32)
        at = self._at
        d = len(self.cards)
        slot, hand = self._card_slot, at["hand"]
        for card in view.hand:  # a few cards: one by one is cheaper than a numpy count
            obs[hand + slot[card]] += 1
        obs[at["pile"]:at["pile"] + d] = self._pile(view.discard)
        obs[at["top"] + slot[view.top]] = 1
        if view.drawn is not None:
            obs[at["drawn"] + slot[view.drawn]] = 1
        for k in range(self.players):
            obs[at["hand_sizes"] + k] = view.hand_sizes[(view.seat + k) % self.players]
        obs[at["to_move"] + self._relative(view.seat, view.to_move)] = 1
        obs[at["stock"]] = view.stock_size
        self.write_call(obs, view.direction, view.wish)
        self.write_seats(obs, view.seat, view.locked, view.active, view.dealer)
        self.write_pending(obs, view.seat, view.pending)
        obs[at["phase"] + PHASES.index(view.phase)] = 1
        obs[at["idle"]] = view.idle
        self.write_memory(obs, view.seat, view.memory)
        return obs

    def _counts(self, cards: tuple[Card, ...]) -> np.ndarray:
        numbers = np.fromiter((c.index for c in cards), dtype=np.int64, count=len(cards))
        return np.bincount(numbers, minlength=53)[self._numbers]

    def _pile(self, discard: tuple[Card, ...]) -> np.ndarray:
        """The counts of the pile: the pile mostly grows by a card or two, so the counts of the pile
        seen last are kept and only the new cards are counted (a reshuffle counts afresh)."""
        seen, counts = self._last_pile
        if discard is not seen:
            k = len(seen)
            if len(discard) >= k and discard[:k] == seen:
                counts = counts + self._counts(discard[k:])
            else:
                counts = self._counts(discard)
            self._last_pile = (discard, counts)
        return counts

    def _relative(self, seat: int, other: int) -> int:
        """``other`` counted from ``seat``: 0 is the seat itself, 1 the next seat clockwise."""
        return (other - seat) % self.players

    def write_call(self, obs: np.ndarray, direction: int, wish: Suit | Rank | None) -> None:
        """The direction of play and the wish (into a vector whose parts of them are 0)."""
        at = self._at
        obs[at["clockwise"]] = direction > 0
        if isinstance(wish, Suit):
            obs[at["wish_suit"] + _SUITS.index(wish)] = 1
        elif isinstance(wish, Rank):
            obs[at["wish_rank"] + _RANKS.index(wish)] = 1

    def write_seats(self, obs: np.ndarray, seat: int, locked: frozenset[int], active: tuple[bool, ...],
                    dealer: int) -> None:
        """Who takes part, the locked seats and the dealer, counted from ``seat``."""
        at, n = self._at, self.players
        for k in range(n):
            obs[at["active"] + k] = active[(seat + k) % n]
        for other in locked:
            obs[at["locked"] + self._relative(seat, other)] = 1
        obs[at["dealer"] + self._relative(seat, dealer)] = 1

    def write_pending(self, obs: np.ndarray, seat: int, pending: Pending | None) -> None:
        """A pending draw or skip (its kind, amount, target, who resumes, the rule), seen from ``seat``."""
        if pending is None:
            return
        at = self._at
        obs[at["pending_kind"] + _PENDING_KINDS.index(pending.kind)] = 1
        obs[at["pending_amount"]] = pending.amount
        obs[at["pending_target"] + self._relative(seat, pending.target)] = 1
        if pending.resume is not None:
            obs[at["pending_resume"] + self._relative(seat, pending.resume)] = 1
        rule = self._rules.get(pending.rule)
        if rule is not None:
            obs[at["pending_rule"] + rule] = 1

    def write_memory(self, obs: np.ndarray, seat: int, memory: Memory) -> None:
        """What a rule remembers (the Runde's rank and opener, MR-8): its Ranks, Suits and seats."""
        at = self._at
        for rule, value in memory:
            if rule not in self._memory_rules or value == rule.memory_at_deal:
                continue
            name = rule.name
            obs[at[f"{name}_on"]] = 1
            for item in value if isinstance(value, tuple) else (value,):
                self._remembered(obs, seat, name, item)

    def _remembered(self, obs: np.ndarray, seat: int, name: str, item: Any) -> None:
        at = self._at
        if isinstance(item, Rank):
            obs[at[f"{name}_rank"] + _RANKS.index(item)] = 1
        elif isinstance(item, Suit):
            obs[at[f"{name}_suit"] + _SUITS.index(item)] = 1
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < self.players:
            obs[at[f"{name}_seat"] + self._relative(seat, item)] = 1
