"""The live reports of the browser course (JupyterLite): Pyodide has no threads and no sockets of
its own, so the notebook sends through the browser's ``WebSocket``, which never blocks Python.

The socket opens with the hello, and reports go only once the server has welcomed it; a report is
sent ``COALESCE`` seconds after the check that made it (the browser's ``setTimeout``), the newest one
only; a socket that closed is opened again for the next report, and a report that finds no
welcomed socket waits for it (the newest one only).  A refusal of the hello (a wrong code) is the
last answer (``sharing.last_answer``), and the socket is not opened again with that code.
"""

from __future__ import annotations

import json
from typing import Any

from .live_client import COALESCE, Sender

__all__ = ["BrowserSender"]

_OPEN = 1  # WebSocket.OPEN


class BrowserSender(Sender):
    """A sender over the browser's WebSocket (only in Pyodide: ``js`` and ``pyodide.ffi``)."""

    def __init__(self, url: str, hello: dict[str, Any]) -> None:
        from pyodide.ffi import create_proxy  # type: ignore[import-not-found]  # only inside Pyodide

        self.url, self.hello = url, hello
        self._pending: dict[str, Any] | None = None
        self._scheduled = False
        self._refused = False
        self._welcomed = False
        self._ws: Any = None
        # proxies that live as long as the sender: the browser calls them back
        self._on_open = create_proxy(self._opened)
        self._on_message = create_proxy(self._answered)
        self._on_close = create_proxy(self._closed)
        self._on_time = create_proxy(self._flush)
        self._open()

    def _open(self) -> None:
        from js import WebSocket  # type: ignore[import-not-found]

        self._welcomed = False
        self._ws = WebSocket.new(self.url)
        self._ws.onopen, self._ws.onmessage, self._ws.onclose = self._on_open, self._on_message, self._on_close

    def _opened(self, event: Any) -> None:
        self._ws.send(json.dumps(self.hello))

    def _answered(self, event: Any) -> None:
        answer = json.loads(str(event.data))
        if answer.get("type") == "welcome":
            self._welcomed = True
            self._flush()  # what was run while the socket opened
            return
        self.last_answer = answer
        if not self._welcomed:  # the hello was refused: that code is not tried again
            self._refused = True
            self._ws.close()

    def _closed(self, event: Any) -> None:
        self._ws = None

    def due(self, report: dict[str, Any]) -> None:
        from js import setTimeout

        self._pending = report
        if self._refused:
            return
        if self._ws is None:
            self._open()  # the report goes once it is open
        elif not self._scheduled:
            self._scheduled = True
            setTimeout(self._on_time, int(COALESCE * 1000))

    def _flush(self, *_: Any) -> None:
        self._scheduled = False
        report, self._pending = self._pending, None
        if report is None:
            return
        if self._ws is None or self._ws.readyState != _OPEN or not self._welcomed:
            self._pending = report  # sent once the server has welcomed the socket
            return
        self._ws.send(json.dumps(report, ensure_ascii=False))
        self.sent += 1

    def stop(self) -> None:
        self._refused = True
        if self._ws is not None:
            self._ws.close()
