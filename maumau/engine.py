"""The turn machinery: legal-move generation, applying a move, dealing.

The rules decide; this module only asks them, in the order a card game asks:
what may be played (C-3 and the wild cards), what playing does (the effects),
whether the hand ended (C-9), whether Mau was said (C-8), and who moves next.
What the rules decide for a given table is cached by the variant, so the hot path
does not ask every rule about every card.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING

from .cards import Card, Rank, Suit
from .events import (
    Blocked,
    Cancelled,
    Drew,
    EffectPending,
    Event,
    Locked,
    NoMau,
    PenaltyDrawn,
    PlaysAgain,
    Reshuffled,
    Reversed,
    Skipped,
    Wished,
    drew_cards,
)
from .moves import Draw, Move, Pass, Play
from .rules.base import Pending, Rule, Table
from .state import make_state

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState
    from .variants import Variant

__all__ = ["TURN", "EXTRA", "DRAWN", "Turn", "Deal", "legal_moves", "apply_move"]

#: The phases of a turn: a normal turn, the extra play after an Ace (MK-8, JM-8),
#: and the choice after drawing (MR-4, JM-3).  A pending effect is its own phase.
TURN, EXTRA, DRAWN = "turn", "extra", "drawn"

_by_index = attrgetter("index")
DRAW, PASS = Draw(), Pass()
#: What a plain draw of one card records, made once per seat: events do not change.
_ONE_DRAWN = tuple((Drew(seat, 1, 1),) for seat in range(16))


def add_cards(hand: tuple[Card, ...], new: list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
    """A hand is kept sorted, so that card order inside a hand never matters."""
    if len(new) == 1:
        card = new[0]
        index = card.index
        i = 0
        for held in hand:
            if held.index > index:
                break
            i += 1
        return hand[:i] + (card,) + hand[i:]
    return tuple(sorted(hand + tuple(new), key=_by_index))


def remove_cards(hand: tuple[Card, ...], gone: tuple[Card, ...]) -> tuple[Card, ...]:
    # Cards are interned, so they are found by identity: tuple.index would compare them
    # with ==, which goes through Python (Card defines __lt__ for sorting).
    for card in gone:
        i = 0
        for held in hand:
            if held is card:
                break
            i += 1
        hand = hand[:i] + hand[i + 1:]
    return hand


class _Seats:
    """Seat arithmetic shared by a Turn and a Deal: next(p) and prev(p) (C-1)."""

    __slots__ = ("active", "direction")  # which seats take part (MK-14); +1 or -1 (MK-6)

    def next(self, seat: int, direction: int | None = None) -> int:
        """The neighbouring active player in the direction of play (C-1)."""
        step = self.direction if direction is None else direction
        n = len(self.active)
        seat = (seat + step) % n
        while not self.active[seat]:
            seat = (seat + step) % n
        return seat

    def prev(self, seat: int) -> int:
        """The neighbouring active player against the direction of play (C-1)."""
        return self.next(seat, -self.direction)

    @property
    def active_count(self) -> int:
        return sum(self.active)


class _Cards(_Seats):
    """Drawing with reshuffle (C-6) and exhaustion (C-7), for a Turn and a Deal."""

    __slots__ = ("variant", "hands", "stock", "discard", "seed", "events", "acting")

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
            got.extend(self.stock[:take])
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
        order = sorted(pile, key=_by_index)  # order under the top never matters
        rng = random.Random(self.seed)
        rng.shuffle(order)
        self.seed = rng.getrandbits(63)
        self.stock = tuple(order)
        self.discard = self.discard[-1:]
        self.events.append(Reshuffled(len(order)))
        return True

    def can_draw(self) -> bool:
        return bool(self.stock) or (len(self.discard) > 1 and self.variant.reshuffles)


class Turn(_Cards):
    """One move being carried out: the mutable scratch pad that rules write on.

    ``player`` is X, the player who played the card in question (C-1).  Rules call
    ``next``/``prev``, ``following()``, ``set_pending``, ``skip``, ``reverse``,
    ``draw``, ``play_again``, ``lock`` and ``cancel``; each records what it did as a typed
    event (``maumau.events``) naming ``acting``, the rule whose hook is running, so a rule
    never writes an event by hand.  The engine turns the result into the next immutable
    GameState.
    """

    __slots__ = (
        "state", "player", "move", "wish", "answered", "pending", "phase", "drawn", "runde",
        "locked", "to_move", "skips", "idle", "winner", "over", "blocked",
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
        self.runde = state._runde
        self.locked = state._locked
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
        return self.hands[self.player if seat is None else seat]

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
    def set_pending(self, kind: str, amount: int, target: int, rule: Rule,
                    resume: int | None = None) -> None:
        """Start a draw penalty or skip that ``target`` must answer or accept (C-5)."""
        self.pending = Pending(kind, amount, target, rule, resume)
        self.to_move = target
        self.events.append(EffectPending(kind, amount, target, rule))

    def draw(self, seat: int, n: int, why: str = "draw") -> list[Card]:
        """Seat draws n cards (C-6, C-7); a card received lifts a JM-9 lock, whoever's
        rule dealt it (a Joker's 4, a penalty, the player's own draw)."""
        got = _Cards.draw(self, seat, n, why)
        if got and seat in self.locked:
            self.locked = self.locked - {seat}
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
        self.locked = self.locked | frozenset((seat,))
        self.events.append(Locked(seat, self.acting))

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

    def finish(self) -> GameState:
        if self.over:
            self.pending, self.phase, self.drawn = None, TURN, None
        return make_state(
            self.variant, tuple(self.hands), self.stock, self.discard, self.to_move,
            self.direction, self.wish, self.pending, self.phase, self.drawn, self.runde,
            self.locked, self.active, self.state._dealer, self.seed, self.idle,
            self.winner, self.over, self.blocked, tuple(self.events) if self.events else (),
        )


class Deal(_Cards):
    """The deal being prepared: hands, stock and up-card, before the first turn (C-2)."""

    __slots__ = ("dealer", "to_move", "choose_wish")

    def __init__(self, variant: Variant, hands: list[tuple[Card, ...]], stock: tuple[Card, ...],
                 upcard: Card, dealer: int, seed: int, wish: Suit | Rank | None) -> None:
        self.variant = variant
        self.hands = hands
        self.stock = stock
        self.discard = (upcard,)
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
        return self.discard[-1]

    def dealers_wish(self, kind: type) -> Suit | Rank:
        """The dealer names a wish (LM-2, JM-2): the one given to ``deal``, or else
        the suit (rank) the dealer holds most of, first in order on a tie."""
        if isinstance(self.choose_wish, kind):
            return self.choose_wish
        hand = self.hands[self.dealer]
        if kind is Suit:
            return max(Suit, key=lambda s: (sum(c.suit is s for c in hand), -list(Suit).index(s)))
        held = [c.rank for c in hand if c.rank is not None]
        return max(Rank, key=lambda r: (held.count(r), r.order)) if held else Rank.ACE


# --- legal moves ----------------------------------------------------------------------

def legal_cards(variant: Variant, table: Table) -> frozenset[Card]:
    """The distinct cards playable on ``table`` (cached per table by the variant)."""
    found = variant._legal_cache.get(table)
    if found is None:
        found = frozenset(c for c in variant.distinct_cards if verdict(variant, c, table) is None)
        variant._legal_cache[table] = found
    return found


def verdict(variant: Variant, card: Card, table: Table) -> str | None:
    """None if ``card`` may be played on ``table``, else the sentence that says why not."""
    from .i18n import describe_pending, t

    pending = table.pending
    if pending is not None:
        if any(rule.answers(card, pending) for rule in variant._hooks["answers"]):
            return None
        return t("illegal.pending", card=card.symbol, pending=describe_pending(pending),
                 rule=pending.rule.response_id)
    for rule in variant._hooks["forbids"]:
        reason = rule.forbids(card, table)
        if reason:
            return reason
    if any(rule.allows(card, table) for rule in variant._hooks["allows"]):
        return None
    wish = table.wish
    if isinstance(wish, Suit):
        return t("illegal.wish_suit", card=card.symbol, suit=wish.symbol)
    if isinstance(wish, Rank):
        return t("illegal.wish_rank", card=card.symbol, rank=wish.value)
    top = table.top
    if top.is_joker:
        return t("illegal.generic", card=card.symbol)
    return t("illegal.match", card=card.symbol, suit=top.suit.symbol, rank=top.rank.value)


def table_of(state: GameState) -> Table:
    runde = state._runde
    return Table(state._discard[-1], state._wish, state._pending,
                 None if runde is None else runde[0])


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of the player to move, each exactly once (DESIGN.md)."""
    if state._over:
        return ()
    variant = state._variant
    seat = state._to_move
    hand = state._hands[seat]
    pending = state._pending
    phase = state._phase
    runde = state._runde
    # A plain tuple finds the cached Table of the same values (a NamedTuple is a tuple).
    key = (state._discard[-1], state._wish, pending, None if runde is None else runde[0])
    playable = variant._legal_cache.get(key)
    if playable is None:
        playable = legal_cards(variant, Table(*key))
    plays = variant._plays[len(hand) == 2]  # leaving one card: announce Mau (C-8)

    if phase == DRAWN and variant.after_draw == "drawn":
        candidates: tuple[Card, ...] = (state._drawn,) if state._drawn is not None else ()
    else:
        candidates = hand
    moves: list[Move] = []
    if seat not in state._locked:  # JM-9: a locked last card cannot be played
        last = None
        for card in candidates:
            if card is not last and card in playable:
                moves += plays[card]
            last = card
        extenders = variant._extenders
        if extenders and phase == TURN and pending is None:
            for card in sorted(set(candidates) & playable, key=_by_index):
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
    the same either way (tests/test_properties.py checks it).
    """
    kind = type(move)
    if fast and state._pending is None:
        if kind is Play:
            if move.last not in state._variant._effects:
                nxt = _plain_play(state, move)
                if nxt is not None:
                    return nxt
        elif kind is Draw:
            nxt = _plain_draw(state)
            if nxt is not None:
                return nxt
    if kind is Play:
        return _play(state, move)
    turn = Turn(state, move)
    if state._pending is not None:
        _accept(turn, state._pending)
    elif kind is Draw:
        _draw(turn)
    else:
        turn.end_turn(played=False)
    return turn.finish()


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
    return make_state(
        variant, hands[:seat] + (hand,) + hands[seat + 1:], state._stock,
        state._discard + move.cards, state.next_seat(seat), state._direction, wish,
        None, TURN, None, state._runde, state._locked, state._active, state._dealer,
        state._seed, 0, None, False, False,
        () if wish is None else (Wished(wish, variant._wishers.get(move.last)),))


def _plain_draw(state: GameState) -> GameState | None:
    """One card from a stock that keeps at least one, where drawing ends the turn; None
    where the player may still play after drawing (MR-4, JM-3) or is locked (JM-9)."""
    stock = state._stock
    seat = state._to_move
    phase = state._phase
    if (len(stock) < 2 or seat in state._locked
            or not (phase == EXTRA or phase == TURN and state._variant.after_draw == "none")):
        return None
    hands = state._hands
    return make_state(
        state._variant, hands[:seat] + (add_cards(hands[seat], stock[:1]),) + hands[seat + 1:], stock[1:],
        state._discard, state.next_seat(seat), state._direction, state._wish, None, TURN, None,
        state._runde, state._locked, state._active, state._dealer, state._seed, 0, None, False, False,
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
