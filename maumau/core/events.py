"""What a move set off: typed records that the turn machinery emits, each naming its rule.

A rule never writes these by hand.  It calls the ``Turn`` API (``skip``, ``reverse``, ``draw``,
``set_pending``, ``play_again``, ``lock``, ``cancel``) and the turn records what happened,
with the rule whose hook was running as ``rule``; so a learner's rule shows up in the
narration, in ``simulate``'s statistics, in the phase graphs and in the widgets' log exactly
as the shipped rule it replaces.  ``rule`` is None for what the core rules do (C-4: a plain
draw, C-6: a reshuffle, C-7: a blocked hand).

``GameState.events`` holds the records of the move that led to the state (of the deal, for
a dealt state), in the order they happened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, TypeVar, Union

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Rank, Suit
    from .rules.base import Rule

__all__ = [
    "Event", "Drew", "PenaltyDrawn", "Reshuffled", "EffectPending", "Skipped", "Reversed",
    "PlaysAgain", "Locked", "Cancelled", "NoMau", "Blocked", "RundeOpened", "RundeEnded", "Left",
    "Wished", "EVENT_TYPES", "drew_cards",
]


_E = TypeVar("_E")


def _event(cls: type[_E]) -> type[_E]:
    """An event is a named tuple (cheap to make: the engine makes them on its hot path) that
    equals only an event of its own kind: ``Drew(0, 1, 1) != PenaltyDrawn(0, 1, 1)``."""

    def __eq__(self: tuple[object, ...], other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self: tuple[object, ...], other: object) -> bool:
        return not __eq__(self, other)

    cls.__eq__ = __eq__  # type: ignore[method-assign,assignment]
    cls.__ne__ = __ne__  # type: ignore[method-assign,assignment]
    cls.__hash__ = tuple.__hash__  # type: ignore[method-assign,assignment]
    return cls


@_event
class Drew(NamedTuple):
    """``seat`` drew ``got`` of the ``asked`` cards of its own accord (C-4; fewer: C-7)."""

    seat: int
    got: int
    asked: int
    rule: Rule | None = None


@_event
class PenaltyDrawn(NamedTuple):
    """``seat`` took ``got`` of ``asked`` penalty cards that ``rule`` dealt (C-5, C-8, MK-10, JM-4)."""

    seat: int
    got: int
    asked: int
    rule: Rule | None = None


@_event
class Reshuffled(NamedTuple):
    """The pile under the top card, ``cards`` of them, became the stock (C-6)."""

    cards: int
    rule: Rule | None = None


@_event
class EffectPending(NamedTuple):
    """``rule`` started a draw penalty or skip (``kind``) of ``amount`` that ``target`` must answer (C-5)."""

    kind: str
    amount: int
    target: int
    rule: Rule | None = None


@_event
class Skipped(NamedTuple):
    """``players`` players from ``seat`` on lose their turn (MK-5, MR-6, or an accepted skip)."""

    seat: int
    players: int
    rule: Rule | None = None


@_event
class Reversed(NamedTuple):
    """Play goes the other way round from now on (MK-6)."""

    rule: Rule | None = None


@_event
class PlaysAgain(NamedTuple):
    """``seat`` continues at once with an extra play (MK-8, JM-8)."""

    seat: int
    rule: Rule | None = None


@_event
class Locked(NamedTuple):
    """``seat``'s last card may not be played until they receive a card (JM-9)."""

    seat: int
    rule: Rule | None = None


@_event
class Cancelled(NamedTuple):
    """``rule`` cancelled a pending penalty of ``amount`` that ``cancelled`` had started (LM-12)."""

    amount: int
    cancelled: Rule
    rule: Rule | None = None


@_event
class NoMau(NamedTuple):
    """``seat`` left one card without announcing it; ``rule`` is the announcement rule (C-8)."""

    seat: int
    rule: Rule | None = None


@_event
class Blocked(NamedTuple):
    """Nobody can play or draw: the hand ends without a winner (C-7)."""

    rule: Rule | None = None


@_event
class RundeOpened(NamedTuple):
    """``seat`` opened a Runde in ``rank`` (MR-7)."""

    seat: int
    rank: Rank
    rule: Rule | None = None


@_event
class RundeEnded(NamedTuple):
    """The opener of the Runde cannot follow it any more: it ends (MR-12)."""

    seat: int
    rule: Rule | None = None


@_event
class Left(NamedTuple):
    """``seat`` left the table mid-hand (MK-14)."""

    seat: int
    rule: Rule | None = None


@_event
class Wished(NamedTuple):
    """The card just played named ``wish``, as ``rule`` lets it (LM-4, MK-7, JM-4)."""

    wish: Suit | Rank
    rule: Rule | None = None


#: Any of the records above.
Event = Union[Drew, PenaltyDrawn, Reshuffled, EffectPending, Skipped, Reversed, PlaysAgain, Locked,  # noqa: UP007
              Cancelled, NoMau, Blocked, RundeOpened, RundeEnded, Left, Wished]
EVENT_TYPES: tuple[type, ...] = Event.__args__  # type: ignore[attr-defined]


def drew_cards(events: tuple[Event, ...] | list[Event]) -> bool:
    """Whether a card was drawn by these events (of one's own accord or as a penalty)."""
    return any((type(e) is Drew or type(e) is PenaltyDrawn) and e.got for e in events)
