"""How many connections the server holds: per client address, and in all, under its open files.

Every TCP connection costs the server one open file, from the moment it is accepted, whether it
ever says a word or not.  A process may hold ``RLIMIT_NOFILE`` of them (often 1,024 by default):
one client with a thousand idle sockets would leave none for anyone else.  So the server

* raises its own open-file limit to the hard limit when it starts (``raise_open_files``), and
* counts the connections of each client address from the moment they are accepted
  (``Capacity``): one address holds at most ``PER_ADDRESS`` (never more than a quarter of the
  open files), the whole server at most its open files less ``RESERVE`` (the database, the
  graders' pipes, the log).  A connection beyond either is answered ``503`` with a sentence and
  closed at once, before it costs more than that moment.

A class behind one school router shares one address, so ``PER_ADDRESS`` is generous: a learner's
browser holds one or two sockets (a page, a hand-in), a class of 40 about a hundred, a school's
300 at the tables at once about 300 (``maumau serve --per-address N`` for more).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Capacity", "PER_ADDRESS", "RESERVE", "raise_open_files", "capped_connection"]

#: Connections one client address may hold at once (a whole class behind one router fits).
PER_ADDRESS = 512
#: Open files kept for the server's own use (database, log, graders), never given to connections.
RESERVE = 64
#: The open-file limit the server asks for when the hard limit is unlimited.
_UNLIMITED_WISH = 65_536

_REFUSAL = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            "Content-Security-Policy: frame-ancestors 'none'\r\nX-Frame-Options: DENY\r\n"
            "Connection: close\r\nContent-Length: {length}\r\n\r\n{text}")


def raise_open_files() -> int:
    """Raise this process's open-file limit (soft) to its hard limit; returns the limit now in force.
    An unlimited hard limit is asked for ``65,536``; a system that refuses keeps the old one."""
    import resource  # only where a server runs: the browser course's Python (Pyodide) has none

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wish = _UNLIMITED_WISH if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wish:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wish, hard))
            soft = wish
        except (ValueError, OSError):  # a container that forbids it: the old limit, and caps under it
            pass
    return _UNLIMITED_WISH if soft == resource.RLIM_INFINITY else int(soft)


@dataclass
class Capacity:
    """The open connections by client address, and whether one more may come in."""

    per_address: int = PER_ADDRESS
    total: int = 1024 - RESERVE
    open: Counter[str] = field(default_factory=Counter)
    count: int = 0

    @classmethod
    def under(cls, open_files: int, per_address: int | None = None) -> Capacity:
        """The caps for a process with ``open_files``: an address at most a quarter of them."""
        total = max(16, open_files - RESERVE)
        wanted = PER_ADDRESS if per_address is None else per_address
        return cls(per_address=max(1, min(wanted, total // 4)), total=total)

    def admit(self, address: str) -> str | None:
        """Count one more connection of ``address``; or the sentence why not (nothing counted)."""
        if self.open[address] >= self.per_address:
            return (f"too many connections from your address ({self.per_address} at once): "
                    f"close some pages and try again")
        if self.count >= self.total:
            return "the server has as many connections as it can hold: try again in a minute"
        self.open[address] += 1
        self.count += 1
        return None

    def release(self, address: str) -> None:
        self.count -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def capped_connection(capacity: Capacity) -> type[Any]:
    """The ``websockets`` connection class that counts itself in ``capacity`` from the moment its
    TCP connection is accepted to the moment it is gone, and refuses itself when over a cap."""
    from websockets.asyncio.server import ServerConnection

    class CappedConnection(ServerConnection):
        address: str = "?"
        counted = False

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            peer = transport.get_extra_info("peername")
            self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            refusal = capacity.admit(self.address)
            super().connection_made(transport)
            if refusal is None:
                self.counted = True
                return
            text = refusal + "\n"
            assert isinstance(transport, asyncio.WriteTransport)
            transport.write(_REFUSAL.format(length=len(text.encode()), text=text).encode())
            transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.counted:
                self.counted = False
                capacity.release(self.address)
            super().connection_lost(exc)

    return CappedConnection
