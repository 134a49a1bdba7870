"""The card table: a learner plays a match against computer opponents by clicking.

The learner sits in seat 0.  A click on a card plays it (a wish card first asks for the
wish), the buttons draw, pass, announce Mau/Macau/Makaó or open a Runde, and a card that may
not be played says why and changes nothing.  The computers then move one by one: in
JupyterLab each after ``delay`` seconds (scheduled on the kernel's event loop, so the kernel
stays free), with ``step=True`` one per click on "Next move", and without an event loop (tests,
scripts) at once.  Every move goes into the log with the engine's own sentence.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

from ..cards import Card, Suit
from ..game import Game
from ..i18n import t, use_language
from ..match import HandResult, Match
from ..moves import Draw, Move, Pass, Play
from ..players import ask
from ..state import GameState, IllegalMove
from ..variants import Variant, variant
from .board import Board
from .common import STRENGTHS, Seating, View, check_lang, computer, default_names, esc, score_word
from .controls import Controls, WishPicker
from .hand import HandView, Key
from .log import MoveLog
from .scores import result_html, rules_html
from .style import style_sheet

__all__ = ["TableView"]

_MAX_MOVES = 20_000  # a hand of random players can be long, but not endless


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class TableView(View):
    """A match of ``game`` between the learner (seat 0) and ``opponents`` computer players.

    ``mm.play("makao", opponents=3, strength="medium", seed=7, lang="de")``.  Useful handles for
    code and tests: ``state``, ``game`` (the hand being played, a ``Game``), ``match``,
    ``click(card)``, ``hand.button_for(card)``, ``draw_button``, ``pass_button``, ``mau_button``,
    ``wish.buttons``, ``next_hand_button``, ``message_text`` and ``log`` (the sentences).
    """

    def __init__(self, game: str | Variant = "makao", opponents: int = 3, *, strength: str = "medium",
                 seed: int | None = None, lang: str = "en", delay: float = 0.6, step: bool = False,
                 name: str | None = None, names: Sequence[str] | None = None, open_hands: bool = False,
                 players: Sequence[Any] | None = None, start: GameState | None = None) -> None:
        self.lang = check_lang(lang)
        self.variant = start.variant if start is not None else variant(game)
        if start is not None and start.players != opponents + 1:
            raise ValueError(f"the start position has {start.players} seats, the table {opponents + 1}")
        self.seed = random.randrange(1_000_000) if seed is None else int(seed)
        self.strength = strength
        self.delay, self.step, self.open_hands = float(delay), bool(step), bool(open_hands)
        self.match = Match(self.variant, players=opponents + 1, seed=self.seed)
        if players is not None and len(players) != opponents:
            raise ValueError(f"players lists {len(players)} computer players for {opponents} opponents")
        self._custom_players = players is not None
        self.computers = list(players) if players is not None else [
            computer(strength, seed=self.seed * 101 + i) for i in range(1, opponents + 1)]
        me_name = name or t("ui.me", lang, name=t("seat.label", lang, seat=0))
        others = list(names) if names is not None else default_names(opponents, lang)
        self.seating = Seating([me_name, *others[:opponents]], me=0, lang=lang)
        self.moves_log = MoveLog(self.lang)
        self.log = self.moves_log.lines  # every sentence so far, oldest first
        self._selected: list[Key] = []
        self._token = 0
        self._handle: asyncio.TimerHandle | None = None
        self._listeners: list[Callable[[], None]] = []
        self.result: HandResult | None = None
        self._build()
        self._new_hand(start)

    # --- widgets --------------------------------------------------------------------------------------
    def _build(self) -> None:
        lang = self.lang
        self.header = W.HTML()
        self.board = Board(lang)
        self.message = W.HTML()
        self.message.add_class("mm-msg")
        self.wish = WishPicker(lang)
        self.hand_label = W.HTML()
        self.hand = HandView(lang, self._on_card)
        self.controls = Controls(self.variant, lang)
        c = self.controls
        c.draw.on_click(lambda _: self._human(Draw()))
        c.pass_.on_click(lambda _: self._human(Pass()))
        c.play_set.on_click(lambda _: self._play_selected())
        c.next.on_click(lambda _: self.next_move())
        c.undo.on_click(lambda _: self.undo())
        c.sets.observe(lambda _: self._choose_again(), names="value")
        self.result_html = W.HTML()
        self.next_hand_button = W.Button(description=t("ui.next_hand", lang), button_style="success")
        self.next_hand_button.on_click(lambda _: self.next_hand())
        self.new_match_button = W.Button(description=t("ui.new_match", lang), button_style="info")
        self.new_match_button.on_click(lambda _: self.new_match())
        self.result_box = W.VBox([self.result_html, W.HBox([self.next_hand_button, self.new_match_button])],
                                 layout=W.Layout(display="none"))
        self.rules = W.Accordion(children=[W.HTML(rules_html(self.variant, lang))], selected_index=None)
        self.rules.set_title(0, t("ui.rules", lang))
        self.rules.add_class("mm-rules")
        self.widget = W.VBox([style_sheet(), self.header, self.board.widget, self.message, self.wish.box,
                              self.hand_label, self.hand.box, self.controls.row, self.result_box,
                              self.moves_log.html, self.rules])
        self.widget.add_class("mm-table")

    def __repr__(self) -> str:
        return f"<maumau table: {self.variant.name}, {self.match.players} players>"

    # --- handles -----------------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def me(self) -> int | None:
        """The learner's seat in the hand being played (None once out of the match)."""
        return self.seats.index(0) if 0 in self.seats else None

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
        return getattr(self, "_message_text", "")

    def move(self, move: Move) -> bool:
        """Make the learner's move in code, as the buttons do: False (and the reason shown) if illegal."""
        return self._human(move)

    def click(self, card: str | Card, copy: int = 0) -> None:
        """Click a card of the learner's hand, as a mouse would."""
        self.hand.button_for(card, copy).click()

    def on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every move (the replay view follows a running table)."""
        self._listeners.append(callback)

    # --- hands and the match ---------------------------------------------------------------------------
    def _new_hand(self, start: GameState | None = None) -> None:
        self._cancel()
        self.seats = tuple(self.match.seats_in_play)
        state = start if start is not None else self.match.deal()
        self.game = Game(state)
        self.result = None
        self._selected = []
        self.wish.hide()
        dealer = self.seating.name(state.dealer, self.seats)
        self.moves_log.note(t("ui.upcard", self.lang, n=len(self.match.hands) + 1, name=dealer, card=state.top.symbol))
        self._say("")
        self._render()
        self._advance()

    def next_hand(self) -> None:
        """Deal the next hand of the match (after a hand has ended)."""
        if self.result is None or self.match.is_over:
            return
        self._new_hand()

    def new_match(self) -> None:
        """Start a new match at the same table, with the next seed."""
        self.seed += 1
        self.match = Match(self.variant, players=self.match.players, seed=self.seed)
        self.moves_log.clear()
        self._new_hand()

    def _end_hand(self) -> None:
        if self.result is None:
            self.result = self.match.record(self.game)
        self._render()

    # --- the computers -----------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Let the computers move until it is the learner's turn or the hand is over."""
        state = self.game.state
        if state.is_over:
            self._end_hand()
            return
        if state.to_move == self.me or (self.step and self.me is not None):
            return
        # Out of the match, the learner just sees the hand's end; else the computers take their time.
        loop = _running_loop() if self.delay > 0 and self.me is not None else None
        if loop is not None:
            token = self._token
            self._handle = loop.call_later(self.delay, self._tick, token)
            return
        for _ in range(_MAX_MOVES):
            state = self.game.state
            if state.is_over or state.to_move == self.me:
                break
            self._computer_move(render=False)
        self._render()
        self._notify()
        if self.game.state.is_over:
            self._end_hand()

    def _tick(self, token: int) -> None:
        if token != self._token:
            return
        self._handle = None
        self._computer_move()
        self._advance()

    def _cancel(self) -> None:
        self._token += 1
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _computer_move(self, render: bool = True) -> None:
        state = self.game.state
        player = self.computers[self.seats[state.to_move] - 1]
        move = ask(player, state)  # a player of the learner's sees its seat's View; its errors are its own
        try:
            after = self.game.apply(move)
        except IllegalMove:  # a computer player must never leave the table stuck
            move = state.legal_moves()[0]
            after = self.game.apply(move)
        self.moves_log.move(state, move, after, self.seating, self.seats, self.me)
        if render:
            self._render()
            self._notify()

    def next_move(self) -> None:
        """Step mode: let the computer whose turn it is make one move."""
        state = self.game.state
        if state.is_over or state.to_move == self.me:
            return
        self._computer_move()
        if self.game.state.is_over:
            self._end_hand()

    # --- the learner ---------------------------------------------------------------------------------------
    def _why(self, move: Move) -> str | None:
        with use_language(self.lang):
            return self.game.state.why_illegal(move)

    def _waiting(self) -> bool:
        """Say why the learner cannot move now; False if they can."""
        state = self.game.state
        if state.is_over:
            self._say(t("ui.over", self.lang), error=True)
        elif self.me is None or state.to_move != self.me:
            self._say(t("ui.wait", self.lang, name=self.seating.name(state.to_move, self.seats)), error=True)
        else:
            return False
        return True

    def _human(self, move: Move) -> bool:
        """Make the learner's move if it is legal, else say why not; True if it was made."""
        if self._waiting():
            return False
        reason = self._why(move)
        if reason is not None:
            self._say(reason, error=True)
            if isinstance(move, Play) and move.mau:
                self.controls.mau.value = False
            return False
        state = self.game.state
        after = self.game.apply(move)
        self._selected = []
        self.wish.hide()
        self.controls.reset()
        self._say("")
        self.moves_log.move(state, move, after, self.seating, self.seats, self.me)
        self._render()
        self._notify()
        self._advance()
        return True

    def _on_card(self, key: Key) -> None:
        if self._waiting():
            return
        if self.controls.sets.value:
            if key in self._selected:
                self._selected.remove(key)
            else:
                self._selected.append(key)
            self._render()
            return
        self._play_card(key[0])

    def _play_card(self, card: Card) -> None:
        state = self.game.state
        mau, runde = self.controls.mau.value, self.controls.runde.value
        kind = state.variant.wish_kind(card)
        if kind is None:
            self._human(Play(card, mau=mau, runde=runde))
            return
        wishes = list(dict.fromkeys(m.wish for m in state.legal_moves()
                                    if isinstance(m, Play) and m.cards == (card,) and m.wish is not None))
        example = wishes[0] if wishes else next(iter(Suit)) if kind is Suit else card.rank
        reason = self._why(Play(card, wish=example, mau=mau, runde=runde))
        if reason is not None:
            self._say(reason, error=True)
            return
        self._say("")
        self.wish.ask(kind, wishes, lambda wish: self._human(Play(card, wish=wish, mau=mau, runde=runde)))

    def _play_selected(self) -> None:
        cards = [key[0] for key in self._selected]
        if not cards or self._waiting():
            return
        if len(cards) == 1:
            self._selected = []
            self.controls.sets.value = False
            self._play_card(cards[0])
            return
        self._human(Play(tuple(cards), mau=self.controls.mau.value))

    def _choose_again(self) -> None:
        self._selected = []
        self._render()

    def undo(self) -> bool:
        """Take back the learner's last move and the computers' moves after it."""
        game, me = self.game, self.me
        mine = [i for i, s in enumerate(game.states[:-1]) if s.to_move == me]
        if me is None or game.state.is_over or not mine:
            self._say(t("ui.undo_none", self.lang), error=True)
            return False
        self._cancel()
        while len(game) > mine[-1]:
            game.undo()
        self.moves_log.note("↶ " + t("ui.undo", self.lang))
        self._selected = []
        self.wish.hide()
        self.controls.reset()
        self._say("")
        self._render()
        self._notify()
        return True

    # --- telling -------------------------------------------------------------------------------------------
    def _say(self, text: str, error: bool = False) -> None:
        self._message_text = text
        kind = "mm-error" if error else "mm-info"
        self.message.value = f'<span class="{kind}">{esc(text)}</span>' if text else ""

    def _notify(self) -> None:
        for callback in list(self._listeners):
            callback()

    # --- drawing -----------------------------------------------------------------------------------------
    def _render(self) -> None:
        state, me, lang = self.game.state, self.me, self.lang
        scores = self.match.scores
        word = score_word(self.variant, lang)
        subtitles = [f"{scores[0]} {word}"] + [f"{self._strength_word(i)} · {scores[i]} {word}"
                                               for i in range(1, self.match.players)]
        hand_no = len(self.match.hands) + (0 if self.result is not None else 1)
        self.header.value = (f'<div class="mm-head">{esc(self.variant.title)} <span class="mm-sub">· '
                             f'{esc(t("ui.hand_n", lang, n=hand_no))} · seed {self.seed}</span></div>')
        self.board.show(state, self.seating, self.seats, me=me, open_hands=self.open_hands or me is None,
                        subtitles=subtitles)
        if me is not None:
            mine = state.to_move == me and not state.is_over
            legal = {m.card for m in state.legal_moves() if isinstance(m, Play)} if mine else set()
            self.hand.show(state.hands[me], legal, self._selected, dim=mine)
            self.hand.box.layout.display = "none" if state.is_over and not state.hands[me] else None
            self.hand_label.value = (f'<div class="mm-handlabel">{esc(t("ui.your_hand", lang))} '
                                     f'<span class="mm-sub">· {scores[0]} {esc(word)}</span></div>')
        else:
            self.hand.show((), ())
            self.hand_label.value = ""
        self.controls.update(state, me, step=self.step, chosen=len(self._selected),
                             can_undo=any(s.to_move == me for s in self.game.states[:-1]))
        self.moves_log.render()
        if self.result is not None:
            self.result_html.value = result_html(self.result, self.match, self.seating)
            over = self.match.is_over
            self.next_hand_button.layout.display = "none" if over else None
            self.new_match_button.layout.display = None if over else "none"
            self.result_box.layout.display = None
        else:
            self.result_box.layout.display = "none"

    def _strength_word(self, seat: int) -> str:
        if self._custom_players:
            player = self.computers[seat - 1]
            return str(getattr(player, "name", type(player).__name__))
        return t("ui.strength." + self.strength, self.lang) if self.strength in STRENGTHS else self.strength
