"""The terminal itself: where ``maumau`` reads a line and writes one, with colour and card
symbols as far as the terminal allows.  What is said comes from the callers (and the
catalogue, ``maumau.text.i18n``); this module only carries it."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import TextIO

from ..text.i18n import t

__all__ = ["Console", "Quit"]

_ASCII = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "★": "JOKER", "🃏": "JOKER",
                        "─": "-", "·": "|", "—": "-"})
#: A red card, painted red where the terminal has colour, in the letters of every language (D♥, Á♦).
_RED = re.compile(r"(?:10|[2-9JQKABDÁ])[♥♦]")


class Quit(Exception):
    """The player left the game (q), or the input ended."""


class Console:
    """Where the command line reads and writes; colour and card symbols as the terminal allows."""

    def __init__(self, input_fn: Callable[[str], str] | None = None, out: TextIO | None = None,
                 err: TextIO | None = None) -> None:
        self.input_fn = input_fn or input
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.color = (not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
                      and hasattr(self.out, "isatty") and self.out.isatty())
        try:
            "♥♠★─·—".encode(getattr(self.out, "encoding", None) or "utf-8")
            self.unicode = True
        except (UnicodeEncodeError, LookupError):
            self.unicode = False

    def paint(self, text: str) -> str:
        if not self.unicode:
            return text.translate(_ASCII)
        return _RED.sub(lambda m: f"\033[31;1m{m.group(0)}\033[0m", text) if self.color else text

    def bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.color else text

    def say(self, text: str = "") -> None:
        self.out.write(self.paint(text) + "\n")

    def note(self, text: str) -> None:
        """A line under the table or under a move, indented by two spaces."""
        self.say("  " + text)

    def error(self, message: str) -> None:
        self.err.write(f"maumau: error: {message}\n")

    def ask(self, prompt: str) -> str:
        """One line of input; Quit when the input has ended (Ctrl-D)."""
        self.out.flush()
        try:
            return self.input_fn(self.paint(prompt)).strip()
        except EOFError:
            raise Quit(t("term.input_ended")) from None
