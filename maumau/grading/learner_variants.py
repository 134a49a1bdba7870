"""A variant of an exercise per learner: the same situations, drawn with other suits and ranks.

Two learners who copy each other's output should be wrong for one of them, and the grade must
still be worked out the same way every time.  So each learner's test cells (visible and hidden)
are the instructor's test cells with the cards *relabeled*: a permutation of the suits and one of
a few ranks, chosen per exercise so that every relabeled position is the same situation of the
rule (exercise 02's eight is still an eight on top of a matching suit; exercise 12's K♥ stays
K♥).  A relabeling is a symmetry of the game for that exercise: the reference solution answers
the relabeled position with the relabeled answer, which tests/grading/test_learner_variants.py
checks for every exercise with the reference solution.

Which suits and ranks an exercise may swap is in its instructor notebook's metadata::

    "maumau": {"variants": {"suits": "CDHS", "ranks": "3 4 5 6"}}

(no ``variants`` entry, or ``"variants": false``: the exercise has one set of positions for all).

Whose relabeling: ``learners_draw(key, folder, exercise)``, from an HMAC-SHA256 of the learner (the
folder the grader files their hand-ins under: the hub user, the roster learner, the LMS user) and
the exercise's name, keyed with the course's secret key (``new_key``/``read_key``: a file only the
teacher holds, which no grading kernel may read).
Without the key nobody can work out another learner's draw, and a learner cannot choose theirs:
the grader draws it again from the learner's name, whatever the notebook says.
``COMMON`` (no relabeling) gives today's positions: the course without a key, an exercise without
``variants``, and the common ground on which learners' rules can be compared side by side.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import hmac
import html
import io
import json
import os
import re
import secrets
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .exercise import NotebookError

if TYPE_CHECKING:  # pragma: no cover
    from .exercise import Exercise

__all__ = ["Relabeling", "COMMON", "LearnerVariantError", "Swaps", "swaps_of", "draw_relabeling", "learners_draw",
           "for_learner", "relabel_source", "new_key", "read_key", "KEY_BYTES"]

#: The course key: 32 random bytes, written as 64 hex digits.
KEY_BYTES = 32
SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_LETTER = {v: k for k, v in _SYMBOL.items()}
_SUIT_NAME = {"C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS", "S": "SPADES"}
_RANK_NAME = {"2": "TWO", "3": "THREE", "4": "FOUR", "5": "FIVE", "6": "SIX", "7": "SEVEN", "8": "EIGHT",
              "9": "NINE", "10": "TEN", "J": "JACK", "Q": "QUEEN", "K": "KING", "A": "ACE"}
#: A card as the notation writes it (``8H``, ``10♥``, ``T♠``), not inside a longer word.
_CARD = re.compile(r"(?<![\w])(10|[2-9TJQKA])([CDHS♣♦♥♠])(?![\w])")
#: A card, or a suit symbol on its own (``♠ wished``): one pass, so no suit is relabeled twice.
_CARD_OR_SYMBOL = re.compile(_CARD.pattern + r"|([♣♦♥♠])")


class LearnerVariantError(NotebookError):
    """A key file or an exercise's ``variants`` metadata maumau cannot use: the sentence says why."""


@dataclass(frozen=True)
class Relabeling:
    """Where each suit and rank goes (those not named stay); ``name`` says it in one short word
    (``common``, or 8 hex digits of a hash of the permutations) for the notebook and the grader."""

    suits: tuple[tuple[str, str], ...] = ()
    ranks: tuple[tuple[str, str], ...] = ()
    name: str = "common"

    @property
    def is_common(self) -> bool:
        return all(a == b for a, b in self.suits + self.ranks)

    def inverse(self) -> Relabeling:
        """The relabeling back: a learner's answer on their positions, said on the common ones (to
        compare two learners' answers, e.g. the same wrong answer on the same situation)."""
        if self.is_common:
            return COMMON
        return Relabeling(tuple((b, a) for a, b in self.suits), tuple((b, a) for a, b in self.ranks),
                          name=f"{self.name}-back")

    def suit(self, letter: str) -> str:
        return dict(self.suits).get(letter, letter)

    def rank(self, text: str) -> str:
        return dict(self.ranks).get("10" if text == "T" else text, text)

    def card(self, match: re.Match[str]) -> str:
        """A card of the notation relabeled, written as it was (letter or symbol); or a lone symbol."""
        if match.group(3):
            return _SYMBOL[self.suit(_LETTER[match.group(3)])]
        rank, suit = match.group(1), match.group(2)
        new_suit = self.suit(_LETTER.get(suit, suit))
        return self.rank(rank) + (_SYMBOL[new_suit] if suit in _LETTER else new_suit)

    def text(self, text: str) -> str:
        """Every card of ``text`` relabeled, and every lone suit symbol (``♠ wished``)."""
        return _CARD_OR_SYMBOL.sub(self.card, text)

    def literal(self, value: str) -> str:
        """A whole string literal's value: a lone suit (``wish="H"``) or rank (``wish="Q"``) is
        relabeled too; anything else card by card."""
        if len(value) == 1 and value in SUITS:
            return self.suit(value)
        if value in RANKS:
            return self.rank(value)
        return self.text(value)


