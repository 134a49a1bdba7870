"""The words of ``maumau grade``'s reports (summary.md, the summary printed at the end, feedback/),
in English, German and Hungarian (``--lang``); numbers as the language writes them (5.4 · 5,4).
A learner's folder name, exercise name, test title and message are shown as written."""

from __future__ import annotations

import re

__all__ = ["REPORT_WORDS", "STATUS_WORDS", "MESSAGES", "say", "status_word", "points", "message_words"]

REPORT_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "grades": "Grades", "warning": "Warning:", "student": "student", "total": "total", "exercise": "exercise",
        "status": "status", "message": "message", "file": "file", "statuses": "Statuses: {list}.",
        "need_look": "Rows that need a look", "feedback_files": "Feedback files", "folder": "(folder)",
        "feedback_for": "Feedback for {name}", "your_folder": "Your folder: {status}",
        "exercise_points": "{exercise}: {score} of {max} points", "status_line": "Status: **{status}**.",
        "test": "test", "hidden_test": "hidden test", "first_failure": "First failure ({title}):",
        "note": "Note: {note}.",
        "graded": "Graded {rows} rows in {seconds} s (wall time); wrote {out}/grades.csv, {out}/summary.md "
                  "and {out}/feedback/.",
    },
    "de": {
        "grades": "Noten", "warning": "Achtung:", "student": "Lernende(r)", "total": "gesamt",
        "exercise": "Aufgabe", "status": "Stand", "message": "Meldung", "file": "Datei",
        "statuses": "Stand der Zeilen: {list}.", "need_look": "Zeilen, die man ansehen sollte",
        "feedback_files": "Rückmeldungsdateien", "folder": "(Ordner)", "feedback_for": "Rückmeldung für {name}",
        "your_folder": "Dein Ordner: {status}", "exercise_points": "{exercise}: {score} von {max} Punkten",
        "status_line": "Stand: **{status}**.", "test": "Test", "hidden_test": "verdeckter Test",
        "first_failure": "Erster Fehler ({title}):", "note": "Hinweis: {note}.",
        "graded": "{rows} Zeilen in {seconds} s bewertet (gemessene Zeit); geschrieben: {out}/grades.csv, "
                  "{out}/summary.md und {out}/feedback/.",
    },
    "hu": {
        "grades": "Jegyek", "warning": "Figyelem:", "student": "tanuló", "total": "összesen", "exercise": "feladat",
        "status": "állapot", "message": "üzenet", "file": "fájl", "statuses": "Sorok állapota: {list}.",
        "need_look": "Átnézendő sorok", "feedback_files": "Visszajelzésfájlok", "folder": "(mappa)",
        "feedback_for": "Visszajelzés: {name}", "your_folder": "A mappád: {status}",
        "exercise_points": "{exercise}: {score} pont a {max} pontból", "status_line": "Állapot: **{status}**.",
        "test": "teszt", "hidden_test": "rejtett teszt", "first_failure": "Első hiba ({title}):",
        "note": "Megjegyzés: {note}.",
        "graded": "{rows} sor értékelve {seconds} mp alatt (mért idő); megírva: {out}/grades.csv, "
                  "{out}/summary.md és {out}/feedback/.",
    },
}

#: The row statuses (``rows.STATUSES``) in words; grades.csv keeps the English ones (they are data).
STATUS_WORDS: dict[str, dict[str, str]] = {
    "en": {},
    "de": {"grader error": "Fehler des Bewerters", "invalid notebook": "ungültiges Notebook", "missing": "fehlt",
           "unknown exercise": "unbekannte Aufgabe", "duplicate": "doppelt", "timeout": "Zeit überschritten",
           "kernel died": "Kernel abgestürzt", "memory limit": "Speichergrenze", "error": "Fehler",
           "needs manual grading": "von Hand zu bewerten", "ok": "in Ordnung"},
    "hu": {"grader error": "értékelői hiba", "invalid notebook": "érvénytelen notebook", "missing": "hiányzik",
           "unknown exercise": "ismeretlen feladat", "duplicate": "kettőzött", "timeout": "időtúllépés",
           "kernel died": "a kernel leállt", "memory limit": "memóriakorlát", "error": "hiba",
           "needs manual grading": "kézi értékelés kell", "ok": "rendben"},
}


