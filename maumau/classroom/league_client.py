"""A learner enters a bot in a class league from a notebook: ``classroom.enter_league(url, code, source)``."""

from __future__ import annotations

import json
import os
from typing import Any

from ..league.source import read_source
from ..text.i18n import check_language
from .client import ClassroomError

__all__ = ["enter_league", "MAX_MESSAGE"]

#: The largest message the class server reads (its websocket's max_size, 64 KiB) less some room.
MAX_MESSAGE = 64 * 1024 - 512


def _socket(url: str) -> str:
    url = url.rstrip("/")
    if url.startswith("http"):
        url = "ws" + url[4:]
    return url + "/league/ws"


def enter_league(url: str, code: str, source: str | os.PathLike[str], name: str | None = None,
                 token: str | None = None, timeout: float = 120.0, hub_token: str | None = None,
                 personal: str | None = None, lang: str | None = None) -> dict[str, Any]:
    """Enter ``source`` (a .py file, the exercise-13 notebook, or Python text) in league ``code``
    of the class server at ``url``.  On JupyterHub the bot gets your hub name (``hub_token``:
    the notebook's ``JUPYTERHUB_API_TOKEN`` by default); on a server with a roster give your
    ``personal`` code (the bot is your one bot, ``name`` its display name: a new entry replaces
    it under any name); elsewhere give ``name``, and to replace your bot later the ``token`` the
    first entry returned.  Returns the server's answer (name, version, player class, token);
    ClassroomError with the server's sentence if it refused (a bot that does not work is told in
    ``lang``; None: the course's language)."""
    from websockets.sync.client import connect

    text = read_source(source)  # a path is read here, on the learner's side: the server gets text
    hub_token = hub_token or (os.environ.get("JUPYTERHUB_API_TOKEN") if "/services/" in url else None)
    headers = {"Authorization": f"token {hub_token}"} if hub_token else None
    request = {"type": "enter", "code": code, "name": name, "source": text, "token": token, "personal": personal,
               "lang": check_language(lang)}
    if len(json.dumps(request)) > MAX_MESSAGE:
        raise ClassroomError("too_large", f"the bot's code is {len(text)} characters; the class server takes "
                                          f"at most about {MAX_MESSAGE // 1000} KB in one message")
    with connect(_socket(url), open_timeout=min(timeout, 30), additional_headers=headers,
                 max_size=64 * 1024) as ws:
        ws.send(json.dumps(request))
        answer = json.loads(ws.recv(timeout=timeout))
    if answer.get("type") != "entered":
        raise ClassroomError(str(answer.get("code", "refused")), str(answer.get("message", answer)))
    return dict(answer)
