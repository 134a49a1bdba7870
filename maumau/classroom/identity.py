"""Who a learner is, when they sit down and when they hand in (docs/howto/class-table.md, "Who a learner is").

- With ``--hub`` a learner is their hub user: the hub says so from the token alone (``hub``).
- With ``--roster`` a learner is the roster learner whose personal code they give (``roster``):
  at a table (``sit_down``) the seat is theirs whatever display name they type, and a hand-in
  (``hand_in_learner``) from that seat, or with the personal code itself, is theirs.  Without a
  code they play under a display name that is no other roster learner's, and cannot hand in.
- With ``--lti`` a learner an LMS launched in is that LMS user (``maumau.lti.learners``): the
  server marks their page's websockets as a hub's users are marked, so the rules above for a hub
  user hold for them.
- Without any of them, tables are played by display name, and a hand-in is refused: a typed name
  is nobody's identity, and the sentence says what the teacher must do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..grading.submissions import HandInError
from .roster import Roster, RosterError
from .spec import TableError

if TYPE_CHECKING:  # pragma: no cover
    from .limits import Bucket
    from .messages import Join
    from .table import ClassTable

__all__ = ["sit_down", "hand_in_learner", "codes_answer", "NO_ROSTER", "WRONG_CODE", "WhoError"]

#: Why a server without a roster or a hub takes no hand-in, and what the teacher does about it.
NO_ROSTER = ("this class server does not know who its learners are, so it takes no hand-in: the teacher "
             "starts it with --roster roster.csv (the roster maumau export reads) and gives each learner their "
             "personal code (maumau table codes), or runs it on JupyterHub (--hub)")
WRONG_CODE = "no learner of this course has that personal code: check it on your teacher's slip"


class WhoError(HandInError):
    """A request whose asker the server cannot tell: the sentence (a hand-in's), and ``key`` and
    ``values`` for a caller that says it in the learner's language (``feedback_desk``)."""

    def __init__(self, key: str, sentence: str, **values: str) -> None:
        super().__init__(sentence)
        self.key, self.values = key, values


def sit_down(table: ClassTable, request: Join, roster: Roster | None) -> tuple[int, str | None]:
    """A learner without a seat token sits down at ``table``: with a personal code as that roster
    learner (their seat again if they have one: no new token then), else under the name they
    typed, which may be no roster learner's.  Returns the seat and its new token (or None)."""
    if request.personal is None:
        others = roster.names_of_others(None) if roster is not None else ()
        seat, token = table.take("Guest" if request.name is None else request.name, others=others)
        return seat.number, token
    if roster is None:
        raise TableError("bad_code", "this class server has no roster, so no personal codes: join with a name")
    learner = roster.learner_for(request.personal)
    if learner is None:
        raise TableError("bad_code", WRONG_CODE)
    own = table.seat_of_user(learner)
    if own is not None:
        return own.number, None
    seat, token = table.take(request.name or roster.display_name(learner), user=learner,
                             others=roster.names_of_others(learner))
    return seat.number, token


def hand_in_learner(hello: dict[str, Any], tables: dict[str, ClassTable], roster: Roster | None,
                    wrong: Bucket) -> str:
    """The roster learner handing in (no hub): the one whose personal code is ``code`` (no
    ``token``), or the learner of the seat at table ``code`` whose token is ``token``, if they sat
    down with their personal code.  HandInError saying why otherwise; a wrong code or token costs
    a try of the client's ``wrong`` bucket."""
    from .store import same_token

    if roster is None:
        raise WhoError("no_roster", NO_ROSTER)
    if not wrong.has():
        raise WhoError("too_many", "too many wrong codes or tokens from here: wait a minute")
    code, token = hello.get("code"), hello.get("token")
    if not token:
        learner = roster.learner_for(code) if isinstance(code, str) else None
        if learner is None:
            wrong.take()
            raise WhoError("wrong_code", WRONG_CODE + " (or hand in with your table's code and your seat's token)")
        return learner
    table = tables.get(code) if isinstance(code, str) else None
    seat = None
    if table is not None and isinstance(token, str):
        seat = next((s for s in table.seats if s.token_hash and same_token(token, s.token_hash)), None)
    if seat is None or not seat.name:
        wrong.take()
        raise WhoError("wrong_token", "no seat at that table has this token: hand in with your own seat's token "
                                      "or your personal code")
    if seat.user is None or seat.user not in roster.entries:
        where = table.code if table else ""
        raise WhoError("nameless_seat", f"you sat at table {where} under a name, without your personal code, so the "
                                        f"server cannot tell who you are: hand in with your personal code "
                                        f"(classroom.hand_in(url, 'YOUR-CODE', notebook)), or sit down with it",
                       table=where)
    return seat.user


def codes_answer(roster: Roster | None, renew: str | None) -> dict[str, Any]:
    """The teacher's ``codes`` request: every roster learner's line, after giving ``renew`` (a
    learner, or ``*`` for all) a new code."""
    if roster is None:
        raise TableError("no_roster", "this server has no roster: start it with maumau serve --roster roster.csv")
    if renew is not None:
        try:
            roster.renew(renew)
        except RosterError as err:
            raise TableError("not_on_roster", str(err)) from None
    return {"codes": [line.as_dict() for line in roster.lines()]}
