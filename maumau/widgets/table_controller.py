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

from ..core.cards import Card, Rank, Suit
from ..core.moves import Move, Play
from ..core.state import GameState, IllegalMove
from ..core.variants import Variant, variant
from ..play.game import Game
from ..play.match import HandResult, Match
from ..players import ask
from ..text.i18n import t, use_language
from .common import Seating, check_lang, computer, default_names
from .hand import Key
from .log import MoveLog
from .table_renderer import TableScreen
from .table_scheduler import Scheduler

__all__ = ["TableController"]


class TableController:
    """A match of ``game`` between the learner (seat 0) and ``opponents`` computer players.

    ``screen`` is set by the table before the first hand: the screen is built from this
    controller (its log, its card clicks), so it cannot exist before it.
    """

    screen: TableScreen
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
        self.seating = Seating([me_name, *others[:opponents]], me=0, lang=lang)
        self.moves_log = MoveLog(self.lang)
        self.log = self.moves_log.lines  # every sentence so far, oldest first
        self.selected: list[Key] = []  # the cards chosen for a set, in the order clicked
        self.listeners: list[Callable[[], None]] = []
        self.result: HandResult | None = None
        self.seats: tuple[int, ...] = ()  # match seat of each hand seat; new_hand fills it in

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
        self.selected = []
        self.screen.wish.hide()
        dealer = self.seating.name(state.dealer, self.seats)
        self.moves_log.note(t("ui.upcard", self.lang, n=len(self.match.hands) + 1, name=dealer, card=state.top.symbol))
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
    def why(self, move: Move) -> str | None:
        """Why ``move`` may not be made now, in the table's language; None if it may."""
        with use_language(self.lang):
            return self.game.state.why_illegal(move)

    def waiting(self) -> bool:
        """Say why the learner cannot move now; False if they can."""
        state = self.game.state
        if state.is_over:
            self.screen.say(t("ui.over", self.lang), error=True)
        elif self.me is None or state.to_move != self.me:
            self.screen.say(t("ui.wait", self.lang, name=self.seating.name(state.to_move, self.seats)), error=True)
        else:
            return False
        return True

    def human(self, move: Move) -> bool:
        """Make the learner's move if it is legal, else say why not; True if it was made."""
        if self.waiting():
            return False
        reason = self.why(move)
        if reason is not None:
            self.screen.say(reason, error=True)
            if isinstance(move, Play) and move.mau:  # the refused announcement must not stick to the next card
                self.screen.controls.mau.value = False
            return False
        state = self.game.state
        after = self.game.apply(move)
        self._fresh_choice()
        self.moves_log.move(state, move, after, self.seating, self.seats, self.me)
        self.changed()
        self.scheduler.advance(self)
        return True

    def on_card(self, key: Key) -> None:
        """A click on a card: choose it for a set while "sets" is on, else play it."""
        if self.waiting():
            return
        if self.screen.controls.sets.value:
            if key in self.selected:
                self.selected.remove(key)
            else:
                self.selected.append(key)
            self.screen.render(self)
            return
        self.play_card(key[0])

    def play_card(self, card: Card) -> None:
        """Play one card; a wish card is checked first, so the wish is asked only if it may be played."""
        state = self.game.state
        controls = self.screen.controls
        mau, runde = controls.mau.value, controls.runde.value
        kind = state.variant.wish_kind(card)
        if kind is None:
            self.human(Play(card, mau=mau, runde=runde))
            return
        wishes = list(dict.fromkeys(m.wish for m in state.legal_moves()
                                    if isinstance(m, Play) and m.cards == (card,) and m.wish is not None))
        example = wishes[0] if wishes else next(iter(Suit)) if kind is Suit else card.rank
        reason = self.why(Play(card, wish=example, mau=mau, runde=runde))
        if reason is not None:
            self.screen.say(reason, error=True)
            return
        self.screen.say("")

        def wished(wish: Suit | Rank) -> None:  # the picker wants no answer back
            self.human(Play(card, wish=wish, mau=mau, runde=runde))

        self.screen.wish.ask(kind, wishes, wished)

    def play_selected(self) -> None:
        cards = [key[0] for key in self.selected]
        if not cards or self.waiting():
            return
        if len(cards) == 1:  # a "set" of one is a plain card, which may need a wish
            self.selected = []
            self.screen.controls.sets.value = False
            self.play_card(cards[0])
            return
        self.human(Play(tuple(cards), mau=self.screen.controls.mau.value))

    def choose_again(self) -> None:
        """Sets switched on or off: the cards chosen so far no longer count."""
        self.selected = []
        self.screen.render(self)

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
        self._fresh_choice()
        self.changed()
        return True

    def _fresh_choice(self) -> None:
        """After a move or an undo nothing chosen, asked or announced carries over to the next move."""
        self.selected = []
        self.screen.wish.hide()
        self.screen.controls.reset()
        self.screen.say("")
