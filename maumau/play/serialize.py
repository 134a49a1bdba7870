"""States and variants as plain JSON-ready dictionaries (versioned, validated on load)."""

from __future__ import annotations

import sys
from typing import Any

from ..core.cards import Card, Rank, Suit, cards, parse_wish
from ..core.rules.base import Pending, Role, Rule
from ..core.state import FIELDS, make_state
from ..core.validate import InvalidState, check_state, is_whole, show
from ..core.variants import Variant, variant

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


_VARIANT_FIELDS = ("name", "options", "changes")
#: The largest number a variant option may hold in a saved game (a corrupt file could ask for
#: a deck of a billion jokers).
MAX_OPTION = 10_000


def variant_from_dict(data: Any) -> Variant:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise FormatError(f"a variant is an object with a name, not {show(data)}")
    for key in data:
        if key not in _VARIANT_FIELDS:
            raise FormatError(f"corrupt saved variant: unknown field {show(key)}")
    options = data.get("options") or {}
    changes = data.get("changes") or []
    if not isinstance(options, dict):
        raise FormatError(f"the variant's options are an object, not {show(options)}")
    if not isinstance(changes, list):
        raise FormatError(f"the variant's changes are a list, not {show(changes)}")
    try:
        defaults = variant(data["name"]).options
        for key, value in options.items():
            _check_option(data["name"], key, value, defaults)
        v = variant(data["name"], **options)
        for change in changes:
            if isinstance(change, dict) and set(change) == {"without"} \
                    and isinstance(change["without"], str):
                v = v.without(change["without"])
            elif isinstance(change, dict) and set(change) <= {"with", "options"} \
                    and isinstance(change.get("with"), str) \
                    and isinstance(change.get("options", {}), dict):
                v = v.with_rules(_load_rule(change["with"], change.get("options") or {}))
            else:
                raise FormatError(f"a change of the variant is {{'without': rule name}} or "
                                  f"{{'with': 'module:Class', 'options': {{...}}}}, not {show(change)}")
    except FormatError:
        raise
    except (ValueError, TypeError, KeyError) as err:
        raise FormatError(f"cannot rebuild the variant: {err}") from None
    return v


def _check_option(name: str, key: Any, value: Any, defaults: dict[str, Any]) -> None:
    """An option of a saved variant has the type of its default: a whole number (0 to
    MAX_OPTION) or true/false."""
    if key not in defaults:
        raise FormatError(f"cannot rebuild the variant: {name} has no such option: {show(key)}")
    default = defaults[key]
    if type(default) is bool:
        if type(value) is not bool:
            raise FormatError(f"the {name} option {key} is true or false, not {show(value)}")
    elif not is_whole(value) or not 0 <= value <= MAX_OPTION:
        raise FormatError(f"the {name} option {key} is a whole number 0-{MAX_OPTION}, "
                          f"not {show(value)}")


def _load_rule(path: str, options: dict[str, Any]) -> Rule:
    """The house rule class at ``module:Class``, from a module already imported (loading a
    file never imports code)."""
    module_name, _, qualname = path.partition(":")
    obj: Any = sys.modules.get(module_name)
    try:
        if obj is None:
            raise AttributeError(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except AttributeError:
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
        **_memory_to_dict(state.memory),
        "locked": sorted(state.locked),
        "active": list(state.active),
        "dealer": state.dealer,
        "seed": state.seed,
        "idle": state.idle,
        "winner": state.winner,
        "over": state.is_over,
        "blocked": state.blocked,
    }


#: The state's fields (``maumau.core.state.FIELDS``) saved under a name of their own: all but what
#: the rules remember, saved as "runde", "locked" and (optional) "memory", and the events, what led
#: to the state (no part of what it is).
_SAVED_AS_IS = tuple(field for field in FIELDS if field not in ("memory", "events"))
_STATE_FIELDS = ("format", "version", *_SAVED_AS_IS, "runde", "locked")
_OPTIONAL_FIELDS = ("memory",)
_PENDING_FIELDS = ("kind", "amount", "target", "rule", "resume")