def say(key: str, lang: str, **values: object) -> str:
    """A report's sentence or word in ``lang`` (English where the language lacks it)."""
    words = REPORT_WORDS.get(lang, REPORT_WORDS["en"])
    return words.get(key, REPORT_WORDS["en"][key]).format(**values)


def status_word(status: str, lang: str) -> str:
    return STATUS_WORDS.get(lang, {}).get(status, status)


def points(x: float, lang: str) -> str:
    """Points as the language writes them: 5 · 5.4 (en) · 5,4 (de, hu)."""
    text = str(int(x)) if float(x).is_integer() else f"{x:.1f}"
    return text.replace(".", ",") if lang in ("de", "hu") else text


# --- the grader's own messages (a row's message and notes), in the report's language -----------------

#: Each message the grader writes itself, as a pattern over its English wording, and its German and
#: Hungarian wording; what a pattern's groups hold (file names, titles, a learner's first line, an
#: error's own text) is shown as written.  A part that matches no pattern is a learner's text (an
#: exception's message, a check's words) and stays as it is.
_WHAT = r"(?P<what>(?:your cell|your solution cell|setup cell|test) ?.*?)"
MESSAGES: list[tuple[str, dict[str, str]]] = [
    (r"no (?P<name>.+)\.ipynb handed in",
     {"de": "kein {name}.ipynb abgegeben", "hu": "nincs beadott {name}.ipynb"}),
    (r"(?P<file>.+) matches no exercise in (?P<source>.+)",
     {"de": "{file} gehört zu keiner Aufgabe in {source}", "hu": "{file} egyik feladathoz sem tartozik ({source})"}),
    (r"another (?P<file>.+) of (?P<student>.+) was graded",
     {"de": "ein anderes {file} von {student} wurde bewertet", "hu": "{student} egy másik {file} fájlját értékeltük"}),
    (r"grading stopped: (?P<why>.+)", {"de": "Bewertung abgebrochen: {why}", "hu": "az értékelés leállt: {why}"}),
    (r"the total time limit of (?P<s>[\d.]+) s \(CPU time\)",
     {"de": "die Gesamtzeitgrenze von {s} s (CPU-Zeit)", "hu": "a teljes időkorlát, {s} mp (CPU-idő)"}),
    (r"the kernel stopped after " + _WHAT + r" \(it was restarted, earlier cells rerun\)",
     {"de": "der Kernel stoppte nach: {what} (neu gestartet, frühere Zellen wiederholt)",
      "hu": "a kernel leállt ez után: {what} (újraindult, a korábbi cellák újra lefutottak)"}),
    (_WHAT + r" ran longer than the limit and was interrupted",
     {"de": "{what} lief länger als erlaubt und wurde unterbrochen",
      "hu": "{what} túllépte az időkorlátot, megszakítottuk"}),
    (_WHAT + r" stopped the kernel \(it was restarted, earlier cells rerun\)",
     {"de": "{what} hat den Kernel gestoppt (neu gestartet, frühere Zellen wiederholt)",
      "hu": "{what} leállította a kernelt (újraindult, a korábbi cellák újra lefutottak)"}),
    (_WHAT + r" ran out of memory \(the grader's limit\)",
     {"de": "{what} brauchte zu viel Speicher (Grenze des Bewerters)",
      "hu": "{what} kifogyott a memóriából (az értékelő korlátja)"}),
    (_WHAT + r" raised an error", {"de": "{what} löste einen Fehler aus", "hu": "{what} hibát dobott"}),
    (_WHAT + r" raised (?P<error>\w+(?:Error|Exception|Interrupt)\b.*)",
     {"de": "{what} löste {error} aus", "hu": "{what} hibát dobott: {error}"}),
    (r"(?P<points>[\d.]+) points wait for a teacher",
     {"de": "{points} Punkte warten auf die Lehrkraft", "hu": "{points} pont tanári értékelésre vár"}),
    (r"a cell at or after the hidden tests did not run cleanly \(which one and how is not said\)",
     {"de": "eine Zelle ab den verdeckten Tests lief nicht fehlerfrei (welche und wie, bleibt verdeckt)",
      "hu": "egy cella a rejtett tesztektől kezdve nem futott hibátlanul (hogy melyik és hogyan, nem áruljuk el)"}),
    (r"hidden test (?P<title>'.*') failed", {"de": "verdeckter Test {title} nicht bestanden",
                                            "hu": "a(z) {title} rejtett teszt nem sikerült"}),
    (r"test (?P<title>'.*') failed", {"de": "Test {title} nicht bestanden", "hu": "a(z) {title} teszt nem sikerült"}),
    (r"hidden test (?P<title>'.*?'): (?P<why>.+)", {"de": "verdeckter Test {title}: {why}",
                                                  "hu": "{title} rejtett teszt: {why}"}),
    (r"test (?P<title>'.*?'): (?P<why>.+)", {"de": "Test {title}: {why}", "hu": "{title} teszt: {why}"}),
    (r"not run", {"de": "nicht gelaufen", "hu": "nem futott le"}),
    (r"solution cell (?P<key>'.*') is missing: the empty stub was graded",
     {"de": "Lösungszelle {key} fehlt: die leere Vorlage wurde bewertet",
      "hu": "a(z) {key} megoldáscella hiányzik: az üres vázat értékeltük"}),
    (r"(?P<kind>test|setup) cell (?P<key>'.*') was missing and has been restored",
     {"de": "{kind} {key} fehlte und wurde wiederhergestellt", "hu": "a(z) {key} {kind} hiányzott, visszaállítottuk"}),
    (r"your changes to the instructor cell (?P<key>'.*') were undone",
     {"de": "deine Änderungen an der Lehrkraftzelle {key} wurden zurückgenommen",
      "hu": "a(z) {key} tanári cellán tett változtatásaidat visszavontuk"}),
    (r"a copy of the instructor cell (?P<key>'.*') was ignored",
     {"de": "eine Kopie der Lehrkraftzelle {key} wurde übergangen",
      "hu": "a(z) {key} tanári cella másolatát kihagytuk"}),
    (r"tests? (?P<titles>'.*') (?:has|have) no check\(\): judged only by running without an error",
     {"de": "{titles}: kein check(), nur danach bewertet, ob es ohne Fehler läuft",
      "hu": "{titles}: nincs check(), csak az számít, hogy hiba nélkül lefut-e"}),
]
#: The grader's words inside a message's parts: the cells it names, the kinds of cells.
_INNER = {"de": {"your solution cell": "deine Lösungszelle", "your cell": "deine Zelle",
                 "setup cell": "Vorbereitungszelle", "test": "Test", "setup": "Vorbereitungszelle",
                 "hidden test": "verdeckter Test"},
          "hu": {"your solution cell": "a megoldáscellád", "your cell": "a cellád", "setup cell": "előkészítő cella",
                 "test": "teszt", "setup": "előkészítő cella", "hidden test": "rejtett teszt"}}


