"""The state's fields are declared once, in ``maumau.core.state.FIELDS``; what must repeat them
(Cython's ``state.pxd``, ``make_state``, the slots, the type checker's block, the read-only
attributes, the value a state is compared by, the next state a Turn leads to, the engine's
positional fast paths, the saved form and its round trip, a seat's View, the class table's wire and
frames) is checked against that declaration here, so a field added in one place and forgotten in
another fails at once."""

from __future__ import annotations

import ast
import inspect
import random
import re
import typing
from pathlib import Path

import maumau as mm
from maumau.classroom import frames, views
from maumau.classroom.messages import TableFrame
from maumau.classroom.spec import TableSpec
from maumau.classroom.table import ClassTable
from maumau.core.state import FIELDS, GameState, make_state
from maumau.core.turn import cards_of
from maumau.play import serialize
from maumau.players import view

CORE = Path(mm.core.__file__).resolve().parent  # the sources (a compiled state sits in _built/)
#: What a state computes on demand beside its fields.
COMPUTED = ("_legal", "_key", "_hash", "_held")
#: The fields a seat does not see (a View shows sizes, not the cards; the seed would tell the stock).
HIDDEN = {"hands", "stock", "seed", "winner", "over", "blocked"}
#: Public names that differ from their field's.
PUBLIC = {"over": "is_over"}
#: Fields the state keeps in another form than it shows: the cards as the bytes of their indices.
KEPT = {"hands": lambda hands: tuple(cards_of(hand) for hand in hands), "stock": cards_of, "discard": cards_of}


def _tree(name: str) -> ast.Module:
    return ast.parse((CORE / name).read_text(encoding="utf-8"))


