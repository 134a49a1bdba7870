"""The live view on the class server: learners' reports in, the teacher's frames out (``/live/ws``).

A learner's connection says who it is once (``live_wire.LiveHello``): the learner is who the server
knows, as for a hand-in (``identity``): the hub user of the connection (JupyterHub, an LMS
launch), else the roster learner of the personal code or of the seat whose token is given.  A
typed name is nobody, so a server with neither a roster nor a hub follows no one.  Each report
then counts against the learner's ``report`` rate (``limits``), names no one else, names one of
the course's exercises and some of its visible checks (``live_checks``: with the course key, as the
learner's own draw of the exercise names them), and is stored
(``progress``) before the teacher hears of it; anything else is refused with one sentence, and
nothing of it is stored.

The teacher's page (``progress_page``) watches: the logged-in teacher only.  Each watcher has a
task of its own that sends it the latest frame whenever the class changed (at most every
``COALESCE`` seconds, and every ``REFRESH`` seconds for the stuck learners' clock), so a slow
page waits alone and never holds a report or a table up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..grading.submissions import HandInError
from .limits import Bucket
from .live_wire import LiveError, LiveFrame, LiveHello, LiveRefusal, LiveReport, LiveWatch, Stored, decode_live
from .progress import Progress

if TYPE_CHECKING:  # pragma: no cover
    from .live_checks import ExerciseChecks
    from .roster import Roster
    from .server import Server

__all__ = ["LiveDesk", "LIVE_SOCKET", "COALESCE", "REFRESH", "NO_ONE_KNOWN", "REFUSED", "refused"]

LIVE_SOCKET = "/live/ws"
#: Seconds a watcher's frame waits for more reports (a Run All reports cell by cell).
COALESCE = 0.05
#: Seconds after which a watcher gets a frame even when nothing was reported (the stuck learners).
REFRESH = 15.0
#: Seconds a watcher may take to read one frame before it is dropped.
STALL = 10.0
#: The live view's refusals a learner (in their notebook's language) or a page reads, by key.
REFUSED: dict[str, dict[str, str]] = {
    "no_one_known": {
        "en": "this class server does not know who its learners are, so it follows no one's checks: the teacher "
              "starts it with --roster roster.csv and gives each learner their personal code (maumau table codes), "
              "or runs it on JupyterHub (--hub)",
        "de": "dieser Klassenserver weiß nicht, wer seine Lernenden sind, und folgt darum niemandes Prüfungen: die "
              "Lehrkraft startet ihn mit --roster roster.csv und gibt allen ihren persönlichen Code (maumau table "
              "codes), oder betreibt ihn auf JupyterHub (--hub)",
        "hu": "ez az osztályszerver nem tudja, kik a tanulói, ezért senki ellenőrzéseit nem követi: a tanár a "
              "--roster roster.csv kapcsolóval indítja, és mindenkinek odaadja a személyes kódját (maumau table "
              "codes), vagy JupyterHubon futtatja (--hub)"},
    "who": {
        "en": "say who you are first (a hello with your personal code): nothing was stored",
        "de": "sag zuerst, wer du bist (ein hello mit deinem persönlichen Code): nichts wurde gespeichert",
        "hu": "előbb mondd meg, ki vagy (egy hello a személyes kódoddal): semmi sem lett eltárolva"},
    "not_yours": {
        "en": "a report is about your own checks only, and this connection is another learner's: nothing was stored",
        "de": "eine Meldung betrifft nur deine eigenen Prüfungen, und diese Verbindung gehört jemand anderem: "
              "nichts wurde gespeichert",
        "hu": "egy jelentés csak a saját ellenőrzéseidről szólhat, ez a kapcsolat pedig másé: semmi sem lett "
              "eltárolva"},
    "too_often": {
        "en": "checks are reported too often from your notebook: wait {wait} s (nothing was stored now)",
        "de": "aus deinem Notebook kommen zu oft Prüfungen: warte {wait} s (diesmal wurde nichts gespeichert)",
        "hu": "túl gyakran jönnek ellenőrzések a notebookodból: várj {wait} mp-et (most semmi sem lett eltárolva)"},
    "no_exercise": {
        "en": "there is no exercise {exercise!r} in this course: nothing was stored",
        "de": "in diesem Kurs gibt es keine Aufgabe {exercise!r}: nichts wurde gespeichert",
        "hu": "ebben a kurzusban nincs {exercise!r} feladat: semmi sem lett eltárolva"},
    "no_checks": {
        "en": "none of these checks is a visible check of {exercise}: nothing was stored",
        "de": "keine dieser Prüfungen ist eine sichtbare Prüfung von {exercise}: nichts wurde gespeichert",
        "hu": "ezek közül egyik sem látható ellenőrzése a(z) {exercise} feladatnak: semmi sem lett eltárolva"},
    "no_checks_any": {
        "en": "none of these checks is a visible check of any exercise of this course: nothing was stored",
        "de": "keine dieser Prüfungen ist eine sichtbare Prüfung einer Aufgabe dieses Kurses: nichts wurde gespeichert",
        "hu": "ezek közül egyik sem látható ellenőrzése a kurzus egyetlen feladatának sem: semmi sem lett eltárolva"},
    "forbidden": {
        "en": "the live view is the teacher's: log in on the lobby page first",
        "de": "die Live-Ansicht ist die der Lehrkraft: melde dich zuerst auf der Startseite an",
        "hu": "az élő nézet a tanáré: előbb jelentkezz be a kezdőoldalon"},
    "server_error": {
        "en": "the server could not store that: nothing was stored",
        "de": "der Server konnte das nicht speichern: nichts wurde gespeichert",
        "hu": "a szerver ezt nem tudta eltárolni: semmi sem lett eltárolva"},
}
#: Why a server that does not know its learners follows no one, and what the teacher does about it.
NO_ONE_KNOWN = REFUSED["no_one_known"]["en"]
log = logging.getLogger("maumau.classroom")


def _known_lang(lang: str | None) -> str:
    """A language the sentences have (en, de, hu), English otherwise."""
    return lang if lang in ("en", "de", "hu") else "en"


def _refusal(err: LiveError) -> LiveRefusal:
    return {"type": "error", "code": err.code, "message": err.message}


def refused(code: str, lang: str, key: str | None = None, **values: Any) -> LiveError:
    """The refusal ``code`` with its sentence (``REFUSED[key or code]``) in ``lang`` (English where
    the catalogue has no such language)."""
    said = REFUSED[key or code]
    return LiveError(code, said.get(lang, said["en"]).format(**values))


def _ids(known: ExerciseChecks, report: LiveReport) -> dict[str, bool]:
    """The report's checks that are ``known``'s, by id: whether each passed."""
    found = {}
    for check in report["checks"]:
        check_id = known.id_of(check["scenario"])
        if check_id is not None:
            found[check_id] = check["ok"]
    return found


@dataclass(eq=False)  # each page is itself (a set of them)
class Watcher:
    """One teacher's page: what it asked to see, and whether a frame is due."""
    websocket: Any
    watch: LiveWatch
    due: asyncio.Event = field(default_factory=asyncio.Event)


