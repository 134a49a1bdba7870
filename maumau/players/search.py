"""Search: determinised Monte Carlo search over the cards it cannot see.

For each decision with more than one sensible move, Search

1. builds the seat's ``View`` (own hand, table, hand sizes: nothing hidden),
2. deals the unseen cards at random into a full game (a *determinisation*, ``View.sample``);
   a player who has just drawn instead of playing is dealt no card that fits the table,
3. plays every candidate move in that deal and plays the hand on with the fast
   ``Heuristic`` for every seat, for up to ``depth`` decisions,
4. scores the result for itself (1 for going out, 0 for another player going out, in
   between by hand sizes when the play-out stopped early), and
5. repeats 2-4 for ``samples`` deals (or until ``time_limit`` seconds are spent) and
   plays the heuristic's favourite unless another candidate did better on the same
   deals by more than ``confidence`` standard errors.

Every candidate is played out on the same deals (common random numbers), so the
comparison between moves is not drowned in the luck of the deal.  Candidates are the
legal moves, with the wish of a wild card narrowed to the heuristic's best wish for
it (a Jack with four wishes is one candidate, not four).  This is "perfect-information
Monte Carlo" with heuristic play-outs, the simplest form of information-set search;
it improves on the policy it plays out with, which is why it beats ``Heuristic``.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

from ..core.cards import Card
from ..core.events import Drew
from ..core.moves import Move, Play
from ..core.playable import legal_cards
from ..core.rules.base import Table
from ..core.state import TURN
from .heuristic import best_move, score_moves
from .view import View

if TYPE_CHECKING:  # pragma: no cover
    from ..core.state import GameState

__all__ = ["Search", "playout_value"]

#: How steeply the value of an unfinished play-out follows the hand sizes.
SLOPE = 0.5


def playout_value(state: GameState, seat: int, depth: int) -> float:
    """Play ``state`` on with the heuristic for up to ``depth`` decisions; the value for
    ``seat``: 1 if it went out, 0 if another seat did, else a guess from hand sizes."""
    for _ in range(depth):
        if state._over:
            break
        state = state.apply(best_move(state))
    if state._over:
        winner = state._winner
        return 0.5 if winner is None else float(winner == seat)
    hands = state._hands
    active = state._active
    mine = len(hands[seat])
    closest = min(len(h) for i, h in enumerate(hands) if i != seat and active[i])
    return 1.0 / (1.0 + math.exp(SLOPE * (mine - closest)))


def drew_for_want(view: View) -> dict[int, tuple[frozenset[Card], int]]:
    """What the last move showed: a player who drew one card instead of playing (a plain
    draw, seen by everyone) held no card playable on this table (drawing changes neither
    the top card nor the wish), except the card just drawn where drawing ends the turn.
    Sensible players never draw while they can play; against one who does, this is a
    wrong guess that costs only some accuracy."""
    for event in view.events:
        if type(event) is Drew and event.asked == 1 and event.got == 1 and event.seat != view.seat:
            if view.pending is not None or view.phase != TURN:
                return {}
            table = Table(view.top, view.wish, None, view.memory)
            free = 1 if view.variant.after_draw == "none" else 0
            return {event.seat: (legal_cards(view.variant, table), free)}
    return {}


class Search:
    """Determinised Monte Carlo search (see the module docstring); always announces Mau.

    ``samples`` deals of the unseen cards per decision (default 48), ``depth`` decisions
    per play-out before the hand sizes decide (default 10), ``time_limit`` seconds per
    decision as an extra cap (default none, so that with a fixed ``seed`` the play is
    reproducible), ``confidence``: how many standard errors a move must gain over the
    heuristic's favourite to be preferred (default 1), ``width``: how many of the
    heuristic's best moves are searched (default 6).  The default budget takes a few
    hundredths of a second per decision (docs: reference/players-and-simulation).
    """

    name = "search"

    def __init__(self, samples: int = 48, depth: int = 10, time_limit: float | None = None,
                 seed: int | None = None, confidence: float = 1.0, width: int = 6) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        if depth < 0:
            raise ValueError(f"depth must be 0 or more, not {depth}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive, not {time_limit}")
        if width < 1:
            raise ValueError(f"width must be at least 1, not {width}")
        if confidence < 0:
            raise ValueError(f"confidence must be 0 or more, not {confidence}")
        self.samples = samples
        self.depth = depth
        self.time_limit = time_limit
        self.confidence = confidence
        self.width = width
        self.seed = seed
        self.rng = random.Random(seed)

    def reseed(self, seed: int | None) -> None:
        """Start the random number stream again from ``seed``."""
        self.seed = seed
        self.rng = random.Random(seed)

    def candidates(self, state: GameState | View) -> list[Move]:
        """The moves worth searching, best first by the heuristic: the legal moves (of the
        plays that differ only in their wish, just the heuristic's favourite), at most
        ``width`` of them."""
        moves = state.legal_moves()
        scores = score_moves(state, moves)
        best: dict[tuple[object, ...], tuple[float, int]] = {}
        for i, (move, score) in enumerate(zip(moves, scores, strict=True)):
            key = (move.cards, move.runde) if type(move) is Play else (move,)
            if key not in best or score > best[key][0]:
                best[key] = (score, i)
        order = sorted(best.values(), key=lambda found: (-found[0], found[1]))
        return [moves[i] for _, i in order[:self.width]]

    #: maumau's own code, trusted to read only what its seat may see (see Heuristic).
    sees_state = True

    def choose(self, state: GameState | View) -> Move:
        moves = self.candidates(state)
        if len(moves) == 1:
            return moves[0]
        hand = state.hand if type(state) is View else state.hands[state.to_move]
        for move in moves:
            if type(move) is Play and len(move.cards) == len(hand):
                return move  # going out: nothing to search
        return moves[self.pick(self.playouts(state, moves))]

    def playouts(self, state: GameState | View, moves: list[Move]) -> list[list[float]]:
        """The play-out value of each move (rows) on each sampled deal (columns)."""
        view = state if type(state) is View else View(state)
        unseen = view.unseen()
        seat = view.seat
        lacking = drew_for_want(view)
        values: list[list[float]] = [[] for _ in moves]
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for _ in range(self.samples):
            guess = view.sample(self.rng, unseen, lacking)
            for i, move in enumerate(moves):
                values[i].append(playout_value(guess.apply(move), seat, self.depth))
            if deadline is not None and time.perf_counter() > deadline:
                break
        return values

    def pick(self, values: list[list[float]]) -> int:
        """The move to play: the heuristic's favourite (row 0) unless another move did
        better on the same deals by more than ``confidence`` standard errors."""
        base = values[0]
        n = len(base)
        best, best_gain = 0, 0.0
        for i in range(1, len(values)):
            diffs = [a - b for a, b in zip(values[i], base, strict=True)]
            mean = sum(diffs) / n
            if mean <= best_gain:
                continue
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1) / n)
            if mean > self.confidence * spread:
                best, best_gain = i, mean
        return best

    def __repr__(self) -> str:
        args = []
        if self.samples != 48:
            args.append(f"samples={self.samples}")
        if self.depth != 10:
            args.append(f"depth={self.depth}")
        if self.time_limit is not None:
            args.append(f"time_limit={self.time_limit}")
        if self.confidence != 1.0:
            args.append(f"confidence={self.confidence}")
        if self.width != 6:
            args.append(f"width={self.width}")
        return f"Search({', '.join(args)})"
