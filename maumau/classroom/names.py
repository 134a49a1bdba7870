"""Text that comes from a learner (a name above all) made safe to keep, show and send.

Every string a client sends is checked on the wire (``messages.decode_request``: valid Unicode, no lone
surrogates); a name is then cleaned (control and format characters out, spaces collapsed, at
most ``LONGEST_NAME`` characters) and must differ from every other name at the table and from
the names the table gives its computers ("Seat 2", "Platz 2", "2. játékos") in any language,
so that a sentence of the log always means one player.  A name stored by an older server is
cleaned the same way when its table is loaded.
"""

from __future__ import annotations

import re
import unicodedata

from ..text.i18n import LANGUAGES, t

__all__ = ["LONGEST_NAME", "clean_text", "clean_name", "computer_name", "looks_like_a_seat", "NameError_"]

LONGEST_NAME = 40


class NameError_(ValueError):  # noqa: N801  a name the table refuses (ValueError, not the builtin NameError)
    """A name the table does not take, with the sentence saying why."""


def clean_text(text: str, longest: int) -> str:
    """``text`` without lone surrogates, control or format characters (Unicode categories Cc, Cf,
    Cs, Co, Cn), its spaces collapsed, cut to ``longest`` characters."""
    kept = "".join(c if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn") else " " for c in text)
    return " ".join(kept.split())[:longest].strip()


def clean_name(name: str) -> str:
    """A name as the table keeps it (possibly empty: the caller decides what an empty name means)."""
    return clean_text(unicodedata.normalize("NFC", clean_text(name, 4 * LONGEST_NAME)), LONGEST_NAME)


def computer_name(seat: int, lang: str) -> str:
    """A computer's name at the class table: its seat, as the notebook table names its computers."""
    return t("seat.label", lang, seat=seat)


def looks_like_a_seat(name: str) -> bool:
    """True for "Seat 3", "platz 3", "3. játékos", "Computer 3": names the table's own words use."""
    folded = name.casefold()
    for lang in LANGUAGES:
        before, _, after = t("seat.label", lang, seat=0).partition("0")
        if re.fullmatch(re.escape(before.casefold()) + r"\s*\d+\s*" + re.escape(after.casefold()), folded):
            return True
    return re.fullmatch(r"(computer|számítógép|gép)\s*\d*", folded) is not None


def check_name(name: str, taken: list[str]) -> str:
    """The cleaned ``name``, or NameError_ if it is empty, a seat's or computer's name, or taken."""
    cleaned = clean_name(name)
    if not cleaned:
        raise NameError_("a name needs at least one letter or digit")
    if looks_like_a_seat(cleaned):
        raise NameError_(f"{cleaned!r} is how the table names its seats and computers: choose another name")
    if cleaned.casefold() in {other.casefold() for other in taken}:
        raise NameError_(f"{cleaned!r} sits at this table already: choose another name")
    return cleaned
