"""The live view's wire (``/live/ws``): its messages declared once, as TypedDicts, and read here.

A learner's notebook that shares its progress (``maumau.classroom.live_client``) opens the socket,
says who it is once, then sends a report after each run of an exercise's checks::

    {"type": "hello", "code": "ABCD-EFGH"}                       the learner's personal code
    {"type": "hello", "code": "K7QX2M", "token": "<seat token>"}  or their seat (sat down with the code)
    {"type": "hello"}                                              on JupyterHub / from an LMS launch
    {"type": "checks", "exercise": "02_skip_on_eight",
     "checks": [{"scenario": "3 players, seat 0 plays 8♥", "ok": true}, ...]}

A report holds the exercise (or none: the server finds it by the checks' names), each check's name
and ✓/✗: never the learner's code, never a time
(the server's clock stamps it), never a learner (the connection's learner is the one the server
knows; a report that names another one is refused).  The server answers each with ``stored`` or
``error`` (a code and one sentence).

The teacher's page sends ``{"type": "watch", "projector": false, "idle": 5, "lang": "de"}`` and
then receives a ``LiveFrame`` whenever the class's checks change (``progress``).
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from .schema import json_schema

__all__ = ["MAX_LIVE_MESSAGE", "MAX_CHECKS", "MAX_NAME", "LiveError", "LiveCheck", "LiveHello", "LiveReport",
           "LiveWatch", "LiveCell", "LiveRow", "FailingCheck", "FailingRule", "ExerciseCount", "LiveFrame", "Stored",
           "LiveRefusal", "decode_live", "live_schema"]

#: The largest message a client may send (bytes): a report of 60 checks is well under it.
MAX_LIVE_MESSAGE = 16 * 1024
#: The most checks one report may hold (the exercises have up to a dozen visible ones).
MAX_CHECKS = 100
#: The longest name of an exercise or a check.
MAX_NAME = 200


class LiveError(ValueError):
    """A message the server refuses: a short machine code and one sentence for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


# --- what a client sends ---------------------------------------------------------------------------------
class LiveCheck(TypedDict):
    """One check (a scenario of a test cell) and whether it passed."""
    scenario: str
    ok: bool


class _HelloKeys(TypedDict, total=False):
    code: str
    token: str | None
    lang: str


class LiveHello(_HelloKeys):
    """Who the learner is: their personal code, or a table's code and their seat's token; nothing
    on JupyterHub or after an LMS launch (the connection says who)."""
    type: str


class _ReportKeys(TypedDict, total=False):
    learner: str
    exercise: str


class LiveReport(_ReportKeys):
    """The checks of one exercise as the learner's kernel last ran them (``exercise``: which one,
    unless the kernel cannot say).  ``learner`` is only read to refuse a report for someone else."""
    type: str
    checks: list[LiveCheck]


class LiveWatch(TypedDict):
    """The teacher's page: the frames, with names or for the projector (without)."""
    type: str
    projector: bool
    idle: float
    lang: str


# --- what the server sends ----------------------------------------------------------------------------------
class Stored(TypedDict):
    """A report is stored: the exercise and the server's time of it."""
    type: str
    exercise: str
    checks: int
    at: float


class LiveRefusal(TypedDict):
    """A refused message: nothing of it was stored."""
    type: str
    code: str
    message: str


class LiveCell(TypedDict):
    """One learner's latest checks of one exercise: how many passed, the failing ones by name, the
    time of the report and of the last progress (a check more passed), on the server's clock."""
    passed: int
    total: int
    failed: list[str]
    at: float
    progress: float


class LiveRow(TypedDict):
    """One learner (``name``: as the teacher knows them) and their cells by exercise; ``progress``
    the latest progress in any exercise or connection of their notebook (None: neither yet);
    ``connected``: their notebook has said hello."""
    name: str
    cells: dict[str, LiveCell]
    progress: float | None
    connected: bool


class FailingCheck(TypedDict):
    """A check that ``learners`` of the ``tried`` who ran the exercise fail right now, and the
    RULES.md ids it checks."""
    exercise: str
    check: str
    rules: list[str]
    learners: int
    tried: int


class FailingRule(TypedDict):
    """A RULES.md id, what it says in the page's language, and how many learners fail a check of it right now."""
    rule: str
    says: str
    learners: int


