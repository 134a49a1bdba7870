"""``classroom.share_progress``: a learner's notebook shares its checks with the class server.

Opt-in: nothing is sent until the learner runs ``share_progress(url, code)``, and it says so in
the notebook.  From then on every run of the exercise's checks (each ``scenario``'s ✓ or ✗, a hook
in ``maumau.grading.checks``) sends one report: the exercise and each check's name and ✓/✗.
Never the learner's code, never a time (the server stamps it), never a name (the server knows who
the connection is: ``live``).

A check never waits for the server: the hook only hands the newest report to a sender and returns.
The sender (a thread; in the browser course the browser's own ``WebSocket``, Pyodide has no
threads) sends it when it can, once per ``COALESCE`` seconds at most, and drops it when the
server cannot be reached within ``TIMEOUT`` seconds: the next run's report says it all again.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..grading import checks
from ..text.i18n import language
from .client import ClassroomError
from .live_wire import MAX_CHECKS, MAX_NAME

__all__ = ["share_progress", "Sharing", "SHARING_WORDS"]

#: Seconds the sender waits for more checks of the same run before it sends them together.
COALESCE = 0.05
#: Seconds a report may take to reach the server before it is dropped.
TIMEOUT = 2.0
#: Seconds after a failed connection before the sender tries again (reports in between are dropped).
RETRY = 5.0

SHARING_WORDS = {
    "en": {"on": "Sharing your checks of {exercise} with your teacher's class server: after each run, each "
                 "check's ✓ or ✗ (never your code). sharing.stop() ends it.",
           "this": "this exercise",
           "off": "Your checks are not shared any more.",
           "unreachable": "the class server at {url} cannot be reached ({why}): check the address your teacher "
                          "gave (nothing is shared)",
           "no_live": "the class server at {url} does not follow checks (HTTP {status}): it runs without the "
                      "course, or your login was refused (nothing is shared)"},
    "de": {"on": "Deine Prüfungen von {exercise} gehen an den Klassenserver deiner Lehrkraft: nach jedem Lauf "
                 "zu jeder Prüfung ✓ oder ✗ (nie dein Code). sharing.stop() beendet es.",
           "this": "dieser Aufgabe",
           "off": "Deine Prüfungen werden nicht mehr geteilt.",
           "unreachable": "der Klassenserver unter {url} ist nicht erreichbar ({why}): prüf die Adresse, die deine "
                          "Lehrkraft genannt hat (es wird nichts geteilt)",
           "no_live": "der Klassenserver unter {url} folgt keinen Prüfungen (HTTP {status}): er läuft ohne den "
                      "Kurs, oder deine Anmeldung wurde abgelehnt (es wird nichts geteilt)"},
    "hu": {"on": "Az ellenőrzéseid ({exercise}) a tanárod osztályszerverére mennek: minden futtatás után "
                 "minden ellenőrzés ✓ vagy ✗ jele (a kódod soha). A sharing.stop() leállítja.",
           "this": "ez a feladat",
           "off": "Az ellenőrzéseid már nem mennek el.",
           "unreachable": "a(z) {url} osztályszerver nem érhető el ({why}): ellenőrizd a címet, amelyet a tanárod "
                          "adott (semmi sem megy el)",
           "no_live": "a(z) {url} osztályszerver nem követ ellenőrzéseket (HTTP {status}): a kurzus nélkül fut, "
                      "vagy a bejelentkezésedet elutasította (semmi sem megy el)"},
}


def _words(key: str, **values: Any) -> str:
    return SHARING_WORDS.get(language(), SHARING_WORDS["en"])[key].format(**values)


def live_url(url: str) -> str:
    """The live socket of a server given by its page address (``http://host:port``)."""
    url = url.rstrip("/")
    if url.startswith("http"):
        url = "ws" + url[4:]
    return url + "/live/ws"


def this_notebook() -> str | None:
    """The exercise of the notebook this kernel runs (its file's stem), when Jupyter says which."""
    where = os.environ.get("JPY_SESSION_NAME")
    shell = sys.modules["IPython"].get_ipython() if "IPython" in sys.modules else None
    if shell is not None and isinstance(shell.user_ns.get("__session__"), str):
        where = shell.user_ns["__session__"]
    return Path(where).stem if where and where.endswith(".ipynb") else None


def share_progress(url: str, code: str | None = None, *, token: str | None = None, exercise: str | None = None,
                   hub_token: str | None = None) -> Sharing:
    """Share this notebook's checks of ``exercise`` (the notebook's own, unless given; where Jupyter
    does not say which, the server knows it by its checks' names) with the class server at ``url``,
    as the learner the server knows: ``code`` your personal code, or the table's code and ``token``
    your seat's; on JupyterHub the hub token says who you are.
    ClassroomError with the server's sentence when it refuses (nothing is shared then); afterwards
    a server that cannot be reached only means a report is dropped."""
    exercise = exercise or this_notebook()
    hello: dict[str, Any] = {"type": "hello", "lang": language()}
    if code is not None:
        hello["code"] = code
    if token is not None:
        hello["token"] = token
    hub_token = hub_token or (os.environ.get("JUPYTERHUB_API_TOKEN") if "/services/" in url else None)
    headers = {"Authorization": f"token {hub_token}"} if hub_token else {}
    if Sharing.current is not None:  # the cell run again: one sharing at a time
        Sharing.current.stop()
    if sys.platform == "emscripten":
        from .live_browser import BrowserSender

        sender: Sender = BrowserSender(live_url(url), hello)
    else:
        from websockets.exceptions import InvalidStatus

        try:
            sender = ThreadSender(live_url(url), hello, headers)
        except (OSError, TimeoutError) as err:  # a wrong address, a server not started: said, nothing shared
            raise ClassroomError("unreachable", _words("unreachable", url=url, why=err.strerror or err)) from None
        except InvalidStatus as err:  # a server without the course (404), a hub that refused the token
            raise ClassroomError("no_live", _words("no_live", url=url, status=err.response.status_code)) from None
    return Sharing(exercise, sender)


class Sender:
    """Sends the newest report when it can (see the module docstring)."""

    #: The server's last answer (``stored``, or ``error`` with its sentence), None before any.
    last_answer: dict[str, Any] | None = None
    #: Reports sent and reports dropped (the server was out of reach).
    sent = 0
    dropped = 0

    def due(self, report: dict[str, Any]) -> None:  # pragma: no cover - every sender says how
        raise NotImplementedError

    def stop(self) -> None:  # pragma: no cover
        raise NotImplementedError


class ThreadSender(Sender):
    """The sender of a kernel with threads: one websocket, reopened when it breaks."""

    def __init__(self, url: str, hello: dict[str, Any], headers: dict[str, str]) -> None:
        self.url, self.hello, self.headers = url, hello, headers
        self._pending: dict[str, Any] | None = None
        self._wake = threading.Condition()
        self._stopped = False
        self._failed_at = -RETRY
        self._ws: Any = self._open()  # the first hello is answered here: a wrong code is said at once
        threading.Thread(target=self._run, name="maumau-share-progress", daemon=True).start()

    def _open(self) -> Any:
        from websockets.sync.client import connect

        ws = connect(self.url, open_timeout=TIMEOUT, additional_headers=self.headers or None, max_size=64 * 1024,
                     close_timeout=1, legacy=True)  # it outlives any with-block
        try:
            ws.send(json.dumps(self.hello))
            answer = json.loads(ws.recv(TIMEOUT))
        except Exception:
            ws.close()
            raise
        if answer.get("type") != "welcome":
            ws.close()
            raise ClassroomError(str(answer.get("code", "refused")), str(answer.get("message", answer)))
        return ws

    def due(self, report: dict[str, Any]) -> None:
        with self._wake:
            self._pending = report
            self._wake.notify()

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending is not None or self._stopped)
                if self._stopped:
                    break
            time.sleep(COALESCE)  # the other checks of the same run come with it
            with self._wake:
                report, self._pending = self._pending, None
            if report is not None:
                self._send(report)
        if self._ws is not None:
            self._ws.close()

    def _send(self, report: dict[str, Any]) -> None:
        try:
            if self._ws is None:
                if time.monotonic() - self._failed_at < RETRY:
                    self.dropped += 1
                    return
                self._ws = self._open()
            self._ws.send(json.dumps(report, ensure_ascii=False))
            self.last_answer = json.loads(self._ws.recv(TIMEOUT))
            self.sent += 1
        except Exception:  # noqa: BLE001  out of reach, refused, closed: this report is dropped
            self.dropped += 1
            self._failed_at = time.monotonic()
            if self._ws is not None:
                self._ws.close()
            self._ws = None