COMMON = Relabeling()


# --- which relabelings an exercise allows -------------------------------------------------------------------

@dataclass(frozen=True)
class Swaps:
    """The suits and the ranks an exercise's positions may be drawn with (each group permuted)."""

    suits: str = ""
    ranks: tuple[str, ...] = ()

    @property
    def any(self) -> bool:
        return len(self.suits) > 1 or len(self.ranks) > 1


def swaps_of(notebook: Any, where: str = "the exercise") -> Swaps:
    """The ``variants`` entry of an instructor notebook's ``maumau`` metadata (none: no swaps).
    LearnerVariantError for an entry that names an unknown suit or rank, or one twice."""
    meta = notebook.metadata.get("maumau") if hasattr(notebook, "metadata") else None
    entry = meta.get("variants") if isinstance(meta, dict) else None
    if not entry:
        return Swaps()
    said = f"{where}: maumau.variants"
    if not isinstance(entry, dict):
        raise LearnerVariantError(f"{said} must be false or {{\"suits\": \"CDHS\", \"ranks\": \"5 6\"}}")
    suits, ranks = entry.get("suits", ""), entry.get("ranks", "")
    if not isinstance(suits, str) or not isinstance(ranks, str):
        raise LearnerVariantError(f"{said} names its suits and ranks as text, e.g. \"CD\" and \"5 6 10\"")
    rank_list = tuple(ranks.split())
    if any(s not in SUITS for s in suits) or len(set(suits)) != len(suits):
        raise LearnerVariantError(f"{said}.suits {suits!r} must name each of C, D, H, S at most once")
    if any(r not in RANKS for r in rank_list) or len(set(rank_list)) != len(rank_list):
        raise LearnerVariantError(f"{said}.ranks {ranks!r} must name ranks of 2-10, J, Q, K, A once each")
    return Swaps(suits, rank_list)


# --- a learner's draw --------------------------------------------------------------------------------------

def _mac(key: bytes, *parts: str) -> bytes:
    # the parts as a JSON list: no two (learner, exercise) pairs give the same message, whatever they hold
    return hmac.new(key, json.dumps(parts).encode(), hashlib.sha256).digest()


def _permute(group: tuple[str, ...], seed: bytes, what: str) -> tuple[tuple[str, str], ...]:
    """``group`` permuted by ``seed``: each item's place is the order of its own HMAC, which
    depends on nothing but the seed (no random module whose algorithm a Python version may change)."""
    order = sorted(group, key=lambda item: _mac(seed, what, item))
    return tuple(zip(group, order, strict=True))


def draw_relabeling(key: bytes | None, learner: str, exercise: str, swaps: Swaps) -> Relabeling:
    """``learner``'s relabeling of ``exercise``: COMMON without a key or swaps, else drawn from
    HMAC-SHA256(key, learner, exercise), the same for every run."""
    if key is None or not swaps.any:
        return COMMON
    seed = _mac(key, "maumau variant", learner, exercise)
    suits, ranks = _permute(tuple(swaps.suits), seed, "suits"), _permute(swaps.ranks, seed, "ranks")
    # named after what it does, not after the seed: learners with the same draw share its name (and
    # the grader's reference run), and the name tells nothing about the key
    name = hashlib.sha256(json.dumps([suits, ranks]).encode()).hexdigest()[:8]
    return Relabeling(suits, ranks, name) if not Relabeling(suits, ranks).is_common else Relabeling(name=name)


