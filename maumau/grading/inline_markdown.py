"""A learner's or grader's text inside Markdown, shown as written: ``md_text`` (inline) and ``printable_line``.
Its own module, with no import of the grader's machinery, because the notebook's ``classroom.feedback``
object uses it in the browser course too (Pyodide has no kernels to start: ``gradebook`` needs them)."""

from __future__ import annotations

import re

from .submissions import printable

__all__ = ["md_text", "printable_line"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_MD_PUNCT = re.compile(r"[\\`*\[\]!|~#<>&$@]")


def printable_line(text: str) -> str:
    """Printable, on one line, without control characters (the summary is also printed to a
    terminal, where an escape sequence would act)."""
    text = _CONTROL.sub(lambda m: " " if m.group() in "\t\n\r" else f"\\x{ord(m.group()):02x}", printable(text))
    return " ".join(text.split())


def md_text(text: object) -> str:
    """Learner text for inline Markdown: shown as written, never as markup (HTML, links,
    images, emphasis, code, table cells, bare URLs)."""
    text = printable_line(str(text))
    out = []
    for i, ch in enumerate(text):
        if _MD_PUNCT.match(ch):
            out.append("\\" + ch)
        elif ch == "_":  # between two letters or digits "_" is no emphasis: snake_case stays readable
            inner = 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum()
            out.append(ch if inner else "\\_")
        else:
            out.append(ch)
    # no bare link either (GitHub and some renderers link http://... and www.... by themselves)
    return "".join(out).replace("://", "\\://").replace("www.", "www\\.")
