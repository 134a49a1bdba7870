"""What a connection may see, on the wire: a seat sees ``maumau.players.View`` of its seat (its own
hand, the sizes of the others, the pile, public events) and its ``SeatModel`` (what it may do, with
the sentences, ``maumau.play.seat_model``); the projector sees no hand at all, and only the
teacher's projector sees every hand.  The server sends nothing else about a hand: never another
hand, the order of the stock, or a seed.  ``view_from_wire`` and ``model_from_wire`` read them back
(``mm.join``'s seat): a real ``View``, never a made-up GameState."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..core import events as _events
from ..core.cards import Card, Rank, Suit, parse_wish
from ..core.moves import Play
from ..core.rules.base import Pending, Rule
from ..core.state import GameState
from ..core.variants import Variant
from ..play.seat_model import Choice, HandCard, SeatModel, name_of_card, seat_model
from ..play.serialize import memory_from_json, memory_to_json
from ..players.view import Moves, View
from ..text.explain import memory_sentence
from ..text.i18n import check_language, describe_pending, t, use_language, wish_name
from .messages import (
    ProjectorView,
    PublicView,
    SeatView,
    WireModel,
    WirePending,
    move_from_wire,
    move_to_wire,
)

__all__ = ["hand_seen", "seat_view", "projector_view", "event_to_json", "model_to_wire", "model_from_wire",
           "view_from_wire", "card_names"]


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


#: The state's fields (``maumau.core.state.FIELDS``) the wire does not carry under their own name,
#: and why; every other field is sent as it is to every connection (``_public_of``).
#: tests/core/test_state_fields.py checks that the two together are every field, so a field added to
#: the state is sent, or kept back here on purpose.
HIDDEN: dict[str, str] = {
    "variant": "named once in the frame ('variant'); the seat's client knows its rules",
    "hands": "everyone gets the sizes ('hand_sizes'), a seat its own hand ('hand'), only the teacher's "
             "projector every hand ('hands')",
    "stock": "only its size ('stock_size'): its order would tell every card to come",
    "seed": "it would tell the order of the stock",
    "drawn": "only to its seat ('drawn' in seat_view): the others must not see which card it drew",
}

#: The public part of the latest states, by (state, language, names): every seat and the projector
#: of a table get the same one (a state is a value that never changes; it is kept here with it).
_PUBLIC: dict[tuple[int, str, tuple[str, ...]], tuple[GameState, PublicView]] = {}


def _public(state: GameState, lang: str, name_of: Callable[[int], str] | None) -> PublicView:
    """What everyone at the table sees of ``state`` (a fresh dict: the caller adds to it)."""
    names = tuple(name_of(i) for i in range(len(state.hands))) if name_of is not None else ()
    key = (id(state), lang, names)
    found = _PUBLIC.get(key)
    if found is not None and found[0] is state:
        return found[1].copy()
    data = _public_of(state, lang, name_of)
    if len(_PUBLIC) >= 1024:
        for old in list(_PUBLIC)[:256]:
            _PUBLIC.pop(old, None)  # (another server in this process may have dropped it)
    _PUBLIC[key] = (state, data)
    return data.copy()


def _public_of(state: GameState, lang: str, name_of: Callable[[int], str] | None) -> PublicView:
    pending = state.pending
    with use_language(lang):
        name = name_of or (lambda seat: t("seat.label", seat=seat))
        told = [text for rule, value in state.memory
                if (text := memory_sentence(rule, value, name)) is not None]
        pending_text = None if pending is None else describe_pending(pending)
    wire_pending: WirePending | None = None if pending is None else {
        "kind": pending.kind, "amount": pending.amount, "target": pending.target,
        "resume": pending.resume, "rule": pending.rule.name, "text": pending_text}
    return {
        "hand_sizes": [len(h) for h in state.hands],
        "stock_size": state.stock_size,
        "discard": [c.text for c in state.discard],
        "top": state.top.text,
        "to_move": state.to_move,
        "direction": state.direction,
        "wish": None if state.wish is None else str(state.wish),
        "wish_name": None if state.wish is None else wish_name(state.wish, lang),
        "pending": wire_pending,
        "phase": state.phase,
        "memory": [[rule.name, memory_to_json(value)] for rule, value in state.memory],
        "memory_text": told,
        "events": [event_to_json(e) for e in state.events],
        "locked": sorted(state.locked),
        "active": list(state.active),
        "dealer": state.dealer,
        "idle": state.idle,
        "over": state.is_over,
        "winner": state.winner,
        "blocked": state.blocked,
    }


def seat_view(state: GameState, seat: int, lang: str | None = None, name_of: Callable[[int], str] | None = None
              ) -> SeatView:
    """What hand seat ``seat`` sees (``View``): its hand, the card it just drew, its legal moves
    when it is to move, and the public table (``lang`` None: the course's language)."""
    lang = check_language(lang)
    view = View(state, seat)
    return {
        **_public(state, lang, name_of),
        "seat": seat,
        "hand": [c.text for c in view.hand],
        "drawn": None if view.drawn is None else view.drawn.text,
        "legal": [move_to_wire(m) for m in view.legal_moves] if not state.is_over else [],
    }


def projector_view(state: GameState, lang: str | None = None, open_hands: bool = False,
                   name_of: Callable[[int], str] | None = None) -> ProjectorView:
    """The table for the projector: hands hidden, unless ``open_hands`` (the teacher's view);
    ``lang`` None: the course's language."""
    lang = check_language(lang)
    data = cast(ProjectorView, _public(state, lang, name_of))  # the public view, and no hand yet
    if open_hands:
        data["hands"] = [[c.text for c in h] for h in state.hands]
    return data


def hand_seen(state: GameState, hand_seat: int | None, lang: str, open_hands: bool,
              name_of: Callable[[int], str]) -> tuple[SeatView | ProjectorView, WireModel | None, dict[str, str]]:
    """What one connection sees of the hand: a seat (``hand_seat``) its view and its seat model,
    the projector (None) the projector's view (every hand if ``open_hands``: the teacher's); and the
    names of the cards it shows, for a screen reader."""
    if hand_seat is None:
        shown = projector_view(state, lang, open_hands, name_of)
        cards = [*shown["discard"][-3:], *(c for hand in shown.get("hands", ()) for c in hand)]
        return shown, None, card_names(cards, lang)
    view = seat_view(state, hand_seat, lang, name_of)
    model = model_to_wire(seat_model(state, hand_seat, lang, name_of))
    return view, model, card_names([*view["hand"], *view["discard"][-3:]], lang)


def card_names(cards: list[str], lang: str) -> dict[str, str]:
    """The names of ``cards`` (as the wire writes them) in ``lang``, for a screen reader."""
    return {text: name_of_card(Card.parse(text), lang) for text in dict.fromkeys(cards)}


def model_to_wire(model: SeatModel) -> WireModel:
    """A seat model as the server sends it (its view goes alongside, as ``seat_view``)."""
    return {
        "my_turn": model.my_turn,
        "cards": [{"card": c.card.text, "name": c.name, "drawn": c.drawn, "why": c.why,
                   "choices": [{"move": move_to_wire(ch.move), "label": ch.label} for ch in c.choices]}
                  for c in model.cards],
        "draw": model.draw is not None, "pass": model.pass_ is not None,
        "draw_label": model.draw_label, "pass_label": model.pass_label, "status": model.status,
        "draw_why": model.draw_why, "pass_why": model.pass_why,
    }


def model_from_wire(view: View, lang: str, data: WireModel) -> SeatModel:
    """The seat model the server sent for ``view`` (``mm.join``'s seat draws and presents it)."""
    from ..core.moves import Draw, Pass

    cards = tuple(HandCard(Card.parse(c["card"]), c["name"], c["drawn"],
                           tuple(Choice(_play(ch["move"]), ch["label"]) for ch in c["choices"]), c["why"])
                  for c in data["cards"])
    return SeatModel(view, lang, data["my_turn"], cards, Draw() if data["draw"] else None,
                     Pass() if data["pass"] else None, data["draw_label"], data["pass_label"], data["status"],
                     data.get("draw_why"), data.get("pass_why"))


def _play(data: Any) -> Play:
    move = move_from_wire(data)
    if not isinstance(move, Play):
        raise ValueError(f"a choice is a play, not {move}")
    return move


# --- a View from what the server sent -----------------------------------------------------------------
def _rule(variant: Variant, name: str | None) -> Rule | None:
    return None if name is None else next((r for r in variant.rules if r.name == name), None)


def _event(variant: Variant, data: dict[str, Any]) -> Any:
    cls = getattr(_events, str(data.get("event")), None)
    if cls is None:
        return None
    values = {}
    for name in cls._fields:
        value = data.get(name)
        if name in ("rule", "cancelled"):
            value = _rule(variant, value)
        elif name == "rank" and value is not None:
            value = Rank.parse(value)
        elif name == "wish" and value is not None:
            value = parse_wish(value)
        values[name] = value
    return cls(**values)


def view_from_wire(variant: Variant, data: SeatView) -> View:
    """The ``View`` a seat's ``table`` frame describes (a computer player of the learner's own
    can ``choose(seat.view)`` as at any other table)."""
    view = View.__new__(View)
    pending = data["pending"]
    memory = tuple((rule, memory_from_json(value)) for name, value in data["memory"]
                   if (rule := _rule(variant, name)) is not None)
    rule_of_pending = None if pending is None else _rule(variant, pending["rule"])
    fields = {
        "variant": variant, "seat": data["seat"], "hand": tuple(Card.parse(c) for c in data["hand"]),
        "hand_sizes": tuple(data["hand_sizes"]), "stock_size": data["stock_size"],
        "discard": tuple(Card.parse(c) for c in data["discard"]), "to_move": data["to_move"],
        "direction": data["direction"], "wish": None if data["wish"] is None else parse_wish(data["wish"]),
        "pending": None if pending is None or rule_of_pending is None
        else Pending(pending["kind"], pending["amount"], pending["target"], rule_of_pending,
                     resume=pending.get("resume")),
        "phase": data["phase"], "drawn": None if data["drawn"] is None else Card.parse(data["drawn"]),
        "memory": memory, "locked": frozenset(data["locked"]), "active": tuple(data["active"]),
        "dealer": data["dealer"], "idle": data.get("idle", 0),
        "events": tuple(e for e in (_event(variant, d) for d in data["events"]) if e is not None),
        "legal_moves": Moves(move_from_wire(m) for m in data["legal"]),
    }
    for name, value in fields.items():
        object.__setattr__(view, name, value)
    return view
