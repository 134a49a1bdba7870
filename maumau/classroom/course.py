"""The course on the class server: learners hand in notebooks, the teacher sees the class.

``Server(..., course=Course("exercises/", closes={...}))`` or ``maumau serve --exercises exercises/``.

Hand-in (``/handin``, a websocket of its own): the client first says who it is and what it sends,
in a small message::

    {"type": "hand_in", "code": "K7QX2M", "token": "<seat token>", "exercise": "02_skip_on_eight",
     "size": 41234}

or ``{"type": "hand_in", "code": "<personal code>", ...}`` without a token (on JupyterHub the
hub user of the connection is the learner, no token).  The server checks the personal code, or
the table code and the seat's token (a wrong one costs a try of the client's ``wrong`` bucket,
as a wrong join does), then answers ``{"type": "ready"}`` and only now accepts one larger
message: the notebook's bytes (at most ``MAX_HANDIN_BYTES``).  It answers ``{"type": "receipt",
...}`` with the server's receipt time, the SHA-256 and the version, or ``{"type": "error",
"code", "message"}``.  The learner is the roster learner of the personal code, or of the seat if
they sat down with their code, or the hub user (``identity``): never a name or a time the client
sends; a server with neither a roster nor a hub takes no hand-in.  Before the bytes are read,
the learner's caps are asked (``HandIns.room``: versions of the exercise, bytes in all) and their
hand-in rate (``limits``: five at once, then one every six seconds); a refusal says which, and
every earlier version stays.

The course page (``/course``, the logged-in teacher only): ``maumau.grading.course_page`` over the
gradebook's last grade of every learner, every hand-in with its receipt, and whether learners see each
exercise's feedback, with its button (``release_form``).  Learners read their own feedback once it is
released (``feedback_desk``): by hand, or at the exercise's close time plus ``feedback_delay``.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..grading.feedback_release import utc_now
from ..grading.submissions import MAX_HANDIN_BYTES, HandInError, HandIns, Receipt
from .feedback_desk import FeedbackDesk
from .release_form import ReleaseForm

__all__ = ["Course", "HANDIN_SOCKET", "COURSE_PAGE"]

HANDIN_SOCKET = "/handin"
COURSE_PAGE = "/course"
_HELLO_BYTES = 2048


@dataclass
class Course:
    """The exercises learners may hand in (the instructor's notebooks in ``source``) and the time
    after which each is closed for hand-ins; ``feedback_delay``: each exercise's feedback is released
    that long after its close time (None: only by hand); ``clock``: the server's clock."""

    source: str | Path
    closes: Mapping[str, datetime] = field(default_factory=dict)
    feedback_delay: timedelta | None = None
    clock: Callable[[], datetime] = utc_now
    #: The course key of the learners' own positions (``maumau.grading.learner_variants``), or None.
    variants: bytes | None = None

    def exercise_ids(self) -> dict[str, list[str]]:
        """Each exercise's cell ids: a notebook handed in must hold one of them."""
        from ..grading.exercise import load_exercises

        return {e.name: [c.key for c in e.cells if c.key] for e in load_exercises(self.source)}

    def exercise_titles(self) -> dict[str, dict[str, str]]:
        """Each language's titles of the exercises ("02 Skip on 8 (MK-5)"), by name: what pages call them."""
        from ..grading.exercise import load_exercises
        from ..text.i18n import LANGUAGES

        exercises = load_exercises(self.source)
        return {lang: {e.name: e.in_language(lang).title for e in exercises} for lang in LANGUAGES}


class CourseDesk:
    """What the server does for a course: hand-ins in, the course page out."""

    def __init__(self, course: Course, db: str | Path) -> None:
        self.course = course
        self.exercises = course.exercise_ids()
        self.titles = course.exercise_titles()  # read once, like the exercises themselves
        self.handins = HandIns(db)
        self.db = Path(db)
        self._loaded: dict[str, Any] = {}  # the exercises learners fetched, loaded once (own_copy)
        self.feedback_desk = FeedbackDesk(db, lambda: sorted(self.exercises), lambda: self.course.clock(),
                                          self.titles_in)
        self.release_form = ReleaseForm(self.feedback_desk.releases)
        if course.feedback_delay is not None:  # kept in the database: a decision by hand stays
            for name, close in course.closes.items():
                self.feedback_desk.releases.schedule(name, close + course.feedback_delay, course.clock())

    def titles_in(self, lang: str) -> dict[str, str]:
        """The exercises' titles in ``lang`` (English where the course has no such language), by name."""
        return self.titles.get(lang) or self.titles.get("en", {})

    async def serve(self, websocket: Any, server: Any, address: str, hub_user: str | None) -> None:
        """One hand-in on ``websocket``: the hello, then the notebook, then the receipt."""
        try:
            hello = json.loads(await websocket.recv())
            learner = self._who(hello, server, address, hub_user)
            if hello.get("type") == "fetch":  # the learner's own copy of an exercise (own_copy)
                await websocket.send(json.dumps(self.own_copy(server, learner, hello)))
                return
            size = hello.get("size")
            if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= MAX_HANDIN_BYTES:
                raise HandInError(f"the notebook's size must be a number of bytes up to {MAX_HANDIN_BYTES}")
            exercise = hello.get("exercise")
            if not isinstance(exercise, str) or exercise not in self.exercises:
                raise HandInError(f"there is no exercise {str(exercise)[:60]!r} in this course: nothing was stored")
            self._admit(server, learner, exercise, size)
            # only now, for a learner the server knows, one message as large as the notebook said
            websocket.protocol.max_message_size = size + 16
            await websocket.send(json.dumps({"type": "ready"}))
            data = await websocket.recv()
            data = data.encode("utf-8") if isinstance(data, str) else bytes(data)
            receipt = self.handins.receive(learner, exercise, data, self.exercises, self.course.closes)
            await websocket.send(json.dumps({"type": "receipt", **receipt.as_dict()}))
        except HandInError as err:
            await websocket.send(json.dumps({"type": "error", "code": "refused", "message": str(err)}))
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError, TypeError):
            await websocket.send(json.dumps({"type": "error", "code": "bad_request",
                                             "message": "the first message must be a hand_in request (JSON)"}))

    def hand_in(self, server: Any, learner: str, exercise: str, data: bytes) -> Receipt:
        """A hand-in that came whole (the LTI exercise page's upload), with the websocket's checks:
        a known exercise, the learner's caps and rate; HandInError saying why not."""
        if exercise not in self.exercises:
            raise HandInError(f"there is no exercise {exercise[:60]!r} in this course: nothing was stored")
        self._admit(server, learner, exercise, len(data))
        return self.handins.receive(learner, exercise, data, self.exercises, self.course.closes)

    def _admit(self, server: Any, learner: str, exercise: str, size: int) -> None:
        """HandInError unless ``learner`` is within their caps (``HandIns.room``) and their rate
        (``limits``, ``handin``): asked before the notebook's bytes are read."""
        self.handins.room(learner, exercise, size)
        bucket = server.limits.bucket("handin", learner)
        if not bucket.take():
            wait = max(1, math.ceil(bucket.wait()))
            raise HandInError(f"you hand in too often ({bucket.burst:.0f} at once, then one every "
                              f"{1 / bucket.per_second:.0f} s): wait {wait} s and hand in again "
                              f"(nothing was stored now; your earlier versions are all kept)")

    def _who(self, hello: Any, server: Any, address: str, hub_user: str | None) -> str:
        """The learner handing in: the hub user, else the roster learner of the personal code or of
        the seat whose token is given (``identity.hand_in_learner``)."""
        from .identity import hand_in_learner

        if not isinstance(hello, dict) or hello.get("type") not in ("hand_in", "fetch"):
            raise HandInError("the first message must be a hand_in or fetch request")
        if hub_user is not None:
            return hub_user
        return hand_in_learner(hello, server.tables.by_code, server.roster, server.limits.bucket("wrong", address))

    def own_copy(self, server: Any, learner: str, hello: dict[str, Any], fallback: bool = False) -> dict[str, Any]:
        """A ``fetch``: ``learner``'s own copy of the exercise ``hello`` names, in its language (the
        student version with their draw's positions, ``releaser.learners_copy``; the common one
        without the course key).  HandInError for an unknown exercise or language (``fallback``: the
        exercise's own language instead), or too many asks."""
        from ..grading.exercise import load_exercise
        from ..grading.releaser import learners_copy

        exercise, lang = hello.get("exercise"), hello.get("lang") or "en"
        if not isinstance(exercise, str) or exercise not in self.exercises:
            raise HandInError(f"there is no exercise {str(exercise)[:60]!r} in this course")
        bucket = server.limits.bucket("handin", learner)
        if not bucket.take():
            raise HandInError(f"you ask too often: wait {max(1, math.ceil(bucket.wait()))} s")
        if exercise not in self._loaded:
            folder = Path(self.course.source)
            self._loaded[exercise] = load_exercise(folder if folder.is_file() else folder / f"{exercise}.ipynb")
        source = self._loaded[exercise]
        if fallback and (not isinstance(lang, str) or lang not in source.translations):
            lang = source.language
        if not isinstance(lang, str) or (lang != source.language and lang not in source.translations):
            raise HandInError(f"exercise {exercise} has no version in {str(lang)[:10]!r}")
        text, draw = learners_copy(source, learner, self.course.variants, lang)
        return {"type": "notebook", "exercise": exercise, "lang": lang, "draw": draw, "notebook": text}

    def page(self, lang: str | None = None, session: str = "") -> str:
        """The teacher's course page: the gradebook's class, every hand-in, the release of each exercise's
        feedback (its buttons carry ``session``'s form token; ``lang`` None: the course's language)."""
        from ..text.i18n import check_language

        lang = check_language(lang)
        from ..grading.course_page import course_html
        from ..grading.gradebook import Gradebook
        from ..grading.similarity import load_flags

        words = HANDIN_WORDS.get(lang, HANDIN_WORDS["en"])
        rows = Gradebook(self.db).latest()
        links = {r.student: f"course/feedback?learner={quote(r.student)}&lang={lang}" for r in rows}
        at, flags = load_flags(self.db)
        page = course_html(rows, lang, links, similar=flags if at else None, similar_at=at)
        head = "".join(f'<th scope="col">{html.escape(w)}</th>' for w in words["columns"])
        lines = [f"<h2>{html.escape(words['title'])}</h2>",
                 f"<table><caption>{html.escape(words['caption'])}</caption><thead><tr>{head}</tr></thead><tbody>"]
        lines += [f'<tr><th scope="row">{html.escape(r.learner)}</th><td>{html.escape(r.exercise)}</td>'
                  f"<td>{r.version}</td><td>{html.escape(r.received)}</td><td>{r.sha256[:12]}…</td></tr>"
                  for r in self.handins.receipts()]
        lines.append("</tbody></table>")
        lines.append(self.release_form.section(sorted(self.exercises), session, lang, self.course.clock(),
                                               self.titles_in(lang)))
        start, end, tail = page.rpartition("</main>")
        return start + "\n".join(lines) + end + tail

    def feedback(self, learner: str, lang: str | None = None) -> str:
        """One learner's feedback from the gradebook, as the grader wrote it, the hidden tests'
        explanations included: the teacher's view, released or not, each exercise under its title
        (``lang`` None: the course's language)."""
        from ..text.i18n import check_language

        lang = check_language(lang)
        from ..grading.gradebook import Gradebook
        from ..grading.report import say
        from ..grading.submissions import FOLDER
        from ..text.locale.feedback import said
        from .feedback_html import feedback_html, page_html

        rows = sorted((r for r in Gradebook(self.db).latest() if r.student == learner), key=lambda r: r.exercise)
        titles = {**self.titles_in(lang), FOLDER: say("folder", lang)}
        body = [f"<section><h2>{html.escape(titles.get(r.exercise, r.exercise))}</h2>"
                f"{feedback_html(r, lang, explain=True)}</section>" for r in rows]
        body = body or [f"<p>{html.escape(said('no_grade', lang, name=learner))}</p>"]
        return page_html(say("feedback_for", lang, name=learner), lang, "".join(body))


HANDIN_WORDS: dict[str, dict[str, Any]] = {
    "en": {"title": "Hand-ins", "caption": "Every version, as the server received it",
           "columns": ("Learner", "Exercise", "Version", "Received (UTC)", "SHA-256")},
    "de": {"title": "Abgaben", "caption": "Jede Fassung, wie der Server sie empfing",
           "columns": ("Person", "Aufgabe", "Fassung", "Empfangen (UTC)", "SHA-256")},
    "hu": {"title": "Beadások", "caption": "Minden változat, ahogy a szerver megkapta",
           "columns": ("Tanuló", "Feladat", "Változat", "Beérkezett (UTC)", "SHA-256")},
}

