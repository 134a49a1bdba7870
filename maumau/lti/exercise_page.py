"""The page a learner lands on from an exercise's link in the LMS (deep linking made the link, its
custom parameter ``exercise`` names it): the exercise, its points, a form to hand the notebook in
(the upload is the launched learner's: no code typed), and what this learner has handed in of it
so far (each version, when the server received it), so the learner sees in the LMS's link that
their hand-in arrived, and their feedback on it once the teacher released it (``classroom.feedback_desk``;
before, a sentence saying when).  In English, German or Hungarian (the browser's).

The form posts to this page; the session cookie is ``SameSite=Strict``, so another site's form
cannot hand in for the learner, and the page checks that the post comes from this site.
"""

from __future__ import annotations

import html
from pathlib import Path
from urllib.parse import quote

__all__ = ["exercise_page", "WORDS", "EXERCISE"]

EXERCISE = "/lti/exercise"

WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "Exercise {name}", "points": "{points} points.", "none": "You have not handed it in yet.",
           "handins": "Your hand-ins (the last one is graded):",
           "version": "version {version}, received {received} UTC",
           "tables": "To the class tables", "who": "Signed in as {name}.",
           "upload": "Hand in your notebook (.ipynb):", "send": "Hand in",
           "download": "Download your notebook of this exercise (.ipynb)"},
    "de": {"title": "Aufgabe {name}", "points": "{points} Punkte.", "none": "Du hast sie noch nicht abgegeben.",
           "handins": "Deine Abgaben (die letzte wird bewertet):",
           "version": "Version {version}, angekommen {received} UTC",
           "tables": "Zu den Tischen der Klasse", "who": "Angemeldet als {name}.",
           "upload": "Gib dein Notebook ab (.ipynb):", "send": "Abgeben",
           "download": "Lade dein Notebook dieser Aufgabe herunter (.ipynb)"},
    "hu": {"title": "{name} feladat", "points": "{points} pont.", "none": "Még nem adtad be.",
           "handins": "A beadásaid (az utolsót értékeljük):",
           "version": "{version}. változat, megérkezett: {received} UTC",
           "tables": "Az osztály asztalaihoz", "who": "Bejelentkezve: {name}.",
           "upload": "Add be a notebookodat (.ipynb):", "send": "Beadás",
           "download": "Töltsd le a feladat notebookját (.ipynb)"},
}


def exercise_page(db: str | Path, exercise: str, points: float, learner: str, display: str, lobby: str,
                  lang: str, title: str | None = None, feedback: str = "", download: bool = False) -> str:
    """The learner's page of ``exercise``, headed by its ``title`` (``lobby``: the class tables' URL;
    ``feedback``: the learner's feedback on it, already HTML; ``download``: with a link to the
    learner's own copy of the notebook)."""
    from ..grading.submissions import HandIns

    words = WORDS.get(lang, WORDS["en"])
    mine = [r for r in HandIns(db).receipts(learner) if r.exercise == exercise]
    lines = [f'<h1>{html.escape(words["title"].format(name=title or exercise))}</h1>',
             f'<p>{html.escape(words["points"].format(points=f"{points:g}"))} '
             f'{html.escape(words["who"].format(name=display))}</p>']
    action = html.escape(f"?name={quote(exercise, safe='')}", quote=True)  # this page, wherever a proxy put it
    if download:  # the learner's own copy (with the course's variants, their own positions)
        lines.append(f'<p><a href="{action}&amp;download=1" download="{html.escape(exercise, quote=True)}.ipynb">'
                     f'{html.escape(words["download"])}</a></p>')
    lines.append(f'<form method="POST" action="{action}" enctype="multipart/form-data"><p><label>'
                 f'{html.escape(words["upload"])} <input type="file" name="notebook" accept=".ipynb"></label> '
                 f'<button type="submit">{html.escape(words["send"])}</button></p></form>')
    if mine:
        lines.append(f'<p>{html.escape(words["handins"])}</p><ul>')
        lines += [f'<li>{html.escape(words["version"].format(version=r.version, received=r.received[:19]))}</li>'
                  for r in mine]
        lines.append("</ul>")
    else:
        lines.append(f'<p>{html.escape(words["none"])}</p>')
    lines.append(feedback)
    lines.append(f'<p><a href="{html.escape(lobby, quote=True)}">{html.escape(words["tables"])}</a></p>')
    return (f'<!DOCTYPE html><html lang="{lang}"><meta charset="utf-8"><title>'
            f'{html.escape(words["title"].format(name=title or exercise))}</title>'
            f'<body style="font-family:sans-serif;margin:2em">{"".join(lines)}</body></html>')
