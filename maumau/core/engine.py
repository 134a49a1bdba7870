"""Legal-move generation and applying a move.

The rules decide; this module only asks them, in the order a card game asks:
what may be played (C-3 and the wild cards), what playing does (the effects),
whether the hand ended (C-9), whether Mau was said (C-8), and who moves next.
What the rules decide for a given table is cached by the variant, so the hot path
does not ask every rule about every card.  The move being carried out is a
``maumau.core.turn.Turn``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .cards import Card, Rank, Suit
from .events import Drew, Left, NoMau, Skipped, Wished
from .moves import Draw, Move, Pass, Play
from .refusal import Refusal, refuse
from .rules.base import Memory, Pending, Rule, Table, with_locked
from .state import IllegalMove, make_state, next_active
from .turn import DRAWN, EXTRA, TURN, Deal, Turn, _by_index, add_cards, remove_cards

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState
    from .variants import Variant

__all__ = ["TURN", "EXTRA", "DRAWN", "Turn", "Deal", "legal_moves", "apply_move", "legal_cards", "plays_on",
           "card_refusal", "table_of", "play_effects", "add_cards", "remove_cards", "leave"]

DRAW, PASS = Draw(), Pass()
#: What a plain draw of one card records, made once per seat: events do not change.
_ONE_DRAWN = tuple((Drew(seat, 1, 1),) for seat in range(16))


# --- legal moves ----------------------------------------------------------------------

#: The most tables a variant remembers the playable cards of.  The shipped variants meet a few
#: hundred (lite_macau about 630 in 3,000 random hands); a learner's rule whose memory counts
#: something makes a new table at nearly every move (99,000 tables, 320 MB, in 1,600 hands), so a
#: full cache starts again rather than grow without end.
CACHE_TABLES = 4096


def legal_cards(variant: Variant, table: Table) -> frozenset[Card]:
    """The distinct cards playable on ``table`` (cached per table by the variant)."""
    cache = variant._legal_cache
    found = cache.get(table)
    if found is None:
        found = frozenset(c for c in variant.distinct_cards if card_refusal(variant, c, table) is None)
        _keep(cache, table, found)
    return found


def _keep(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """``cache[key] = value``, starting the cache again when it holds ``CACHE_TABLES`` tables."""
    if len(cache) >= CACHE_TABLES:
        cache.clear()
    cache[key] = value


def plays_on(variant: Variant, top: Card, wish: Suit | Rank | None, pending: Pending | None,
             memory: Memory) -> tuple[dict[Card, tuple[Play, ...]], dict[Card, tuple[Play, ...]]]:
    """The plays of each card playable on a table (its wishes named), without and with the
    announcement (C-8): what legal moves read for each card of a hand, one dictionary look-up a
    card.  Cached by the variant per table; a table of no wish, no pending effect and the memory of
    the deal (most tables) by its top card alone, a cheaper key to look up."""
    playable = legal_cards(variant, Table(top, wish, pending, memory))
    found = tuple({c: plays[c] for c in variant.distinct_cards if c in playable} for plays in variant._plays)
    if wish is None and pending is None and memory is variant.memory_at_deal:
        variant._plays_by_top[top] = found
    else:
        _keep(variant._plays_cache, (top, wish, pending, memory), found)
    return found  # type: ignore[return-value]


def card_refusal(variant: Variant, card: Card, table: Table) -> Refusal | str | None:
    """None if ``card`` may be played on ``table``, else why not (a rule's ``forbids`` may say it
    in a sentence of its own)."""
    pending = table.pending
    if pending is not None:
        if any(rule.answers(card, pending) for rule in variant._hooks["answers"]):
            return None
        return refuse("illegal.pending", pending.rule.response_id, card=card.symbol, pending=pending)
    for rule in variant._hooks["forbids"]:
        reason = rule.forbids(card, table)
        if reason:
            return reason
    if any(rule.allows(card, table) for rule in variant._hooks["allows"]):
        return None
    wish = table.wish
    if isinstance(wish, Suit):
        return refuse("illegal.wish_suit", card=card.symbol, suit=wish.symbol)
    if isinstance(wish, Rank):
        return refuse("illegal.wish_rank", card=card.symbol, rank=wish.value)
    top = table.top
    if top.suit is None or top.rank is None:  # a Joker on top: nothing to match
        return refuse("illegal.generic", card=card.symbol)
    return refuse("illegal.match", card=card.symbol, suit=top.suit.symbol, rank=top.rank.value)


def table_of(state: GameState) -> Table:
    return Table(state._discard[-1], state._wish, state._pending, state._memory)


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the player to move, each exactly once (docs/explanation/design.md)."""
    if state._over:
        return ()
    variant = state._variant
    seat = state._to_move
    hand = state._hands[seat]
    top, wish, pending, memory = state._discard[-1], state._wish, state._pending, state._memory
    if wish is None and pending is None and memory is variant.memory_at_deal:
        found = variant._plays_by_top.get(top)
    else:
        found = variant._plays_cache.get((top, wish, pending, memory))
    if found is None:
        found = plays_on(variant, top, wish, pending, memory)
    plays = found[len(hand) == 2]  # leaving one card: announce Mau (C-8)
    phase = state._phase
    if phase == DRAWN and variant.after_draw == "drawn":
        candidates: tuple[Card, ...] = (state._drawn,) if state._drawn is not None else ()
    else:
        candidates = hand
    moves: list[Move] = []
    lock = variant._lock_slot
    if lock < 0 or seat not in cast("tuple[int, ...]", memory[lock][1]):  # JM-9: a locked card
        last = None
        for card in candidates:  # a hand is sorted: the copies of a card sit side by side
            if card is not last:
                if card in plays:
                    moves += plays[card]
                last = card
        extenders = variant._extenders
        if extenders and phase == TURN and pending is None:
            for card in sorted(set(candidates) & plays.keys(), key=_by_index):
                for rule in extenders:
                    moves += rule.extra_plays(state, card)

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
    return turn.finish()


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
    hand = remove_cards(hands[seat], move.cards)
    variant = state._variant
    if len(hand) < 2 and (not hand or not move.mau and variant.announcement is not None):
        return None
    wish = move.wish
    # Positional, in make_state's order (variant, hands, stock, discard, to_move, direction, wish,
    # pending, phase, drawn, memory, active, dealer, seed, idle, winner, over, blocked,
    # events): the two fast paths run for most decisions, and matching twenty keywords costs the
    # pure-Python engine a third of a decision (11,000 instructions); compiled, it is the same C call.
    changed = list(hands)
    changed[seat] = hand
    return make_state(
        variant, tuple(changed), state._stock,
        state._discard + move.cards, _next(state, seat), state._direction, wish,
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
    hands[seat] = add_cards(hands[seat], (stock[0],))
    return make_state(  # positional, as in _plain_play
        state._variant, tuple(hands), stock[1:],
        state._discard, _next(state, seat), state._direction, state._wish, None, TURN, None,
        state._memory, state._active, state._dealer, state._seed, 0, None, False, False,
        _ONE_DRAWN[seat] if seat < 16 else (Drew(seat, 1, 1),))


def _play(state: GameState, move: Play) -> GameState:
    turn = Turn(state, move)
    variant = turn.variant
    seat = turn.player
    hand = remove_cards(turn.hands[seat], move.cards)
    turn.hands[seat] = hand
    turn.discard = state._discard + move.cards
    turn.wish = move.wish
    card = move.last
    if move.wish is not None:
        turn.events.append(Wished(move.wish, variant._wishers.get(card)))
    if not hand:  # C-9: the hand ends the moment a hand is empty
        turn.over, turn.winner, turn.to_move = True, seat, seat
        for rule in variant._last_card.get(card, ()):
            turn.acting = rule
            rule.on_last_card(turn, card)
        return turn.finish()
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
    return turn.finish()


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
        playable = legal_cards(turn.variant, table_of(state))  # drawing keeps the table
        can = got[0] in playable if policy == "drawn" else any(c in playable for c in turn.hands[seat])
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

