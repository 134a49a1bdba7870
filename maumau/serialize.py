"""States and variants as plain JSON-ready dictionaries (versioned, validated on load)."""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any

from .cards import Card, CardError, Rank, cards, parse_wish
from .rules.base import Pending, Rule
from .state import make_state
from .variants import Variant, variant

__all__ = ["FormatError", "state_to_dict", "state_from_dict", "variant_to_dict", "variant_from_dict"]

STATE_FORMAT = "maumau.state"
FORMAT_VERSION = 1


class FormatError(ValueError):
    """Saved data that is corrupt, of another format or version, or does not fit its variant."""


def _text(cs: tuple[Card, ...]) -> str:
    return " ".join(c.text for c in cs)


def variant_to_dict(v: Variant) -> dict[str, Any]:
    data: dict[str, Any] = {"name": v.name, "options": dict(v.options)}
    changes = []
    for how, what in v.changes:
        if how == "without":
            changes.append({"without": what})
        else:
            cls = type(what)
            changes.append({"with": f"{cls.__module__}:{cls.__qualname__}", "options": what.options()})
    if changes:
        data["changes"] = changes
    return data


def variant_from_dict(data: Any) -> Variant:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise FormatError(f"a variant is an object with a name, not {data!r}")
    try:
        v = variant(data["name"], **dict(data.get("options") or {}))
        for change in data.get("changes") or []:
            if "without" in change:
                v = v.without(change["without"])
            else:
                v = v.with_rules(_load_rule(change["with"], change.get("options") or {}))
    except FormatError:
        raise
    except (ValueError, TypeError, KeyError) as err:
        raise FormatError(f"cannot rebuild the variant: {err}") from None
    return v


def _load_rule(path: str, options: dict[str, Any]) -> Rule:
    module_name, _, qualname = str(path).partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise FormatError(f"the house rule {path} cannot be found: import it before loading") from None
    if not (isinstance(obj, type) and issubclass(obj, Rule)):
        raise FormatError(f"{path} is not a Rule class")
    return obj(**options)


def state_to_dict(state: Any) -> dict[str, Any]:
    p = state.pending
    return {
        "format": STATE_FORMAT,
        "version": FORMAT_VERSION,
        "variant": variant_to_dict(state.variant),
        "hands": [_text(h) for h in state.hands],
        "stock": _text(state.stock),
        "discard": _text(state.discard),
        "to_move": state.to_move,
        "direction": state.direction,
        "wish": None if state.wish is None else str(state.wish),
        "pending": None if p is None else {
            "kind": p.kind, "amount": p.amount, "target": p.target, "rule": p.rule.name,
            "resume": p.resume},
        "phase": state.phase,
        "drawn": None if state.drawn is None else state.drawn.text,
        "runde": None if state.runde is None else [state.runde[0].value, state.runde[1]],
        "locked": sorted(state.locked),
        "active": list(state.active),
        "dealer": state.dealer,
        "seed": state.seed,
        "idle": state.idle,
        "winner": state.winner,
        "over": state.is_over,
        "blocked": state.blocked,
    }


def state_from_dict(data: Any) -> Any:
    """Rebuild a GameState; anything corrupt raises FormatError naming the problem."""
    from .engine import DRAWN, EXTRA, TURN

    if not isinstance(data, dict):
        raise FormatError(f"a saved state is a JSON object, not {type(data).__name__}")
    if data.get("format") != STATE_FORMAT:
        raise FormatError(f"not a maumau state (format {data.get('format')!r})")
    if data.get("version") != FORMAT_VERSION:
        raise FormatError(f"saved state version {data.get('version')!r} is not supported "
                          f"(this maumau reads version {FORMAT_VERSION})")
    try:
        v = variant_from_dict(data["variant"])
        hands = tuple(tuple(sorted(cards(h), key=lambda c: c.index)) for h in data["hands"])
        stock, discard = tuple(cards(data["stock"])), tuple(cards(data["discard"]))
        n = len(hands)
        seats = range(n)
        if not discard:
            raise FormatError("the discard pile is empty: there is no top card")
        _check_conservation(v, hands, stock, discard)
        for key in ("to_move", "dealer"):
            if data[key] not in seats:
                raise FormatError(f"{key} {data[key]!r} is not a seat of {n} players")
        if data["direction"] not in (1, -1):
            raise FormatError(f"direction {data['direction']!r} is not +1 or -1")
        if data["phase"] not in (TURN, EXTRA, DRAWN):
            raise FormatError(f"unknown phase {data['phase']!r}")
        pending = _pending(v, data["pending"], seats)
        active = tuple(bool(a) for a in data["active"])
        if len(active) != n:
            raise FormatError("active does not list every seat")
        runde = data["runde"]
        winner = data["winner"]
        if winner is not None and winner not in seats:
            raise FormatError(f"winner {winner!r} is not a seat")
        state = make_state(
            v, hands, stock, discard, data["to_move"], data["direction"],
            None if data["wish"] is None else parse_wish(data["wish"]), pending, data["phase"],
            None if data["drawn"] is None else Card.parse(data["drawn"]),
            None if runde is None else (Rank.parse(runde[0]), int(runde[1])),
            frozenset(int(s) for s in data["locked"]), active, data["dealer"], int(data["seed"]),
            int(data["idle"]), winner, bool(data["over"]), bool(data["blocked"]))
    except FormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, CardError) as err:
        detail = f"missing field {err}" if isinstance(err, KeyError) else str(err)
        raise FormatError(f"corrupt saved state: {detail}") from None
    return state


def _pending(v: Variant, data: Any, seats: range) -> Pending | None:
    if data is None:
        return None
    rule = v.rule(data["rule"])
    if data["kind"] not in ("draw", "skip") or int(data["amount"]) < 1 or data["target"] not in seats:
        raise FormatError(f"corrupt pending effect {data!r}")
    resume = data.get("resume")
    if resume is not None and resume not in seats:
        raise FormatError(f"corrupt pending effect {data!r}")
    return Pending(data["kind"], int(data["amount"]), data["target"], rule, resume)


def _check_conservation(v: Variant, hands: tuple, stock: tuple, discard: tuple) -> None:
    used = Counter(c for h in hands for c in h) + Counter(stock) + Counter(discard)
    deck = Counter(v.deck)
    extra = used - deck
    if extra:
        card = next(iter(extra))
        raise FormatError(f"{card.text} appears more often than the {v.name} deck holds it")