def state_from_dict(data: Any) -> Any:
    """Rebuild a GameState; anything corrupt, or a state that no hand of its variant can be in
    (``maumau.core.validate``), raises FormatError naming the problem."""
    if not isinstance(data, dict):
        raise FormatError(f"a saved state is a JSON object, not {type(data).__name__}")
    if data.get("format") != STATE_FORMAT:
        raise FormatError(f"not a maumau state (format {show(data.get('format'))})")
    if data.get("version") != FORMAT_VERSION or not is_whole(data.get("version")):
        raise FormatError(f"saved state version {show(data.get('version'))} is not supported "
                          f"(this maumau reads version {FORMAT_VERSION})")
    _same_fields("the saved state", data, _STATE_FIELDS, _OPTIONAL_FIELDS)
    try:
        v = variant_from_dict(data["variant"])
        hands_text = data["hands"]
        if not isinstance(hands_text, list):
            raise InvalidState(f"hands must be a list of hands, one text of cards per seat, "
                              f"not {show(hands_text)}")
        hands = tuple(tuple(sorted(_cards(f"hands[{i}]", h), key=lambda c: c.index))
                      for i, h in enumerate(hands_text))
        stock, discard = _cards("stock", data["stock"]), _cards("discard", data["discard"])
        wish = data["wish"]
        if wish is not None and not isinstance(wish, str):
            raise InvalidState(f"wish must be a suit or a rank as text, or null, not {show(wish)}")
        drawn = data["drawn"]
        if drawn is not None and not isinstance(drawn, str):
            raise InvalidState(f"drawn must be a card as text, or null, not {show(drawn)}")
        runde = data["runde"]
        if runde is not None and not (isinstance(runde, list) and len(runde) == 2
                                      and isinstance(runde[0], str)):
            raise InvalidState(f"runde must be [rank, opener] or null, not {show(runde)}")
        locked = data["locked"]
        if not (isinstance(locked, list) and not any(isinstance(x, (list, dict)) for x in locked)
                and len(set(locked)) == len(locked)):
            raise InvalidState(f"locked must be a list of different seat numbers, not {show(locked)}")
        active = data["active"]
        if not isinstance(active, list):
            raise InvalidState(f"active must list true or false for each seat, not {show(active)}")
        state = make_state(
            variant=v, hands=hands, stock=stock, discard=discard, to_move=data["to_move"],
            direction=data["direction"], wish=None if wish is None else parse_wish(wish),
            pending=_pending(v, data["pending"]), phase=data["phase"],
            drawn=None if drawn is None else Card.parse(drawn),
            memory=v.lock_memory(_memory_from_dict(v, runde, data.get("memory", {})), locked),
            active=tuple(active), dealer=data["dealer"], seed=data["seed"],
            idle=data["idle"], winner=data["winner"], over=data["over"], blocked=data["blocked"])
        check_state(state)
    except FormatError:
        raise
    except (ValueError, TypeError) as err:  # InvalidState, CardError, VariantError
        raise FormatError(f"corrupt saved state: {err}") from None
    return state


def _same_fields(what: str, data: dict[str, Any], fields: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    for key in fields:
        if key not in data:
            raise FormatError(f"corrupt saved state: missing field {key!r} in {what}")
    for key in data:
        if key not in fields and key not in optional:
            raise FormatError(f"corrupt saved state: unknown field {show(key)} in {what}")


def _cards(name: str, text: Any) -> tuple[Card, ...]:
    if not isinstance(text, str):
        raise InvalidState(f"{name} must be a text of cards like '7H QS', not {show(text)}")
    return tuple(cards(text))


def _pending(v: Variant, data: Any) -> Pending | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise InvalidState(f"pending must be an object or null, not {show(data)}")
    if "resume" not in data:  # a save made before resume (LM-9) was written
        data = {**data, "resume": None}
    _same_fields("the pending effect", data, _PENDING_FIELDS)
    name = data["rule"]
    if not isinstance(name, str):
        raise InvalidState(f"the pending effect's rule must be a rule name, not {show(name)}")
    return Pending(data["kind"], data["amount"], data["target"], v.rule(name), data["resume"])


# --- what the rules remember (Rule.remembers) --------------------------------------------------
# The Runde keeps its field of version 1 ("runde": [rank, opener]); the slots of any other rule
# that remembers are saved under "memory", by rule name, in tagged JSON: a tuple is a list, a
# card {"card": "QH"}, a suit {"suit": "H"}, a rank {"rank": "Q"}.

def _memory_to_dict(memory: Any) -> dict[str, Any]:
    # the Runde and the locked seats are saved apart ("runde", "locked")
    others = {rule.name: memory_to_json(value) for rule, value in memory
              if Role.RUNDE not in rule.roles and Role.LOCK not in rule.roles}
    return {"memory": others} if others else {}


def memory_to_json(value: Any) -> Any:
    """What a rule remembers, as JSON (tagged: see above)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return [memory_to_json(v) for v in value]
    if isinstance(value, Card):
        return {"card": value.text}
    if isinstance(value, Suit):
        return {"suit": value.value}
    if isinstance(value, Rank):
        return {"rank": value.value}
    raise FormatError(f"a rule remembers {show(value)}, which a saved game cannot hold: use None, "
                      "whole numbers, text, cards, suits, ranks and tuples of them")


_TAGS: dict[str, Any] = {"card": Card.parse, "suit": Suit.parse, "rank": Rank.parse}


def memory_from_json(data: Any, depth: int = 0) -> Any:
    """The inverse of ``memory_to_json``; InvalidState for anything else."""
    if depth > 20:
        raise InvalidState("a remembered value is nested too deep")
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return tuple(memory_from_json(v, depth + 1) for v in data)
    if isinstance(data, dict) and len(data) == 1:
        [(tag, text)] = data.items()
        if tag in _TAGS and isinstance(text, str):
            return _TAGS[tag](text)
    raise InvalidState(f"a remembered value is null, a number, a text, a list or "
                       f"{{\"card\"|\"suit\"|\"rank\": text}}, not {show(data)}")


def _memory_from_dict(v: Variant, runde: Any, saved: Any) -> Any:
    if not isinstance(saved, dict):
        raise InvalidState(f"memory must map rule names to what they remember, not {show(saved)}")
    memory = v.runde_memory(None if runde is None else (Rank.parse(runde[0]), runde[1]))
    if saved:
        memory = v.memory_with({**{rule.name: held for rule, held in memory},
                                **{name: memory_from_json(value) for name, value in saved.items()}})
    return memory

