"""The ``table`` frame: the one message that tells a connection about its table, built field by
field from what that connection may see, never by serialising a server object.

A seat gets the public table (names, kinds, totals, the log in its language), ``view``, its
own ``maumau.classroom.views.seat_view``, and ``model``, its seat model (what it may do, each card's
choices or why not, the sentences: ``maumau.play.seat_model``); the projector gets the same with
the projector's view (no hand, no model; every hand only for the logged-in teacher's projector).
``names`` names every card in the frame for a screen reader.  Every sentence is in the
connection's language: the page has no word list of its own.  No frame carries the spec, the
seed, the stock's order or a hand that is not the receiver's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..text.explain import goal_sentence, narrate
from ..text.i18n import name_seats, t, use_language
from ..text.locale.page import PAGE
from .messages import ProjectorView, Said, SeatView, TableFrame, WireModel
from .views import hand_seen

if TYPE_CHECKING:  # pragma: no cover
    from .table import ClassTable

__all__ = ["table_frame", "tell"]


#: The class table's own sentences (the clock, a restart): keys of the page's catalogue.
WORDS = ("clock", "restarted")


def table_frame(table: ClassTable, seat: int | None, lang: str, open_hands: bool, heard: int
                ) -> tuple[TableFrame, int]:
    """The frame for a connection at ``seat`` (None: the projector) that has heard the log up to
    line ``heard``; and the last line it has heard now."""
    said = [_said(table, n, kind, what, lang, seat) for n, kind, what in table.log if n > heard]
    state = table.state
    view: SeatView | ProjectorView | None = None
    model: WireModel | None = None
    names: dict[str, str] = {}
    if state is not None:
        def name_of(hand: int) -> str:
            return table.seats[table.hand_seats[hand]].display(lang)
        hand_seat = None if seat is None else table.hand_seat(seat)
        view, model, names = hand_seen(state, hand_seat, lang, open_hands, name_of)
    match, variant = table.match, table.variant
    with use_language(lang):
        score, goal = t(variant.scoring.score_key), goal_sentence(variant.scoring)
    winner = match.winner
    frame: TableFrame = {
        "type": "table", "code": table.code, "n": table.n, "variant": variant.name, "title": variant.title,
        "call": variant.call, "score": score, "goal": goal, "clock": table.spec.clock, "you": seat,
        "seats": [s.public(lang) for s in table.seats], "hand_seats": list(table.hand_seats),
        "scores": list(match.scores), "hands": len(match.hands), "hand_over": table.hand_over,
        "match_over": match.is_over, "winner": list(winner) if isinstance(winner, tuple) else winner, "said": said,
        "view": view, "model": model, "names": names}
    return frame, table.told - 1


def _said(table: ClassTable, n: int, kind: str, what: Any, lang: str, seat: int | None) -> Said:
    """Line ``n`` of the log in ``lang`` for the learner at ``seat`` (None: the projector), told
    once for every connection of that language and seat: a move of the learner's own is told to
    them in the second person ("You play 7♥", "du bist als Nächstes dran"), as at the notebook's
    table; a line never changes; it leaves the cache when it leaves the table's log."""
    you = seat if kind == "move" else None  # only a move's sentence differs from seat to seat
    cache = table.said_cache
    found: Said | None = cache.get((n, lang, you))
    if found is None:
        if len(cache) > 400:
            oldest = table.log[0][0] if table.log else n
            for key in [k for k in cache if k[0] < oldest]:
                del cache[key]
        told = tell(table, kind, what, lang, you)
        found = {"n": n, "seat": told["seat"], "text": told["text"]}
        cache[(n, lang, you)] = found
    return found


def tell(table: ClassTable, kind: str, what: Any, lang: str, you: int | None = None) -> dict[str, Any]:
    """One line of the table's log, in ``lang``, with the players' names for the seat numbers;
    ``you``: the learner's seat it is told to (their own moves in the second person)."""
    with use_language(lang):
        if kind == "move":
            before, move, after, hand_seats = what
            names = {i: table.seats[s].display(lang) for i, s in enumerate(hand_seats) if s < len(table.seats)}
            mine = hand_seats.index(you) if you is not None and you in hand_seats else None
            text = name_seats(narrate(before, move, after, you=mine), names, lang)
            return {"seat": hand_seats[before.to_move], "text": text}
        if kind == "dealt":
            hand, dealer = what
            name = table.seats[dealer].display(lang) if isinstance(dealer, int) else str(dealer)
            return {"seat": None, "text": t("class.dealt", hand=hand, name=name)}
        if kind in WORDS:
            name = table.seats[what].display(lang) if isinstance(what, int) else ""
            return {"seat": what, "text": PAGE[lang][kind].format(name=name)}
        return {"seat": None, "text": t("class." + kind, name=what)}
