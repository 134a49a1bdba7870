"""Text cells of a CSV file that a spreadsheet shows as text, never runs as a formula.

A spreadsheet reads a cell starting with ``= + - @`` (or a tab or carriage return, which some
strip first) as a formula.  OWASP's advice on CSV injection is to put a ``'`` before such a cell.
Learners choose the names and messages that end up in grades.csv and the LMS files, so "starting
with" is read the way a spreadsheet or a person might:

- in the text's NFKC form: the full-width ``＝ ＋ － ＠`` and the small and super-/subscript
  forms (``﹦ ⁺ ₋ ﹫``) are the ASCII signs;
- after any leading characters that show nothing: spaces of every kind, control and format
  characters (U+200B, U+FEFF, the direction marks), and Unicode's other default-ignorable
  code points (U+034F, the variation selectors, the Hangul fillers U+3164 ...);
- a dash or minus of any kind (U+2010-U+2015, U+2212 ...) counts as ``-``.

A cell that starts with ``'`` is quoted too, so that reading a cell back (``plain``) is exact:
``cell_text(csv_text(x)) == printable(x)`` for every ``x``.  Numbers (scores) are never passed
through here: they stay numbers.

``csv_table`` writes the rows (lines end in ``\n``) with every cell that holds a line break in
quotes, a carriage return too: Python's writer quotes only the characters of its line
terminator, and a reader that takes a bare ``\r`` for the end of a line would read a learner's
``"x\rmallory,02,6"`` as a row of its own.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable

from .submissions import printable

__all__ = ["FORMULA_SIGNS", "QUOTE", "formula_like", "csv_text", "cell_text", "csv_table"]

#: What a spreadsheet reads as the start of a formula.
FORMULA_SIGNS = frozenset("=+-@\t\r")
#: The mark that makes a cell text.
QUOTE = "'"
#: Signs that NFKC keeps apart from ``+`` and ``-`` but that read as them.
_LIKE_SIGNS = {"\u2212": "-", "\u2796": "-", "\u2795": "+", "\u2052": "-", "\u2e3a": "-", "\u2e3b": "-"}
#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt) that are neither
#: format (Cf) nor control characters: marks and fillers that show nothing.
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
              (0xE0000, 0xE0FFF))


def invisible(ch: str) -> bool:
    """Whether ``ch`` shows nothing at the start of a cell (tab and carriage return excepted:
    they are formula signs themselves)."""
    if ch in "\t\r":
        return False
    if unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp") or ch.isspace():
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE)


def _sign(ch: str) -> str:
    """``ch`` as the ASCII sign it reads as (itself if none)."""
    if unicodedata.category(ch) == "Pd":  # every dash: hyphen, en dash, small hyphen-minus ...
        return "-"
    return _LIKE_SIGNS.get(ch, ch)


def formula_like(text: str) -> bool:
    """Whether a spreadsheet could take ``text`` for a formula: its NFKC form, after the
    leading characters that show nothing, starts with ``= + - @``, a tab or a carriage return."""
    normal = unicodedata.normalize("NFKC", text)
    first = next((ch for ch in normal if not invisible(ch)), "")
    return _sign(first) in FORMULA_SIGNS if first else False


def csv_text(value: object) -> str:
    """A text cell as a spreadsheet shows it: as text, never as a formula."""
    text = printable(str(value))
    return QUOTE + text if text.startswith(QUOTE) or formula_like(text) else text


def cell_text(cell: str) -> str:
    """A cell written by ``csv_text`` as it was before: less the quote ``csv_text`` added."""
    rest = cell[1:]
    return rest if cell.startswith(QUOTE) and (rest.startswith(QUOTE) or formula_like(rest)) else cell


def csv_table(rows: Iterable[Iterable[object]]) -> str:
    """The rows as CSV text, one line each ending in ``\n``, a cell with ``\r`` or ``\n`` quoted."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")  # so that \r and \n in a cell are quoted
    lines = []
    for row in rows:
        writer.writerow(row)
        lines.append(buf.getvalue()[:-2] + "\n")
        buf.seek(0)
        buf.truncate()
    return "".join(lines)
