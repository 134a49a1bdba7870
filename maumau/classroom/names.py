"""Text that comes from a learner (a name above all) made safe to keep, show and send.

Every string a client sends is checked on the wire (``messages.decode_request``: valid Unicode, no lone
surrogates); a name is then cleaned (control, format and invisible characters out, spaces collapsed,
at most ``LONGEST_NAME`` characters) and must differ from every other name at the table, from the
display names of the course's other learners (``roster``), from the names the table gives its
computers ("Seat 2", "Platz 2", "2. játékos") in any language and from the names the class keeps for
itself ("Teacher", "Computer"), so that a sentence of the log always means one person.

Two names are the same name when they *look* the same: they are compared by their ``skeleton``
(Unicode TR39's confusable skeleton, after NFKC and case folding, with invisible characters and
non-spacing marks removed), so full-width "Ａｎｎａ", Cyrillic "Аnnа", "A\u034fnna" and "ANNA" are all
"anna".  A name whose skeleton has no letter or digit shows nothing and is refused.  A name stored
by an older server is cleaned the same way when its table is loaded.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib import resources

from ..text.i18n import LANGUAGES, t

__all__ = ["LONGEST_NAME", "clean_text", "clean_name", "computer_name", "looks_like_a_seat", "NameError_",
           "skeleton", "folded_skeleton", "same_name", "shows_something", "check_name", "RESERVED_NAMES"]

LONGEST_NAME = 40

#: Names the class keeps for itself, in every script (compared by their skeleton, a number may follow).
RESERVED_NAMES = ("teacher", "lehrer", "lehrerin", "lehrkraft", "tanár", "tanárnő", "tanító", "admin",
                  "administrator", "server", "system", "maumau", "mau-mau", "computer", "rechner",
                  "számítógép", "gép", "robot", "bot", "you", "du", "te")

#: Characters that show nothing although Unicode does not call them format characters: the
#: Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt) and the blanks that are
#: letters or symbols (Hangul fillers, the braille blank).
_INVISIBLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
              (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
              (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
#: Dropped from a name as kept: control, format, surrogate, private-use and unassigned characters.
_DROPPED = ("Cc", "Cf", "Cs", "Co", "Cn")
#: Dropped from a skeleton as well: the marks that sit on a letter (a name compares without them).
_MARKS = ("Mn", "Me")


class NameError_(ValueError):  # noqa: N801  a name the table refuses (ValueError, not the builtin NameError)
    """A name the table does not take, with the sentence saying why."""


def _invisible(c: str) -> bool:
    code = ord(c)
    return any(lo <= code <= hi for lo, hi in _INVISIBLE)


def clean_text(text: str, longest: int) -> str:
    """``text`` without lone surrogates, control, format or invisible characters (Unicode
    categories Cc, Cf, Cs, Co, Cn: a space; ``_INVISIBLE``, the characters that show nothing:
    removed), its spaces collapsed, cut to ``longest`` characters."""
    kept = "".join("" if _invisible(c) else " " if unicodedata.category(c) in _DROPPED else c for c in text)
    return " ".join(kept.split())[:longest].strip()


def clean_name(name: str) -> str:
    """A name as the table keeps it (possibly empty: the caller decides what an empty name means)."""
    return clean_text(unicodedata.normalize("NFC", clean_text(name, 4 * LONGEST_NAME)), LONGEST_NAME)


# --- how a name looks -----------------------------------------------------------------------------------

@cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (TR39 ``confusables.txt``, as the ``confusable-homoglyphs`` package
    ships it): each character that looks like another, mapped to the prototype of its class.  The
    package keeps each pair both ways; a class is a star around its prototype (the one string all
    others map to), and a prototype may be a sequence ("rn" for "m")."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    neighbours: dict[str, set[str]] = {}
    for key, found in data.items():
        key = _unmarked(key)
        for entry in found:
            other = _unmarked(entry["c"])
            if key and other and key != other:
                neighbours.setdefault(key, set()).add(other)
                neighbours.setdefault(other, set()).add(key)
    mapped: dict[str, str] = {}
    for node, around in neighbours.items():
        if len(node) != 1 or len(around) != 1:
            continue  # a sequence, or a prototype (the centre of its star): it stays as it is
        (hub,) = around
        pair = len(neighbours[hub]) == 1  # two strings only: which one is the prototype the data does not say
        if not pair or len(hub) > 1 or _rank(hub) < _rank(node):
            mapped[node] = hub
    return mapped


def _unmarked(text: str) -> str:
    """A string of the package's data without the direction marks it puts around right-to-left text."""
    return text.replace("\u200e", "").replace("\u200f", "")


