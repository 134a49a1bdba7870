"""``classroom.hand_in``: a learner hands in a notebook from Python (their notebook or a terminal);
``classroom.fetch_exercise``: they fetch their own copy of an exercise the same way."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .client import ClassroomError

__all__ = ["hand_in", "fetch_exercise"]


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


def fetch_exercise(url: str, code: str, exercise: str, folder: str | Path = ".", lang: str | None = None,
                   token: str | None = None, hub_token: str | None = None, timeout: float = 30.0) -> Path:
    """Fetch your own copy of ``exercise`` (e.g. ``"02_skip_on_eight"``) in ``lang`` from the class server
    ``url``, as the learner the server knows (``code``, ``token`` and ``hub_token`` as for ``hand_in``),
    and save it as ``folder/<exercise>.ipynb``: with the course's variants its test cells have the
    positions drawn for you, the ones you are graded on.  Returns the path.  ClassroomError with the
    server's sentence when it refuses, or when that file exists (your work in it is kept: rename it).
    ``lang`` None: the course's language (``MAUMAU_LANG``)."""
    from websockets.sync.client import connect

    from ..text.i18n import language

    target = Path(folder) / f"{exercise}.ipynb"
    if target.exists():
        raise ClassroomError("exists", f"{target} exists already: rename it first, so your work in it is kept "
                                       f"(nothing was fetched)")
    hub_token = hub_token or (os.environ.get("JUPYTERHUB_API_TOKEN") if "/services/" in url else None)
    headers = {"Authorization": f"token {hub_token}"} if hub_token else None
    hello = {"type": "fetch", "code": code, "token": token, "exercise": exercise, "lang": lang or language()}
    with connect(_handin_url(url), open_timeout=timeout, additional_headers=headers, max_size=16 * 2**20) as ws:
        ws.send(json.dumps(hello))
        answer = json.loads(ws.recv(timeout))
    if answer.get("type") != "notebook" or not isinstance(answer.get("notebook"), str):
        raise ClassroomError(str(answer.get("code", "refused")), str(answer.get("message", answer)))
    with open(target, "x", encoding="utf-8") as f:  # "x": never over a file that appeared meanwhile
        f.write(answer["notebook"])
    return target
