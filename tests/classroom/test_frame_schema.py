"""The table frame's JSON Schema (``messages.frame_schema``, made from the wire's TypedDicts) against
what the server sends and what the page's script reads (issue 35): every frame of a played match is
exactly its schema, and every field ``pages/table.js`` reads of a frame, its ``view``, its ``model``
and their parts exists in the schema.  ``page_reads`` and ``fields_not_in_schema`` serve the
browser test too (tests/browser/drive_classroom.py checks the script the browser was served)."""

from __future__ import annotations

import json
import random
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import maumau
from maumau.classroom import frames
from maumau.classroom.messages import (
    Answer,
    ProjectorView,
    SeatView,
    TableFrame,
    WireModel,
    encode,
    frame_schema,
)
from maumau.classroom.spec import TableSpec
from maumau.classroom.table import ClassTable

TABLE_JS = Path(maumau.__file__).parent / "classroom" / "pages" / "table.js"

#: What each name of the page's script holds, as the schema's definitions: ``table`` the frame,
#: ``view`` a seat's or the projector's view, ``model`` the seat model and its parts; ``message``
#: and ``answer`` any message of the server (an answer, or a frame).
PAGE_NAMES: dict[str, tuple[str, ...]] = {
    "table": ("TableFrame",),
    "view": ("SeatView", "ProjectorView"),
    "view.pending": ("WirePending",),
    "model": ("WireModel",),
    "spot": ("WireCard",),          # model.cards.forEach((spot, index) => ...)
    "choice": ("WireChoice",),      # for (const choice of spot.choices)
    "choice.move": ("WireMove",),
    "move": ("WireMove",),          # const move = Object.assign({}, chosen): a choice's move, sent
    "seat": ("SeatInfo",),          # table.seats.forEach((seat, i) => ...)
    "s": ("SeatInfo",),             # table.seats.filter((s) => ...)
    "said": ("Said",),              # for (const said of table.said || [])
    "message": ("Answer", "TableFrame"),
    "answer": ("Answer",),
}

#: What an array or a string of the frame offers the script (``view.hand.length``), not a field.
_JS_OWN = {"length", "slice", "forEach", "map", "filter", "some", "find", "findIndex", "indexOf", "includes",
           "join", "replace", "split", "push"}


def page_reads(script: str) -> dict[str, set[str]]:
    """The fields the script reads, by the name it reads them of (``view.pending.text`` is
    ``text`` of ``view.pending``; ``state.table.you`` is ``you`` of ``table``)."""
    found: dict[str, set[str]] = {}
    for name in sorted(PAGE_NAMES, key=len, reverse=True):
        pattern = re.compile(r"(?<![\w$])" + re.escape(name) + r"\.([A-Za-z_]\w*)")
        found[name] = {field for field in pattern.findall(script) if field not in _JS_OWN}
    for name in PAGE_NAMES:  # "view.pending" is read of "view" too: pending, once
        for longer in PAGE_NAMES:
            if longer.startswith(name + "."):
                found[name].add(longer.split(".")[-1])
    return found


def _fields(schema: dict[str, Any], definition: str) -> set[str]:
    if definition == "Answer":  # an answer is no part of the frame: its own TypedDict says its fields
        return set(typing.get_type_hints(Answer)) | {"v"}
    return set(schema["$defs"][definition]["properties"])


def fields_not_in_schema(script: str, schema: dict[str, Any]) -> dict[str, set[str]]:
    """Every field the script reads that none of the schema's definitions for its name declares."""
    missing: dict[str, set[str]] = {}
    for name, fields in page_reads(script).items():
        declared = set().union(*(_fields(schema, d) for d in PAGE_NAMES[name]))
        if fields - declared:
            missing[name] = fields - declared
    return missing


# --- the page's script against the schema -------------------------------------------------------------------
def test_every_field_the_page_reads_of_a_frame_is_in_the_schema():
    script = TABLE_JS.read_text(encoding="utf-8")
    reads = page_reads(script)
    assert len(reads["view"] | reads["model"] | reads["view.pending"] | reads["spot"] | reads["choice"]) >= 35
    assert {"hand", "hands", "to_move", "pending", "wish_name"} <= reads["view"]
    assert {"my_turn", "cards", "draw_why", "pass", "status"} <= reads["model"]
    assert {"text", "kind", "amount", "target"} <= reads["view.pending"]
    assert fields_not_in_schema(script, frame_schema()) == {}


def test_a_field_the_page_reads_and_the_schema_lacks_is_found():
    script = "const x = view.hand_size + table.model.my_turns; if (view.pending.txt) spot.choices.length;"
    assert fields_not_in_schema(script, frame_schema()) == {
        "view": {"hand_size"}, "model": {"my_turns"}, "view.pending": {"txt"}}


# --- the schema against the types and the frames --------------------------------------------------------------
def test_the_schema_is_made_from_the_wires_types():
    schema = frame_schema()
    for tp in (TableFrame, SeatView, ProjectorView, WireModel):
        definition = schema["$defs"][tp.__name__]
        sent = {"v"} if tp is TableFrame else set()  # encode adds the protocol's version to every message
        assert set(definition["properties"]) == set(typing.get_type_hints(tp)) | sent
        assert set(definition["required"]) == set(tp.__required_keys__) | sent
    assert all(d["additionalProperties"] is False for d in schema["$defs"].values())
    assert schema["$defs"]["ProjectorView"]["required"] == sorted(set(typing.get_type_hints(ProjectorView)) - {"hands"})
    assert set(schema["$defs"]["WireMove"]["properties"]) == {"play", "wish", "mau", "runde", "draw", "pass"}
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("variant", ["makao", "mau_mau_runde", "joker_mau_mau", "lite_macau"])
def test_every_frame_of_a_played_hand_is_exactly_its_schema(variant: str) -> None:
    """A seat's frames, the projector's and the teacher's projector's, through a whole hand with its
    penalties, wishes and skips: each one (as JSON) is valid against the schema, with no key the
    types do not declare."""
    validator = Draft202012Validator(frame_schema())
    spec = TableSpec(variant, 3, 2, "easy", (), 11, "en", {}, None, fixed_seed=True).check()
    table = ClassTable("ABCDEF", spec)
    table.take("Anna")
    rng, heard, seen = random.Random(variant), {0: -1, None: -1}, set()
    for _ in range(400):
        for seat, open_hands, lang in ((0, False, "de"), (None, False, "en"), (None, True, "hu")):
            frame, heard[seat] = frames.table_frame(table, seat, lang, open_hands, heard[seat])
            sent = json.loads(encode(frame))  # as the socket carries it
            errors = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(sent)]
            assert not errors, errors[:3]
            view = sent["view"] or {}
            seen.update(k for k in ("pending", "wish", "drawn") if view.get(k) is not None)
            seen.update(k for k in ("hand", "hands") if k in view)
        state = table.state
        if table.match.is_over or state is None:
            break
        if table.hand_over:
            table.deal()
        elif table.to_move() == 0:
            table.move(0, rng.choice(state.legal_moves()))
        else:
            table.computer_move()
    assert {"hand", "hands"} <= seen and seen & {"pending", "wish", "drawn"}, seen
