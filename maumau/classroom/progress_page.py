"""The teacher's live page: ``/live`` (learners × exercises with names) and ``/live/projector``
(the same class without a name), for the logged-in teacher only, in en, de or hu (``?lang=``);
``?idle=N`` names the learners without progress for N minutes (5 unless given).

The page is ``pages/live.html`` with its words in a JSON data block (no browser runs it) and
``pages/live.js``, which watches ``/live/ws`` and draws each ``LiveFrame`` with ``textContent``
only: a learner's name or a check's name is always text, never markup.  Accessible as the course
page: a captioned table with header cells, a word beside every colour and mark, the language on
the page, the connection's state as a polite status.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

from .pages import plain, query_lang, query_value

__all__ = ["LIVE_PAGE", "LIVE_PAGES", "LIVE_WORDS", "live_http", "live_page", "live_links"]

LIVE_PAGE = "/live"
#: The page's paths and files: the page itself, the projector's, its script and its style.
LIVE_PAGES = {LIVE_PAGE: "live.html", LIVE_PAGE + "/projector": "live.html", "/live.js": "live.js",
              "/live.css": "live.css"}

LIVE_WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "The class right now", "projector": "The class right now (projector, no names)",
           "intro": "Learners who connect their notebook (classroom.share_progress) send, after each run of an "
                    "exercise's checks, each check's ✓ or ✗: never their code. The times are the server's.",
           "caption": "Each learner's latest checks, by exercise", "learner": "Learner",
           "passed": "{passed} of {total} passed", "all": "✓ all {total} passed", "failed": "✗ {name}",
           "not_yet": "not connected yet", "untried": "—", "untried_long": "not run yet",
           "failing": "Checks most of the class fails now", "of": "failed by {n} of {m}",
           "rules": "Rules behind them", "rule": "learners failing a check of it now: {n}",
           "variants": "Each learner has their own cards (variants): here a check is named with the common cards, "
                       "in the table with the learner's own.",
           "course_link": "The class right now (live): each learner's latest checks",
           "no_failing": "Nobody fails a check now.",
           "idle": "No progress for {minutes} min", "idle_none": "Everyone made progress in the last {minutes} min.",
           "idle_count": "{n} of {m} learners without progress for {minutes} min",
           "counts": "By exercise", "count": "{exercise}: {all} of {tried} pass every check",
           "empty": "No checks have been reported yet.", "connected": "Live: the page follows the class.",
           "connecting": "Connecting …", "offline": "Connection lost: it is tried again.",
           "refused": "Refused: {message}", "to_projector": "Projector view (no names)",
           "to_teacher": "Teacher's view (names)", "last": "last progress {minutes} min ago",
           "just": "progress in the last minute",
           "no_check": "connected {minutes} min ago, no check run yet"},
    "de": {"title": "Die Klasse gerade", "projector": "Die Klasse gerade (Projektor, ohne Namen)",
           "intro": "Wer das Notebook verbindet (classroom.share_progress), sendet nach jedem Lauf der Prüfungen "
                    "einer Aufgabe zu jeder Prüfung ✓ oder ✗: nie den Code. Die Zeiten sind die des Servers.",
           "caption": "Die letzten Prüfungen jeder Person, je Aufgabe", "learner": "Person",
           "passed": "{passed} von {total} bestanden", "all": "✓ alle {total} bestanden", "failed": "✗ {name}",
           "not_yet": "noch nicht verbunden", "untried": "—", "untried_long": "noch nicht geprüft",
           "failing": "Prüfungen, an denen gerade die meisten scheitern", "of": "{n} von {m} bestehen sie nicht",
           "rules": "Die Regeln dahinter",
           "rule": "Personen, die gerade eine Prüfung dazu nicht bestehen: {n}",
           "variants": "Jede Person hat eigene Karten (Varianten): hier heißt eine Prüfung nach den gemeinsamen "
                       "Karten, in der Tabelle nach den Karten der Person.",
           "course_link": "Die Klasse gerade (live): die letzten Prüfungen aller",
           "no_failing": "Gerade scheitert niemand an einer Prüfung.",
           "idle": "Seit {minutes} Min. kein Fortschritt",
           "idle_none": "Alle sind in den letzten {minutes} Min. weitergekommen.",
           "idle_count": "{n} von {m} Personen seit {minutes} Min. ohne Fortschritt",
           "counts": "Je Aufgabe", "count": "{exercise}: {all} von {tried} bestehen jede Prüfung",
           "empty": "Noch keine Prüfung gemeldet.", "connected": "Live: die Seite folgt der Klasse.",
           "connecting": "Verbinde …", "offline": "Verbindung verloren: sie wird neu versucht.",
           "refused": "Abgelehnt: {message}", "to_projector": "Projektor-Ansicht (ohne Namen)",
           "to_teacher": "Ansicht der Lehrkraft (mit Namen)", "last": "letzter Fortschritt vor {minutes} Min.",
           "just": "Fortschritt in der letzten Minute",
           "no_check": "vor {minutes} Min. verbunden, noch keine Prüfung gelaufen"},
    "hu": {"title": "Az osztály most", "projector": "Az osztály most (kivetítő, nevek nélkül)",
           "intro": "Aki összeköti a notebookját (classroom.share_progress), egy feladat ellenőrzéseinek minden "
                    "futtatása után elküldi minden ellenőrzés ✓ vagy ✗ jelét: a kódját soha. Az időpontok a "
                    "szerveréi.",
           "caption": "Mindenki legutóbbi ellenőrzései, feladatonként", "learner": "Tanuló",
           "passed": "{total} ellenőrzésből {passed} sikeres", "all": "✓ mind a(z) {total} sikeres",
           "failed": "✗ {name}",
           "not_yet": "még nem csatlakozott", "untried": "—", "untried_long": "még nem futtatta",
           "failing": "Ellenőrzések, amelyeken most a legtöbben elbuknak", "of": "{m} tanulóból {n} elbukik rajta",
           "rules": "A mögöttük álló szabályok", "rule": "ennyi tanuló bukik most el egy ellenőrzésén: {n}",
           "variants": "Mindenkinek saját lapjai vannak (változatok): itt az ellenőrzések a közös lapokkal "
                       "szerepelnek, a táblázatban a tanuló saját lapjaival.",
           "course_link": "Az osztály most (élőben): mindenki legutóbbi ellenőrzései",
           "no_failing": "Most senki sem bukik el ellenőrzésen.",
           "idle": "{minutes} perce nem haladt",
           "idle_none": "Az elmúlt {minutes} percben mindenki haladt.",
           "idle_count": "{m} tanulóból {n} nem haladt {minutes} perce",
           "counts": "Feladatonként", "count": "{exercise}: {tried} tanulóból {all} minden ellenőrzésen átmegy",
           "empty": "Még nem érkezett ellenőrzés.", "connected": "Élő: az oldal követi az osztályt.",
           "connecting": "Kapcsolódás …", "offline": "Megszakadt a kapcsolat: újrapróbálja.",
           "refused": "Elutasítva: {message}", "to_projector": "Kivetítő nézet (nevek nélkül)",
           "to_teacher": "A tanár nézete (nevekkel)", "last": "utolsó haladás {minutes} perce",
           "just": "haladt az elmúlt percben",
           "no_check": "{minutes} perce csatlakozott, még nem futott ellenőrzés"},
}


def _file(name: str) -> bytes:
    return resources.files(__package__).joinpath("pages").joinpath(name).read_bytes()


def live_page(lang: str, projector: bool, idle: float) -> bytes:
    """The page in ``lang``: its words and settings in a JSON data block."""
    settings = {"words": LIVE_WORDS[lang], "projector": projector, "idle": idle, "lang": lang}
    data = json.dumps(settings, ensure_ascii=False).replace("<", "\\u003c")  # no "</script>" inside
    words = LIVE_WORDS[lang]
    page = _file("live.html").decode("utf-8")
    page = page.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    title = html.escape(words["projector" if projector else "title"])
    page = page.replace("<title>maumau</title>", f"<title>{title}</title>", 1)
    page = page.replace('<script type="application/json" id="settings">{}</script>',
                        f'<script type="application/json" id="settings">{data}</script>', 1)
    return page.encode("utf-8")


def live_links(page: str, lang: str) -> str:
    """The teacher's course page with the links to the live view under its heading (the page and the
    links are the logged-in teacher's only: /live refuses anyone else as /course does)."""
    words = LIVE_WORDS.get(lang, LIVE_WORDS["en"])
    query = f"?lang={lang}" if lang in LIVE_WORDS else ""
    links = (f'<p class="live-links"><a href="live{query}">{html.escape(words["course_link"])}</a> · '
             f'<a href="live/projector{query}">{html.escape(words["to_projector"])}</a></p>')
    head, found, rest = page.partition("</h1>")
    return head + found + "\n" + links + rest if found else page


def _idle(path: str) -> float:
    try:
        idle = float(query_value(path, "idle") or 5)
    except ValueError:
        return 5.0
    return min(240.0, max(0.5, idle)) if idle == idle else 5.0  # NaN: the default


def live_http(path: str, teacher: bool) -> Any:
    """The response for a path of ``LIVE_PAGES``: the page for the logged-in teacher, else a refusal."""
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    from .pages import _HEADERS

    where = path.split("?")[0]
    name = LIVE_PAGES[where]
    if name != "live.html":
        kind = "text/javascript" if name.endswith(".js") else "text/css"
        return Response(200, "OK", Headers([("Content-Type", f"{kind}; charset=utf-8"), *_HEADERS]), _file(name))
    if not teacher:
        return plain(403, "the live view is the teacher's: log in on the lobby page first\n")
    body = live_page(query_lang(path), where.endswith("/projector"), _idle(path))
    return Response(200, "OK", Headers([("Content-Type", "text/html; charset=utf-8"), *_HEADERS]), body)
