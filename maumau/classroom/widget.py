"""A seat at a class table, in Jupyter: the card table of ``mm.play``, bound to a server's table.

>>> import maumau as mm
>>> remote = mm.join("http://127.0.0.1:8765", "K7QX2M", name="Anna")   # doctest: +SKIP

The learner sees what their seat sees (``maumau.players.View``: their own hand, how many cards
the others hold, the pile, the wish and what is pending) in the look of ``mm.play``: the same
board, hand of card buttons, wish picker, Mau/Runde toggles, Draw and Pass, log and rules.  A
click sends the move to the server; the server's answer to an illegal move (the engine's own
sentence) is shown above the hand and changes nothing.

Nothing polls.  The Seat's receiving thread calls ``RemoteTable._changed`` after each table
message.  In a kernel that hands the redraw to the event loop that was running when the table
was made (the kernel's), with ``call_soon_threadsafe``; without one (a script, pytest) the
receiving thread redraws itself.  The redraw brings the widgets up to date under a lock (a value
that did not change sends nothing to the browser).  The lock is never held while waiting for the
server, so a redraw is never blocked by a click.  How the table looks is ``widget_render``'s.
"""
from __future__ import annotations

import asyncio
import threading

import ipywidgets as W

from ..core.cards import Card
from ..core.moves import Draw, Move, Pass
from ..core.state import IllegalMove
from ..core.variants import Variant
from ..play.seat_model import SeatModel
from ..players.view import View
from ..text.i18n import t
from ..widgets.board import Board
from ..widgets.common import Displayed, check_lang
from ..widgets.controls import TableButtons, WishPicker
from ..widgets.hand import HandView, Key
from ..widgets.keys import keys_html
from ..widgets.log import MoveLog
from ..widgets.presenter import Presenter
from ..widgets.scores import rules_html
from ..widgets.table_renderer import TableScreen
from ..widgets.theme import theme_classes
from .client import ClassroomError, Seat
from .client import join as join_seat
from .widget_render import Drawing

__all__ = ["join", "RemoteTable"]


def join(url: str, code: str, name: str | None = None, token: str | None = None, lang: str | None = None,
         timeout: float = 10.0, colours: str = "two", contrast: str = "normal",
         personal: str | None = None) -> RemoteTable:
    """Sit down at table ``code`` of the class table server at ``url`` and show the table:
    a free seat under ``name``, or one's own seat again with its ``token`` (``remote.seat.token``)
    or your ``personal`` code (a server with a roster: the seat is then yours, ``name`` only how
    you are shown); ``colours="four"`` and ``contrast="high"`` as for ``mm.play``."""
    lang = check_lang(lang)
    theme_classes(colours, contrast)  # a wrong option fails before anyone sits down
    seat = join_seat(url, code, name=name, token=token, lang=lang, timeout=timeout, personal=personal)
    return RemoteTable(seat, lang, colours=colours, contrast=contrast)