class LiveDesk:
    """The live view of one class server (see the module docstring)."""

    def __init__(self, source: str | Path, db: str | Path, roster: Roster | None = None,
                 exercises: dict[str, ExerciseChecks] | None = None, variants: bytes | None = None) -> None:
        from .live_checks import course_checks  # the exercises' reader: only a server with a course needs it

        self.exercises = exercises if exercises is not None else course_checks(source)
        #: The server's roster: the learners' names, and those who have not reported yet.
        self.roster = roster
        #: The course key (``maumau serve --variants``): each learner's cells name their own cards; else None.
        self.variants = variants
        self._mine: dict[tuple[str, str], ExerciseChecks] = {}
        self.progress = Progress(db, self.exercises, self.checks_of if variants is not None else None)
        self.watchers: set[Watcher] = set()
        #: How each learner is shown (a hub user or an LMS learner as their connection said).
        self.shown: dict[str, str] = {}

    def close(self) -> None:
        self.progress.close()

    # --- a connection ------------------------------------------------------------------------------------
    async def serve(self, websocket: Any, server: Server, address: str, hub_user: str | None, teacher: bool,
                    display: str | None = None) -> None:
        """One connection: a learner's reports, or (its first message a watch) a teacher's page."""
        from websockets.exceptions import ConnectionClosed

        learner: str | None = None
        lang = "en"  # the learner's notebook's language, once its hello says it
        messages = Bucket(*server.limits.limits["message"])  # a flood slows its own connection alone
        async for raw in websocket:
            while not messages.take():
                await asyncio.sleep(1 / messages.per_second)
            try:
                message = decode_live(raw)
                if message["type"] == "watch":
                    await self._watch(websocket, cast(LiveWatch, message), teacher)
                    return
                if message["type"] == "hello":
                    lang = _known_lang(cast(LiveHello, message).get("lang"))
                    learner = self._who(cast(LiveHello, message), server, address, hub_user, lang)
                    if display:
                        self.shown[learner] = display
                    self.progress.connected(learner, time.time())
                    self.changed()
                    await websocket.send(json.dumps({"type": "welcome"}))
                    continue
                answer: Stored | LiveRefusal = self._report(server, learner, cast(LiveReport, message), lang)
            except LiveError as err:
                answer = _refusal(err)
            except ConnectionClosed:
                raise
            except Exception:  # a fault of the server's own: said, and the connection goes on
                log.exception("a live report failed")
                answer = _refusal(refused("server_error", lang))
            await websocket.send(json.dumps(answer, ensure_ascii=False))

    def _who(self, hello: LiveHello, server: Server, address: str, hub_user: str | None, lang: str) -> str:
        """The learner of this connection (see the module docstring); LiveError saying why not."""
        from .identity import hand_in_learner

        if hub_user is not None:
            return hub_user
        if server.roster is None:
            raise refused("unknown_learner", lang, "no_one_known")
        try:
            return hand_in_learner(dict(hello), server.tables.by_code, server.roster,
                                   server.limits.bucket("wrong", address))
        except HandInError as err:
            raise LiveError("unknown_learner", str(err)) from None  # the hand-in's sentences: the same codes

    def _report(self, server: Server, learner: str | None, report: LiveReport, lang: str) -> Stored:
        """Store one report of ``learner``; LiveError (nothing stored) when it may not be."""
        if learner is None:
            raise refused("who", lang)
        if "learner" in report and report["learner"] != learner:
            raise refused("not_yours", lang)
        bucket = server.limits.bucket("report", learner)
        if not bucket.take():
            wait = max(1, math.ceil(bucket.wait()))
            raise refused("too_often", lang, wait=wait)
        known = self._exercise(report, lang)
        # the learner's own cards; else the common ones (a notebook from the common release, without a draw)
        checks = _ids(self.checks_of(learner, known.name), report) or _ids(known, report)
        if not checks:
            raise refused("no_checks", lang, exercise=known.name)
        latest = self.progress.record(learner, known.name, checks, time.time())
        self.changed()
        return {"type": "stored", "exercise": known.name, "checks": len(checks), "at": latest.at}

    def checks_of(self, learner: str, exercise: str) -> ExerciseChecks:
        """``exercise``'s visible checks as ``learner``'s cells name them: their own draw's cards with the
        course key (the same ids as everyone's), else the common ones."""
        from ..grading.learner_variants import LearnerVariantError, learners_draw
        from ..grading.submissions import safe_folder_name

        known = self.exercises[exercise]
        if self.variants is None or known.exercise is None:
            return known
        mine = self._mine.get((learner, exercise))  # each frame asks for every row's: drawn once
        if mine is None:
            try:  # the draw the learner's copy was made with (``releaser.learners_copy``): the same name
                mine = known.drawn(learners_draw(self.variants, safe_folder_name(learner), known.exercise))
            except LearnerVariantError as err:  # a broken entry: its grading says so; the common names meanwhile
                log.warning("the live view reads %s with its common positions: %s", exercise, err)
                mine = known
            self._mine[(learner, exercise)] = mine
        return mine

    def _exercise(self, report: LiveReport, lang: str) -> ExerciseChecks:
        """The exercise a report is about: the one it names, else the one most of its checks are of
        (with any cards: only that exercise is then read in the learner's own draw)."""
        if "exercise" in report:
            known = self.exercises.get(report["exercise"])
            if known is None:
                raise refused("no_exercise", lang, exercise=report["exercise"][:60])
            return known
        names = [check["scenario"] for check in report["checks"]]
        found = max(self.exercises.values(), key=lambda e: sum(e.knows(name) for name in names), default=None)
        if found is None or not any(found.knows(name) for name in names):
            raise refused("no_checks", lang, "no_checks_any")
        return found

    # --- the teacher's pages ---------------------------------------------------------------------------------
    async def _watch(self, websocket: Any, watch: LiveWatch, teacher: bool) -> None:
        from websockets.exceptions import ConnectionClosed

        if not teacher:
            raise refused("forbidden", watch["lang"])
        watcher = Watcher(websocket, watch)
        self.watchers.add(watcher)
        watcher.due.set()
        sender = asyncio.get_running_loop().create_task(self._send_frames(watcher))
        try:
            with contextlib.suppress(ConnectionClosed):
                async for _ in websocket:  # a page says nothing more; its closing ends the watch
                    pass
        finally:
            self.watchers.discard(watcher)
            sender.cancel()

    def changed(self) -> None:
        """The class changed: every watcher is due a frame."""
        for watcher in self.watchers:
            watcher.due.set()

    async def _send_frames(self, watcher: Watcher) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(watcher.due.wait(), REFRESH)
            await asyncio.sleep(COALESCE)
            watcher.due.clear()
            try:
                text = json.dumps(self.frame(watcher.watch), ensure_ascii=False)
            except Exception:  # a fault of the server's own: said in its log, the page waits for the next change
                log.exception("a live frame failed")
                continue
            try:
                await asyncio.wait_for(watcher.websocket.send(text), STALL)
            except (asyncio.TimeoutError, TimeoutError):  # a page that does not read: cut, alone
                transport = getattr(watcher.websocket, "transport", None)
                if transport is not None:
                    transport.abort()
                return
            except Exception:  # noqa: BLE001  the page closed: its connection's handler ends the watch
                return

    def frame(self, watch: LiveWatch, now: float | None = None) -> LiveFrame:
        """The frame ``watch`` asked for, as of now."""
        everyone = list(self.roster.entries) if self.roster is not None else []
        return self.progress.frame(time.time() if now is None else now, watch["lang"], watch["projector"],
                                   watch["idle"], self.name_of, everyone)

    def name_of(self, learner: str) -> str:
        if learner in self.shown:
            return self.shown[learner]
        if self.roster is not None and learner in self.roster.entries:
            return str(self.roster.display_name(learner))
        return learner
