"""The log of moves under the table: one sentence per move, newest first, the learner's own marked."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import Card
from ..core.moves import Draw, Move
from ..core.state import GameState
from ..text.explain import narrate
from ..text.i18n import card_symbol, t, use_language
from .access import SHOWN, LiveLog
from .common import Seating

__all__ = ["MoveLog", "new_cards"]


class MoveLog:
    """``lines`` holds every sentence; ``html`` (a ``LiveLog``, a live region for screen readers)
    shows the last ones, oldest first, the newest at the bottom."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.lines: list[str] = []
        self.kinds: list[str] = []
        self.html = LiveLog(t("ui.log", lang))

    def note(self, text: str) -> None:
        """A line that is no move: the deal, a card you drew, a move taken back."""
        self.lines.append(text)
        self.kinds.append("mm-note")

    def move(self, before: GameState, move: Move, after: GameState, seating: Seating, seats: Sequence[int],
             me: int | None) -> None:
        """The engine's sentence for ``move`` with the players' names, and what came into your hand."""
        with use_language(self.lang):
            sentence = narrate(before, move, after, you=me)  # the learner as "you", "du", "te"
        self.lines.append(seating.rename(sentence, seats))
        self.kinds.append("mm-mine" if before.to_move == me else "")
        if me is not None:
            got = new_cards(before.hands[me], after.hands[me])
            if got:
                drew = before.to_move == me and isinstance(move, Draw) and before.pending is None
                text = " ".join(card_symbol(c, self.lang) for c in got)
                self.note(t("ui.you_drew" if drew else "ui.you_got", self.lang, cards=text))

    def clear(self) -> None:
        self.lines.clear()
        self.kinds.clear()

    def render(self) -> None:
        first = max(0, len(self.lines) - SHOWN)
        shown = [[i, self.kinds[i], self.lines[i]] for i in range(first, len(self.lines))]
        if shown != self.html.lines:
            self.html.lines = shown


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