def learners_draw(key: bytes | None, folder: str, exercise: Exercise) -> Relabeling:
    """``draw_relabeling`` for an instructor notebook, with the swaps its metadata allows (COMMON without a key,
    whatever the metadata says).  ``folder``: the name the grader files the learner's hand-ins under,
    ``submissions.safe_folder_name`` of the learner the class knows (that name itself when it is plain),
    so that the release, the class server and the grader draw for the same name."""
    if key is None:
        return COMMON
    return draw_relabeling(key, folder, exercise.name, swaps_of(exercise.notebook, exercise.path.name))


# --- the test cells, relabeled ---------------------------------------------------------------------------

def _offsets(source: str) -> list[int]:
    starts, at = [0], 0
    for line in source.splitlines(keepends=True):
        at += len(line)
        starts.append(at)
    return starts


def _string_value(token: str) -> tuple[str, str, str] | None:
    """A plain string literal's prefix, quotes and text (``"8H"`` -> ``('', '"', '8H')``); None for
    one with escapes or a triple-quoted one, whose text is relabeled as it is written."""
    found = re.fullmatch(r"([rRuUbBfF]{0,2})('|\")(.*)\2", token, re.S)
    if found is None or "\\" in found.group(3) or found.group(3).startswith(found.group(2) * 2):
        return None
    return found.group(1), found.group(2), found.group(3)


def relabel_source(source: str, relabeling: Relabeling) -> str:
    """A test cell's code with its cards relabeled: in string literals (``"8H 5C"``, ``wish="H"``,
    a scenario's ``"seat 0 plays 8♥"``), in comments, and the names ``Suit.HEARTS``/``Rank.FIVE``.
    Code that does not tokenize is relabeled as text."""
    if relabeling.is_common:
        return source
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return relabeling.text(source)
    starts = _offsets(source)
    edits: list[tuple[int, int, str]] = []
    for i, tok in enumerate(tokens):
        new = _relabel_token(tokens, i, relabeling)
        if new is not None and new != tok.string:
            begin = starts[tok.start[0] - 1] + tok.start[1]
            edits.append((begin, begin + len(tok.string), new))
    for begin, end, new in reversed(edits):
        source = source[:begin] + new + source[end:]
    return _sorted_again(source)


def _sorted_again(source: str) -> str:
    """An expected list of names that the check compares with ``sorted(...)`` (``check("seat 0's hand",
    sorted(str(c) for c in hand), ["2D", "3D", "9C"])``) sorted again: relabeled names sort differently."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    starts = _offsets(source)
    edits = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "check"
                and len(node.args) >= 3):
            continue
        got, want = node.args[1], node.args[2]
        names = [e.value for e in want.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)] \
            if isinstance(want, ast.List) else []
        if (isinstance(got, ast.Call) and isinstance(got.func, ast.Name) and got.func.id == "sorted"
                and isinstance(want, ast.List) and len(names) == len(want.elts) and want.end_lineno is not None
                and want.end_col_offset is not None):
            begin = starts[want.lineno - 1] + _column(source, starts, want.lineno, want.col_offset)
            end = starts[want.end_lineno - 1] + _column(source, starts, want.end_lineno, want.end_col_offset)
            edits.append((begin, end, "[" + ", ".join(_quoted(n) for n in sorted(names)) + "]"))
    for begin, end, new in sorted(edits, reverse=True):
        source = source[:begin] + new + source[end:]
    return source


def _column(source: str, starts: list[int], line: int, offset: int) -> int:
    """The character column of ``ast``'s UTF-8 byte ``offset`` on ``line`` (a ♥ before it is 3 bytes)."""
    text = source[starts[line - 1]:starts[line]] if line < len(starts) else source[starts[line - 1]:]
    return len(text.encode()[:offset].decode(errors="ignore"))


def _quoted(text: str) -> str:
    return '"' + text + '"' if '"' not in text and "\\" not in text else repr(text)


_NAME_SUIT = {v: k for k, v in _SUIT_NAME.items()}
_NAME_RANK = {v: k for k, v in _RANK_NAME.items()}