class ExerciseCount(TypedDict):
    """An exercise: learners who ran its checks, and of them those who pass every one."""
    exercise: str
    tried: int
    all_passed: int


class LiveFrame(TypedDict):
    """What the teacher's page shows (``projector``: no ``rows``, no ``idle`` names, counts only).
    ``titles``: each exercise's title in the page's language, by name; ``variants``: each learner has
    their own cards (the failing checks are named with the common ones, a row with the learner's own)."""
    type: str
    now: float
    projector: bool
    exercises: list[str]
    titles: dict[str, str]
    variants: bool
    rows: list[LiveRow]
    failing: list[FailingCheck]
    rules: list[FailingRule]
    counts: list[ExerciseCount]
    idle: list[str]
    idle_count: int
    idle_minutes: float
    learners: int


# --- reading a client's message --------------------------------------------------------------------------------
def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise LiveError("bad_request", f"{what} must be a text of 1 to {MAX_NAME} characters")
    return value


def decode_live(raw: str | bytes) -> LiveHello | LiveReport | LiveWatch:
    """One client message, checked field by field; LiveError saying what is wrong otherwise."""
    if len(raw) > MAX_LIVE_MESSAGE:
        raise LiveError("too_large", f"a message may hold at most {MAX_LIVE_MESSAGE} bytes: nothing was stored")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise LiveError("bad_request", "a message must be one JSON object: nothing was stored") from None
    if not isinstance(data, dict):
        raise LiveError("bad_request", "a message must be one JSON object: nothing was stored")
    kind = data.get("type")
    if kind == "checks":
        return _report(data)
    if kind == "hello":
        return _hello(data)
    if kind == "watch":
        return _watch(data)
    raise LiveError("bad_request", "a message's type is hello, checks or watch: nothing was stored")


def _only(data: dict[str, Any], keys: set[str], what: str) -> None:
    other = sorted(set(data) - keys)
    if other:
        raise LiveError("bad_request", f"{what} has no field {other[0][:40]!r}: nothing was stored")


def _hello(data: dict[str, Any]) -> LiveHello:
    _only(data, {"type", "code", "token", "lang"}, "a hello")
    hello: LiveHello = {"type": "hello"}
    if data.get("code") is not None:
        hello["code"] = _text(data["code"], "the code")
    if data.get("token") is not None:
        hello["token"] = _text(data["token"], "the token")
    if isinstance(data.get("lang"), str):
        hello["lang"] = data["lang"][:5]
    return hello


def _report(data: dict[str, Any]) -> LiveReport:
    _only(data, {"type", "exercise", "checks", "learner"}, "a report")
    checks = data.get("checks")
    if not isinstance(checks, list) or len(checks) > MAX_CHECKS:
        raise LiveError("bad_request", f"a report's checks are a list of at most {MAX_CHECKS}: nothing was stored")
    read: list[LiveCheck] = []
    for check in checks:
        if not isinstance(check, dict) or set(check) != {"scenario", "ok"} or not isinstance(check["ok"], bool):
            raise LiveError("bad_request", 'each check is {"scenario": its name, "ok": true or false}: '
                                           "nothing was stored")
        read.append({"scenario": _text(check["scenario"], "a check's name"), "ok": check["ok"]})
    report: LiveReport = {"type": "checks", "checks": read}
    if data.get("exercise") is not None:
        report["exercise"] = _text(data["exercise"], "the exercise")
    if "learner" in data:
        report["learner"] = str(data["learner"])[:MAX_NAME]
    return report


def _watch(data: dict[str, Any]) -> LiveWatch:
    _only(data, {"type", "projector", "idle", "lang"}, "a watch")
    idle = data.get("idle", 5)
    if not isinstance(idle, (int, float)) or isinstance(idle, bool) or not 0.5 <= idle <= 240:
        raise LiveError("bad_request", "idle is the minutes without progress to name, from 0.5 to 240")
    lang = data.get("lang")
    return {"type": "watch", "projector": data.get("projector") is True, "idle": float(idle),
            "lang": lang if lang in ("en", "de", "hu") else "en"}


def live_schema() -> dict[str, Any]:
    """The JSON Schema of the frame the page's script reads (``pages/live.js``)."""
    return json_schema(LiveFrame, "maumau live frame")
