"""A launch the LMS starts inside its own page (an iframe): maumau opens in a window of its own.

In another site's frame a browser keeps no cookie of the tool (third-party cookies), so neither
the login's state nor the class server's session would hold; and maumau's pages refuse to be
framed by another site (clickjacking).  So a login asked for from a frame (the browser says so:
``Sec-Fetch-Dest: iframe``) answers with one link, which starts the same login in a new window;
the LMS's parameters go along (the spec lets a login come as a GET).  Only this page may be
framed, by any site: it holds nothing but the link.
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

__all__ = ["in_a_frame", "new_window_page", "WORDS", "FRAMEABLE"]

#: The page's words: its sentence and its link, by language.
WORDS = {
    "en": ("maumau opens in a window of its own.", "Open maumau"),
    "de": ("maumau öffnet sich in einem eigenen Fenster.", "maumau öffnen"),
    "hu": ("A maumau saját ablakban nyílik meg.", "A maumau megnyitása"),
}
#: The headers of this page: no script, no style from elsewhere, any site may frame it.
FRAMEABLE = [("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *"),
             ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")]


def in_a_frame(headers: object) -> bool:
    """Whether the browser asks for this login inside a frame (``Sec-Fetch-Dest``)."""
    getter = getattr(headers, "get", None)
    return getter is not None and str(getter("Sec-Fetch-Dest", "")).lower() in ("iframe", "frame")


def new_window_page(login_url: str, params: dict[str, str], lang: str) -> str:
    """The page with the link that starts this login again in a new window."""
    sentence, link = WORDS.get(lang, WORDS["en"])
    target = html.escape(f"{login_url}?{urlencode(params)}", quote=True)
    return (f'<!DOCTYPE html><html lang="{lang}"><meta charset="utf-8"><title>maumau</title>'
            f'<body style="font-family:sans-serif;margin:2em"><p>{html.escape(sentence)}</p>'
            f'<p><a href="{target}" target="_blank" rel="noopener noreferrer">{html.escape(link)}</a></p>'
            f'</body></html>')
