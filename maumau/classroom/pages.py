"""The server's web pages: the lobby at ``/`` and a table at ``/t/CODE`` (a seat, or the
projector), plain HTML and JavaScript from ``maumau/classroom/pages/`` that talk to ``/ws``."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["http_response", "plain", "redirect", "html_page", "query_lang", "query_value", "PAGES", "no_frames",
           "NO_FRAMES"]

#: The files a browser may fetch, by path, and their content types.
PAGES = {
    "/": ("lobby.html", "text/html; charset=utf-8"),
    "/table.js": ("table.js", "text/javascript; charset=utf-8"),
    "/lobby.js": ("lobby.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
#: No other site may show a page of this server in a frame (clickjacking: the teacher's tools live
#: under another site's decoy); ``X-Frame-Options`` says it to browsers that know no CSP level 2.
NO_FRAMES = [("Content-Security-Policy", "frame-ancestors 'none'"), ("X-Frame-Options", "DENY")]
_HEADERS = [
    ("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
                                "frame-ancestors 'none'"),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
]


def _page(name: str) -> bytes:
    return resources.files(__package__).joinpath("pages").joinpath(name).read_bytes()


def http_response(path: str) -> Any:
    """The response to a plain HTTP request for ``path``."""
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    lang = query_lang(path)
    path = path.split("?", 1)[0]
    if path.startswith("/t/"):
        body = table_page(lang)
        return Response(200, "OK", Headers([("Content-Type", "text/html; charset=utf-8"), *_HEADERS]), body)
    if path in PAGES:
        name, kind = PAGES[path]
    else:
        body = b"Not found: the lobby is at /, a table at /t/CODE.\n"
        return Response(404, "Not Found", Headers([("Content-Type", "text/plain; charset=utf-8"), *_HEADERS]), body)
    try:
        body = _page(name)
    except FileNotFoundError:
        return Response(404, "Not Found", Headers([("Content-Type", "text/plain"), *_HEADERS]), b"missing page\n")
    return Response(200, "OK", Headers([("Content-Type", kind), *_HEADERS]), body)


def table_page(lang: str) -> bytes:
    """A table's page in ``lang``: its words (``maumau.text.locale.page``) in a JSON data block, which
    no browser runs as a script, and the protocol's version it speaks (``messages``); every sentence
    about the game comes with each table frame."""
    from ..text.locale.page import PAGE
    from .messages import PROTOCOL_VERSION

    words = json.dumps(PAGE[lang], ensure_ascii=False).replace("<", "\\u003c")  # no "</script>" inside
    page = _page("table.html").decode("utf-8")
    page = page.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    page = page.replace('<meta name="maumau-protocol" content="1">',
                        f'<meta name="maumau-protocol" content="{PROTOCOL_VERSION}">', 1)
    page = page.replace('<script type="application/json" id="words">{}</script>',
                        f'<script type="application/json" id="words">{words}</script>', 1)
    return page.encode("utf-8")


def plain(status: int, text: str, headers: list[tuple[str, str]] | None = None) -> Any:
    """A short plain-text response (the login's answers)."""
    from http import HTTPStatus

    from websockets.datastructures import Headers
    from websockets.http11 import Response

    return Response(status, HTTPStatus(status).phrase,
                    Headers([("Content-Type", "text/plain; charset=utf-8"), *_HEADERS, *(headers or [])]),
                    text.encode())


def redirect(location: str, cookies: list[str]) -> Any:
    """A 302 to ``location`` that sets ``cookies`` (the hub's OAuth login)."""
    return plain(302, f"go on to {location}\n", [("Location", location), *(("Set-Cookie", c) for c in cookies)])


def html_page(text: str) -> Any:
    """A whole HTML page made by the server (the course page): no script runs in it."""
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", "default-src 'none'; "
               "style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'"), *_HEADERS[1:]]
    return Response(200, "OK", Headers(headers), text.encode("utf-8"))


def query_value(path: str, name: str) -> str:
    """The value of ``name`` in the query of ``path`` ("" when it has none)."""
    from urllib.parse import parse_qs, urlsplit

    return parse_qs(urlsplit(path).query).get(name, [""])[0]


def query_lang(path: str) -> str:
    """The page's language from ``?lang=de`` (en, de, hu; English otherwise)."""
    lang = query_value(path, "lang")
    return lang if lang in ("en", "de", "hu") else "en"


def no_frames(connection: Any, request: Any, response: Any) -> Any:
    """Every response of the server (its pages, the leagues', the refusals ``websockets`` writes
    itself) forbids framing: ``NO_FRAMES`` added where the response does not say it already."""
    headers = response.headers
    if not any("frame-ancestors" in value for value in headers.get_all("Content-Security-Policy")):
        headers["Content-Security-Policy"] = NO_FRAMES[0][1]
    if "X-Frame-Options" not in headers:
        headers["X-Frame-Options"] = NO_FRAMES[1][1]
    return None