def _rank(c: str) -> tuple[int, int]:
    """Which of two look-alike characters is the plainer: ASCII first, then the lower code point."""
    return (0 if c.isascii() else 1, ord(c))


def _folded(text: str) -> str:
    """NFKC and case folding until they change nothing more (ﬀ, ẞ, Ⅸ ...), then decomposed."""
    for _ in range(4):
        again = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
        if again == text:
            break
        text = again
    return unicodedata.normalize("NFD", text)


@cache
def _char_skeleton(c: str) -> str:
    """One character's prototype (an upper-case one too: Greek "Ν" is "N"), folded, its marks
    and invisible characters dropped, and so on until it settles."""
    text = c
    for _ in range(4):
        mapped = "".join(_prototypes().get(x, x) for x in text)
        again = "".join(x for x in _folded(mapped) if not _unseen(x))
        if again == text:
            break
        text = again
    return text


def _unseen(c: str) -> bool:
    """A character a skeleton leaves out: a control, format or invisible character, or a mark."""
    return unicodedata.category(c) in _DROPPED + _MARKS or _invisible(c)


@lru_cache(maxsize=8192)  # a roster's names are compared at every join
def skeleton(name: str) -> str:
    """What ``name`` looks like as written: NFKC, each character replaced by its TR39 confusable
    prototype (upper-case ones too: Greek "ΑΝΝΑ" is "anna"), then case folding, with invisible
    characters and marks removed and spaces collapsed."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name[:4 * LONGEST_NAME]))
    return _joined(text)


@lru_cache(maxsize=8192)
def folded_skeleton(name: str) -> str:
    """``skeleton`` of the name folded to one case first ("I" is "i" here, where as written it
    looks like "l")."""
    return _joined(_folded(name[:4 * LONGEST_NAME]))


def _joined(text: str) -> str:
    shown = "".join(" " if c.isspace() else _char_skeleton(c) for c in text)
    return " ".join(shown.split())


def same_name(a: str, b: str) -> bool:
    """Whether two names look alike: as written (``skeleton``) or in one case (``folded_skeleton``)."""
    return skeleton(a) == skeleton(b) or folded_skeleton(a) == folded_skeleton(b)


def shows_something(name: str) -> bool:
    """Whether a name has a letter or a digit that shows (not only marks, blanks, fillers)."""
    return any(unicodedata.category(c)[0] in "LN" for c in skeleton(name))


# --- the names the table and the class keep for themselves ---------------------------------------------

def computer_name(seat: int, lang: str) -> str:
    """A computer's name at the class table: its seat, as the notebook table names its computers."""
    return t("seat.label", lang, seat=seat)


@cache
def _own_patterns() -> tuple[re.Pattern[str], ...]:
    """The skeletons of the table's own names: each language's "Seat N" and the reserved names,
    each with a number (any script's digits look like ASCII ones after NFKC) or none."""
    digits = "(?:" + "|".join(sorted({re.escape(skeleton(str(d))) for d in range(10)}, key=len, reverse=True)) + ")"
    patterns = []
    for lang in LANGUAGES:
        before, _, after = t("seat.label", lang, seat=0).partition("0")
        patterns.append(re.escape(skeleton(before)) + rf"\s*{digits}+\s*" + re.escape(skeleton(after)))
    patterns += [re.escape(skeleton(word)) + rf"\s*{digits}*" for word in RESERVED_NAMES]
    return tuple(re.compile(p) for p in patterns)


def looks_like_a_seat(name: str) -> bool:
    """True for "Seat 3", "platz 3", "3. játékos", "Computer 3", "Teacher" in any script or width:
    names the table's own words use, or the class keeps for itself."""
    shown = (skeleton(name), folded_skeleton(name))
    return any(p.fullmatch(form) for p in _own_patterns() for form in shown)


def check_name(name: str, taken: Iterable[str], others: Iterable[str] = ()) -> str:
    """The cleaned ``name``, or NameError_ if it shows nothing, is a seat's, a computer's or a
    reserved name, looks like a name ``taken`` at this table, or like one of ``others`` (the
    display names of the course's other learners)."""
    cleaned = clean_name(name)
    if not cleaned or not shows_something(cleaned):
        raise NameError_("a name needs at least one letter or digit that shows")
    if looks_like_a_seat(cleaned):
        raise NameError_(f"{cleaned!r} is how the table names its seats, computers or teacher: choose another name")
    if any(same_name(cleaned, other) for other in taken):
        raise NameError_(f"{cleaned!r} sits at this table already (or a name that looks the same): "
                         f"choose another name")
    if any(same_name(cleaned, other) for other in others if other):
        raise NameError_(f"{cleaned!r} is the name of another learner of this course: choose your own")
    return cleaned
