"""The one presenter of a seat: card click → choose a set → ask the wish → announce → move, and why not.

The notebook's table (``table_controller``) and ``mm.join``'s table (``maumau.classroom.widget``)
both hand their clicks to a ``Presenter``; it reads the seat model (``seat_model``) for what the
seat may do and what to say, and hands the move it makes to ``send`` (the notebook applies it to
its game, ``mm.join`` sends it to the server; either way the engine checks it once and its
refusal is shown).  The class page does the same in JavaScript from the same model, sent by the
server: a card with a sentence says it, a card with one choice plays it, several ask which.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.cards import Card, Rank, Suit
from ..core.moves import Move, Play
from ..play.seat_model import SeatModel
from .hand import Key
from .table_renderer import TableScreen

__all__ = ["Presenter"]


class Presenter:
    """Turns a seat's clicks into moves (see the module docstring).

    ``model()`` is the seat model now (None before a hand is dealt); ``send(move)`` makes the
    move and says whether it was made; ``blocked()`` says why the seat cannot move now (None if
    it can); ``redraw()`` shows a changed choice of cards.
    """

    def __init__(self, screen: TableScreen, model: Callable[[], SeatModel | None], send: Callable[[Move], bool],
                 blocked: Callable[[], str | None], redraw: Callable[[], None]) -> None:
        self.screen, self.model, self.send, self.blocked, self.redraw = screen, model, send, blocked, redraw
        self.selected: list[Key] = []  # the cards chosen for a set, in the order clicked

    def waiting(self) -> bool:
        """Say why the seat cannot move now; False if it can."""
        reason = self.blocked()
        if reason is not None:
            self.screen.say(reason, error=True)
        return reason is not None

    def on_card(self, key: Key) -> None:
        """A click on a card: choose it for a set while "several cards" is on, else play it."""
        if self.waiting():
            return
        if self.screen.controls.sets.value:
            if key in self.selected:
                self.selected.remove(key)
            else:
                self.selected.append(key)
            self.redraw()
            return
        self.play_card(key[0])

    def play_card(self, card: Card) -> None:
        """Play one card: why not if it may not be played, else at once, or after the wish."""
        model = self.model()
        if self.waiting() or model is None:
            return
        spot = model.card(card)
        if spot is not None and spot.why is not None:
            self.screen.say(spot.why, error=True)
            return
        controls = self.screen.controls
        mau, runde = bool(controls.mau.value), bool(controls.runde.value)
        kind = model.view.variant.wish_kind(card)
        if kind is None or spot is None or not spot.asks_wish:  # no wish (or the engine refuses it, and says why)
            self.send(Play(card, mau=mau, runde=runde))
            return
        self.screen.say("")

        def wished(wish: Suit | Rank) -> None:  # the picker wants no answer back
            self.send(Play(card, wish=wish, mau=mau, runde=runde))

        self.screen.wish.ask(kind, spot.wishes, wished)

    def play_selected(self) -> None:
        """Play the cards chosen for a set (a set of one is a plain card, which may need a wish)."""
        cards = [key[0] for key in self.selected]
        if not cards or self.waiting():
            return
        self.selected = []
        if len(cards) == 1:
            self.screen.controls.sets.value = False
            self.play_card(cards[0])
            return
        self.send(Play(tuple(cards), mau=bool(self.screen.controls.mau.value)))

    def choose_again(self) -> None:
        """"Several cards" switched on or off: the cards chosen so far no longer count."""
        self.selected = []
        self.redraw()

    def fresh(self) -> None:
        """After a move (or an undo) nothing chosen, asked or announced carries over to the next one."""
        self.selected = []
        self.screen.wish.hide()
        self.screen.controls.reset()
        self.screen.say("")

    def refused(self, reason: str, move: Move) -> bool:
        """Show why ``move`` was refused; the refused announcement must not stick to the next card."""
        self.screen.say(reason, error=True)
        if isinstance(move, Play) and move.mau:
            self.screen.controls.mau.value = False
        return False
