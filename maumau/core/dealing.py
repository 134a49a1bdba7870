"""How a hand starts: ``deal`` (shuffled, seeded, C-2) and ``position`` (any situation)."""

from __future__ import annotations

import numbers
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from .cards import Card, CardError, Rank, Suit, cards, parse_wish
from .moves import TURN, Play
from .rules.base import Memory, Pending
from .state import GameState, make_state, next_state, play_effects
from .turn import Deal, Turn, packed, shuffle
from .validate import InvalidCards, InvalidState, check_state
from .variants import Variant, VariantError, variant

__all__ = ["deal", "position"]


def _check_players(v: Variant, players: int) -> None:
    lo, hi = v.players
    if not isinstance(players, int) or not lo <= players <= hi:
        raise VariantError(f"{v.name} is played by {lo} to {hi} players, not {players!r}")


def deal(game: str | Variant, players: int = 2, seed: int | None = 0, *,
         dealer: int | None = None, wish: str | Suit | Rank | None = None,
         **options: Any) -> GameState:
    """A shuffled, dealt hand: the same seed always gives the same deal (C-2).

    The last seat deals (unless ``dealer`` is given) and ``next(dealer)`` starts.  Where
    the up-card names a wish (LM-2, JM-2) the dealer names ``wish``, or else the suit
    (rank) they hold most of.
    """
    v = variant(game, **options)
    _check_players(v, players)
    dealer = players - 1 if dealer is None else dealer
    if not 0 <= dealer < players:
        raise VariantError(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
    rng = random.Random(seed)
    deck = list(v.deck)
    shuffle(deck, rng.getrandbits)  # random.shuffle's very order, compiled (a third of a deal's time)
    size = v.hand_size
    # Deal one card at a time round the table, starting left of the dealer.
    order = [(dealer + 1 + i) % players for i in range(players)]
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(size * players):
        hands[order[i % players]].append(deck[i])
    rest = deck[size * players:]
    # The cards as a state keeps them, the bytes of their indices (a hand sorted, the stock in order).
    packed_hands = [bytes(sorted([card.index for card in hand])) for hand in hands]
    table = Deal(v, packed_hands, packed(rest[1:]), rest[0], dealer,
                        rng.getrandbits(63), None if wish is None else parse_wish(wish))
    if v.upcard_rule is not None:
        v.upcard_rule.prepare_upcard(table)
    state = make_state(
        variant=v, hands=tuple(table.hands), stock=table.stock, discard=table.discard, to_move=table.to_move,
        direction=1, wish=None, pending=None, phase=TURN, drawn=None, memory=v.memory_at_deal,
        active=table.active, dealer=dealer, seed=table.seed, idle=0, winner=None, over=False, blocked=False)
    if v.upcard_rule is not None and v.upcard_rule.counts_as_play:
        state = _upcard_as_dealers_play(state, table)
    return state


def _upcard_as_dealers_play(state: GameState, table: Deal) -> GameState:
    """LM-2, JM-2: the up-card is the dealer's play, with its effect and wish."""
    v = state.variant
    card = state.top
    if v.upcard_rule is not None and card.rank in v.upcard_rule.no_effect:
        return state
    kind = v.wish_kind(card)
    wish = table.dealers_wish(kind) if kind is not None else None
    dealer_to_move = state.replace(to_move=state.dealer)
    turn = Turn(dealer_to_move, Play(card, wish=wish))
    turn.wish = wish
    play_effects(turn, card)
    turn.end_turn(played=True)
    if turn.phase != TURN:  # an Ace's extra play belongs to a real turn only
        turn.phase, turn.to_move = TURN, turn.next(state.dealer)
    return next_state(turn)


def _cards(value: str | Iterable[str | Card] | None) -> tuple[Card, ...]:
    if value is None:
        return ()
    return tuple(cards(value))


def position(game: str | Variant, hands: Sequence[str | Iterable[str | Card]], top: str | Card,
             stock: str | Iterable[str | Card] | None = None, to_move: int = 0, *,
             direction: int = 1, wish: str | Suit | Rank | None = None, pending_draw: int = 0,
             pending_skip: int = 0, discard: str | Iterable[str | Card] = "",
             dealer: int | None = None, runde: tuple[str | Rank, int] | None = None,
             memory: Mapping[str, Hashable] | None = None,
             phase: str = TURN, drawn: str | Card | None = None,
             locked: Iterable[int] = (), active: Iterable[bool] | None = None,
             target: int | None = None, resume: int | None = None, seed: int = 0,
             **options: Any) -> GameState:
    """A GameState for a constructed situation, for teaching and tests (docs/explanation/design.md).

    ``stock`` lists the stock top first; left out, it is the rest of the deck shuffled
    with ``seed`` (``stock=""`` is an empty stock).  ``pending_draw``/``pending_skip``
    set up the effect of the top card, aimed at ``target`` (default: ``to_move``).
    A seat with one card counts as having announced (C-8).  ``runde=(rank, opener)`` sets a
    Runde running (MR-8); ``memory={rule name: value}`` sets what rules that remember hold
    (``Rule.remembers``).  A situation that no hand of
    the variant can be in raises VariantError (CardError for the cards): the checks of a
    saved state, in ``maumau.core.validate``.
    """
    v = variant(game, **options)
    hands_t = tuple(tuple(sorted(_cards(h), key=lambda c: c.index)) for h in hands)
    _check_players(v, len(hands_t))
    top_card = Card.parse(top)
    pile = _cards(discard) + (top_card,)
    if stock is None:
        used = Counter(c for h in hands_t for c in h) + Counter(pile)
        rest = list((Counter(v.deck) - used).elements())
        rest.sort(key=lambda c: c.index)
        shuffle(rest, random.Random(seed).getrandbits)
        stock_t = tuple(rest)
    else:
        stock_t = _cards(stock)
    n = len(hands_t)
    to_move, target, resume = _whole(to_move), _whole(target), _whole(resume)
    pending = _pending(v, top_card, _whole(pending_draw), _whole(pending_skip),
                       to_move if target is None else target, resume)
    slots = _memory(v, runde, memory, locked)
    active_t = (True,) * n if active is None else tuple(bool(a) for a in active)
    state = make_state(
        variant=v, hands=hands_t, stock=stock_t, discard=pile,
        to_move=to_move if pending is None else pending.target, direction=_whole(direction),
        wish=None if wish is None else parse_wish(wish), pending=pending, phase=phase,
        drawn=None if drawn is None else Card.parse(drawn), memory=slots,
        active=active_t,
        dealer=n - 1 if dealer is None else _whole(dealer), seed=_whole(seed), idle=0, winner=None,
        over=False, blocked=False)
    try:
        check_state(state)
    except InvalidCards as err:
        raise CardError(str(err)) from None
    except InvalidState as err:
        raise VariantError(str(err)) from None
    return state


def _memory(v: Variant, runde: Any, memory: Any, locked: Iterable[Any]) -> Memory:
    """What the rules remember in a position: the Runde (MR-8), the locked seats (JM-9) and the
    slots named in ``memory``."""
    try:
        slots = v.runde_memory(None if runde is None else (Rank.parse(runde[0]), _whole(runde[1])))
        if memory:
            slots = v.memory_with({**{rule.name: held for rule, held in slots}, **memory})
        return v.lock_memory(slots, [_whole(seat) for seat in locked])
    except InvalidState as err:
        raise VariantError(str(err)) from None


def _whole(value: Any) -> Any:
    """A whole number of another integer type (numpy's) as an int, anything else as it is,
    for ``check_state`` to refuse (``True`` and ``1.0`` are no seat numbers)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return value


def _pending(v: Variant, top: Card, draw: Any, skip: Any, target: Any,
             resume: Any) -> Pending | None:
    if draw and skip:
        raise VariantError("a position has a pending draw or a pending skip, not both")
    if not draw and not skip:
        return None
    kind, amount = ("draw", draw) if draw else ("skip", skip)
    for rule in v._effects.get(top, ()):
        if rule.pending_kind == kind:
            return Pending(kind, amount, target, rule, resume)
    raise VariantError(f"pending_{kind}={amount} needs a top card that starts a {kind} in "
                       f"{v.name} (the top is {top.text})")
