"""The table for keyboard and screen reader: two small front-end widgets (anywidget, pure Python).

ipywidgets cannot put ARIA attributes on its own elements, nor move the focus between them, nor
stop JupyterLab's notebook shortcuts (``d d`` deletes the cell) from firing on a key pressed over
a widget button.  So each view holds two widgets with a few lines of JavaScript of their own:

* ``Access`` (``access.js``), invisible, inside the view's root: it names the parts of the table
  for a screen reader (the hand, the actions, the players, the message line as a polite status),
  gives each card its name from its tooltip ("7 of Hearts, playable"), moves the focus between
  the cards with the arrow keys (one tab stop for the whole hand), sends the letter keys to
  Python (``on_key``), and keeps the focus where it was when a move redraws the hand (the same
  card, or the one now at its place) instead of losing it to the top of the page.
* ``LiveLog`` (``livelog.js``): the log of moves as a live region (``role="log"``,
  ``aria-live="polite"``), to which new sentences are only ever appended, so that a screen reader
  reads each move (a computer's too) once, as it happens.

What a key does is decided in Python (``keys.press``), so tests can press keys without a browser.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
import traitlets

__all__ = ["Access", "LiveLog", "SHOWN"]

_HERE = Path(__file__).parent
SHOWN = 80  # lines of the log kept in the browser; every line stays in ``MoveLog.lines``


class Access(anywidget.AnyWidget):
    """Keyboard and screen-reader helper of one view (see the module docstring).

    ``labels`` name the parts (``hand``, ``actions``, ``players``); ``letters`` are the keys sent to
    Python, where ``on_key(letter)`` handles them.
    """

    _esm = _HERE / "access.js"
    labels = traitlets.Dict().tag(sync=True)
    letters = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, labels: dict[str, str], letters: Sequence[str] = (),
                 on_key: Callable[[str], Any] | None = None) -> None:
        super().__init__(labels=dict(labels), letters=list(letters))
        self.layout.display = "none"  # the script needs no room; it works on the view around it
        self.on_key = on_key
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "key" and self.on_key is not None:
            key = str(content.get("key", ""))
            if key in self.letters:
                self.on_key(key)


class LiveLog(anywidget.AnyWidget):
    """The log of moves: ``title`` above, ``lines`` (``[n, css class, sentence]``, oldest first; ``n``
    counts every line ever written, so the browser appends only what is new)."""

    _esm = _HERE / "livelog.js"
    title = traitlets.Unicode("").tag(sync=True)
    lines: traitlets.List[list[object]] = traitlets.List().tag(sync=True)

    def __init__(self, title: str = "") -> None:
        super().__init__(title=title)
        self.add_class("mm-log")
        self.add_class("mm-livelog")

    @property
    def value(self) -> str:
        """The log as HTML, as the browser shows it (notebooks and tests read it)."""
        rows = "".join(f'<div class="{kind}">{html.escape(str(text), quote=False)}</div>'
                       for _n, kind, text in self.lines)
        return f'<div class="mm-log"><b>{html.escape(self.title, quote=False)}</b>{rows}</div>'