class RemoteTable(Drawing, Displayed):
    """One learner's seat at a class table, as the card table (see the module docstring).

    Handles for code and tests: ``seat`` (the ``maumau.classroom.Seat``), ``widget``, ``view``,
    ``hand.button_for(card)``, ``click(card)``, ``draw_button``, ``pass_button``, ``mau_button``,
    ``wish.buttons``, ``message_text`` (the status line: an illegal move's sentence),
    ``result_text`` (hand over, match over, waiting), ``log`` (the sentences) and ``errors``
    (anything that went wrong while redrawing on the receiving thread; empty, one hopes).
    """

    def __init__(self, seat: Seat, lang: str | None = None, *, colours: str = "two", contrast: str = "normal") -> None:
        self.seat = seat
        self.lang = check_lang(lang)
        self.variant: Variant = seat.variant
        self.errors: list[BaseException] = []
        self._lock = threading.RLock()
        self._loop = _running_loop()    # the kernel's event loop, where the table is redrawn
        self._heard = -1                # the last action whose sentence is in the log
        self._dealt: int | None = None  # the hand being shown
        self._ended: int | None = None  # the hand whose end is in the log
        self._hand: tuple[Card, ...] = ()
        self._was_mine = False
        self._pending_before = False
        self.result_text = ""
        self.view: View | None = None
        self.model: SeatModel | None = None
        self.screen = TableScreen(self.variant, self.lang, MoveLog(self.lang), False,
                                  lambda key: self.presenter.on_card(key), colours, contrast)
        self.presenter = Presenter(self.screen, lambda: self.seat.model, self.move, self._blocked, self._redraw_locked)
        s = self.screen
        s.result_box.children = (s.result_html,)  # a class table deals by itself: no "next hand" button
        for button in (s.controls.next, s.controls.undo):
            button.layout.display = "none"
        s.keys_line.value = keys_html(self.variant, self.lang, next_key=False)  # the server steps and deals
        s.rules.children[0].value = rules_html(self.variant, self.lang) + s.keys_line.value
        s.widget.add_class("mm-remote")
        self._wire()
        with self._lock:
            seat.on_change(self._changed)  # first, so no table message is missed ...
            self._render()                 # ... then the table as it is now

    def _wire(self) -> None:
        c = self.controls
        c.draw.on_click(lambda _: self.move(Draw()))
        c.pass_.on_click(lambda _: self.move(Pass()))
        c.play_set.on_click(lambda _: self.presenter.play_selected())
        c.sets.observe(lambda _: self.presenter.choose_again(), names="value")

    # --- handles -------------------------------------------------------------------------------------
    @property
    def widget(self) -> W.VBox:
        """The whole table, one ipywidgets box."""
        return self.screen.widget

    @property
    def board(self) -> Board:
        return self.screen.board

    @property
    def hand(self) -> HandView:
        return self.screen.hand

    @property
    def controls(self) -> TableButtons:
        return self.screen.controls

    @property
    def wish(self) -> WishPicker:
        return self.screen.wish

    @property
    def header(self) -> W.HTML:
        return self.screen.header

    draw_button = property(lambda self: self.screen.controls.draw)
    pass_button = property(lambda self: self.screen.controls.pass_)
    mau_button = property(lambda self: self.screen.controls.mau)
    runde_button = property(lambda self: self.screen.controls.runde)
    set_button = property(lambda self: self.screen.controls.sets)
    play_set_button = property(lambda self: self.screen.controls.play_set)

    @property
    def message_text(self) -> str:
        """The status line above the hand, as plain text (the server's sentence for an illegal move)."""
        return self.screen.message_text

    @property
    def log(self) -> list[str]:
        return self.screen.moves_log.lines

    def __repr__(self) -> str:
        return f"<maumau class table {self.seat.code}: seat {self.seat.number}, {self.variant.name}>"

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self._repr_mimebundle_(), raw=True)

    def click(self, card: str | Card, copy: int = 0) -> None:
        """Click a card of the hand, as a mouse would."""
        self.hand.button_for(card, copy).click()

    def press(self, key: str) -> bool:
        """Press a letter key at the table, as a keyboard would (D draw, P pass, M announce, ...)."""
        return self.screen.press(key)

    def close(self) -> None:
        """Close the connection (the seat waits for ``join(..., token=remote.seat.token)``)."""
        self.seat.close()

    # --- drawing (the receiving thread, and after a click) ---------------------------------------
    def _changed(self, seat: Seat) -> None:
        """The Seat's listener (its receiving thread): the table changed.  The redraw is handed to the
        kernel's event loop, the thread the widgets' clicks come from; without a loop (a script,
        pytest) it happens here and now."""
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._redraw)
                return
            except RuntimeError:  # the loop is closed (the kernel is going away): draw here
                pass
        self._redraw()

    def _redraw(self) -> None:
        """Redraw from ``seat.table`` (never let an error end the connection)."""
        try:
            with self._lock:
                self._render()
        except Exception as err:  # noqa: BLE001  shown, kept, and the seat keeps listening
            self.errors.append(err)
            self.screen.say(f"{type(err).__name__}: {err}", error=True)

    # --- the learner's clicks (the kernel's thread) ------------------------------------------------
    # The presenter (``maumau.widgets.presenter``, the notebook table's too) turns clicks into moves from
    # the seat model the server sent; no lock is held while it sends, so a redraw is never blocked.
    def play_card(self, card: Card) -> None:
        """Play one card; a wish card asks for the wish first (the wishes its legal moves offer)."""
        self.presenter.play_card(card)

    def play_selected(self) -> None:
        """Play the cards chosen for a set (a set of one is a plain card, which may need a wish)."""
        self.presenter.play_selected()

    @property
    def selected(self) -> list[Key]:
        """The cards chosen for a set, in the order clicked."""
        return self.presenter.selected

    def move(self, move: Move) -> bool:
        """Send ``move`` to the server as the buttons do: False (and the server's reason shown) if refused."""
        with self._lock:
            if self.presenter.waiting():
                return False
        try:
            self.seat.move(move)  # not under the lock: the receiving thread redraws meanwhile
        except (IllegalMove, ClassroomError, TimeoutError) as err:
            with self._lock:
                return self.presenter.refused(str(err), move)
        with self._lock:
            self.presenter.fresh()
            self._render()
        return True

    def _blocked(self) -> str | None:
        """Why the learner cannot move now (None if they can)."""
        lang = self.lang
        if self.seat.closed is not None:
            return t("remote.closed", lang, reason=self.seat.closed)
        model = self.seat.model
        if model is None:
            return t("remote.waiting_hand", lang)
        return None if model.my_turn else model.status

    def _redraw_locked(self) -> None:
        with self._lock:
            self._render()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running this code (a Jupyter kernel's, in a cell), or None."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
