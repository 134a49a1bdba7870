"""What one connection is still to be sent, bounded, and the task that sends it.

Every connection has its own queue and its own sending task, so a client that reads slowly (or
not at all: a phone gone to sleep, a projector whose socket nobody reads) waits alone: the table
and everyone else at it go on at full speed.  A table frame is not queued once per change but
marked as due, and built (as of the newest action) when the connection is ready for it, so a
slow reader is never more than one table behind and its queue stays short.

A connection is dropped (its seat held as for any dropped connection) when

* one frame has not been taken by the client within ``STALL`` seconds (``Outbox(stall=...)``),
* or ``SIZE`` answers wait in its queue (a client that sends but never reads),
* or (``websockets``' keepalive, ``Server(keepalive=...)``) a ping stays unanswered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from .messages import Answer, TableFrame, encode

__all__ = ["Outbox", "STALL", "SIZE"]

#: Seconds one frame may wait for a client that does not read before the connection is dropped.
STALL = 10.0
#: Answers and notices that may wait for one client (a table frame is one more, at most).
SIZE = 64

_TABLE = object()  # "the table changed": built when its turn comes


class Outbox:
    """One connection's frames (see the module docstring)."""

    def __init__(self, websocket: Any, table_frame: Callable[[], TableFrame | None], *,
                 stall: float = STALL, size: int = SIZE) -> None:
        self.websocket, self.table_frame, self.stall = websocket, table_frame, stall
        self.queue: asyncio.Queue[Any] = asyncio.Queue(size)
        self.table_due = False
        self.dropped = False
        self.task = asyncio.get_running_loop().create_task(self._send_all())

    def put(self, message: Answer) -> None:
        self._put(message)

    def table_changed(self) -> None:
        if not self.table_due:
            self.table_due = True
            self._put(_TABLE)

    def _put(self, item: Any) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self.drop()

    async def _send_all(self) -> None:
        while not self.dropped:
            item = await self.queue.get()
            if item is _TABLE:
                self.table_due = False
                item = self.table_frame()
                if item is None:
                    continue
            try:
                await asyncio.wait_for(self.websocket.send(encode(item)), self.stall)
            except (TimeoutError, asyncio.TimeoutError):
                self.drop()
            except Exception:  # noqa: BLE001  the connection is closing: its handler removes it
                return

    def drop(self) -> None:
        """Cut the connection at once (no closing handshake: the client is not reading)."""
        self.dropped = True
        transport = getattr(self.websocket, "transport", None)
        if transport is not None:
            transport.abort()

    def close(self) -> None:
        self.dropped = True
        with contextlib.suppress(RuntimeError):
            self.task.cancel()
