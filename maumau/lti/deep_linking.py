"""Deep linking: an instructor adds maumau's activities to the LMS course (LTI Deep Linking 2.0).

The LMS's "add an activity" dialog sends a deep linking request (a launch, checked like every
other).  maumau answers an instructor's with a page of what it can add: each exercise of the
course, and the class tables (the lobby).  The instructor's choice goes back to the LMS's
``deep_link_return_url`` as an ``LtiDeepLinkingResponse`` signed by the tool's key, one
``ltiResourceLink`` per choice:

- an exercise's link carries the custom parameter ``exercise`` (a learner's launch of it lands on
  that exercise's page) and a ``lineItem`` with the exercise as its ``resourceId``, so the LMS
  makes the grade column with the link and ``maumau lti scores`` finds that column instead of
  making a second (``line_items``).  An exercise added a second time (the course has its
  column already: asked of the LMS before answering) gets its link without a second column;
- the class tables' link opens the lobby.

The choice is kept ``PICK_SECONDS`` under a one-time random key that only the instructor's page
holds; the request's opaque ``data`` goes back unchanged, as the spec asks.
"""

from __future__ import annotations

import html
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .keys import ToolKeys
from .launch import CLAIM, DL_CLAIM, Launch
from .line_items import TAG
from .words import LtiRefusal

__all__ = ["DeepLinkRefused", "Picks", "TABLES", "PICK_SECONDS", "content_items", "response_token", "choice_page",
           "answer_page", "WORDS", "AUTO_SUBMIT"]

#: The choice that adds the class tables (the lobby) rather than an exercise.
TABLES = "maumau:tables"
PICK_SECONDS = 600.0
MOST_PICKS = 1000
#: The one script the answer page runs (its hash is in the page's Content-Security-Policy).
AUTO_SUBMIT = "document.forms[0].submit();"

WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "Add maumau to the course", "intro": "Choose what the course gets:",
           "tables": "The class tables (the lobby: learners play at the class's tables)",
           "exercise": "Exercise {name}: {points} points, with its grade column", "add": "Add to the course",
           "back": "Back to the LMS…", "tables_title": "maumau: the class tables"},
    "de": {"title": "maumau zum Kurs hinzufügen", "intro": "Wähle, was der Kurs bekommt:",
           "tables": "Die Tische der Klasse (die Lobby: hier spielt die Klasse)",
           "exercise": "Aufgabe {name}: {points} Punkte, mit ihrer Bewertungsspalte", "add": "Zum Kurs hinzufügen",
           "back": "Zurück zum LMS…", "tables_title": "maumau: die Tische der Klasse"},
    "hu": {"title": "A maumau hozzáadása a kurzushoz", "intro": "Válaszd ki, mit kapjon a kurzus:",
           "tables": "Az osztály asztalai (az előtér: itt játszik az osztály)",
           "exercise": "{name} feladat: {points} pont, a saját értékelési oszlopával", "add": "Hozzáadás a kurzushoz",
           "back": "Vissza az LMS-be…", "tables_title": "maumau: az osztály asztalai"},
}


class DeepLinkRefused(LtiRefusal):
    """A deep linking step that cannot go on: the sentence says why."""


@dataclass(frozen=True)
class _Pick:
    launch: Launch
    until: float


class Picks:
    """The deep linking requests waiting for the instructor's choice, by one-time key."""

    def __init__(self) -> None:
        self._picks: dict[str, _Pick] = {}
        self._lock = threading.Lock()

    def keep(self, launch: Launch) -> str:
        """Keep an instructor's deep linking request; the key its choice page posts back."""
        if not launch.teacher:
            raise DeepLinkRefused("only an instructor of the course adds maumau's activities to it")
        key = secrets.token_urlsafe(24)
        now = time.monotonic()
        with self._lock:
            self._picks = {k: p for k, p in self._picks.items() if p.until > now}
            while len(self._picks) >= MOST_PICKS:
                del self._picks[next(iter(self._picks))]
            self._picks[key] = _Pick(launch, now + PICK_SECONDS)
        return key

    def take(self, key: str) -> Launch:
        """The request of ``key``, once; DeepLinkRefused when it is unknown, used or too old."""
        with self._lock:
            pick = self._picks.pop(key, None)
        if pick is None or pick.until < time.monotonic():
            raise DeepLinkRefused("this choice of activities was used already or took too long: add the activity "
                                  "in the LMS again")
        return pick.launch


