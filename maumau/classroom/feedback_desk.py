"""A learner's own feedback from the class server: only theirs, and only once it is released.

Three ways in, one answer (``FeedbackDesk.answer``):

- the notebook: ``classroom.feedback(url, code, exercise)`` (``feedback_client``) over the websocket
  ``/feedback`` (in the browser course, JupyterLite, over plain HTTP: ``feedback_http``, the same
  request and answer); its first message says who asks exactly as a hand-in does (``identity``)::

      {"type": "feedback", "code": "<personal code>", "exercise": "02_skip_on_eight", "lang": "de"}

  or the table's code and the seat's ``token``; on JupyterHub the hub token, after an LMS launch the
  launch's session: never a name the client types (a request naming another ``learner`` is refused).
  The answer is ``{"type": "feedback", "exercise", "released", "at", "message", "text"}`` or
  ``{"type": "error", "code", "message"}``, its sentences in the request's language;
- the learner's page ``/my-feedback`` after a hub or LMS sign-in (``page``): every exercise of the
  course;
- the LTI exercise page (``section``): that exercise.

Before the release (``maumau.grading.feedback_release``) the answer holds only a sentence saying
when it comes: at the scheduled moment, or when the teacher releases it.  Once released it is the
gradebook's last row of that learner and exercise, with the hidden tests' own explanations, so a
regrade shows at once.  The notebook gets it as Markdown (Jupyter renders it), the pages as HTML
built from the row (``feedback_html``); everything a learner or grader wrote is escaped on them.
Learners and teachers read an exercise by its title in their language ("02 Skip on 8 (MK-5)",
``titles``); its name stays where it is an identifier (the request, the answer's ``exercise``).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..grading.feedback_release import FeedbackRelease, Release, when
from ..grading.submissions import HandInError
from ..text.locale.feedback import said

if TYPE_CHECKING:
    from ..grading.gradebook import Row

__all__ = ["FeedbackDesk", "FEEDBACK_SOCKET", "LEARNER_PAGE", "FeedbackAnswer"]

FEEDBACK_SOCKET = "/feedback"
LEARNER_PAGE = "/my-feedback"
_HELLO_BYTES = 2048


@dataclass(frozen=True)
class FeedbackAnswer:
    """What a learner gets for one exercise: released or not, the sentence, the feedback's text
    (Markdown; empty before the release or before any grade) and the gradebook ``row`` it was made
    from (the pages build their HTML from it; it never goes over the wire)."""

    exercise: str
    released: bool
    message: str
    text: str = ""
    at: str | None = None
    row: Row | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {"exercise": self.exercise, "released": self.released, "at": self.at, "message": self.message,
                "text": self.text}


class FeedbackDesk:
    """The course's feedback as its learners may see it, from the class database ``db``; ``titles``
    gives the exercises' titles in a language, by name."""

    def __init__(self, db: str | Path, exercises: Callable[[], list[str]], clock: Callable[[], datetime],
                 titles: Callable[[str], Mapping[str, str]] = lambda lang: {}) -> None:
        self.db = Path(db)
        self.releases = FeedbackRelease(db)
        self.exercises, self.clock, self.titles = exercises, clock, titles

    def title(self, exercise: str, lang: str) -> str:
        """What a learner reads for ``exercise``: its title in ``lang``, else its name."""
        return self.titles(lang).get(exercise, exercise)

    def answer(self, learner: str, exercise: str, lang: str) -> FeedbackAnswer:
        """``learner``'s feedback on ``exercise`` (a name the course has: the caller checks it)."""
        from ..grading.gradebook import Gradebook
        from ..grading.report import feedback_markdown

        release, title = self.releases.of(exercise), self.title(exercise, lang)
        if release.at is None or not release.visible(self.clock()):
            return FeedbackAnswer(exercise, False, _waiting(release, title, lang))
        at = release.at.isoformat(timespec="seconds")
        last = Gradebook(self.db).last(learner, exercise)
        if last is None:
            return FeedbackAnswer(exercise, True, said("not_graded", lang, exercise=title), at=at)
        text = feedback_markdown(learner, [last[0]], lang, explain=True, titles={exercise: title})
        sentence = said("released", lang, exercise=title, when=when(release.at))
        return FeedbackAnswer(exercise, True, sentence, text, at, last[0])

    # --- the notebook's requests ---------------------------------------------------------------------
    def respond(self, hello: Any, server: Any, address: str, hub_user: str | None) -> dict[str, Any]:
        """The answer to one request ``hello`` (the websocket's first message, or the browser course's
        HTTP request, ``feedback_http``): who asks (as a hand-in says it), which exercise, their feedback;
        or a refusal with its sentence in the asker's language."""
        lang = _lang(hello)
        try:
            learner = self._who(hello, server, address, hub_user, lang)
            exercise = hello.get("exercise")
            if not isinstance(exercise, str) or exercise not in self.exercises():
                raise HandInError(said("unknown_exercise", lang, exercise=repr(str(exercise)[:60])))
            return {"type": "feedback", **self.answer(learner, exercise, lang).as_dict()}
        except HandInError as err:
            return {"type": "error", "code": "refused", "message": str(err)}
        except (AttributeError, TypeError):
            return {"type": "error", "code": "bad_request", "message": said("bad_request", lang)}

    async def serve(self, websocket: Any, server: Any, address: str, hub_user: str | None) -> None:
        """One request on ``websocket``: its first message, and the answer (``respond``)."""
        raw = await websocket.recv()
        try:
            hello = json.loads(raw[:_HELLO_BYTES] if isinstance(raw, str) else bytes(raw[:_HELLO_BYTES]))
        except (json.JSONDecodeError, UnicodeDecodeError):
            hello = None  # answered as a bad request
        await websocket.send(json.dumps(self.respond(hello, server, address, hub_user)))

    def _who(self, hello: Any, server: Any, address: str, hub_user: str | None, lang: str) -> str:
        """The learner asking: the hub (or LMS) user, else the roster learner of the personal code
        or of the seat whose token is given (``identity.hand_in_learner``, with its costs).  A request
        that names another learner is refused: only the asker's own feedback is ever shown."""
        from .identity import WhoError, hand_in_learner

        if not isinstance(hello, dict) or hello.get("type") != "feedback":
            raise TypeError("not a feedback request")
        learner = hub_user
        if learner is None:
            try:
                learner = hand_in_learner(hello, server.tables.by_code, server.roster,
                                          server.limits.bucket("wrong", address))
            except WhoError as err:  # the hand-in's reason, said to this learner in their language
                raise HandInError(said("who_" + err.key, lang, **err.values)) from None
        if hello.get("learner", learner) != learner:
            raise HandInError(said("not_yours", lang))
        return learner

    # --- the pages --------------------------------------------------------------------------------------
    def section(self, learner: str, exercise: str, lang: str, heading: str | None = None) -> str:
        """``learner``'s feedback on ``exercise`` as a part of a page, under ``heading`` (None: "Feedback",
        as on the LTI exercise page, which its title heads already)."""
        from .feedback_html import feedback_html

        answer = self.answer(learner, exercise, lang)
        anchor = html.escape(f"feedback-{exercise}", quote=True)
        heading = said("feedback_heading", lang) if heading is None else heading
        parts = [f'<section aria-labelledby="{anchor}">', f'<h2 id="{anchor}">{html.escape(heading)}</h2>',
                 f"<p>{html.escape(answer.message)}</p>"]
        if answer.row is not None:
            parts.append(feedback_html(answer.row, lang, explain=True, level=3))
        return "".join(parts) + "</section>"

    def page(self, learner: str, display: str, lang: str) -> str:
        """The learner's page: their feedback on every exercise of the course."""
        from .feedback_html import page_html

        body = [self.section(learner, name, lang, self.title(name, lang)) for name in self.exercises()]
        body = body or [f"<p>{html.escape(said('no_exercises', lang))}</p>"]
        who = f"<p>{html.escape(said('page_who', lang, name=display))}</p>"
        return page_html(said("page_title", lang), lang, who + "".join(body))


def _waiting(release: Release, title: str, lang: str) -> str:
    """The sentence a learner reads before the release of the exercise ``title``: when it comes."""
    if release.how == "deadline" and release.at is not None:
        return said("scheduled", lang, exercise=title, when=when(release.at))
    return said("held", lang, exercise=title)


def _lang(hello: Any) -> str:
    """The language the request asks for (en, de, hu), else the course's."""
    from ..text.i18n import LANGUAGES, language

    lang = hello.get("lang") if isinstance(hello, dict) else None
    return lang if isinstance(lang, str) and lang in LANGUAGES else language()
