"""The browser course's way to a learner's feedback: plain HTTP, because its notebook cannot wait.

A notebook of the browser course (JupyterLite) runs in Pyodide in a web worker: it has no sockets and
no threads, and the browser's WebSocket answers only after the cell has finished, so
``classroom.feedback(...)`` could not return the answer.  A web worker may send a *synchronous*
``XMLHttpRequest`` (``feedback_browser``), so the notebook asks the class server here and the call
returns the same ``Feedback`` as in JupyterLab::

    GET /feedback.json?exercise=02_skip_on_eight&lang=de
    Authorization: Learner <personal code>              (or: Learner <table's code> <seat's token>)

The code and the token are percent-encoded and travel in a header, not in the address (which servers
and proxies log).  The request is the websocket's (``FeedbackDesk.respond``): the same identity, the
same checks, the same JSON answer; a refusal comes as JSON too, with its sentence (en, de, hu) and a
4xx status.  The site is another origin than the class server, so the answers allow every origin
(CORS): no cookie is ever read here, so a page elsewhere learns nothing its visitor could not ask
with the code; the ``Authorization`` header makes the browser ask first (``OPTIONS``, answered by
``preflight``).  On JupyterHub the notebook runs in the hub, never here: that server answers this
path with a 404.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from ..text.locale.feedback import said
from .pages import query_lang, query_value

__all__ = ["FEEDBACK_HTTP", "feedback_http", "hello_of"]

FEEDBACK_HTTP = "/feedback.json"
_CORS = [("Access-Control-Allow-Origin", "*")]  # the same answer for every origin: nothing varies by it
_HEADER_BYTES = 512


def feedback_http(desk: Any, server: Any, request: Any, path: str, address: str) -> Any:
    """The answer to the browser course's request (``desk``: the course's ``FeedbackDesk``, None
    when the server has no course): JSON with CORS headers, or the preflight's answer."""
    if request.method == "OPTIONS":
        return preflight(request)
    if request.method != "GET":
        return _json(405, {"type": "error", "code": "bad_request", "message": said("bad_request", query_lang(path))},
                     [("Allow", "GET, OPTIONS")])
    if desk is None:
        return _json(404, {"type": "error", "code": "no_course", "message": said("no_course", query_lang(path))})
    answer = desk.respond(hello_of(path, request.headers), server, address, None)
    status = 200 if answer["type"] == "feedback" else 400 if answer["code"] == "bad_request" else 403
    return _json(status, answer)


def hello_of(path: str, headers: Any) -> dict[str, Any]:
    """The websocket's first message that this HTTP request stands for: the code and the seat's
    token from its ``Authorization: Learner CODE [TOKEN]`` header, the rest from its query."""
    scheme, _, credentials = str(headers.get("Authorization", ""))[:_HEADER_BYTES].partition(" ")
    parts = [unquote(part) for part in credentials.split()] if scheme == "Learner" else []
    hello: dict[str, Any] = {"type": "feedback", "code": parts[0] if parts else None,
                             "token": parts[1] if len(parts) > 1 else None,
                             "exercise": query_value(path, "exercise"), "lang": query_value(path, "lang") or None}
    if query_value(path, "learner"):  # a name in the address says nobody's identity: refused unless the asker's
        hello["learner"] = query_value(path, "learner")
    return hello


def preflight(request: Any) -> Any:
    """The browser's question before the request (CORS): a GET with an ``Authorization`` header, from
    any origin, and (Chromium's Private Network Access) from a public site to this server of the class."""
    extra = [("Access-Control-Allow-Methods", "GET"), ("Access-Control-Allow-Headers", "Authorization"),
             ("Access-Control-Max-Age", "600")]
    if request.headers.get("Access-Control-Request-Private-Network") == "true":
        extra.append(("Access-Control-Allow-Private-Network", "true"))
    return _response(204, b"", [*_CORS, *extra])


def _json(status: int, answer: dict[str, Any], headers: list[tuple[str, str]] | None = None) -> Any:
    body = json.dumps(answer, ensure_ascii=False).encode("utf-8")
    return _response(status, body, [("Content-Type", "application/json; charset=utf-8"), *_CORS, *(headers or [])])


def _response(status: int, body: bytes, headers: list[tuple[str, str]]) -> Any:
    from http import HTTPStatus

    from websockets.datastructures import Headers
    from websockets.http11 import Response

    fixed = [("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer")]
    return Response(status, HTTPStatus(status).phrase, Headers([*headers, *fixed]), body)
