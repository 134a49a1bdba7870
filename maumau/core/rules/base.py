"""The shape of a rule: a small class whose hooks the engine calls.

A variant is a tuple of rules.  Each rule overrides only the hooks it needs; the
variant notices which hooks a rule overrides and calls only those, so a rule that
does nothing for a card costs nothing for that card.

Hooks (all optional):

``allows(card, table)``
    True if this rule makes ``card`` playable on ``table`` (matching, wild cards).
``forbids(card, table)``
    Why ``card`` may not be played on ``table`` (a ``Refusal``: ``refuse(key, self.rule_id,
    ...)``), or None.  A veto beats any ``allows``.
``why_not(state, move)``
    Why this rule refuses ``move``, which is not among the legal moves, as a ``Refusal``
    (a sentence key of the catalogues, this rule's id, the values the sentence names), or None
    when the move is not this rule's business.  The engine asks the variant's rules in order,
    after the core's own check that the cards are held; the first refusal is the reason.
``answers(card, pending)``
    True if ``card`` answers the pending penalty or skip (C-5).
``wish_kind(card)``
    ``Suit`` or ``Rank`` if playing ``card`` names a wish, else None.
``affects(card)`` / ``on_play(turn, card)``
    What playing ``card`` does (``turn`` is a ``maumau.core.turn.Turn``).
``on_last_card(turn, card)``
    What still happens when ``card`` was the last card of a hand (MK-10).
``extra_plays(state, card)``
    More moves that start with ``card`` (sets, opening a Runde).
``forces_play(state)``
    True if the player to move must play when they can (MR-4, MR-10).
``on_missing_announcement(turn)``
    The announcement penalty (C-8).
``prepare_upcard(deal)``
    Handle the turned-up card at the deal (LM-2, MR-2, MK-2, JM-2).

A rule that must remember something from one turn to the next (the Runde's rank and
opener, MR-8) says ``remembers = True``: the state then keeps a memory slot for it, as
boardgame.io's plugins own their data.  The slot starts as ``memory_at_deal``; the rule reads
it with ``table.memory_of(self)``, ``state.memory_of(self)`` or ``turn.memory_of(self)`` and
changes it with ``turn.remember(self, value)``.  The slot is part of the state's value (equality,
hash, saved games, undo), is public (every player sees it) and holds a hashable value made of
None, bools, whole numbers, text, cards, suits, ranks and tuples of them.
``check_memory(value, state)`` says what is wrong with a remembered value (validation of
``mm.position`` and of saved games), ``describe_memory(value, name_of)`` tells it in a sentence
for the table and the terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, cast

from ..cards import Card, Rank, Suit
from ..moves import Move, Play
from ..refusal import Refusal

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState
    from ..turn import Deal, Turn

__all__ = ["Rule", "Role", "Table", "Pending", "HOOKS", "Memory", "recall", "recall_role", "remembered",
           "lock_slot", "locked_in", "with_locked"]

#: What the rules that remember hold in a state: (rule, value) for each, in the variant's order.
Memory = tuple[tuple["Rule", Hashable], ...]


class Role(Enum):
    """What a rule is.  A rule declares its roles (``Rule.roles``); code that needs a rule of a
    kind (the heuristic player, the narration, the widgets, the variant's policies) asks for
    the role, never for a name or a class, so a learner's rule of that kind is found too."""

    DRAW_PENALTY = "makes a player draw cards (2, 3, K, 7, a Joker, the last 7)"
    SKIP = "makes players lose their turn (4, 8)"
    REVERSE = "reverses the direction of play (9)"
    WISH = "lets a card name a wish (J, A, a Joker)"
    EXTRA_PLAY = "gives the player an extra play (A); its closer ends it"
    CANCEL = "cancels a pending penalty (Q♥)"
    SETS = "lets several cards of one rank be played at once"
    RUNDE = "opens and runs a Runde"
    UPCARD = "handles the turned-up card at the deal"
    ANNOUNCEMENT = "asks for the Mau call and punishes its absence"
    LOCK = "locks a player's last card until they receive one (JM-9)"
    SCORING = "scores finished hands and ends the match"
    JOIN_AND_LEAVE = "lets players leave and join between hands"


#: The roles of the rules that start a pending effect, and the effect's kind (C-5).
PENALTY_KINDS: dict[Role | None, str] = {Role.DRAW_PENALTY: "draw", Role.SKIP: "skip"}


class Table(NamedTuple):
    """What a card is played onto: the top card, the wish, the pending effect, and what the
    rules that remember hold (the Runde, MR-8)."""

    top: Card
    wish: Suit | Rank | None
    pending: Pending | None
    memory: Memory = ()

    def memory_of(self, rule: Rule) -> Any:
        """What ``rule`` remembers (its memory slot)."""
        return recall(self.memory, rule)

    @property
    def runde(self) -> Rank | None:
        """The rank of the Runde that runs (MR-9), or None."""
        runde = recall_role(self.memory, Role.RUNDE)
        return None if runde is None else runde[0]


def recall(memory: Memory, rule: Rule) -> Any:
    """What ``rule`` holds in ``memory``; a rule without a slot is told how to get one."""
    for owner, value in memory:
        if owner is rule:
            return value
    for owner, value in memory:
        if owner == rule:
            return value
    raise LookupError(f"the rule {rule.name} has no memory in this variant: a rule that remembers "
                      "says remembers = True in its class (and is one of the variant's rules)")


def recall_role(memory: Memory, role: Role) -> Any:
    """What the first remembering rule with ``role`` holds, or None if there is none."""
    for owner, value in memory:
        if role in owner.roles:
            return value
    return None


def remembered(memory: Memory, rule: Rule, value: Hashable) -> Memory:
    """``memory`` with ``rule``'s slot set to ``value``."""
    recall(memory, rule)  # raises if the rule has no slot
    hash(value)  # a slot is part of the state's hash: a list or dict is refused here, at once
    found = False
    slots = []
    for owner, held in memory:
        if not found and (owner is rule or owner == rule):
            slots.append((owner, value))
            found = True
        else:
            slots.append((owner, held))
    return tuple(slots)


def lock_slot(memory: Memory) -> int:
    """Where the seats whose last card is locked (JM-9) sit in ``memory``: the index of the slot of
    the rule with ``Role.LOCK``, or -1.  The one place the lock is looked for: a variant keeps the
    index of its memory at the deal (``Variant._lock_slot``), and the engine, the state, the Turn
    and a seat's View read the seats there (``locked_in``)."""
    for i, (owner, _) in enumerate(memory):
        if Role.LOCK in owner.roles:
            return i
    return -1


def locked_in(memory: Memory, slot: int | None = None) -> frozenset[int]:
    """The seats whose last card is locked (JM-9): what the rule with ``Role.LOCK`` remembers, read
    at ``slot`` (the variant's ``_lock_slot``; found by ``lock_slot`` when not given)."""
    if slot is None:
        slot = lock_slot(memory)
    if slot < 0:
        return frozenset()
    seats = memory[slot][1]
    return frozenset(cast("tuple[int, ...]", seats)) if seats else frozenset()


def with_locked(memory: Memory, seats: frozenset[int] | set[int]) -> Memory:
    """``memory`` with the locked seats (JM-9) set, in the lock rule's slot (sorted seats)."""
    slot = lock_slot(memory)
    if slot >= 0:
        return remembered(memory, memory[slot][0], tuple(sorted(seats)))
    if seats:
        raise LookupError("seats are locked, but the variant has no rule that locks (Role.LOCK, JM-9)")
    return memory


class Pending(NamedTuple):
    """A draw penalty or skip waiting for its target's answer (C-5).

    ``kind`` is ``"draw"`` or ``"skip"``; ``amount`` is the cards to draw or the
    players to skip; ``rule`` is the rule that started it; ``resume`` is the seat
    that moves once it is settled, when that is not ``next(target)`` (LM-9).
    """

    kind: str
    amount: int
    target: int
    rule: Rule
    resume: int | None = None


class Rule:
    """Base class: a rule does nothing until it overrides a hook."""

    name: ClassVar[str] = "rule"
    rule_id: ClassVar[str] = ""
    #: How a player's turn goes on after drawing: "none", "drawn" (that card) or "any".
    after_draw: ClassVar[str | None] = None
    #: Whether accepting this rule's draw penalty ends the turn (LM-6, MK-4) or not.
    accept_ends_turn: ClassVar[bool] = True
    #: False for a house rule under which the pile is never reshuffled into the stock (C-6).
    reshuffles: ClassVar[bool] = True
    #: What the rule is (see Role): declared, so that nothing has to guess it from the name.
    roles: ClassVar[frozenset[Role]] = frozenset()
    #: For an announcement rule (C-8): the word a player says, unless the variant names its own.
    call: ClassVar[str | None] = None
    #: For an up-card rule: whether the up-card is the dealer's play, effect included (LM-2,
    #: JM-2), and the ranks whose effect it then does not have (JM-2: an Ace).
    counts_as_play: ClassVar[bool] = False
    no_effect: ClassVar[frozenset[Rank]] = frozenset()
    #: For a rule that gives an extra play (MK-8, JM-8): the move that closes it instead of a card.
    closer: ClassVar[Move | None] = None
    #: How the narration tells the cards this rule makes another player draw at once (i18n key).
    penalty_words: ClassVar[str] = "then.draws"
    #: Whether the state keeps a memory slot for this rule (see the module's docstring), and
    #: what the slot holds at the deal.
    remembers: ClassVar[bool] = False
    memory_at_deal: ClassVar[Hashable] = None

    @property
    def pending_kind(self) -> str | None:
        """The kind of the pending effect this rule starts (C-5), said once, by its role: "draw"
        for a ``Role.DRAW_PENALTY``, "skip" for a ``Role.SKIP``; None for a rule that starts none
        (one that can be answered says so with its ``answers`` hook).  A learner's rule may still
        set ``pending_kind = "draw"`` in its class."""
        known = self.__dict__.get("_pending_kind", self)  # the rule itself: not yet asked
        if known is not self:
            return known  # type: ignore[no-any-return]
        kind = None
        if overrides(self, "answers"):
            kind = PENALTY_KINDS.get(next((role for role in self.roles if role in PENALTY_KINDS), None))
        self.__dict__["_pending_kind"] = kind  # a rule's roles and hooks are its class's: asked once
        return kind

    @property
    def summary(self) -> str:
        """The rule in one line: the first line of the class docstring."""
        doc = type(self).__doc__ or self.name
        return doc.strip().splitlines()[0]

    @property
    def response_id(self) -> str:
        """The id of the rule that says how this rule's pending effect may be answered (C-5):
        its own, unless the rulebook has a separate one (LM-8 for the kings)."""
        return self.rule_id

    def cite(self, rule_id: str) -> Rule:
        """This rule, cited by the id it has in a variant's own section of RULES.md
        (the same 8-skip is MK-5 in makao and MR-6 in mau_mau_runde)."""
        self.rule_id = rule_id  # type: ignore[misc]
        return self

    def options(self) -> dict[str, Any]:
        """The settings that distinguish this rule object from another of its class: unless a
        rule says otherwise, what its ``__init__`` stored (its public attributes), so that
        ``DrawN(1) != DrawN(5)`` and ``repr`` shows the difference."""
        return {k: v for k, v in vars(self).items() if not k.startswith("_") and k != "rule_id"}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        return f"{type(self).__name__}({opts})"

    def __eq__(self, other: object) -> bool:
        if self is other:  # the usual case, and cheap: a variant's rules are made once
            return True
        return type(self) is type(other) and self.options() == other.options()

    def __hash__(self) -> int:
        # Rules do not change once made, so the hash is computed once.
        h = self.__dict__.get("_hash")
        if h is None:
            settings = tuple(sorted((k, _hashable(v)) for k, v in self.options().items()))
            h = self.__dict__["_hash"] = hash((type(self), settings))
        return h

    # --- hooks ---------------------------------------------------------------
    def allows(self, card: Card, table: Table) -> bool:
        return False

    def forbids(self, card: Card, table: Table) -> Refusal | str | None:
        return None

    def why_not(self, state: GameState, move: Move) -> Refusal | None:
        return None

    def answers(self, card: Card, pending: Pending) -> bool:
        return False

    def wish_kind(self, card: Card) -> type | None:
        return None

    def affects(self, card: Card) -> bool:
        return False

    def on_play(self, turn: Turn, card: Card) -> None:
        return None

    def on_last_card(self, turn: Turn, card: Card) -> None:
        return None

    def extra_plays(self, state: GameState, card: Card) -> list[Play]:
        return []

    def forces_play(self, state: GameState) -> bool:
        return False

    def on_missing_announcement(self, turn: Turn) -> None:
        return None

    def prepare_upcard(self, deal: Deal) -> None:
        return None

    # --- a rule's memory (remembers = True) -----------------------------------
    def check_memory(self, value: Any, state: GameState) -> str | None:
        """What is wrong with ``value`` as this rule's memory in ``state``, or None."""
        return None

    def describe_memory(self, value: Any, name_of: Callable[[int], str]) -> str | Refusal | None:
        """A sentence telling the table what the rule remembers, or None when there is nothing
        to tell; ``name_of(seat)`` names a seat.  A sentence of the catalogues is returned as data
        (``refuse(key, rule_id, **values)``) and worded above the core, in the table's language
        (``maumau.text.explain.memory_sentence``); a learner's rule may return its own string."""
        return None


def _hashable(value: Any) -> Any:
    """A setting as something hashable: a list or dict a learner stored counts by its repr."""
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


HOOKS = (
    "allows", "forbids", "why_not", "answers", "wish_kind", "on_play", "on_last_card",
    "extra_plays", "forces_play", "on_missing_announcement", "prepare_upcard",
)


def overrides(rule: Rule, hook: str) -> bool:
    """Whether ``rule`` has its own version of ``hook``."""
    return getattr(type(rule), hook) is not getattr(Rule, hook)