def _relabel_token(tokens: list[tokenize.TokenInfo], i: int, relabeling: Relabeling) -> str | None:
    tok = tokens[i]
    if tok.type == tokenize.COMMENT:
        return relabeling.text(tok.string)
    if tok.type == tokenize.STRING:
        parts = _string_value(tok.string)
        if parts is None or "b" in parts[0].lower():
            return relabeling.text(tok.string)
        prefix, quote, value = parts
        return prefix + quote + relabeling.literal(value) + quote
    owner = tokens[i - 2].string if i >= 2 and tokens[i - 1].string == "." else None
    if tok.type == tokenize.NAME and owner == "Suit" and tok.string in _NAME_SUIT:
        return _SUIT_NAME[relabeling.suit(_NAME_SUIT[tok.string])]
    if tok.type == tokenize.NAME and owner == "Rank" and tok.string in _NAME_RANK:
        return _RANK_NAME[relabeling.rank(_NAME_RANK[tok.string])]
    return None


def for_learner(exercise: Exercise, relabeling: Relabeling) -> Exercise:
    """``exercise`` (and its translations) with every test cell relabeled: what the learner's
    notebook shows and what the grader runs for them.  COMMON gives ``exercise`` itself."""
    from .exercise import TEST, Exercise, ExerciseCell

    if relabeling.is_common:
        return exercise
    notebook = copy.deepcopy(exercise.notebook)
    cells = []
    for info, cell in zip(exercise.cells, notebook.cells, strict=True):
        if info.role == TEST:
            cell.source = relabel_source(str(cell.source), relabeling)
        cells.append(ExerciseCell(info.key, info.role, cell))
    mine = Exercise(exercise.name, exercise.path, notebook, cells, dict(exercise.files), exercise.language,
                    {lang: for_learner(t, relabeling) for lang, t in exercise.translations.items()},
                    variant=relabeling.name, common=exercise)
    return mine


# --- the learner's copy of the notebook -----------------------------------------------------------

#: The note at the top of a learner's own copy, by language.
NOTE = {
    "en": "**Your own positions.** The test cells of this notebook use positions drawn for you ({learner}, "
          "draw {draw}): a classmate's positions and right answers are different. Your notebook is graded "
          "on these same positions.",
    "de": "**Deine eigenen Situationen.** Die Testzellen dieses Notebooks spielen Situationen durch, die für "
          "dich gezogen wurden ({learner}, Ziehung {draw}): die Situationen und richtigen Antworten deiner "
          "Mitlernenden sind andere. Dein Notebook wird anhand genau dieser Situationen bewertet.",
    "hu": "**A saját helyzeteid.** Ennek a notebooknak az ellenőrző cellái neked kisorsolt helyzeteket "
          "játszanak le ({learner}, sorsolás: {draw}): egy csoporttársad helyzetei és helyes válaszai mások. "
          "A notebookodat ugyanezeken a helyzeteken értékeljük.",
}
COMMON_NOTE = {
    "en": "**Common positions.** This exercise gives every learner the same positions.",
    "de": "**Gemeinsame Situationen.** Diese Aufgabe gibt allen Lernenden dieselben Situationen.",
    "hu": "**Közös helyzetek.** Ez a feladat minden tanulónak ugyanazokat a helyzeteket adja.",
}


def note_cell(learner: str, relabeling: Relabeling, language: str) -> Any:
    """The markdown cell at the top of ``learner``'s own copy saying whose positions it has."""
    import nbformat

    if relabeling.name == COMMON.name:
        text = COMMON_NOTE.get(language, COMMON_NOTE["en"])
    else:
        text = NOTE.get(language, NOTE["en"]).format(learner=html.escape(learner), draw=relabeling.name)
    cell = nbformat.v4.new_markdown_cell(text)
    cell["id"] = "maumau-variant"
    return cell


# --- the course key ----------------------------------------------------------------------------------------

def new_key(path: str | Path) -> bytes:
    """Write a new course key to ``path`` (readable by its owner only) and return it.
    LearnerVariantError if the file exists: a new key gives every learner new positions."""
    path = Path(path)
    key = secrets.token_bytes(KEY_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise LearnerVariantError(f"{path} exists already: a new key would give every learner new positions") from None
    except OSError as err:
        raise LearnerVariantError(f"cannot write the course key {path}: {err.strerror}") from None
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex() + "\n")
    return key


def read_key(path: str | Path) -> bytes:
    """The course key in ``path`` (64 hex digits). LearnerVariantError saying why it cannot be used."""
    path = Path(path)
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except FileNotFoundError:
        raise LearnerVariantError(f"no course key {path}: maumau release --variants {path} makes one") from None
    except OSError as err:
        raise LearnerVariantError(f"cannot read the course key {path}: {err.strerror}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise LearnerVariantError(f"{path} is not a maumau course key (64 hex digits, from maumau variants key)")
    return key
