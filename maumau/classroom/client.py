"""A seat at a class table, from Python: ``classroom.join(url, code, name=...)``.

The Seat keeps one websocket open; a background thread receives what the server sends, so
``seat.view`` is always the latest (no polling).  ``seat.move(...)`` waits for the server's
answer and raises ``mm.IllegalMove`` with the engine's sentence for an illegal move.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from ..core.moves import Move
from ..core.state import IllegalMove
from ..core.variants import Variant, variant
from ..play.seat_model import SeatModel
from ..players.view import View
from ..text.i18n import check_language
from .messages import (
    Answer,
    Join,
    Leave,
    MoveRequest,
    Request,
    TableFrame,
    decode_server,
    encode_request,
    move_from_wire,
)
from .views import model_from_wire, view_from_wire
from .words import GUEST, refusal_words

__all__ = ["join", "Seat", "ClassroomError"]


class ClassroomError(RuntimeError):
    """The server refused a request (not this seat's turn, a full table, a wrong token, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def ws_url(url: str) -> str:
    """The websocket address of a server given by its page address (``http://host:port``)."""
    url = url.rstrip("/")
    if url.startswith("http"):
        url = "ws" + url[4:]
    return url if url.endswith("/ws") else url + "/ws"


def variant_of(rules: dict[str, Any]) -> Variant:
    """The Variant a table plays, from the rules the server tells (never its seed)."""
    return variant(rules["variant"], **rules.get("options", {})).without(*rules.get("without", ()))


def join(url: str, code: str, name: str | None = None, token: str | None = None, lang: str | None = None,
         timeout: float = 10.0, hub_token: str | None = None, personal: str | None = None) -> Seat:
    """Sit down at table ``code`` of the server at ``url``: a free seat under ``name``, or one's
    own seat again with its ``token``.  On a server with a roster (``maumau serve --roster``)
    ``personal``, the personal code the teacher gave you, says who you are: the seat is yours
    (your own again if you sit there already) and ``name`` only how you are shown.  On
    JupyterHub (``maumau serve --hub``) ``hub_token`` (in a hub notebook:
    ``os.environ["JUPYTERHUB_API_TOKEN"]``, the default there) says who you are, and you sit
    under your hub name.  ``lang``: the language the table speaks to this seat (seat names, what
    happened, refusals); None, the course's (``mm.set_language``)."""
    return Seat(url, code, name=name, token=token, lang=lang, timeout=timeout, hub_token=hub_token,
                personal=personal)


class Seat:
    """One learner's seat (docs/explanation/design.md, "The class table")."""

    def __init__(self, url: str, code: str, *, name: str | None, token: str | None, lang: str | None,
                 timeout: float, hub_token: str | None = None, personal: str | None = None) -> None:
        from websockets.sync.client import connect

        self.timeout = timeout
        self.lang = lang = check_language(lang)
        hub_token = hub_token or (os.environ.get("JUPYTERHUB_API_TOKEN") if "/services/" in url else None)
        headers = {"Authorization": f"token {hub_token}"} if hub_token else None
        # legacy=True: this connection outlives any with-block (websockets 17 asks to say so)
        self._ws = connect(ws_url(url), open_timeout=timeout, max_size=4 * 1024 * 1024, legacy=True,
                           additional_headers=headers)
        self._ids = itertools.count(1)
        self._changed = threading.Condition()
        self._answers: dict[int, Answer] = {}
        self._table: TableFrame | None = None
        self._listeners: list[Callable[[Seat], None]] = []
        self.closed: str | None = None
        threading.Thread(target=self._receive, name=f"maumau-seat-{code}", daemon=True).start()
        if token is not None:
            name = None
        elif personal is None:
            name = name or GUEST.get(lang, "Guest")
        answer = self._ask(Join(code=code, lang=lang, token=token, name=name, personal=personal))
        self.code: str = answer["code"]
        self.number: int = answer["seat"]
        self.token: str = answer.get("token", token or "")
        self.variant: Variant = variant_of(answer["rules"])
        self._wait_for(lambda: self._table is not None)

    # --- what the seat sees -------------------------------------------------------------------------
    @property
    def table(self) -> TableFrame:
        """The latest ``table`` message (``maumau.classroom.messages``)."""
        with self._changed:
            assert self._table is not None
            return self._table

    @property
    def view(self) -> View | None:
        """What this seat sees of the hand being played (None before the first deal)."""
        data = self.table.get("view")
        return None if data is None or "hand" not in data else view_from_wire(self.variant, data)

    @property
    def model(self) -> SeatModel | None:
        """What this seat sees and may do now, with the server's sentences in its language
        (``maumau.play.seat_model``; None before the first deal or out of the hand)."""
        table = self.table
        view, data = table.get("view"), table.get("model")
        if view is None or data is None or "hand" not in view:
            return None
        return model_from_wire(view_from_wire(self.variant, view), self.lang, data)

    @property
    def my_turn(self) -> bool:
        table = self.table
        view = table.get("view")
        return (view is not None and not view["over"] and "hand" in view
                and table["hand_seats"][view["to_move"]] == self.number)

    def legal_moves(self) -> list[Move]:
        view = self.table.get("view")
        return [move_from_wire(m) for m in view["legal"]] if view is not None and "hand" in view else []

    @property
    def hand_over(self) -> bool:
        return bool(self.table["hand_over"])

    @property
    def match_over(self) -> bool:
        return bool(self.table["match_over"])

    @property
    def scores(self) -> list[int]:
        return list(self.table["scores"])

    def on_change(self, listener: Callable[[Seat], None]) -> None:
        """Call ``listener(seat)`` (on the receiving thread) whenever the table changes."""
        self._listeners.append(listener)

    # --- what the seat does ---------------------------------------------------------------------------
    def move(self, move: Move) -> None:
        """Make ``move``; IllegalMove (the engine's reason) or ClassroomError, and nothing changes."""
        answer = self._ask(MoveRequest(move=move, seq=self.table["n"]), raise_=False)
        if answer.get("type") == "error":
            if answer["code"] == "illegal":
                raise IllegalMove(answer["message"], move)
            raise ClassroomError(answer["code"], answer["message"])
        self._wait_for(lambda: self._table is not None and self._table["n"] >= answer["n"])

    def wait(self, timeout: float | None = None, until: Callable[[Seat], bool] | None = None) -> View | None:
        """Until this seat must decide, or the hand or the match is over (or, given ``until``, until
        ``until(seat)`` holds, e.g. ``lambda seat: seat.view is not None``: the cards are dealt);
        returns ``view``."""
        def ready() -> bool:
            if self.closed is not None:
                return True
            if until is not None:
                return until(self)
            return self.my_turn or self.hand_over or self.match_over
        self._wait_for(ready, timeout)
        return self.view

    def leave(self) -> None:
        """Leave the table (MK-14 in makao; elsewhere a computer takes the seat)."""
        self._ask(Leave())
        self.close()

    def close(self) -> None:
        """Close the connection; the seat waits for its token (``join(..., token=seat.token)``)."""
        self._ws.close()

    # --- the wire ---------------------------------------------------------------------------------------
    def _ask(self, request: Request, raise_: bool = True) -> Answer:
        request_id = next(self._ids)
        self._ws.send(encode_request(replace(request, id=request_id)))
        self._wait_for(lambda: request_id in self._answers or self.closed is not None)
        answer = self._answers.pop(request_id, None)
        if answer is None:
            raise ClassroomError("closed", refusal_words(f"the connection closed: {self.closed}", self.lang,
                                                   {"why": self.closed}))
        if raise_ and answer.get("type") == "error":
            raise ClassroomError(answer["code"], answer["message"])
        return answer

    def _wait_for(self, ready: Callable[[], bool], timeout: float | None = None) -> None:
        with self._changed:
            if not self._changed.wait_for(ready, self.timeout if timeout is None else timeout):
                raise TimeoutError("the class table server did not answer in time")

    def _receive(self) -> None:
        try:
            for raw in self._ws:
                message = decode_server(raw)
                with self._changed:
                    if message.get("type") == "table":
                        self._table = cast(TableFrame, message)
                    elif "id" in message:
                        self._answers[message["id"]] = cast(Answer, message)
                    elif message.get("type") == "error":
                        self.closed = message["message"]
                    self._changed.notify_all()
                if message.get("type") == "table":
                    for listener in list(self._listeners):
                        listener(self)
        except Exception as err:  # noqa: BLE001  the connection ended: say why to whoever waits
            reason = str(err) or type(err).__name__
        else:
            reason = "closed"
        with self._changed:
            self.closed = self.closed or reason
            self._changed.notify_all()

    def __repr__(self) -> str:
        return f"<Seat {self.number} at table {self.code}>"
