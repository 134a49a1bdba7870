"""Heuristic: plain sensible play, the way a careful beginner plays.

- Go out when you can; never draw while a card can be played.
- Answer a pending penalty with a card instead of taking it.
- Keep wild cards (the cards that name a wish) for when nothing else fits.
- Wish the suit (or rank) you hold most of, and otherwise steer the table towards it:
  play the card after which most of your remaining cards still fit.
- Hurt the next player (draw penalties, skips) and use extra plays, all the more when
  an opponent is close to going out; shed cards that would cost many points.
- Play sets (lite_macau) and open a Runde (mau_mau_runde) when you hold more of that rank.

The choice reads only what the seat to move may see (its hand, the top card, the wish,
the pending effect, the phase, hand sizes; see ``score_moves``), so it works on that seat's
``View`` as well as on the GameState (which maumau's own loops hand it, to save copying).  It is deterministic
(ties go to the first legal move) and fast, so Search uses it for its play-outs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..core.cards import Card, Rank, Suit
from ..core.moves import Move, Play
from ..core.rules.base import Role
from .view import View

if TYPE_CHECKING:  # pragma: no cover
    from ..core.state import GameState
    from ..core.variants import Variant

__all__ = ["Heuristic", "score_moves", "best_move"]

#: Weights of the scoring, in one place so that they can be read (and tuned) together.
PLAY, SET_CARD, WILD, HURT, HURT_CLOSE, AGAIN, FOLLOW, RUNDE, RUNDE_CARD = 100, 12, 30, 6, 10, 8, 4, 10, 6


class CardInfo(NamedTuple):
    """What the heuristic needs to know about a card in one variant."""

    wild: bool      # playing it names a wish (kept for later)
    hurt: int       # 2: makes the next player draw, 1: skips them, 0: neither
    again: bool     # the player plays again (an Ace in makao or joker_mau_mau)
    points: int     # what the card costs at the end of a hand (point-scoring variants)
    suit: int       # 0-3, 4 for the joker
    rank: int       # 0-12, 13 for the joker


class PlayInfo(NamedTuple):
    """The part of a play's score that does not depend on the hand, and what it follows."""

    base: float     # the score before looking at the rest of the hand
    cards: int      # how many cards it sheds
    hurt: bool      # it hurts the next player
    suit: int       # the suit the table asks for afterwards (4: none)
    rank: int       # the rank the table asks for afterwards (13: none)
    both: Card | None  # the card that has both (counted once)
    runde: bool     # it opens a Runde


_SUITS = {s: i for i, s in enumerate(Suit)}
_RANKS = {r: i for i, r in enumerate(Rank)}
_TABLES: dict[Variant, tuple[dict[Card, CardInfo], dict[Play, PlayInfo]]] = {}


def card_table(variant: Variant) -> dict[Card, CardInfo]:
    """The CardInfo of every card of ``variant`` (computed once per variant)."""
    return _tables(variant)[0]


def _tables(variant: Variant) -> tuple[dict[Card, CardInfo], dict[Play, PlayInfo]]:
    found = _TABLES.get(variant)
    if found is None:
        table = {}
        for card in variant.distinct_cards:
            effects = variant._effects.get(card, ())
            hurt = 0
            for rule in effects:
                if Role.DRAW_PENALTY in rule.roles:  # a penalty's kind is its role
                    hurt = 2
                elif Role.SKIP in rule.roles:
                    hurt = max(hurt, 1)
            again = any(rule.closer is not None for rule in effects)
            table[card] = CardInfo(variant.wish_kind(card) is not None, hurt, again,
                                   variant.scoring.card_points(card),
                                   4 if card.suit is None else _SUITS[card.suit],
                                   13 if card.rank is None else _RANKS[card.rank])
        found = _TABLES[variant] = (table, {})
    return found


def _play_info(table: dict[Card, CardInfo], move: Play) -> PlayInfo:
    """What a play does regardless of the hand it comes from (cached per variant)."""
    last = move.last
    info = table[last]
    score: float = PLAY + SET_CARD * (len(move.cards) - 1) + HURT * info.hurt + AGAIN * info.again
    wish = move.wish
    if isinstance(wish, Rank):
        suit, rank = 4, _RANKS[wish]
    else:
        suit = _SUITS[wish] if isinstance(wish, Suit) else info.suit
        rank = info.rank
    both = Card(Rank(list(Rank)[rank]), list(Suit)[suit]) if suit < 4 and rank < 13 else None
    for card in move.cards:
        c = table[card]
        score += c.points / 4 - WILD * c.wild
        if not c.wild and (c.suit == suit or c.rank == rank):
            score -= FOLLOW  # a played card no longer follows
        if move.runde and c.rank == info.rank:
            score -= RUNDE_CARD
    if move.runde:
        score += RUNDE - RUNDE_CARD
    return PlayInfo(score, len(move.cards), info.hurt > 0, suit, rank, both, move.runde)


def score_moves(state: GameState | View, moves: list[Move] | tuple[Move, ...]) -> list[float]:
    """A score per move (higher is better), from what the player to move may see (``state``
    may be that player's View)."""
    table, plays = _tables(state.variant)
    active = state.active
    if type(state) is View:
        seat = state.seat
        hand = state.hand
        closest = min((n for i, n in enumerate(state.hand_sizes) if i != seat and active[i]), default=99)
    else:
        seat = state.to_move
        hands = state.hands
        hand = hands[seat]
        closest = min((len(h) for i, h in enumerate(hands) if i != seat and active[i]), default=99)
    close_bonus = HURT_CLOSE if closest <= 2 else 0
    # What the hand holds, wild cards left out: by suit, by rank, by card.
    suits = [0] * 5
    ranks = [0] * 14
    count: dict[Card | None, int] = {}
    for card in hand:
        c = table[card]
        if not c.wild:
            suits[c.suit] += 1
            ranks[c.rank] += 1
            count[card] = count.get(card, 0) + 1
    size = len(hand)
    scores = []
    for move in moves:
        if type(move) is not Play:
            scores.append(0.0)  # Draw or Pass: only when nothing better is on offer
            continue
        info = plays.get(move)
        if info is None:
            info = plays[move] = _play_info(table, move)
        if info.cards >= size:
            scores.append(1e6)  # going out wins the hand
            continue
        follow = suits[info.suit] + ranks[info.rank] - count.get(info.both, 0)
        score = info.base + FOLLOW * follow
        if info.hurt:
            score += close_bonus
        if info.runde:
            score += RUNDE_CARD * ranks[info.rank]
        scores.append(score)
    return scores


def best_move(state: GameState | View, moves: list[Move] | tuple[Move, ...] | None = None) -> Move:
    """The heuristic's move: the first legal move with the highest score."""
    if moves is None:
        moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    scores = score_moves(state, moves)
    return moves[scores.index(max(scores))]


class Heuristic:
    """Plain sensible play (see the module docstring); always announces Mau (C-8).

    ``seed`` is accepted like the other players' but not needed: the choice is
    deterministic.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def reseed(self, seed: int | None) -> None:
        """Nothing random to restart; kept for the Player interface."""
        self.seed = seed

    #: maumau's own code, trusted to read only what its seat may see: ``ask`` hands it the
    #: GameState itself (no View to build).  Honoured only for classes defined in maumau.
    sees_state = True

    def choose(self, state: GameState | View) -> Move:
        return best_move(state)

    def __repr__(self) -> str:
        return "Heuristic()"
