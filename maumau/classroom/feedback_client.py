"""``classroom.feedback``: a learner reads their own feedback on an exercise from Python (their notebook)."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from .client import ClassroomError
from .handin_client import _handin_url

__all__ = ["feedback", "Feedback"]


@dataclass(frozen=True)
class Feedback:
    """A learner's feedback on one exercise, as the class server gave it: ``released`` or not,
    ``message`` (when it comes, or when it was released), ``text`` (the feedback in Markdown, empty
    before the release), ``at`` (the release moment, ISO 8601, or None).  Shown as Markdown in Jupyter."""

    exercise: str
    released: bool
    message: str
    text: str = ""
    at: str | None = None

    def __str__(self) -> str:
        return self.message + ("\n\n" + self.text if self.text else "")

    def _repr_markdown_(self) -> str:
        from ..grading.inline_markdown import md_text  # a title in the sentence: shown as written

        return f"*{md_text(self.message)}*" + ("\n\n" + self.text if self.text else "")


class _Refused(ClassroomError):
    """A feedback request the class server refused or could not answer: in a notebook its sentence
    alone, no traceback (IPython shows ``_render_traceback_``); ``except ClassroomError`` catches it."""

    def _render_traceback_(self) -> list[str]:
        return [f"\x1b[31m\x1b[1m✗\x1b[0m {self}"]


def feedback(url: str, code: str, exercise: str, token: str | None = None, hub_token: str | None = None,
             lang: str | None = None, timeout: float = 30.0) -> Feedback:
    """Your feedback on ``exercise`` from the class server ``url``, asked exactly as you hand in
    (``classroom.hand_in``): ``code`` your personal code (no ``token``), or the table's code and your
    seat's ``token``; on JupyterHub the hub token says who you are.  Before your teacher releases it
    you get only a sentence saying when it comes.  ``lang``: en, de or hu (None: the course's).
    ClassroomError with the server's sentence when it refuses.  In the browser course (JupyterLite)
    the same call asks over HTTP (``feedback_browser``): the class server must be reachable from the
    browser (an https site reaches only an https server)."""
    hello = {"type": "feedback", "code": code, "token": token, "exercise": exercise, "lang": lang}
    try:
        answer = _answer(url, hello, hub_token, timeout)
    except ClassroomError as err:
        raise _Refused(err.code, str(err)) from None
    if answer.get("type") != "feedback":
        raise _Refused(str(answer.get("code", "refused")), str(answer.get("message", answer)))
    return Feedback(str(answer["exercise"]), bool(answer["released"]), str(answer["message"]),
                    str(answer.get("text") or ""), answer.get("at"))


def _answer(url: str, hello: dict[str, Any], hub_token: str | None, timeout: float) -> dict[str, Any]:
    """The class server's answer to ``hello``: over HTTP in the browser course, else its websocket."""
    if sys.platform == "emscripten":  # the browser course: no sockets, a synchronous request (feedback_browser)
        from .feedback_browser import request_feedback

        return request_feedback(url, hello, timeout)
    return _ask(url, hello, hub_token, timeout)


def _ask(url: str, hello: dict[str, Any], hub_token: str | None, timeout: float) -> dict[str, Any]:
    """The class server's answer to ``hello`` over its websocket ``/feedback``."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    hub_token = hub_token or (os.environ.get("JUPYTERHUB_API_TOKEN") if "/services/" in url else None)
    headers = {"Authorization": f"token {hub_token}"} if hub_token else None
    socket = _handin_url(url)[: -len("/handin")] + "/feedback"
    try:
        with connect(socket, open_timeout=timeout, additional_headers=headers, max_size=2**20) as ws:
            ws.send(json.dumps(hello))
            return dict(json.loads(ws.recv(timeout)))
    except InvalidStatus as err:  # the server said no before the request: why, in a sentence
        raise ClassroomError("refused", _refusal(url, err.response.status_code)) from None
    except (OSError, TimeoutError) as err:
        raise ClassroomError("unreachable", f"cannot reach the class server at {url}: {err}") from None


def _refusal(url: str, status: int) -> str:
    """Why the class server at ``url`` refused a feedback request at its handshake."""
    if status == 404:
        return f"the class server at {url} has no course, so no feedback (the teacher starts it with --exercises)"
    if status in (401, 403):
        return f"the class server at {url} did not accept your login (the hub token): open your notebook from the hub"
    return f"the class server at {url} refused the request (HTTP {status})"
