"""The log of moves under the table: one sentence per move, newest first, the learner's own marked."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as W

from ..core.cards import Card
from ..core.moves import Draw, Move
from ..core.state import GameState
from ..text.explain import narrate
from ..text.i18n import t, use_language
from .common import Seating, esc

__all__ = ["MoveLog", "new_cards"]

_SHOWN = 80  # lines shown; all of them are kept in ``lines``


class MoveLog:
    """``lines`` holds every sentence; ``html`` shows the last ones."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.lines: list[str] = []
        self.kinds: list[str] = []
        self.html = W.HTML()

    def note(self, text: str) -> None:
        """A line that is no move: the deal, a card you drew, a move taken back."""
        self.lines.append(text)
        self.kinds.append("mm-note")

    def move(self, before: GameState, move: Move, after: GameState, seating: Seating, seats: Sequence[int],
             me: int | None) -> None:
        """The engine's sentence for ``move`` with the players' names, and what came into your hand."""
        with use_language(self.lang):
            sentence = narrate(before, move, after)
        self.lines.append(seating.rename(sentence, seats))
        self.kinds.append("mm-mine" if before.to_move == me else "")
        if me is not None:
            got = new_cards(before.hands[me], after.hands[me])
            if got:
                drew = before.to_move == me and isinstance(move, Draw) and before.pending is None
                text = " ".join(c.symbol for c in got)
                self.note(t("ui.you_drew" if drew else "ui.you_got", self.lang, cards=text))

    def clear(self) -> None:
        self.lines.clear()
        self.kinds.clear()

    def render(self) -> None:
        last = len(self.lines) - 1
        rows = [f'<div class="{self.kinds[i]}{" mm-new" if i == last else ""}">{esc(self.lines[i])}</div>'
                for i in range(last, max(0, last + 1 - _SHOWN) - 1, -1)]
        self.html.value = f'<div class="mm-log"><b>{esc(t("ui.log", self.lang))}</b>{"".join(rows)}</div>'


def new_cards(before: Sequence[Card], after: Sequence[Card]) -> list[Card]:
    """The cards that came into a hand (counted: a double deck has twins)."""
    left = list(before)
    new = []
    for card in after:
        if card in left:
            left.remove(card)
        else:
            new.append(card)
    return new
