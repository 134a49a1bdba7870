"""What a connection may see, as JSON: a seat sees ``maumau.players.View`` of its seat (its own
hand, the sizes of the others, the pile, public events), the projector sees no hand at all, and
only the teacher's projector sees every hand.  The server sends nothing else about a hand: never
another hand, the order of the stock, or a seed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.cards import Card, Rank, Suit
from ..core.rules.base import Rule
from ..core.state import GameState
from ..play.serialize import encode
from ..players.view import View
from ..text.i18n import describe_pending, t, use_language
from .messages import move_to_wire

__all__ = ["seat_view", "projector_view", "event_to_json"]


def event_to_json(event: Any) -> dict[str, Any]:
    """A public event (``maumau.core.events``: who drew how many, who was skipped, ...) as JSON:
    its kind, its fields, rules by name."""
    data: dict[str, Any] = {"event": type(event).__name__}
    for name, value in event._asdict().items():
        if isinstance(value, Rule):
            value = value.name
        elif isinstance(value, (Suit, Rank)):
            value = value.value
        elif isinstance(value, Card):
            value = value.text
        data[name] = value
    return data


#: The public part of the latest states, by (state, language, names): every seat and the projector
#: of a table get the same one (a state is a value that never changes; it is kept here with it).
_PUBLIC: dict[tuple[int, str, tuple[str, ...]], tuple[GameState, dict[str, Any]]] = {}


def _public(state: GameState, lang: str, name_of: Callable[[int], str] | None) -> dict[str, Any]:
    """What everyone at the table sees of ``state`` (a fresh dict: the caller adds to it)."""
    names = tuple(name_of(i) for i in range(len(state.hands))) if name_of is not None else ()
    key = (id(state), lang, names)
    found = _PUBLIC.get(key)
    if found is not None and found[0] is state:
        return dict(found[1])
    data = _public_of(state, lang, name_of)
    if len(_PUBLIC) >= 1024:
        for old in list(_PUBLIC)[:256]:
            _PUBLIC.pop(old, None)  # (another server in this process may have dropped it)
    _PUBLIC[key] = (state, data)
    return dict(data)


def _public_of(state: GameState, lang: str, name_of: Callable[[int], str] | None) -> dict[str, Any]:
    pending = state.pending
    with use_language(lang):
        name = name_of or (lambda seat: t("seat.label", seat=seat))
        told = [text for rule, value in state.memory
                if (text := rule.describe_memory(value, name)) is not None]
        pending_text = None if pending is None else describe_pending(pending)
    return {
        "hand_sizes": [len(h) for h in state.hands],
        "stock_size": len(state.stock),
        "discard": [c.text for c in state.discard],
        "top": state.top.text,
        "to_move": state.to_move,
        "direction": state.direction,
        "wish": None if state.wish is None else str(state.wish),
        "pending": None if pending is None else {
            "kind": pending.kind, "amount": pending.amount, "target": pending.target,
            "rule": pending.rule.name, "text": pending_text},
        "phase": state.phase,
        "memory": [[rule.name, encode(value)] for rule, value in state.memory],
        "memory_text": told,
        "events": [event_to_json(e) for e in state.events],
        "locked": sorted(state.locked),
        "active": list(state.active),
        "dealer": state.dealer,
        "over": state.is_over,
        "winner": state.winner,
    }


def seat_view(state: GameState, seat: int, lang: str = "en", name_of: Callable[[int], str] | None = None
              ) -> dict[str, Any]:
    """What hand seat ``seat`` sees (``View``): its hand, the card it just drew, its legal moves
    when it is to move, and the public table."""
    view = View(state, seat)
    data = _public(state, lang, name_of)
    data.update(
        seat=seat,
        hand=[c.text for c in view.hand],
        drawn=None if view.drawn is None else view.drawn.text,
        legal=[move_to_wire(m) for m in view.legal_moves] if not state.is_over else [],
    )
    return data


def projector_view(state: GameState, lang: str = "en", open_hands: bool = False,
                   name_of: Callable[[int], str] | None = None) -> dict[str, Any]:
    """The table for the projector: hands hidden, unless ``open_hands`` (the teacher's view)."""
    data = _public(state, lang, name_of)
    if open_hands:
        data["hands"] = [[c.text for c in h] for h in state.hands]
    return data
