"""The class league on the class server: the leagues of a server, their pages, and learners
entering bots over the websocket ``/league/ws``.

``server.leagues.create("makao", players=3, seed=1)`` opens a league (its SQLite file
``league-CODE.sqlite`` beside the class database) and returns its code; ``server.leagues.open(code)``
is the ``maumau.league.League`` to play and read.  Pages: ``/league/CODE`` and
``/league/CODE/game/ID`` (``league_html``).  A learner enters a bot with
``classroom.enter_league(url, code, source)``, or the form of the league page, as the learner
they are at a table (docs/howto/class-table.md, "Who a learner is"): on JupyterHub their hub user (the hub says who
they are); with a roster the roster learner of their personal code (``personal``; a wrong one
costs a try of the client's ``wrong`` bucket, as a wrong join does), under a display name the
tables' rules allow (``names``); without either under a name of their choosing and the token
the first entry returned.  A name is its first enterer's; each learner has one bot (a new entry
replaces it: with a roster whatever name it is under, with a token only under the same name).
Entries are rate-limited per learner and per address (``league.entries``).  The bot is checked
in its sandbox on a worker thread, so the tables' loop never waits for it.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from ..league import League, LeagueError
from ..league.entries import EntryLimits
from ..league.store import Store
from ..league.words import LANGS
from ..text.i18n import use_language
from .identity import WRONG_CODE
from .league_html import league_page, replay_page
from .limits import RateLimits
from .names import NameError_, check_name, same_name
from .store import new_token, same_token, token_hash

if TYPE_CHECKING:  # pragma: no cover
    from .roster import Roster

__all__ = ["Leagues", "SOCKET"]

SOCKET = "/league/ws"
_CODE = re.compile(r"^[A-Z2-9]{6}$")
_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_PAGE = re.compile(r"^/league/([A-Z2-9]{6})(?:/game/(\d{1,9}))?/?$")
_FILES = {"/league.js": ("league.js", "text/javascript; charset=utf-8"),
          "/league.css": ("league.css", "text/css; charset=utf-8")}


#: Why a server with a roster refuses an entry without a personal code, and what to do.
USE_YOUR_CODE = ("this class server knows its learners by their personal codes: enter your bot with yours "
                 "(the personal code field of the league page, or classroom.enter_league(url, code, source, "
                 "name=..., personal='YOUR-CODE'))")


_HEADERS = [  # as the table's pages: only this server's scripts and styles, no sniffing, no referrer
    ("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
]


def respond(status: int, kind: str, body: bytes) -> Any:
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    return Response(status, "OK" if status == 200 else "Not Found", Headers([("Content-Type", kind), *_HEADERS]), body)


class Leagues:
    """The leagues of one class server (``unsandboxed`` only for a teacher's own trusted bots);
    ``roster`` and ``limits`` are the server's (who its learners are, its clients' buckets)."""

    def __init__(self, class_db: str | Path, hub: bool = False, unsandboxed: bool = False,
                 roster: Roster | None = None, limits: RateLimits | None = None) -> None:
        memory = str(class_db) == ":memory:"
        self.folder = Path(tempfile.mkdtemp(prefix="maumau-leagues-")) if memory else Path(class_db).resolve().parent
        self.hub = hub
        self.unsandboxed = unsandboxed
        self.roster = roster
        self.limits = limits or RateLimits()
        self._busy = asyncio.Semaphore(os.cpu_count() or 1)  # bots checked at once
        self.entry_limits = EntryLimits()  # how often a learner, an address, may enter a bot

    def path(self, code: str) -> Path:
        return self.folder / f"league-{code}.sqlite"

    def codes(self) -> list[str]:
        return sorted(p.stem.split("-", 1)[1] for p in self.folder.glob("league-*.sqlite")
                      if _CODE.match(p.stem.split("-", 1)[1]))

    def create(self, game: str = "makao", players: int = 3, seed: int = 0, **options: Any) -> str:
        """A new league; its code."""
        while True:
            code = "".join(secrets.choice(_LETTERS) for _ in range(6))
            if not self.path(code).exists():
                break
        League(game, players, self.path(code), seed, self.unsandboxed, **options).store.close()
        return code

    def open(self, code: str) -> League:
        """League ``code`` (to play, read, replay); LeagueError for an unknown code."""
        if not isinstance(code, str) or not _CODE.match(code) or not self.path(code).exists():
            raise LeagueError(f"there is no league {code!r} on this server")
        return League.open(self.path(code), unsandboxed=self.unsandboxed)

    # --- pages -------------------------------------------------------------------------------------------
    def handles(self, path: str) -> bool:
        bare = path.split("?", 1)[0]
        return bare in _FILES or bare.startswith("/league/")

    def http(self, path: str) -> Any:
        """The response to a GET of ``path`` (one ``handles`` said yes to)."""
        from importlib import resources

        parts = urlsplit(path)
        lang = parse_qs(parts.query).get("lang", ["en"])[0]
        lang = lang if lang in LANGS else "en"
        if parts.path in _FILES:
            name, kind = _FILES[parts.path]
            return respond(200, kind, resources.files(__package__).joinpath("pages").joinpath(name).read_bytes())
        found = _PAGE.match(parts.path)
        if found is None or not self.path(found.group(1)).exists():
            return respond(404, "text/plain; charset=utf-8", b"Not found: a league is at /league/CODE.\n")
        store = Store(self.path(found.group(1)))
        try:
            if found.group(2) is None:
                body = league_page(found.group(1), store, lang, self.hub, self.roster is not None)
            else:
                body = replay_page(found.group(1), store, int(found.group(2)), lang)
        except LeagueError:
            return respond(404, "text/plain; charset=utf-8", b"Not found: no such game in this league.\n")
        finally:
            store.close()
        return respond(200, "text/html; charset=utf-8", body.encode())

    # --- entering a bot ----------------------------------------------------------------------------------
    async def serve(self, websocket: Any, hub_user: str | None) -> None:
        """Answer the requests of one ``/league/ws`` connection, one at a time."""
        from websockets.exceptions import ConnectionClosed

        address = str(websocket.remote_address[0]) if websocket.remote_address else "?"
        try:
            async for raw in websocket:
                try:
                    request = json.loads(raw)
                    if not isinstance(request, dict) or request.get("type") != "enter":
                        raise LeagueError('a request is {"type": "enter", "code", "name", "source", "token"?, '
                                          '"personal"?}')
                    learner = self.learner(request, hub_user, address)  # here: the buckets are the loop's
                    lang = request.get("lang")  # the learner's notebook's or page's language, if it says
                    async with self._busy:
                        answer = await asyncio.to_thread(self._enter_in, lang if lang in LANGS else None,
                                                         request, hub_user, address, learner)
                except (LeagueError, ValueError) as err:
                    answer = {"type": "error", "code": "refused", "message": str(err)}
                await websocket.send(json.dumps(answer))
        except ConnectionClosed:
            pass

    def learner(self, request: dict[str, Any], hub_user: str | None, address: str) -> str | None:
        """The roster learner whose personal code ``request`` carries (None on the hub, where the
        hub user is the learner, and on a server without a roster).  LeagueError without a code
        on a server with a roster, or with one on a server without; a wrong code costs a try of
        the client's ``wrong`` bucket, and while that is empty every code is refused, the right
        one too, as at a table (so guessing cannot go on between two right answers)."""
        personal = request.get("personal") or None
        if hub_user is not None:
            return None
        if self.roster is None:
            if personal is not None:
                raise LeagueError("this class server has no roster, so no personal codes: enter your bot under a "
                                  "name (and the token its first entry returned, to replace it)")
            return None
        if personal is None:
            raise LeagueError(USE_YOUR_CODE)
        wrong = self.limits.bucket("wrong", address)
        if not wrong.has():
            raise LeagueError("too many wrong codes or tokens from here: wait a minute")
        learner = self.roster.learner_for(personal) if isinstance(personal, str) else None
        if learner is None:
            wrong.take()
            raise LeagueError(WRONG_CODE)
        return learner

    def _enter_in(self, lang: str | None, request: dict[str, Any], hub_user: str | None, address: str,
                  learner: str | None) -> dict[str, Any]:
        """``enter``, its refusals (a bot that does not work) said in ``lang`` (None: the server's)."""
        if lang is None:
            return self.enter(request, hub_user, address, learner)
        with use_language(lang):
            return self.enter(request, hub_user, address, learner)

    def enter(self, request: dict[str, Any], hub_user: str | None, address: str = "?",
              learner: str | None = None) -> dict[str, Any]:
        """Enter the bot of ``request`` from ``address`` (on a worker thread) for the hub user, or
        the roster learner ``learner`` (``learner()`` says who), or the name and token it carries;
        the answer to send."""
        code, source = request.get("code"), request.get("source")
        if not isinstance(source, str) or not source.strip():
            raise LeagueError("the request holds no bot source")
        if hub_user is None and self.roster is not None:
            if learner is None:
                raise LeagueError(USE_YOUR_CODE)
            return self._enter_learner(request, learner, address)
        name = hub_user if hub_user is not None else request.get("name")
        token = request.get("token") or None
        if not isinstance(name, str) or (token is not None and not isinstance(token, str)):
            raise LeagueError("a bot needs a name (and its token, to replace it)")
        lg = self.open(str(code))
        try:
            owner = lg.store.owner(name)
            taken = any(b.name == name for b in lg.bots())
            if hub_user is None and taken and (token is None or not same_token(token, owner)):
                raise LeagueError(f"the name {name!r} is taken: to replace that bot, send the token its first "
                                  "entry returned")
            owns = lg.store.owned(token_hash(token)) if hub_user is None and token is not None else None
            if owns is not None and owns != name:
                raise LeagueError(f"one bot per learner: your token is that of {owns!r}; enter your bot under "
                                  f"{owns!r} to replace it")
            # the name is the learner's (the hub's, or their token's); on the hub every entry comes through
            # its proxy's address, so the hub user stands for the address too (as in the tables' limits)
            self.entry_limits.admit(name, hub_user or address)
            bot = lg.enter(name, source)
            if hub_user is None and not taken:
                token = new_token()
                lg.store.set_owner(name, token_hash(token))
            return {"type": "entered", "code": code, "name": bot.name, "version": bot.version,
                    "player": bot.player, "token": token if hub_user is None else None}
        finally:
            lg.store.close()

    def _enter_learner(self, request: dict[str, Any], learner: str, address: str) -> dict[str, Any]:
        """Enter the bot of roster learner ``learner``: their one bot, under the display name they
        type (or their roster name), which must pass the tables' name rules and be no name another
        learner's bot has had in this league."""
        assert self.roster is not None
        typed = request.get("name")
        if typed is not None and not isinstance(typed, str):
            raise LeagueError("a bot's name is text")
        code = str(request.get("code"))
        lg = self.open(code)
        try:
            try:  # the tables' rules: no other roster learner's name, no seat's, computer's or reserved name
                name = check_name(typed or self.roster.display_name(learner), (),
                                  self.roster.names_of_others(learner))
            except NameError_ as err:
                raise LeagueError(str(err)) from None
            if any(same_name(name, other) for other in lg.store.names_not_of(learner)):
                raise LeagueError(f"{name!r} is the name of another learner's bot in this league (or a name that "
                                  "looks the same): choose your own")
            self.entry_limits.admit(learner, address)
            bot = lg.enter(name, str(request.get("source")), learner=learner)
            return {"type": "entered", "code": code, "name": bot.name, "version": bot.version,
                    "player": bot.player, "token": None}  # the personal code is the learner's token
        finally:
            lg.store.close()
