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

import math
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
    both: Card | None  # the card that has both (counted once); None when it is wild or not in the deck
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
    if both is not None and (both not in table or table[both].wild):
        both = None  # a wild card is not counted in the hand (``_Held``): nothing to subtract
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
    hand = state.hand if type(state) is View else state.hands[state.to_move]
    size = len(hand)
    held: _Held | None = None  # what the hand holds: counted at the first play that needs it
    scores = []
    for move in moves:
        if type(move) is not Play:
            scores.append(0.0)  # Draw or Pass: only when nothing better is on offer
            continue
        info = plays.get(move)
        if info is None:
            info = plays[move] = _play_info(table, move)
        base, cards, hurt, suit, rank, both, runde = info  # one unpacking: cheaper than seven lookups
        if cards >= size:
            scores.append(1e6)  # going out wins the hand
            continue
        if held is None:
            held = _Held(_keys(state.variant, table), hand, _close_bonus(state))
        counts = held.counts
        score = base + FOLLOW * (counts[suit] + counts[5 + rank] - held.cards.get(both, 0))
        if hurt:
            score += held.close_bonus
        if runde:
            score += RUNDE_CARD * counts[5 + rank]
        scores.append(score)
    return scores


def _close_bonus(state: GameState | View) -> int:
    """HURT_CLOSE when an opponent still in the hand holds two cards or fewer."""
    if type(state) is View:
        seat, sizes = state.seat, state.hand_sizes
    else:
        seat, sizes = state.to_move, tuple([len(h) for h in state.hands])
    active = state.active
    for i, n in enumerate(sizes):
        if n <= 2 and i != seat and active[i]:
            return HURT_CLOSE
    return 0


class _Held:
    """What a hand holds, wild cards left out: ``counts[suit]`` (0-4) and ``counts[5 + rank]``
    (rank 0-13) in one list, and each card's number of copies."""

    __slots__ = ("counts", "cards", "close_bonus")

    def __init__(self, keys: dict[Card, tuple[int, int] | None], hand: tuple[Card, ...], close_bonus: int) -> None:
        counts = [0] * 19
        cards: dict[Card | None, int] = {}
        for card in hand:
            key = keys[card]
            if key is not None:
                counts[key[0]] += 1
                counts[key[1]] += 1
                cards[card] = cards.get(card, 0) + 1
        self.counts, self.cards, self.close_bonus = counts, cards, close_bonus


_KEYS: dict[Variant, dict[Card, tuple[int, int] | None]] = {}


def _keys(variant: Variant, table: dict[Card, CardInfo]) -> dict[Card, tuple[int, int] | None]:
    """Each card's places in ``_Held.counts`` (suit, 5 + rank); None for a wild card (not counted)."""
    found = _KEYS.get(variant)
    if found is None:
        found = _KEYS[variant] = {card: None if c.wild else (c.suit, 5 + c.rank) for card, c in table.items()}
    return found


def best_move(state: GameState | View, moves: list[Move] | tuple[Move, ...] | None = None) -> Move:
    """The heuristic's move: the first legal move with the highest score (``score_moves``).

    The same choice as ``moves[argmax(score_moves(state, moves))]``, made with less work (this is
    the heuristic's hot path: a simulated hand asks it ~35 times): a draw or a pass scores 0, the
    only play whose score before the hand is above 0 is taken without looking at the hand (the hand
    only adds to that score), the first play that goes out wins at once, and the hand is counted only
    when two plays must be compared.  ``tests/players/test_heuristic.py`` holds it to ``score_moves``."""
    if moves is None:
        moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    only = None
    for move in moves:
        if type(move) is Play:
            if only is not None:
                break  # two plays: their scores decide
            only = move
    else:
        if only is None:
            return moves[0]  # draws and passes all score 0
        if _info(state.variant, only).base > 0:
            return only
    return _best_play(state, moves)


def _info(variant: Variant, move: Play) -> PlayInfo:
    """``move``'s PlayInfo in ``variant`` (cached)."""
    table, plays = _tables(variant)
    info = plays.get(move)
    if info is None:
        info = plays[move] = _play_info(table, move)
    return info


def _best_play(state: GameState | View, moves: list[Move] | tuple[Move, ...]) -> Move:
    """The first of ``moves`` with the highest score (``score_moves``'s, in one pass)."""
    table, plays = _tables(state.variant)
    hand = state.hand if type(state) is View else state.hands[state.to_move]
    size = len(hand)
    counts: list[int] | None = None  # what score_moves's _Held counts, without the object
    close = -1  # HURT_CLOSE or 0, found when a hurting play asks
    best, top = moves[0], -math.inf
    for move in moves:
        if type(move) is Play:
            info = plays.get(move)
            if info is None:
                info = plays[move] = _play_info(table, move)
            base, cards, hurt, suit, rank, both, runde = info
            if cards >= size:
                return move  # going out wins the hand: 1e6, above any other score
            if counts is None:
                counts = _counts(_keys(state.variant, table), hand)
            score = base + FOLLOW * (counts[suit] + counts[5 + rank] - (hand.count(both) if both is not None else 0))
            if hurt:
                if close < 0:
                    close = _close_bonus(state)
                score += close
            if runde:
                score += RUNDE_CARD * counts[5 + rank]
        else:
            score = 0.0
        if score > top:
            best, top = move, score
    return best


def _counts(keys: dict[Card, tuple[int, int] | None], hand: tuple[Card, ...]) -> list[int]:
    """``_Held.counts`` of ``hand``: cards by suit (0-4) and by rank (5 + 0-13), wild cards left out."""
    counts = [0] * 19
    for key in map(keys.__getitem__, hand):
        if key is not None:
            counts[key[0]] += 1
            counts[key[1]] += 1
    return counts


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
