"""A learner's own feedback from the class server: only theirs, and only once it is released.

Three ways in, one answer (``FeedbackDesk.answer``):

- the notebook: ``classroom.feedback(url, code, exercise)`` (``feedback_client``) over the websocket
  ``/feedback``; its first message says who asks exactly as a hand-in does (``identity``)::

      {"type": "feedback", "code": "<personal code>", "exercise": "02_skip_on_eight", "lang": "de"}

  or the table's code and the seat's ``token``; on JupyterHub the hub token, after an LMS launch the
  launch's session: never a name the client types.  The answer is ``{"type": "feedback", "exercise",
  "released", "at", "message", "text"}`` or ``{"type": "error", "code", "message"}``;
- the learner's page ``/my-feedback`` after a hub or LMS sign-in (``page``): every exercise of the
  course;
- the LTI exercise page (``section``): that exercise.

Before the release (``maumau.grading.feedback_release``) the answer holds only a sentence saying
when it comes: at the scheduled moment, or when the teacher releases it.  Once released it is the
gradebook's last row of that learner and exercise, with the hidden tests' own explanations, so a
regrade shows at once.  Everything a learner or grader wrote is escaped on the pages.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..grading.feedback_release import FeedbackRelease, Release, when
from ..grading.submissions import HandInError
from ..text.locale.feedback import said

__all__ = ["FeedbackDesk", "FEEDBACK_SOCKET", "LEARNER_PAGE", "FeedbackAnswer"]

FEEDBACK_SOCKET = "/feedback"
LEARNER_PAGE = "/my-feedback"
_HELLO_BYTES = 2048


@dataclass(frozen=True)
class FeedbackAnswer:
    """What a learner gets for one exercise: released or not, the sentence, the feedback's text
    (Markdown; empty before the release or before any grade)."""

    exercise: str
    released: bool
    message: str
    text: str = ""
    at: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"exercise": self.exercise, "released": self.released, "at": self.at, "message": self.message,
                "text": self.text}


class FeedbackDesk:
    """The course's feedback as its learners may see it, from the class database ``db``."""

    def __init__(self, db: str | Path, exercises: Callable[[], list[str]], clock: Callable[[], datetime]) -> None:
        self.db = Path(db)
        self.releases = FeedbackRelease(db)
        self.exercises, self.clock = exercises, clock

    def answer(self, learner: str, exercise: str, lang: str) -> FeedbackAnswer:
        """``learner``'s feedback on ``exercise`` (a name the course has: the caller checks it)."""
        from ..grading.gradebook import Gradebook
        from ..grading.report import feedback_markdown

        release = self.releases.of(exercise)
        if release.at is None or not release.visible(self.clock()):
            return FeedbackAnswer(exercise, False, _waiting(release, lang))
        at = release.at.isoformat(timespec="seconds")
        last = Gradebook(self.db).last(learner, exercise)
        if last is None:
            return FeedbackAnswer(exercise, True, said("not_graded", lang, exercise=exercise), at=at)
        text = feedback_markdown(learner, [last[0]], lang, explain=True)
        sentence = said("released", lang, exercise=exercise, when=when(release.at))
        return FeedbackAnswer(exercise, True, sentence, text, at)

    # --- the notebook's websocket ---------------------------------------------------------------------
    async def serve(self, websocket: Any, server: Any, address: str, hub_user: str | None) -> None:
        """One request on ``websocket``: who asks (as a hand-in says it), which exercise, the answer."""
        try:
            raw = await websocket.recv()
            hello = json.loads(raw[:_HELLO_BYTES] if isinstance(raw, str) else bytes(raw[:_HELLO_BYTES]))
            lang = _lang(hello)
            learner = self._who(hello, server, address, hub_user)
            exercise = hello.get("exercise")
            if not isinstance(exercise, str) or exercise not in self.exercises():
                raise HandInError(said("unknown_exercise", lang, exercise=repr(str(exercise)[:60])))
            answer = self.answer(learner, exercise, lang)
            await websocket.send(json.dumps({"type": "feedback", **answer.as_dict()}))
        except HandInError as err:
            await websocket.send(json.dumps({"type": "error", "code": "refused", "message": str(err)}))
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError, TypeError):
            await websocket.send(json.dumps({"type": "error", "code": "bad_request",
                                             "message": said("bad_request", "en")}))

    def _who(self, hello: Any, server: Any, address: str, hub_user: str | None) -> str:
        """The learner asking: the hub (or LMS) user, else the roster learner of the personal code
        or of the seat whose token is given (``identity.hand_in_learner``, with its costs)."""
        from .identity import hand_in_learner

        if not isinstance(hello, dict) or hello.get("type") != "feedback":
            raise TypeError("not a feedback request")
        if hub_user is not None:
            return hub_user
        return hand_in_learner(hello, server.tables.by_code, server.roster, server.limits.bucket("wrong", address))

    # --- the pages --------------------------------------------------------------------------------------
    def section(self, learner: str, exercise: str, lang: str) -> str:
        """``learner``'s feedback on ``exercise`` as a part of a page (the LTI exercise page)."""
        answer = self.answer(learner, exercise, lang)
        parts = [f'<section aria-labelledby="feedback-{html.escape(exercise)}">',
                 f'<h2 id="feedback-{html.escape(exercise)}">{html.escape(said("feedback_heading", lang))}: '
                 f'{html.escape(exercise)}</h2>', f"<p>{html.escape(answer.message)}</p>"]
        if answer.text:
            parts.append(f'<pre style="white-space:pre-wrap;font-size:16px">{html.escape(answer.text)}</pre>')
        return "".join(parts) + "</section>"

    def page(self, learner: str, display: str, lang: str) -> str:
        """The learner's page: their feedback on every exercise of the course."""
        title = html.escape(said("page_title", lang))
        body = [self.section(learner, name, lang) for name in self.exercises()]
        body = body or [f"<p>{html.escape(said('no_exercises', lang))}</p>"]
        return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
                f"<title>{title}</title><style>body{{font:16px/1.5 system-ui,sans-serif;margin:1.5rem;color:#111;"
                f"background:#fff}}</style></head><body><main><h1>{title}</h1>"
                f"<p>{html.escape(said('page_who', lang, name=display))}</p>{''.join(body)}</main></body></html>")


def _waiting(release: Release, lang: str) -> str:
    """The sentence a learner reads before the release: when it comes."""
    if release.how == "deadline" and release.at is not None:
        return said("scheduled", lang, exercise=release.exercise, when=when(release.at))
    return said("held", lang, exercise=release.exercise)


def _lang(hello: Any) -> str:
    """The language the request asks for (en, de, hu), else the course's."""
    from ..text.i18n import LANGUAGES, language

    lang = hello.get("lang") if isinstance(hello, dict) else None
    return lang if isinstance(lang, str) and lang in LANGUAGES else language()