def _function(tree: ast.AST, name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def test_make_state_takes_the_fields_in_their_order():
    if not mm.compiled:  # a compiled function has no signature to read: its source is read below
        assert tuple(inspect.signature(make_state).parameters) == FIELDS
    source = _function(_tree("state.py"), "make_state")
    assert tuple(a.arg for a in source.args.args) == FIELDS


def test_the_pxd_declares_exactly_the_fields():
    text = (CORE / "state.pxd").read_text(encoding="utf-8")
    body = text[text.index("cdef class GameState"):text.index("cpdef Py_ssize_t next_seat")]
    declared = {name.strip() for line in re.findall(r"cdef public object (.*)", body) for name in line.split(",")}
    assert declared == {"_" + f for f in FIELDS} | set(COMPUTED)
    signature = re.search(r"cpdef GameState make_state\((.*?)\)", text, re.S)
    assert signature is not None
    params = tuple(p.strip().rstrip("=*") for p in signature.group(1).split(","))
    assert params == FIELDS


def test_the_slots_and_the_type_checkers_block_are_the_fields():
    assert GameState.__slots__[:len(FIELDS)] == tuple("_" + f for f in FIELDS)
    cls = next(n for n in _tree("state.py").body if isinstance(n, ast.ClassDef) and n.name == "GameState")
    block = next(n for n in cls.body if isinstance(n, ast.If))
    annotated = [n.target.id for n in block.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
    assert annotated == ["_" + f for f in FIELDS] + list(COMPUTED)


def test_every_field_is_read_by_a_public_attribute():
    s = mm.deal("joker_mau_mau", players=3, seed=2)
    for field in FIELDS:
        kept = getattr(s, "_" + field)
        assert getattr(s, PUBLIC.get(field, field)) == KEPT.get(field, lambda value: value)(kept), field


def test_a_states_value_names_every_field_but_its_events():
    read = {n.attr[1:] for n in ast.walk(_function(_tree("state.py"), "_value"))
            if isinstance(n, ast.Attribute) and n.attr.startswith("_") and n.attr[1:] in FIELDS}
    assert read == set(FIELDS) - {"events"}  # what led to a state is no part of what it is


def test_the_turn_and_the_fast_paths_make_states_of_every_field():
    engine = _tree("state.py")
    for maker in ("make_state", "_new_state"):  # the loaders' (hands of cards) and the engine's (bytes)
        params = tuple(a.arg for a in _function(engine, maker).args.args)
        assert params == FIELDS, maker
    positional = [n for n in ast.walk(engine) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "_new_state"]
    callers = {f.name for f in ast.walk(engine) if isinstance(f, ast.FunctionDef)
               and any(n in positional for n in ast.walk(f))}
    assert {"make_state", "next_state", "_plain_play", "_plain_draw"} <= callers
    assert positional and all(len(n.args) == len(FIELDS) and not n.keywords for n in positional)


def test_the_saved_form_and_a_seats_view_cover_the_fields():
    saved = set(serialize._STATE_FIELDS)
    assert set(FIELDS) - {"memory", "events"} <= saved  # the memory is saved as runde, locked, memory
    assert set(FIELDS) - HIDDEN <= set(view._FIELDS)
    assert not (HIDDEN - {"winner", "over", "blocked"}) & set(view._FIELDS)


# --- the class table's projections (maumau.classroom.views, frames) ------------------------------------------
def _passed() -> GameState:
    """A hand going on after a turn without play or card (C-7: the stock is empty, idle is 1)."""
    state = mm.position("mau_mau_runde", hands=["8S KD", "9D 9C"], top="7H", stock=[])
    after = state.apply(mm.Draw())
    assert after.idle == 1 and not after.is_over
    return after


def test_the_class_tables_wire_sends_every_field_or_says_why_it_keeps_it_back():
    """A field added to the state is on the wire under its name, or in ``views.HIDDEN`` with why not."""
    assert set(views.HIDDEN) <= set(FIELDS)
    state = _passed()
    public = set(FIELDS) - set(views.HIDDEN)
    projector, seat = views.projector_view(state), views.seat_view(state, 0)
    assert public <= set(projector) and public | {"drawn", "hand"} <= set(seat)
    for data in (projector, seat):
        assert not {"stock", "seed", "hands", "variant"} & set(data)  # kept back, under no name
        assert all(data[field] == getattr(state, PUBLIC.get(field, field)) for field in ("to_move", "idle", "over"))
    assert "drawn" not in projector and "hands" in views.projector_view(state, open_hands=True)


def test_a_seats_view_comes_back_whole_from_the_wire():
    """Every field of a seat's View is read back (``view_from_wire``): idle too, which the wire once dropped."""
    function = next(n for n in ast.walk(ast.parse(inspect.getsource(views))) if isinstance(n, ast.FunctionDef)
                    and n.name == "view_from_wire")
    fields = next(n for n in ast.walk(function) if isinstance(n, ast.Dict))
    assert {k.value for k in fields.keys if isinstance(k, ast.Constant)} == set(view._FIELDS) | {"legal_moves"}
    state = _passed()
    for seat in range(state.players):
        back = views.view_from_wire(state.variant, views.seat_view(state, seat))
        assert back == view.View(state, seat) and back.idle == state.idle > 0


def test_a_table_frame_is_exactly_its_declared_message():
    """The frame a seat and the projector get has the keys ``TableFrame`` declares, no more, no fewer."""
    table = ClassTable("ABCDEF", TableSpec("makao", 2, 1, "easy", (), 5, "en", {}, None, fixed_seed=True).check())
    table.take("Anna")
    declared = set(typing.get_type_hints(TableFrame))
    for seat in (0, None):
        frame, _ = frames.table_frame(table, seat, "en", False, -1)
        assert set(frame) == declared
        assert (frame["model"] is not None) == (seat is not None)


def test_the_saved_form_brings_back_every_field():
    """A state saved and loaded is the state again, in every field a state is compared by (all but
    its events, tested above), with a pending effect, a wish, a Runde, a locked seat and a drawn card
    among them; the saved form has exactly the names ``serialize`` declares."""
    from maumau.play.serialize import state_from_dict, state_to_dict

    seen: set[str] = set()
    for name in ("makao", "joker_mau_mau", "mau_mau_runde", "lite_macau"):
        rng = random.Random(name)
        state = mm.deal(name, players=3, seed=4)
        while not state.is_over:
            data = state_to_dict(state)
            assert set(data) - set(serialize._OPTIONAL_FIELDS) == set(serialize._STATE_FIELDS)
            back = state_from_dict(data)
            assert back == state and all(getattr(back, "_" + f) == getattr(state, "_" + f)
                                         for f in FIELDS if f != "events"), (name, data)
            seen.update(f for f in ("pending", "wish", "drawn") if getattr(state, f) is not None)
            state = state.apply(rng.choice(state.legal_moves()))
    assert seen == {"pending", "wish", "drawn"}
