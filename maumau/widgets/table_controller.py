"""The game at the card table: the match, the hand in progress, and every way it moves on.

The learner sits in seat 0.  A click on a card plays it (a wish card first asks for the wish);
a move that may not be made says why and changes nothing.  The computers move when the
scheduler says so.  Every move goes into the log with the engine's own sentence.  This module
decides what happens; the screen (``table_renderer``) only shows it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..core.moves import Move
from ..core.state import GameState, IllegalMove
from ..core.variants import Variant, variant
from ..play.game import Game
from ..play.match import HandResult, Match
from ..play.seat_model import SeatModel, seat_model
from ..players import ask
from ..text.i18n import card_symbol, t, use_language
from .common import Seating, check_lang, computer, default_names
from .hand import Key
from .log import MoveLog
from .presenter import Presenter
from .table_renderer import TableScreen
from .table_scheduler import Scheduler

__all__ = ["TableController"]


class TableController:
    """A match of ``game`` between the learner (seat 0) and ``opponents`` computer players.

    ``screen`` is set by the table before the first hand: the screen is built from this
    controller (its log, its card clicks), so it cannot exist before it.
    """

    screen: TableScreen
    presenter: Presenter  # the learner's clicks into moves; set with the screen
    game: Game  # the hand being played; new_hand deals it

    def __init__(self, game: str | Variant, opponents: int, *, strength: str, seed: int | None, lang: str | None,
                 name: str | None, names: Sequence[str] | None, players: Sequence[Any] | None,
                 start: GameState | None, scheduler: Scheduler) -> None:
        self.lang = check_lang(lang)
        self.variant = start.variant if start is not None else variant(game)
        if start is not None and start.players != opponents + 1:
            raise ValueError(f"the start position has {start.players} seats, the table {opponents + 1}")
        self.seed = random.randrange(1_000_000) if seed is None else int(seed)
        self.strength = strength
        self.scheduler = scheduler
        self.match = Match(self.variant, players=opponents + 1, seed=self.seed)
        if players is not None and len(players) != opponents:
            raise ValueError(f"players lists {len(players)} computer players for {opponents} opponents")
        self.custom_players = players is not None
        self.computers = list(players) if players is not None else [
            computer(strength, seed=self.seed * 101 + i) for i in range(1, opponents + 1)]
        lang = self.lang  # the course's language when none was given
        me_name = name or t("ui.me", lang, name=t("seat.label", lang, seat=0))
        others = list(names) if names is not None else default_names(opponents, lang)
        self.seating = Seating([me_name, *others[:opponents]], me=0, lang=lang, own_name=name)
        self.moves_log = MoveLog(self.lang)
        self.log = self.moves_log.lines  # every sentence so far, oldest first
        self.listeners: list[Callable[[], None]] = []
        self.result: HandResult | None = None
        self.seats: tuple[int, ...] = ()  # match seat of each hand seat; new_hand fills it in
        self._model: tuple[GameState, SeatModel] | None = None  # the learner's seat model and its state

    # --- where the hand stands ------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def me(self) -> int | None:
        """The learner's seat in the hand being played (None once out of the match)."""
        return self.seats.index(0) if 0 in self.seats else None

    def on_change(self, callback: Callable[[], None]) -> None:
        self.listeners.append(callback)

    def changed(self) -> None:
        """Redraw, then tell the listeners (a replay following the table) that a move was made."""
        self.screen.render(self)
        for callback in list(self.listeners):
            callback()

    # --- hands and the match ---------------------------------------------------------------------------
    def new_hand(self, start: GameState | None = None) -> None:
        self.scheduler.cancel()
        self.seats = tuple(self.match.seats_in_play)
        state = start if start is not None else self.match.deal()
        self.game = Game(state)
        self.result = None
        self.presenter.selected = []
        self.screen.wish.hide()
        dealer = self.seating.name(state.dealer, self.seats)
        self.moves_log.note(t("ui.upcard", self.lang, n=len(self.match.hands) + 1, name=dealer,
                              card=card_symbol(state.top, self.lang)))
        self.screen.say("")
        self.screen.render(self)
        self.scheduler.advance(self)

    def next_hand(self) -> None:
        if self.result is None or self.match.is_over:
            return
        self.new_hand()

    def new_match(self) -> None:
        self.seed += 1
        self.match = Match(self.variant, players=self.match.players, seed=self.seed)
        self.moves_log.clear()
        self.new_hand()

    def end_hand(self) -> None:
        if self.result is None:  # end_hand may come twice for one hand; record it once
            self.result = self.match.record(self.game)
        self.screen.render(self)

    # --- the computers -----------------------------------------------------------------------------------
    def computer_move(self, show: bool = True) -> None:
        """The move of the computer to move; ``show=False`` leaves drawing to the caller."""
        state = self.game.state
        player = self.computers[self.seats[state.to_move] - 1]
        move = ask(player, state)  # a player of the learner's sees its seat's View; its errors are its own
        try:
            after = self.game.apply(move)
        except IllegalMove:  # a computer player must never leave the table stuck
            move = state.legal_moves()[0]
            after = self.game.apply(move)
        self.moves_log.move(state, move, after, self.seating, self.seats, self.me)
        if show:
            self.changed()

    def next_move(self) -> None:
        state = self.game.state
        if state.is_over or state.to_move == self.me:
            return
        self.computer_move()
        if self.game.state.is_over:
            self.end_hand()

    # --- the learner ---------------------------------------------------------------------------------------
    def model(self) -> SeatModel | None:
        """The learner's seat model now (None once out of the match): what the screen draws of their
        hand, Draw and Pass, and what the presenter reads; made once per state."""
        me, state = self.me, self.game.state
        if me is None:
            return None
        kept = self._model
        if kept is None or kept[0] is not state or kept[1].view.seat != me:
            made = seat_model(state, me, self.lang, lambda seat: self.seating.name(seat, self.seats))
            kept = self._model = (state, made)
        return kept[1]

    def blocked(self) -> str | None:
        """Why the learner cannot move now (None if they can): the seat model's status."""
        model = self.model()
        if model is not None:
            return None if model.my_turn else model.status
        state = self.game.state
        if state.is_over:
            return t("ui.over", self.lang)
        return t("ui.wait", self.lang, name=self.seating.name(state.to_move, self.seats))

    @property
    def selected(self) -> list[Key]:
        """The cards chosen for a set, in the order clicked (the presenter's)."""
        return self.presenter.selected

    def human(self, move: Move) -> bool:
        """Make the learner's move if it is legal, else say why not; True if it was made.  The
        engine checks it once (``Game.apply``), and its IllegalMove is the sentence shown."""
        if self.presenter.waiting():
            return False
        state = self.game.state
        try:
            with use_language(self.lang):
                after = self.game.apply(move)
        except IllegalMove as err:
            return self.presenter.refused(str(err), move)
        self.presenter.fresh()
        self.moves_log.move(state, move, after, self.seating, self.seats, self.me)
        self.changed()
        self.scheduler.advance(self)
        return True

    def undo(self) -> bool:
        """Take back the learner's last move and the computers' moves after it."""
        game, me = self.game, self.me
        mine = [i for i, s in enumerate(game.states[:-1]) if s.to_move == me]
        if me is None or game.state.is_over or not mine:
            self.screen.say(t("ui.undo_none", self.lang), error=True)
            return False
        self.scheduler.cancel()
        while len(game) > mine[-1]:
            game.undo()
        self.moves_log.note("↶ " + t("ui.undo", self.lang))
        self.presenter.fresh()
        self.changed()
        return True
