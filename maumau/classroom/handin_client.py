"""``classroom.hand_in``: a learner hands in a notebook from Python (their notebook or a terminal)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .client import ClassroomError

__all__ = ["hand_in"]


def _handin_url(url: str) -> str:
    url = url.rstrip("/")
    if url.startswith("http"):
        url = "ws" + url[4:]
    return url + "/handin"


def hand_in(url: str, code: str, notebook: str | Path, token: str | None = None, exercise: str | None = None,
            hub_token: str | None = None, timeout: float = 30.0) -> dict[str, Any]:
    """Hand in the saved notebook file ``notebook`` for ``exercise`` (its file name's stem unless
    given) at the class server ``url``, as the learner the server knows: ``code`` your personal
    code (the teacher's slip; no ``token``), or the table's code and ``token`` your seat's
    (``seat.token``) if you sat down with your personal code; on JupyterHub the hub token says
    who you are.  Returns the server's receipt: ``received`` (the server's clock), ``sha256``,
    ``version``.  ClassroomError with the server's sentence when it refuses (nothing is stored then)."""
    from websockets.sync.client import connect

    path = Path(notebook)
    data = path.read_bytes()
    exercise = exercise or path.stem
    hub_token = hub_token or (os.environ.get("JUPYTERHUB_API_TOKEN") if "/services/" in url else None)
    headers = {"Authorization": f"token {hub_token}"} if hub_token else None
    hello = {"type": "hand_in", "code": code, "token": token, "exercise": exercise, "size": len(data)}
    with connect(_handin_url(url), open_timeout=timeout, additional_headers=headers, max_size=64 * 1024) as ws:
        ws.send(json.dumps(hello))
        answer = json.loads(ws.recv(timeout))
        if answer.get("type") == "ready":
            ws.send(data)
            answer = json.loads(ws.recv(timeout))
    if answer.get("type") != "receipt":
        raise ClassroomError(str(answer.get("code", "refused")), str(answer.get("message", answer)))
    return {k: v for k, v in answer.items() if k != "type"}
