"""Which states a game can be in: one home for the checks of ``mm.position`` and of loading.

``check_state(state)`` looks at every field of a GameState made with ``make_state`` (which
checks nothing) and raises ``InvalidState`` naming the first thing that is wrong, in plain
words.  ``mm.position`` turns that into a ``VariantError`` (``CardError`` for cards), the
loaders of saved states and games into a ``FormatError``.

What a state must be, field by field (the variant's facts are read from its rules, never
from its name):

* types: seats, counts and the seed are whole numbers (``True`` and ``1.0`` are not), the
  flags are ``True``/``False``, cards are Cards, a wish is a Suit or a Rank;
* seats: the number of hands is in the variant's player range; ``to_move``, ``dealer``,
  ``winner``, the Runde opener, the targets of a pending effect and locked seats are seat
  numbers; the player to move, targets, the opener, locked seats and the winner take part
  (``active``); at least two seats take part while the hand runs (one left wins, MK-14);
* cards (C-1): no card appears more often than the variant's deck holds it, the discard pile
  has a top card, hands are sorted, and every seat in play holds a card while the hand runs
  (C-9).  Cards a constructed position leaves out stay out of the game (``mm.position`` with
  a short ``stock``), so a deck need not be complete;
* direction +1 or -1; ``idle`` from 0 to the number of seats (C-7);
* the hand's end: a winner or a blocked (void) hand exactly when it is over, a winner's
  hand is empty (unless they are the last player left, MK-14), and nothing pends then;
* phases: ``"turn"``, ``"extra"`` (only on a card that has an effect in the variant, MK-8,
  JM-8) or ``"drawn"`` (only where the variant lets a player play on after drawing, MR-4,
  JM-3), and then names the drawn card, which is in the hand of the player to move;
* a wish is one the variant's wish cards can name (a rank wish only where a card names
  ranks, LM-4);
* a pending effect (C-5) is a draw or a skip of a rule of the variant that starts that kind
  of effect with the top card; its amount is a whole number from 1 to the deck's size, its
  target is the player to move, and it waits in a normal turn;
* what a rule remembers (a Runde, MR-8) has a slot for each rule that remembers, hashable, and
  passes the rule's own ``check_memory`` (the Runde: a rank of the deck and an opener who
  still holds a card of it while the hand runs);
* a locked seat (JM-9) only in a variant with the ``mau_lock`` rule, holding exactly one
  card, and not right after drawing (receiving a card lifts the lock).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .cards import Card, Rank, Suit
from .moves import DRAWN, EXTRA, TURN
from .problems import InvalidCards, InvalidState, is_whole, seat_problem, show
from .rules.base import Pending, Role

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState
    from .variants import Variant

__all__ = ["InvalidState", "InvalidCards", "check_state", "check_hands", "check_pile", "show", "is_whole"]

PHASES = (TURN, EXTRA, DRAWN)


def check_hands(hands: Any) -> None:
    """Raise InvalidState unless ``hands`` is a tuple of hands, each a tuple of cards (``make_state``
    asks, where it cannot keep a hand as the bytes of its cards)."""
    if not isinstance(hands, tuple) or not all(isinstance(h, tuple) for h in hands):
        raise InvalidState(f"hands must be a tuple of hands, not {show(hands)}")
    for i, hand in enumerate(hands):
        check_pile(f"seat {i}'s hand", hand)


def check_pile(where: str, pile: Any) -> None:
    """Raise InvalidState unless ``pile`` (the stock, the discard pile, a hand) is a tuple of cards."""
    if not isinstance(pile, tuple):
        raise InvalidState(f"{where} must be a tuple of cards, not {show(pile)}")
    for card in pile:
        if not isinstance(card, Card):
            raise InvalidState(f"{where} holds {show(card)}, which is not a card")


def check_state(state: GameState) -> None:
    """Raise InvalidState naming the first thing that no state of its variant can have."""
    _Checker(state).run()


class _Checker:
    def __init__(self, state: GameState) -> None:
        self.s = state

    def run(self) -> None:
        from .variants import Variant

        s = self.s
        v = s._variant
        if not isinstance(v, Variant):
            raise InvalidState(f"the variant must be a Variant, not {show(v)}")
        self.v: Variant = v
        self.cards()
        self.seats()
        self.ending()
        self.phase()
        self.wish()
        self.pending()
        self.memory()
        self.locked()

    # --- cards ---------------------------------------------------------------------------------
    def cards(self) -> None:
        s, v = self.s, self.v
        hands = s.hands  # tuples of cards: make_state refused any other (check_hands, check_pile)
        lo, hi = v.players
        n = len(hands)
        if not lo <= n <= hi:
            raise InvalidState(f"{v.name} is played by {lo} to {hi} players, not {n}")
        self.n = n
        for i, h in enumerate(hands):
            if any(a.index > b.index for a, b in zip(h, h[1:], strict=False)):
                raise InvalidState(f"seat {i}'s hand is not sorted")
        if not s._discard:
            raise InvalidState("the discard pile is empty: there is no top card")
        used = Counter(c for h in hands for c in h) + Counter(s.stock) + Counter(s.discard)
        deck = Counter(v.deck)
        for card, count in sorted(used.items(), key=lambda item: item[0].index):
            held = deck[card]
            if count > held:
                times = "once" if count == 1 else f"{count} times"
                raise InvalidCards(f"{card.text} appears more often than the {v.name} deck holds it "
                                   f"({times}, the deck has {held or 'none'})")

    # --- seats -----------------------------------------------------------------------------------
    def seat(self, name: str, value: Any, *, playing: bool = True) -> None:
        """``value`` must be a seat number, and (if ``playing``) a seat that takes part."""
        problem = seat_problem(self.s._active, name, value, playing=playing)
        if problem is not None:
            raise InvalidState(problem)

    def seats(self) -> None:
        s = self.s
        active = s._active
        if not isinstance(active, tuple) or not all(type(a) is bool for a in active):
            raise InvalidState(f"active must list True or False for each seat, not {show(active)}")
        if len(active) != self.n:
            raise InvalidState(f"active lists {len(active)} seats, but there are {self.n} hands")
        for name in ("over", "blocked"):
            value = getattr(s, "_" + name)
            if type(value) is not bool:
                raise InvalidState(f"{name} must be True or False, not {show(value)}")
        playing = sum(active)
        if playing == 0:
            raise InvalidState("every seat is inactive: nobody is left to play")
        if playing == 1 and not s._over:
            raise InvalidState("only one seat takes part, but the hand is not over (MK-14)")
        self.seat("to_move", s._to_move)
        self.seat("dealer", s._dealer, playing=False)
        if not is_whole(s._direction) or s._direction not in (1, -1):
            raise InvalidState(f"direction {show(s._direction)} is not +1 or -1")
        if not is_whole(s._seed):
            raise InvalidState(f"the seed must be a whole number, not {show(s._seed)}")
        idle = s._idle  # turns in a row without play or card (C-7); a seat that left may
        if not is_whole(idle) or not 0 <= idle <= self.n:  # leave it at the count of those left
            raise InvalidState(f"idle counts turns without play, a whole number 0-{self.n}, "
                               f"not {show(idle)}")
        if not s._over:
            for i, hand in enumerate(s._hands):  # bytes: empty or not, as the cards
                if active[i] and not hand:
                    raise InvalidState(f"seat {i} holds no cards, but the hand is not over (C-9)")

    # --- the end of the hand -------------------------------------------------------------------------
    def ending(self) -> None:
        s = self.s
        winner = s._winner
        if winner is not None:
            self.seat("winner", winner)
        if s._blocked and not s._over:
            raise InvalidState("the hand is blocked but not over (C-7)")
        if s._over:
            if s._blocked and winner is not None:
                raise InvalidState(f"a blocked hand is void, so it has no winner, not seat {winner} (C-7)")
            if not s._blocked and winner is None:
                raise InvalidState("the hand is over without a winner, but it is not blocked (C-7, C-9)")
            if winner is not None and s._hands[winner] and sum(s._active) > 1:
                raise InvalidState(f"the winner, seat {winner}, still holds cards (C-9)")
            if s._pending is not None:
                raise InvalidState("the hand is over, but an effect is still pending (C-9)")
            if s._phase != TURN:
                raise InvalidState(f"the hand is over, but the phase is {show(s._phase)}, not 'turn'")
        elif winner is not None:
            raise InvalidState(f"seat {winner} is the winner, but the hand is not over")

    # --- phases --------------------------------------------------------------------------------------
    def phase(self) -> None:
        s, v = self.s, self.v
        phase = s._phase
        if type(phase) is not str or phase not in PHASES:
            raise InvalidState(f"unknown phase {show(phase)}: it is 'turn', 'extra' or 'drawn'")
        if phase == EXTRA and not v._effects.get(s.top):
            raise InvalidState(f"the phase is 'extra', but the top card {s.top.text} gives "
                               f"no extra play in {v.name} (MK-8, JM-8)")
        if phase == DRAWN and v.after_draw == "none":
            raise InvalidState(f"the phase is 'drawn', but in {v.name} drawing ends the turn (LM-3, MK-3)")
        drawn = s._drawn
        if drawn is not None:
            if not isinstance(drawn, Card):
                raise InvalidState(f"the drawn card must be a card or None, not {show(drawn)}")
            if phase != DRAWN:
                raise InvalidState(f"a drawn card ({drawn.text}) belongs to the 'drawn' phase, "
                                   f"not {phase!r}")
            if drawn not in s.hands[s._to_move]:
                raise InvalidState(f"the drawn card {drawn.text} is not in the hand of the player "
                                   f"to move, seat {s._to_move}")
        elif phase == DRAWN:
            raise InvalidState("the phase is 'drawn', but no drawn card is named (MR-4, JM-3)")

    # --- wishes -------------------------------------------------------------------------------------
    def wish(self) -> None:
        s, v = self.s, self.v
        wish = s._wish
        if wish is None:
            return
        if not isinstance(wish, (Suit, Rank)):
            raise InvalidState(f"a wish is a suit or a rank, not {show(wish)}")
        named = {p.wish for plays in v._plays[0].values() for p in plays if p.wish is not None}
        if wish not in named:
            kind = "suit" if isinstance(wish, Suit) else "rank"
            if not any(isinstance(w, type(wish)) for w in named):
                raise InvalidState(f"a {kind} wish ({wish}), but no card names a {kind} in {v.name}")
            raise InvalidState(f"a wish of {kind} {wish}, which no card names in {v.name}")

    # --- a pending penalty or skip (C-5) -----------------------------------------------------------
    def pending(self) -> None:
        s, v = self.s, self.v
        p = s._pending
        if p is None:
            return
        if not isinstance(p, Pending):
            raise InvalidState(f"the pending effect must be a Pending or None, not {show(p)}")
        if p.kind not in ("draw", "skip") or type(p.kind) is not str:
            raise InvalidState(f"a pending effect is a 'draw' or a 'skip', not {show(p.kind)}")
        size = len(v.deck)
        if not is_whole(p.amount) or not 1 <= p.amount <= size:
            raise InvalidState(f"the pending {p.kind} amount must be a whole number 1-{size}, "
                               f"not {show(p.amount)}")
        self.seat("the pending effect's target", p.target)
        if p.resume is not None:
            self.seat("the seat that moves after the pending effect (resume)", p.resume)
        if p.rule not in v.rules:
            raise InvalidState(f"the pending effect's rule {show(p.rule)} is not a rule of {v.name}")
        if p.rule.pending_kind != p.kind:
            raise InvalidState(f"the rule {p.rule.name} starts no pending {p.kind} (C-5)")
        top = s.top
        if p.rule not in v._effects.get(top, ()):
            raise InvalidState(f"a pending {p.kind} of {p.rule.name} needs a top card that starts it, "
                               f"not {top.text}")
        if p.target != s._to_move:
            raise InvalidState(f"the pending {p.kind} aims at seat {p.target}, but seat {s._to_move} "
                               "is to move: its target answers it (C-5)")
        if s._phase != TURN:
            raise InvalidState(f"a pending {p.kind} waits in a normal turn, not in phase {s._phase!r}")

    # --- what the rules remember (Rule.remembers; the Runde, MR-8..MR-13) --------------------------
    def memory(self) -> None:
        s, v = self.s, self.v
        memory = s._memory
        owners = tuple(rule for rule, _ in v.memory_at_deal)
        names = ", ".join(rule.name for rule in owners) or "none"
        if (not isinstance(memory, tuple) or len(memory) != len(owners)
                or any(not isinstance(slot, tuple) or len(slot) != 2 or slot[0] != rule
                       for slot, rule in zip(memory, owners, strict=False))):
            raise InvalidState(f"the memory holds one (rule, value) for each rule of {v.name} that "
                               f"remembers ({names}), not {show(memory)}")
        for rule, value in memory:
            try:
                hash(value)
            except TypeError:
                raise InvalidState(f"{rule.name} remembers {show(value)}, which cannot be part of a "
                                   "state (a list or dict: use a tuple)") from None
            problem = rule.check_memory(value, s)
            if problem is not None:
                raise InvalidState(problem)

    # --- locked last cards (JM-9) -------------------------------------------------------------------
    def locked(self) -> None:
        s, v = self.s, self.v
        locked = s.locked
        if not isinstance(locked, frozenset):
            raise InvalidState(f"locked must be a set of seats, not {show(locked)}")
        if locked and not v.having(Role.LOCK):
            raise InvalidState(f"seats are locked, but {v.name} has no mau_lock rule (JM-9)")
        for seat in sorted(locked, key=show):
            self.seat("a locked seat", seat)
            held = len(s._hands[seat])
            if held != 1:
                raise InvalidState(f"seat {seat} is locked but holds {held} cards: a lock holds "
                                   "exactly the last card (JM-9)")
        if s._to_move in locked and s._phase == DRAWN:
            raise InvalidState(f"seat {s._to_move} just drew, so their lock has lifted (JM-9)")