def message_words(message: str, lang: str) -> str:
    """A row's message or note as the grader would say it in ``lang``: each part (parts are joined by
    "; ") that the grader wrote itself in its wording for ``lang``, the rest as written.  A learner's
    text may hold "; " itself (``ValueError: a; b``): a piece that is not the grader's own stays
    with the part before it, so nothing a learner wrote is cut or half translated."""
    if lang not in ("de", "hu") or not message:
        return message
    parts: list[str] = []
    for piece in message.split("; "):
        if parts and _said(piece, lang) is None:
            parts[-1] += "; " + piece  # the rest of the part before: a learner's words
        else:
            parts.append(piece)
    return "; ".join(_part(part, lang) for part in parts)


def _part(part: str, lang: str) -> str:
    said = _said(part, lang)
    return part if said is None else said


def _said(part: str, lang: str) -> str | None:
    """``part`` in the grader's wording for ``lang``, or None where it is not the grader's own."""
    for pattern, words in MESSAGES:
        found = re.fullmatch(pattern, part, flags=re.DOTALL)
        if found:
            values = {key: _inner(value, lang) if key in ("what", "kind", "why") else
                      points(float(value), lang) if key in ("points", "s") else value
                      for key, value in found.groupdict().items()}
            return words[lang].format(**values)
    return None


def _inner(value: str, lang: str) -> str:
    """The grader's own words at the start of a group (``your cell 'x = 1'`` → ``deine Zelle 'x = 1'``);
    a grading stop's reason translated as a message of its own; anything else as written."""
    said = _said(value, lang)  # a whole message of the grader's first ("your cell raised ValueError: x")
    if said is not None:
        return said
    for english in sorted(_INNER[lang], key=len, reverse=True):
        if value == english or value.startswith(english + " "):
            return _INNER[lang][english] + value[len(english):]
    return value
