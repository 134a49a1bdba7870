"""How a seat at a class table looks: the board's seat panels, the hand, Draw and Pass, the result
lines and the log, drawn from the table frame a ``maumau.classroom.Seat`` keeps (``seat.table``):
the seat's ``View`` and seat model, as the server sent them.

``Drawing`` is the part of ``RemoteTable`` (``maumau.classroom.widget``) that writes the widgets of
its ``TableScreen``; it never sends anything to the server.  The seat panels are made by the
board's one ``seat_panel`` and written by its one ``panel_html``, the centre by ``Board.show_centre``
from the View, the hand and Draw/Pass from the seat model (``HandView.show_seat``,
``TableButtons.show_moves``), as at the notebook's table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import ipywidgets as W

from ..core.cards import Card
from ..core.variants import Variant
from ..play.seat_model import SeatModel
from ..players.view import View
from ..text.i18n import t
from ..widgets.board import Panel, seat_panel
from ..widgets.common import Seating, esc, score_word
from ..widgets.hand import keys_of
from ..widgets.log import new_cards
from ..widgets.presenter import Presenter
from ..widgets.table_renderer import TableScreen
from .client import Seat
from .messages import SeatInfo, SeatView, TableFrame
from .views import model_from_wire, view_from_wire

__all__ = ["Drawing"]


class Public:
    """The public side of the hand being shown: a seat's View (a watcher's: no hand), whether the
    hand is over and who won it."""

    def __init__(self, view: View, over: bool, winner: int | None) -> None:
        self.view, self.is_over, self.winner = view, over, winner


class Drawing:
    """The drawing half of ``RemoteTable``: ``_render()`` brings every widget up to date with
    ``seat.table`` (the caller holds the table's lock)."""

    seat: Seat
    lang: str
    variant: Variant
    screen: TableScreen
    presenter: Presenter
    model: SeatModel | None
    view: View | None
    result_text: str
    _heard: int
    _dealt: int | None
    _ended: int | None
    _hand: tuple[Card, ...]
    _was_mine: bool
    _pending_before: bool

    def _render(self) -> None:
        table = self.seat.table
        data = table.get("view")
        lang = self.lang
        hand_seats: list[int] = list(table["hand_seats"])
        seating = self._seating(table)
        public: Public | None = None
        view: View | None = None
        me: int | None = None
        self.model = None
        if data is not None:
            # a watcher's View has no hand
            filled = cast(SeatView, {"seat": 0, "hand": [], "drawn": None, "legal": [], **data})
            shown = view_from_wire(self.variant, filled)
            public = Public(shown, bool(data.get("over")), data.get("winner"))
            if "hand" in data:
                view, me = shown, shown.seat
                model = table.get("model")
                if model is not None:
                    self.model = model_from_wire(view, lang, model)
        self.view = view
        playing = view is not None and public is not None and not public.is_over
        mine = playing and view is not None and view.to_move == view.seat
        finished = int(table["hands"])
        hand_no = finished + (0 if table["hand_over"] else 1)
        self._log(table, seating, hand_seats, public, view, mine, hand_no)
        head = [esc(t("remote.table", lang, code=self.seat.code))]
        if data is not None:
            head.append(esc(t("ui.hand_n", lang, n=hand_no)))
        self.screen.header.value = (f'<div class="mm-head">{esc(self.variant.title)} <span class="mm-sub">· '
                             f'{" · ".join(head)}</span></div>')
        self._render_board(table, seating, hand_seats, public, me)
        self._render_hand(table, view, mine)
        self._render_controls(view, public, mine)
        self._render_result(table, seating, hand_seats, public, me)
        if not mine:
            self.screen.wish.hide()
            self.presenter.selected = []

    def _seating(self, table: TableFrame) -> Seating:
        names = []
        for seat in table["seats"]:
            name = seat["name"] or t("seat.label", self.lang, seat=seat["seat"])
            names.append(t("ui.me", self.lang, name=name) if seat["seat"] == self.seat.number else name)
        own = next((s["name"] for s in table["seats"] if s["seat"] == self.seat.number), None)
        return Seating(names, self.seat.number, self.lang, own_name=own or None)

    def _render_board(self, table: TableFrame, seating: Seating, hand_seats: Sequence[int],
                      public: Public | None, me: int | None) -> None:
        board = self.screen.board
        seats = table["seats"]
        n = len(seats)
        number = self.seat.number
        order = [(number + 1 + i) % n for i in range(n - 1)] if number < n else list(range(n))
        board.show_panels([self._panel(table, seats[match_seat], seating, hand_seats, public) for match_seat in order])
        if public is None:
            board.center.layout.display = "none"
            return
        board.center.layout.display = None
        board.show_centre(public.view, public.is_over, seating, hand_seats, me)

    def _panel(self, table: TableFrame, seat: SeatInfo, seating: Seating,
               hand_seats: Sequence[int], public: Public | None) -> Panel:
        """A seat round the table: its name, markers, score and the backs of its cards (never a face)."""
        lang, number = self.lang, seat["seat"]
        hand_seat = hand_seats.index(number) if public is not None and number in hand_seats else None
        sub = []
        scores = table["scores"]
        if number < len(scores):
            sub.append(f"{scores[number]} {score_word(self.variant, lang)}".strip())
        kind = seat["kind"]
        if kind in ("open", "left", "waiting"):
            sub.append(t({"open": "remote.open", "left": "remote.left", "waiting": "remote.joins"}[kind], lang))
        elif seat["computer"]:
            sub.append(t("remote.computer", lang))
        offline = [t("remote.offline", lang)] if kind in ("human", "waiting") and not seat["connected"] else []
        name = seating.label(number) if number < len(seating.names) else t("seat.label", lang, seat=number)
        if hand_seat is None or public is None:
            return Panel(name, gone=True, marks=tuple(offline), sub=" · ".join(sub))
        return seat_panel(public.view, hand_seat, name, " · ".join(sub), public.is_over, public.winner, lang,
                          extra=offline)

    def _render_hand(self, table: TableFrame, view: View | None, mine: bool) -> None:
        s = self.screen
        if view is None:
            s.hand.show((), ())
            s.hand_label.value = ""
            s.hand.box.layout.display = "none"
            return
        chosen = self.presenter.selected
        chosen[:] = [k for k in chosen if k in set(keys_of(view.hand))]
        if self.model is not None:
            s.hand.show_seat(self.model, chosen)
        else:  # a seat's frame without its model (never sent so): the hand, nothing raised
            s.hand.show(view.hand, (), chosen, dim=mine)
        s.hand.box.layout.display = None
        number = self.seat.number
        score = f"{table['scores'][number]} {score_word(self.variant, self.lang)}".strip()
        s.hand_label.value = (f'<div class="mm-handlabel">{esc(t("ui.your_hand", self.lang))} '
                              f'<span class="mm-sub">· {esc(score)}</span></div>')

    def _render_controls(self, view: View | None, public: Public | None, mine: bool) -> None:
        """Draw and Pass as the seat model says them (``TableButtons.show_moves``, as at the notebook's table)."""
        c, lang = self.screen.controls, self.lang
        playing = view is not None and public is not None and not public.is_over
        c.show_moves(self.model)
        _shown(c.row, playing)
        _shown(c.play_set, bool(c.sets.value) and playing)
        chosen = len(self.presenter.selected)
        c.play_set.description = t("ui.play_set", lang) + (f" ({chosen})" if chosen else "")

    def _render_result(self, table: TableFrame, seating: Seating, hand_seats: Sequence[int],
                       public: Public | None, me: int | None) -> None:
        """Hand over, match over, or waiting (for players, for the next hand); else nothing."""
        lang = self.lang
        lines: list[tuple[str, str]] = []  # (css class, text)
        if public is None:
            open_seats = sum(1 for s in table["seats"] if s["kind"] == "open")
            note = (t("remote.waiting_players", lang, n=open_seats) if open_seats
                    else t("remote.waiting_hand", lang))
            lines.append(("", note))
        elif public.is_over:
            lines.append(("mm-win", self._hand_result(table, seating, hand_seats, public)))
            totals = " · ".join(f"{seating.names[i]} {score}" for i, score in enumerate(table["scores"]))
            word = score_word(self.variant, lang)
            lines.append(("", f"{t('ui.total', lang)}: {totals}" + (f" ({word})" if word else "")))
            if table["match_over"]:
                lines.append(("mm-win", self._match_result(table, seating)))
            else:
                lines.append(("", t("remote.waiting_hand", lang)))
        elif me is None:
            waiting = any(s["seat"] == self.seat.number and s["kind"] == "waiting" for s in table["seats"])
            lines.append(("", t("remote.join_next", lang) if waiting else t("ui.you_are_out", lang)))
        if table["match_over"] and (public is None or not public.is_over):
            lines.append(("mm-win", self._match_result(table, seating)))
        self.result_text = "\n".join(text for _, text in lines)
        if not lines:
            self.screen.result_box.layout.display = "none"
            return
        rows = "".join(f'<div class="{kind}">{esc(text)}</div>' for kind, text in lines)
        self.screen.result_html.value = f'<div class="mm-result">{rows}</div>'
        self.screen.result_box.layout.display = None

    def _hand_result(self, table: TableFrame, seating: Seating, hand_seats: Sequence[int],
                     public: Public) -> str:
        lang = self.lang
        hand = t("ui.hand_n", lang, n=int(table["hands"]))
        winner = public.winner
        if winner is None or not 0 <= winner < len(hand_seats):
            return f"{hand}: {t('ui.over', lang)}"
        if hand_seats[winner] == self.seat.number:
            return f"{hand}: {t('ui.won_you', lang)}"
        return f"{hand}: {t('ui.won_other', lang, name=seating.name(winner, hand_seats))}"

    def _match_result(self, table: TableFrame, seating: Seating) -> str:
        winner = table["winner"]
        winners = winner if isinstance(winner, list) else [] if winner is None else [winner]
        names = ", ".join(seating.names[w] for w in winners if 0 <= w < len(seating.names))
        key = "ui.match_shared" if len(winners) > 1 else "ui.match_won"
        return t(key, self.lang, names=names) if names else t("ui.over", self.lang)

    def _log(self, table: TableFrame, seating: Seating, hand_seats: Sequence[int], public: Public | None,
             view: View | None, mine: bool, hand_no: int) -> None:
        """The sentences the server told (``said``: moves, deals, who came and went), the cards that came
        into the hand, the end of the hand."""
        log, lang = self.screen.moves_log, self.lang
        if public is not None and self._dealt != hand_no:  # a new hand (the server tells the deal)
            self._dealt = hand_no
            self._hand, self._was_mine, self._pending_before = (), False, False
        for said in table.get("said", ()):
            if said["n"] <= self._heard:
                continue
            self._heard = said["n"]
            log.lines.append(str(said["text"]))  # the server's sentence, in our language, with the names
            log.kinds.append("mm-mine" if said.get("seat") == self.seat.number else "")
        if view is not None:
            got = new_cards(self._hand, view.hand) if self._hand else []
            if got:
                key = "ui.you_drew" if self._was_mine and not self._pending_before else "ui.you_got"
                log.note(t(key, lang, cards=" ".join(c.symbol for c in got)))
            self._hand, self._was_mine, self._pending_before = view.hand, mine, view.pending is not None
        if public is not None and public.is_over and self._ended != hand_no:
            self._ended = hand_no
            log.note(self._hand_result(table, seating, hand_seats, public))
        log.render()



def _shown(widget: W.DOMWidget, visible: bool) -> None:
    widget.layout.display = None if visible else "none"

