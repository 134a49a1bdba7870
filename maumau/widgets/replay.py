"""Replay: step forward and back through a game, every hand open (the teacher's view).

The source may be a ``Game``, a table from ``mm.play`` (its finished hands and the one
being played, followed as it goes on), a ``Match``, a ``HandResult`` or a list of games.
Each step shows the table after that move and the sentence that explains the move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import ipywidgets as W

from ..core.moves import Move
from ..core.state import GameState
from ..play.game import Game
from ..play.match import HandResult, Match
from ..text.explain import narrate
from ..text.i18n import card_symbol, t, use_language
from .access import Access
from .board import Board
from .common import Displayed, Seating, check_lang, esc
from .style import style_sheet
from .table import TableView
from .table_renderer import access_labels
from .theme import theme_classes

__all__ = ["ReplayView"]

_WINDOW = 5  # moves listed before and after the current one


class _Hand:
    """One hand to replay: its label, its game and the match seat of each hand seat."""

    def __init__(self, label: str, game: Game, seats: Sequence[int] | None) -> None:
        self.label, self.game, self.seats = label, game, None if seats is None else tuple(seats)


class ReplayView(Displayed):
    """Buttons and a slider over the moves of a game; ``go(i)`` shows the state after i moves."""

    def __init__(self, source: Any, *, lang: str | None = None, names: Sequence[str] | None = None,
                 at: int | None = None, colours: str = "two", contrast: str = "normal") -> None:
        self.lang = check_lang(lang)
        self.theme = theme_classes(colours, contrast)
        self.source = source
        self._said: dict[tuple[int, int], tuple[Any, str]] = {}
        self.hands = self._collect()
        if not self.hands:
            raise ValueError("nothing to replay: the match has no hands yet")
        if names is not None:
            self.seating = Seating(names, None, self.lang)
        elif isinstance(source, TableView):
            self.seating = Seating(source.seating.names, None, self.lang)
        else:
            count = max(max(h.seats) + 1 if h.seats else h.game.start.players for h in self.hands)
            self.seating = Seating([t("seat.label", self.lang, seat=i) for i in range(count)], None, self.lang)
        self._build()
        self.hand_index = len(self.hands) - 1
        self._show_hand(self.hand_index, at)
        if isinstance(source, TableView):
            source.on_change(self._follow)

    # --- what there is to replay -----------------------------------------------------------------------
    def _collect(self) -> list[_Hand]:
        src, lang = self.source, self.lang
        if isinstance(src, Game):
            return [_Hand(t("ui.hand_n", lang, n=1), src, None)]
        if isinstance(src, HandResult):
            return [_Hand(t("ui.hand_n", lang, n=src.number), src.game, src.seats)]
        if isinstance(src, (Match, TableView)):
            match = src if isinstance(src, Match) else src.match
            hands = [_Hand(t("ui.hand_n", lang, n=r.number), r.game, r.seats) for r in match.hands]
            if isinstance(src, TableView) and src.result is None:
                label = f"{t('ui.hand_n', lang, n=len(match.hands) + 1)} ({t('ui.running', lang)})"
                hands.append(_Hand(label, src.game, src.seats))
            return hands
        if isinstance(src, (list, tuple)) and all(isinstance(g, Game) for g in src):
            return [_Hand(t("ui.hand_n", lang, n=i + 1), g, None) for i, g in enumerate(src)]
        raise TypeError(f"replay shows a Game, a table from mm.play, a Match or a HandResult, not {src!r}")

    # --- widgets -----------------------------------------------------------------------------------------
    def _build(self) -> None:
        lang = self.lang
        self.header = W.HTML()
        self.pick = W.Dropdown(description=t("ui.hand_pick", lang), layout=W.Layout(width="260px"))
        self.first_button = W.Button(description="|◀", tooltip=t("ui.first", lang), layout=W.Layout(width="46px"))
        self.back_button = W.Button(description="◀", tooltip=t("ui.back", lang), layout=W.Layout(width="46px"))
        self.forward_button = W.Button(description="▶", tooltip=t("ui.forward", lang),
                                       layout=W.Layout(width="46px"))
        self.last_button = W.Button(description="▶|", tooltip=t("ui.last", lang), layout=W.Layout(width="46px"))
        self.slider = W.IntSlider(min=0, max=0, readout=False, continuous_update=True,
                                  layout=W.Layout(width="360px"))
        self.position = W.HTML()
        self.undo_button = W.Button(description="↶ " + t("ui.undo_last", lang), layout=W.Layout(width="auto"))
        self.undo_button.layout.display = None if isinstance(self.source, (Game, TableView)) else "none"
        self.first_button.on_click(lambda _: self.go(0))
        self.back_button.on_click(lambda _: self.back())
        self.forward_button.on_click(lambda _: self.forward())
        self.last_button.on_click(lambda _: self.go(len(self.game)))
        self.undo_button.on_click(lambda _: self.undo())
        self.slider.observe(lambda change: self.go(change["new"]), names="value")
        self.pick.observe(lambda change: self._show_hand(change["new"]), names="value")
        self.board = Board(lang)
        self.explanation = W.HTML()
        self.explanation.add_class("mm-msg")  # a polite status: each step's sentence is read out (access.js)
        self.moves_html = W.HTML()
        for button in (self.first_button, self.back_button, self.forward_button, self.last_button):
            button.add_class("mm-label-from-title")  # "One move back", not "black left-pointing triangle"
        controls = W.HBox([self.first_button, self.back_button, self.slider, self.forward_button,
                           self.last_button, self.position, self.undo_button])
        controls.add_class("mm-actions")
        self.access = Access(labels=access_labels(lang))
        self.widget = W.VBox([style_sheet(), self.access, self.header, W.HBox([self.pick]), controls,
                              self.explanation, self.board.widget, self.moves_html])
        self.widget.add_class("mm-table")
        for name in self.theme:
            self.widget.add_class(name)
        self._refresh_pick()

    def __repr__(self) -> str:
        n = len(self.hands)
        return t("ui.repr_replay_1" if n == 1 else "ui.repr_replay", self.lang, n=n)

    def _refresh_pick(self) -> None:
        options = [(h.label, i) for i, h in enumerate(self.hands)]
        if list(self.pick.options) != options:
            value = getattr(self, "hand_index", len(options) - 1)
            self.pick.options = options
            self.pick.value = min(value, len(options) - 1)
        self.pick.layout.display = None if len(self.hands) > 1 else "none"

    # --- moving about ------------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.hands[self.hand_index].game

    @property
    def state(self) -> GameState:
        """The state shown: after ``index`` moves."""
        return self.game.at(self.index)

    def _show_hand(self, i: int | None, at: int | None = None) -> None:
        if i is None:
            return
        self.hand_index = i
        if self.pick.value != i:
            self.pick.value = i
        self.index = -1
        self.go(len(self.game) if at is None else at)

    def go(self, i: int) -> None:
        """Show the state after ``i`` moves (0 is the deal; clamped to the game)."""
        n = len(self.game)
        i = max(0, min(int(i), n))
        self.slider.max = n
        if self.slider.value != i:
            self.slider.value = i  # calls go(i) again through the observer, which then does nothing
        if i == self.index and self.position.value:
            return
        self.index = i
        self._render()

    def forward(self) -> None:
        self.go(self.index + 1)

    def back(self) -> None:
        self.go(self.index - 1)

    def undo(self) -> bool:
        """Take back the last move of the game itself (a Game, or the learner's at a table)."""
        if isinstance(self.source, TableView):
            done = self.source.undo()
        elif isinstance(self.source, Game) and len(self.source):
            self.source.undo()
            done = True
        else:
            done = False
        self.index = -1
        self.go(len(self.game))
        return done

    def _follow(self) -> None:
        """The table moved on: update the hands, and keep showing the end if we were there."""
        at_end = self.hand_index == len(self.hands) - 1 and self.index >= len(self.game) - 1
        self.hands = self._collect() or self.hands
        self._refresh_pick()
        if at_end:
            self._show_hand(len(self.hands) - 1)
        else:
            self.hand_index = min(self.hand_index, len(self.hands) - 1)
            self.slider.max = len(self.game)

    # --- drawing -----------------------------------------------------------------------------------------
    def sentence(self, i: int) -> str:
        """What move ``i`` (1-based) did, with the players' names; the deal for 0."""
        game, hand = self.game, self.hands[self.hand_index]
        if i == 0:
            start = game.start
            return t("ui.start", self.lang, name=self.seating.name(start.dealer, hand.seats),
                     card=card_symbol(start.top, self.lang))
        move = game.moves[i - 1] if i <= len(game) else None
        key = (id(game), i)
        found = self._said.get(key)
        if found is None or found[0] is not move:
            with use_language(self.lang):
                text = narrate(game.at(i - 1), cast(Move, move), game.at(i))  # game.at(i) fails if move is None
            found = self._said[key] = (move, self.seating.rename(text, hand.seats))
        return found[1]

    def _render(self) -> None:
        lang, i, n = self.lang, self.index, len(self.game)
        hand = self.hands[self.hand_index]
        state = self.game.at(i)
        self.header.value = (f'<div class="mm-head">{esc(t("ui.replay", lang))} · {esc(state.variant.title)} '
                             f'<span class="mm-sub">· {esc(hand.label)} · {esc(t("ui.teacher", lang))}</span></div>')
        self.position.value = f"<b>{esc(t('ui.move_of', lang, i=i, n=n))}</b>"
        self.explanation.value = f'<span class="mm-info">{esc(self.sentence(i))}</span>'
        self.board.show(state, self.seating, hand.seats, me=None, open_hands=True)
        lines = []
        for j in range(max(0, i - _WINDOW), min(n, i + _WINDOW) + 1):
            mark = ' class="mm-mine mm-new"' if j == i else ""
            lines.append(f"<div{mark}>{j}. {esc(self.sentence(j))}</div>")
        self.moves_html.value = (f'<div class="mm-log"><b>{esc(t("ui.log", lang))}</b>{"".join(lines)}</div>')
        self.back_button.disabled = self.first_button.disabled = i == 0
        self.forward_button.disabled = self.last_button.disabled = i == n
