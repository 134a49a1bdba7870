"""``classroom.feedback`` in the browser course (JupyterLite): Pyodide has no sockets and no threads,
and a cell cannot wait for the browser's WebSocket (its answer comes only after the cell), so the
notebook asks the class server with a synchronous ``XMLHttpRequest``, which a web worker (where the
Pyodide kernel runs) may send: the call returns the answer, as it does in JupyterLab.  The server's
side is ``feedback_http``: the same request as the websocket's, in a GET and its header."""

from __future__ import annotations

import contextlib
import json
from typing import Any
from urllib.parse import quote, urlencode

from .client import ClassroomError
from .feedback_http import FEEDBACK_HTTP

__all__ = ["request_feedback", "http_url"]


def http_url(url: str) -> str:
    """The class server's address for HTTP (``ws://`` and ``wss://`` become ``http://`` and ``https://``)."""
    url = url.rstrip("/")
    return "http" + url[2:] if url.startswith("ws") else url


def request_feedback(url: str, hello: dict[str, Any], timeout: float) -> dict[str, Any]:
    """The class server's answer (JSON) to the feedback request ``hello``, or ClassroomError when the
    server cannot be reached or answers with no JSON (a server without this way in)."""
    from js import XMLHttpRequest  # type: ignore[import-not-found]  # only inside Pyodide
    from pyodide.ffi import JsException  # type: ignore[import-not-found]

    query = urlencode({key: hello[key] for key in ("exercise", "lang") if hello.get(key)})
    request = XMLHttpRequest.new()
    request.open("GET", f"{http_url(url)}{FEEDBACK_HTTP}?{query}", False)
    with contextlib.suppress(JsException):  # a worker's synchronous request may time out; a page's may not
        request.timeout = int(timeout * 1000)
    credentials = [quote(str(hello[key]), safe="") for key in ("code", "token") if hello.get(key)]
    request.setRequestHeader("Authorization", " ".join(["Learner", *credentials]))
    try:
        request.send()
    except JsException as err:  # no server there, an https site asking an http server, a timeout
        raise ClassroomError("unreachable", f"cannot reach the class server at {url}: {err}") from None
    try:
        answer = json.loads(str(request.responseText))
    except ValueError:
        raise ClassroomError("refused", f"the class server at {url} gave no feedback's answer (HTTP "
                                        f"{request.status}): is it a maumau class server?") from None
    return dict(answer)
