"""What a bot sends and what it is made of, read within bounds: an answer on the wire
(``wire.read_answer``) and a source (``source.read_source``).  Whatever a hostile bot sends or
is, the referee gets a sentence, never Python's RecursionError or MemoryError."""

from __future__ import annotations

import json

import pytest

from maumau import league
from maumau.league import wire
from maumau.league.source import read_source


@pytest.mark.parametrize(("line", "said"), [
    (b"[" * 40_000, "40000 bytes; an answer has at most"),         # the answer: too large
    (b"[" * 4_000 + b"]" * 4_000, "nested 4000 deep"),              # within the size, too deep
    (b'{"id": 3, "move": {"draw": true}, "pad": "' + b"x" * 9000 + b'"}', "bytes; an answer has at most"),
    (b'{"id": ' + b"9" * 4000 + b"}", "4000 digits"),
    (b'{"id": -' + b"9" * 16 + b"}", "16 digits"),
    (b'{"id": 3, "move": {"draw": true}, "n": 1e400}', "1e400"),
    (b'{"id": 3, "move": {"draw": true}, "n": NaN}', "NaN, which is no number"),
    (b'{"id": 3, "n": -Infinity}', "-Infinity, which is no number"),
    (b'[{"id": 3}]', "a JSON list, not an object"),
    (b'"a move"', "a JSON str, not an object"),
    (b'{"id": 3, "move": {"draw": tru', "not JSON"),
    (b'\xff\xfe{}', "not JSON"),
])
def test_an_answer_outside_the_bounds_is_refused_with_a_sentence(line, said):
    with pytest.raises(wire.BadAnswer, match=said.replace("(", r"\(")):
        wire.read_answer(line)


def test_an_answer_within_the_bounds_is_read():
    assert wire.read_answer(b'{"id": 12, "move": {"play": "JC", "wish": "H", "mau": true}}') == \
        {"id": 12, "move": {"play": "JC", "wish": "H", "mau": True}}
    # brackets inside a string are text, not nesting; the runner's error sentences fit
    text = "[" * 300 + "é" * 300
    assert wire.read_answer(json.dumps({"id": 1, "error": text}).encode()) == {"id": 1, "error": text}
    assert wire.read_answer(b'{"id": 999999999999999, "a": [[{"b": 1}]]}')["id"] == 999999999999999


UNREADABLE = {  # a source that cannot be parsed or compiled, and what the sentence says
    "200 KB of additions": ("x = " + "1+" * 100_000 + "1\n", "too deeply"),
    "a chain of attributes": ("x = a" + ".b" * 100_000 + "\n", "too deeply"),
    "a chain of calls": ("x = f" + "()" * 60_000 + "\n", "too deeply"),
    "a chain of minus signs": ("x = " + "-" * 200_000 + "1\n", "too deeply"),
    "nested brackets": ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "not Python"),
    "a syntax error": ("def choose(self, view)\n    return None\n", "not Python: expected ':' \\(line 1\\)"),
    "a null byte": ("PLAYER = 1\0\n", "not Python"),
    "a lone surrogate": ("x = '\udcff'\n", "not UTF-8"),
    "a deep notebook": ('{"nbformat": 4, "cells": ' + "[" * 100_000 + "]" * 100_000 + "}", "not a readable notebook"),
}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_a_source_that_cannot_be_read_is_a_league_error(case):
    text, said = UNREADABLE[case]
    with pytest.raises(league.LeagueError, match=said):
        read_source(text)


def test_a_file_that_cannot_be_read_is_a_league_error(tmp_path):
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# Gr\xfc\xdfe\nPLAYER = None\n")
    with pytest.raises(league.LeagueError, match="latin.py is not UTF-8 text: byte 4 is not UTF-8"):
        read_source(latin)
    deep = tmp_path / "deep.py"
    deep.write_text("x = " + "1+" * 100_000 + "1\n")
    with pytest.raises(league.LeagueError, match=f"{deep} nests expressions too deeply"):
        read_source(deep)
    with pytest.raises(league.LeagueError, match="600007 characters long; a bot may have at most"):
        read_source("x = 1\n" + "#" * 600_000 + "\n")
