"""The card table: a learner plays a match against computer opponents by clicking.

The learner sits in seat 0.  A click on a card plays it (a wish card first asks for the
wish), the buttons draw, pass, announce Mau/Macau/Makaó or open a Runde, and a card that may
not be played says why and changes nothing.  The computers then move one by one: in
JupyterLab each after ``delay`` seconds (scheduled on the kernel's event loop, so the kernel
stays free), with ``step=True`` one per click on "Next move", and without an event loop (tests,
scripts) at once.  Every move goes into the log with the engine's own sentence.

``TableView`` only puts the parts together: the game in ``table_controller``, the pace of the
computers in ``table_scheduler``, the widgets in ``table_renderer``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar, overload

import ipywidgets as W

from ..core.cards import Card
from ..core.moves import Draw, Move, Pass
from ..core.state import GameState
from ..core.variants import Variant
from ..play.game import Game
from ..play.match import HandResult, Match
from ..text.i18n import t
from .board import Board
from .common import Displayed, Seating
from .controls import TableButtons, WishPicker
from .hand import HandView
from .log import MoveLog
from .presenter import Presenter
from .table_controller import TableController
from .table_renderer import TableScreen
from .table_scheduler import Scheduler

__all__ = ["TableView"]

T = TypeVar("T")


class _Part(Generic[T]):
    """An attribute of the table that lives in one of its parts.

    Reading and assigning go to the part, so ``table.seed`` or ``table.game`` mean what they
    meant before the table was split into parts, and nothing holds a second, stale copy.
    """

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, table: None, owner: type | None = None) -> _Part[T]: ...
    @overload
    def __get__(self, table: object, owner: type | None = None) -> T: ...
    def __get__(self, table: object | None, owner: type | None = None) -> T | _Part[T]:
        if table is None:
            return self
        value: T = getattr(getattr(table, self.part), self.name)
        return value

    def __set__(self, table: object, value: T) -> None:
        setattr(getattr(table, self.part), self.name, value)


class TableView(Displayed):
    """A match of ``game`` between the learner (seat 0) and ``opponents`` computer players.

    ``mm.play("makao", opponents=3, strength="medium", seed=7, lang="de")``.  Useful handles for
    code and tests: ``state``, ``game`` (the hand being played, a ``Game``), ``match``,
    ``click(card)``, ``hand.button_for(card)``, ``draw_button``, ``pass_button``, ``mau_button``,
    ``wish.buttons``, ``next_hand_button``, ``message_text``, ``log`` (the sentences) and ``press(key)``.
    ``colours="four"`` gives the four-colour deck, ``contrast="high"`` the high-contrast theme.
    """

    # The game and the match (table_controller).
    lang: _Part[str] = _Part("controller")
    variant: _Part[Variant] = _Part("controller")
    seed: _Part[int] = _Part("controller")
    strength: _Part[str] = _Part("controller")
    match: _Part[Match] = _Part("controller")
    computers: _Part[list[Any]] = _Part("controller")
    seating: _Part[Seating] = _Part("controller")
    moves_log: _Part[MoveLog] = _Part("controller")
    log: _Part[list[str]] = _Part("controller")
    game: _Part[Game] = _Part("controller")
    seats: _Part[tuple[int, ...]] = _Part("controller")
    result: _Part[HandResult | None] = _Part("controller")
    # The pace of the computers (table_scheduler).
    delay: _Part[float] = _Part("scheduler")
    step: _Part[bool] = _Part("scheduler")
    # The widgets (table_renderer).
    open_hands: _Part[bool] = _Part("screen")
    widget: _Part[W.VBox] = _Part("screen")
    header: _Part[W.HTML] = _Part("screen")
    board: _Part[Board] = _Part("screen")
    message: _Part[W.HTML] = _Part("screen")
    wish: _Part[WishPicker] = _Part("screen")
    hand_label: _Part[W.HTML] = _Part("screen")
    hand: _Part[HandView] = _Part("screen")
    controls: _Part[TableButtons] = _Part("screen")
    result_html: _Part[W.HTML] = _Part("screen")
    next_hand_button: _Part[W.Button] = _Part("screen")
    new_match_button: _Part[W.Button] = _Part("screen")
    result_box: _Part[W.VBox] = _Part("screen")
    rules: _Part[W.Accordion] = _Part("screen")

    def __init__(self, game: str | Variant = "makao", opponents: int = 3, *, strength: str = "medium",
                 seed: int | None = None, lang: str | None = None, delay: float = 0.6, step: bool = False,
                 name: str | None = None, names: Sequence[str] | None = None, open_hands: bool = False,
                 players: Sequence[Any] | None = None, start: GameState | None = None, colours: str = "two",
                 contrast: str = "normal") -> None:
        self.scheduler = Scheduler(delay, step)
        self.controller = TableController(game, opponents, strength=strength, seed=seed, lang=lang, name=name,
                                          names=names, players=players, start=start, scheduler=self.scheduler)
        ctl = self.controller
        self.screen = TableScreen(ctl.variant, ctl.lang, ctl.moves_log, open_hands,
                                  lambda key: ctl.presenter.on_card(key), colours, contrast)
        ctl.screen = self.screen
        ctl.presenter = Presenter(self.screen, ctl.model, ctl.human, ctl.blocked, lambda: self.screen.render(ctl))
        self._wire()
        ctl.new_hand(start)

    def _wire(self) -> None:
        """Connect the buttons: the public ones through this table's own methods, as before the split."""
        c, ctl = self.controls, self.controller
        c.draw.on_click(lambda _: ctl.human(Draw()))
        c.pass_.on_click(lambda _: ctl.human(Pass()))
        c.play_set.on_click(lambda _: ctl.presenter.play_selected())
        c.next.on_click(lambda _: self.next_move())
        c.undo.on_click(lambda _: self.undo())
        c.sets.observe(lambda _: ctl.presenter.choose_again(), names="value")
        self.next_hand_button.on_click(lambda _: self.next_hand())
        self.new_match_button.on_click(lambda _: self.new_match())

    def __repr__(self) -> str:
        return t("ui.repr_table", self.lang, variant=self.variant.name, n=self.match.players)

    # --- handles -----------------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.controller.state

    @property
    def me(self) -> int | None:
        """The learner's seat in the hand being played (None once out of the match)."""
        return self.controller.me

    draw_button = property(lambda self: self.controls.draw)
    pass_button = property(lambda self: self.controls.pass_)
    mau_button = property(lambda self: self.controls.mau)
    runde_button = property(lambda self: self.controls.runde)
    set_button = property(lambda self: self.controls.sets)
    play_set_button = property(lambda self: self.controls.play_set)
    next_button = property(lambda self: self.controls.next)
    undo_button = property(lambda self: self.controls.undo)

    @property
    def message_text(self) -> str:
        """The last explanation or hint shown above the hand, as plain text."""
        return self.screen.message_text

    def move(self, move: Move) -> bool:
        """Make the learner's move in code, as the buttons do: False (and the reason shown) if illegal."""
        return self.controller.human(move)

    def click(self, card: str | Card, copy: int = 0) -> None:
        """Click a card of the learner's hand, as a mouse would."""
        self.hand.button_for(card, copy).click()

    def press(self, key: str) -> bool:
        """Press a letter key at the table, as a keyboard would (``maumau.widgets.keys``: D draw, P pass,
        M announce, R Runde, S several cards, N next); False, and why in the message line, if it does nothing."""
        return self.screen.press(key)

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every move (the replay view follows a running table)."""
        self.controller.on_change(callback)

    # --- the match ---------------------------------------------------------------------------------------
    def next_hand(self) -> None:
        """Deal the next hand of the match (after a hand has ended)."""
        self.controller.next_hand()

    def new_match(self) -> None:
        """Start a new match at the same table, with the next seed."""
        self.controller.new_match()

    def next_move(self) -> None:
        """Step mode: let the computer whose turn it is make one move."""
        self.controller.next_move()

    def undo(self) -> bool:
        """Take back the learner's last move and the computers' moves after it."""
        return self.controller.undo()