class Sharing:
    """This kernel's checks of one exercise, shared with the class server (``share_progress``)."""

    #: The sharing of this kernel, if one is on.
    current: Sharing | None = None

    def __init__(self, exercise: str | None, sender: Sender) -> None:
        self.exercise, self.sender = exercise, sender
        Sharing.current = self
        checks.listeners.append(self._ran)
        print(_words("on", exercise=exercise or _words("this")))
        if checks._results:  # the checks run before sharing began count too
            self._ran("", True)

    def _ran(self, scenario: str, ok: bool) -> None:
        """The hook: the report of every check run in this kernel so far, handed to the sender."""
        runs = [{"scenario": name, "ok": done} for name, (done, _) in list(checks._results.items())
                if len(name) <= MAX_NAME]
        report: dict[str, Any] = {"type": "checks", "checks": runs[-MAX_CHECKS:]}
        if self.exercise:
            report["exercise"] = self.exercise
        self.sender.due(report)

    @property
    def last_answer(self) -> dict[str, Any] | None:
        return self.sender.last_answer

    def stop(self) -> None:
        """Nothing is sent any more."""
        if self._ran in checks.listeners:
            checks.listeners.remove(self._ran)
        self.sender.stop()
        if Sharing.current is self:
            Sharing.current = None
        print(_words("off"))

    def __repr__(self) -> str:
        return f"<Sharing {self.exercise}: {self.sender.sent} sent, {self.sender.dropped} dropped>"
