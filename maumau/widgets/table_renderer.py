"""What the card table shows: its widgets, and bringing them up to date with the hand in progress.

The screen holds no game: it draws whatever the controller holds (``render``) and shows the
explanation or hint of the moment (``say``).  The learner's hand, Draw and Pass and the centre
are drawn from the learner's seat model (``maumau.play.seat_model``), as ``mm.join``'s table
draws the one its server sends; only the header, the teacher's open hands, "Next move", "Take
back" and the result read the game and the match.  The buttons are connected to the controller by
the table itself, so this module only builds and redraws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import ipywidgets as W

from ..core.variants import Variant
from ..play.seat_model import SeatModel
from ..text.i18n import t
from .access import Access
from .board import Board
from .common import STRENGTHS, esc, score_word
from .controls import TableButtons, WishPicker
from .hand import HandView, Key
from .keys import KEYS, keys_html, press
from .log import MoveLog
from .scores import result_html, rules_html
from .style import style_sheet
from .theme import theme_classes

if TYPE_CHECKING:  # only for the annotations of what the screen reads
    from ..core.state import GameState
    from ..play.game import Game
    from ..play.match import HandResult, Match
    from .common import Seating
    from .table_scheduler import Scheduler

__all__ = ["TableScreen", "ScreenSource", "strength_word", "access_labels"]


class ScreenSource(Protocol):
    """What the screen reads of the table's controller (``TableController``), which draws
    through the screen: the screen never imports the controller."""

    lang: str
    seed: int
    strength: str

    @property
    def state(self) -> GameState: ...

    @property
    def me(self) -> int | None: ...

    @property
    def game(self) -> Game: ...

    @property
    def match(self) -> Match: ...

    @property
    def result(self) -> HandResult | None: ...

    @property
    def seating(self) -> Seating: ...

    @property
    def seats(self) -> tuple[int, ...]: ...

    @property
    def selected(self) -> Sequence[Key]: ...

    def model(self) -> SeatModel | None: ...

    @property
    def scheduler(self) -> Scheduler: ...

    @property
    def custom_players(self) -> bool: ...

    @property
    def computers(self) -> Sequence[object]: ...


class TableScreen:
    """The widgets of one table: header, board, message, wish picker, hand, controls, result, log, rules."""

    def __init__(self, variant: Variant, lang: str, moves_log: MoveLog, open_hands: bool,
                 on_card: Callable[[Key], None], colours: str = "two", contrast: str = "normal") -> None:
        self.variant, self.lang = variant, lang
        self.open_hands = bool(open_hands)
        self.message_text = ""  # the last thing said, as plain text (tests and notebooks read it)
        self.header = W.HTML()
        self.board = Board(lang)
        self.message = W.HTML()
        self.message.add_class("mm-msg")
        self.wish = WishPicker(lang)
        self.hand_label = W.HTML()
        self.hand = HandView(lang, on_card)
        self.controls = TableButtons(variant, lang)
        self.result_html = W.HTML()
        self.next_hand_button = W.Button(description=t("ui.next_hand", lang), button_style="success")
        self.new_match_button = W.Button(description=t("ui.new_match", lang), button_style="info")
        self.result_box = W.VBox([self.result_html, W.HBox([self.next_hand_button, self.new_match_button])],
                                 layout=W.Layout(display="none"))
        self.result_box.add_class("mm-result-box")
        self.keys_line = W.HTML(keys_html(variant, lang))
        self.access = Access(labels=access_labels(lang), letters=list(KEYS), on_key=self.press)
        self.rules = W.Accordion(children=[W.HTML(rules_html(variant, lang) + keys_html(variant, lang))],
                                 selected_index=None)
        self.rules.set_title(0, t("ui.rules", lang))
        self.rules.add_class("mm-rules")
        self.moves_log = moves_log
        self.widget = W.VBox([style_sheet(), self.access, self.header, self.board.widget, self.message, self.wish.box,
                              self.hand_label, self.hand.box, self.controls.row, self.keys_line, self.result_box,
                              moves_log.html, self.rules])
        self.widget.add_class("mm-table")
        for name in theme_classes(colours, contrast):
            self.widget.add_class(name)
        self.colours, self.contrast = colours, contrast

    def press(self, key: str) -> bool:
        """A letter key pressed at the table (``keys.KEYS``): what its button does; False if nothing."""
        return press(self, key)

    def say(self, text: str, error: bool = False) -> None:
        """Show an explanation (``error``: why a move was refused) above the hand; "" clears it."""
        self.message_text = text
        kind = "mm-error" if error else "mm-info"
        self.message.value = f'<span class="{kind}">{esc(text)}</span>' if text else ""

    def render(self, table: ScreenSource) -> None:
        """Bring every widget up to date with the hand in progress."""
        state, me, lang = table.state, table.me, self.lang
        scores = table.match.scores
        word = score_word(self.variant, lang)
        subtitles = [f"{scores[0]} {word}"] + [f"{strength_word(table, i)} · {scores[i]} {word}"
                                               for i in range(1, table.match.players)]
        hand_no = len(table.match.hands) + (0 if table.result is not None else 1)
        deal_no = t("ui.seed", lang, seed=table.seed)
        self.header.value = (f'<div class="mm-head">{esc(self.variant.title)} <span class="mm-sub">· '
                             f'{esc(t("ui.hand_n", lang, n=hand_no))} · {esc(deal_no)}</span></div>')
        model = table.model()
        self.board.show(state, table.seating, table.seats, me=me, open_hands=self.open_hands or me is None,
                        subtitles=subtitles, view=model.view if model is not None else None)
        self._render_hand(model, state.is_over, f"{scores[0]} {esc(word)}", table.selected)
        self.controls.update(model, over=state.is_over, computer=not state.is_over and state.to_move != me,
                             step=table.scheduler.step, chosen=len(table.selected),
                             can_undo=any(s.to_move == me for s in table.game.states[:-1]))
        self.moves_log.render()
        self._render_result(table)

    def _render_hand(self, model: SeatModel | None, over: bool, score: str, selected: Sequence[Key]) -> None:
        """The learner's cards from their seat model, those a click plays raised on their turn;
        nothing once out of the match."""
        if model is None:
            self.hand.show((), ())
            self.hand_label.value = ""
            return
        self.hand.show_seat(model, selected)
        self.hand.box.layout.display = "none" if over and not model.view.hand else None
        self.hand_label.value = (f'<div class="mm-handlabel">{esc(t("ui.your_hand", self.lang))} '
                                 f'<span class="mm-sub">· {score}</span></div>')

    def _render_result(self, table: ScreenSource) -> None:
        """After a hand: its result, and "next hand" or, once the match is won, "new match"."""
        if table.result is None:
            self.result_box.layout.display = "none"
            return
        self.result_html.value = result_html(table.result, table.match, table.seating)
        over = table.match.is_over
        self.next_hand_button.layout.display = "none" if over else None
        self.new_match_button.layout.display = None if over else "none"
        self.result_box.layout.display = None


def access_labels(lang: str) -> dict[str, str]:
    """The names a screen reader gives the parts of a table."""
    return {"hand": t("ui.your_hand", lang), "actions": t("a11y.actions", lang), "players": t("a11y.players", lang),
            "wish": t("ui.wish", lang), "slider": t("ui.log", lang)}


def strength_word(table: ScreenSource, seat: int) -> str:
    """How a computer at ``seat`` plays, for the board: the strength, or a custom player's name."""
    if table.custom_players:
        player = table.computers[seat - 1]
        return str(getattr(player, "name", type(player).__name__))
    strength = table.strength
    return t("ui.strength." + strength, table.lang) if strength in STRENGTHS else strength