def content_items(chosen: list[str], exercises: Mapping[str, float], tool_url: str, lang: str,
                  have_columns: frozenset[str] = frozenset(),
                  titles: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The ``ltiResourceLink`` items of the choices (unknown ones are left out), named by ``titles``
    (else by their names); an exercise whose grade column the course has already (``have_columns``:
    added before) gets no second one."""
    words = WORDS.get(lang, WORDS["en"])
    items: list[dict[str, Any]] = []
    for choice in dict.fromkeys(chosen):  # a choice posted twice is one link
        if choice == TABLES:
            items.append({"type": "ltiResourceLink", "title": words["tables_title"], "url": tool_url + "/"})
        elif choice in exercises:
            points = float(exercises[choice]) or 1.0
            title = (titles or {}).get(choice, choice)
            item: dict[str, Any] = {"type": "ltiResourceLink", "title": title, "url": tool_url + "/",
                                    "custom": {"exercise": choice}}
            if choice not in have_columns:  # resourceId, not the label, is how maumau finds the column again
                item["lineItem"] = {"scoreMaximum": points, "label": title, "resourceId": choice, "tag": TAG}
            items.append(item)
    return items


def response_token(launch: Launch, items: list[dict[str, Any]], keys: ToolKeys) -> str:
    """The signed ``LtiDeepLinkingResponse``: from the tool (its client id) to the platform."""
    import jwt

    kid, private = keys.signing_key()
    now = int(time.time())
    claims: dict[str, Any] = {
        "iss": launch.platform.client_id, "aud": launch.platform.issuer, "iat": now, "exp": now + 300,
        "nonce": secrets.token_urlsafe(16), CLAIM + "deployment_id": launch.deployment_id,
        CLAIM + "message_type": "LtiDeepLinkingResponse", CLAIM + "version": "1.3.0",
        DL_CLAIM + "content_items": items}
    if "data" in launch.deep_linking:  # opaque to the tool, and sent back as it came
        claims[DL_CLAIM + "data"] = launch.deep_linking["data"]
    return str(jwt.encode(claims, private, algorithm="RS256", headers={"kid": kid}))


def choice_page(key: str, action: str, exercises: Mapping[str, float], multiple: bool, lang: str,
                titles: Mapping[str, str] | None = None) -> str:
    """The instructor's page: a box (or, when the LMS takes one item, a round button) per activity,
    an exercise named by ``titles`` (else by its name)."""
    words = WORDS.get(lang, WORDS["en"])
    titles = titles or {}
    kind = "checkbox" if multiple else "radio"
    choices = [(TABLES, words["tables"])] + [
        (name, words["exercise"].format(name=titles.get(name, name), points=f"{points:g}"))
        for name, points in sorted(exercises.items())]
    boxes = "".join(f'<p><label><input type="{kind}" name="item" value="{html.escape(value, quote=True)}"> '
                    f"{html.escape(text)}</label></p>" for value, text in choices)
    return (f'<!DOCTYPE html><html lang="{lang}"><meta charset="utf-8"><title>{html.escape(words["title"])}</title>'
            f'<body style="font-family:sans-serif;margin:2em"><h1>{html.escape(words["title"])}</h1>'
            f'<form method="POST" action="{html.escape(action, quote=True)}"><p>{html.escape(words["intro"])}</p>'
            f'<input type="hidden" name="pick" value="{html.escape(key, quote=True)}">{boxes}'
            f'<p><button type="submit">{html.escape(words["add"])}</button></p></form></body></html>')


def answer_page(return_url: str, token: str, lang: str) -> str:
    """The page that posts the signed answer to the LMS (by itself; a button if scripts are off)."""
    words = WORDS.get(lang, WORDS["en"])
    return (f'<!DOCTYPE html><html lang="{lang}"><meta charset="utf-8"><title>maumau</title><body>'
            f'<form method="POST" action="{html.escape(return_url, quote=True)}">'
            f'<input type="hidden" name="JWT" value="{html.escape(token, quote=True)}">'
            f'<noscript><button type="submit">{html.escape(words["back"])}</button></noscript></form>'
            f"<script>{AUTO_SUBMIT}</script></body></html>")
