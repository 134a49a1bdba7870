"""The words of ``maumau grade``'s reports (summary.md, the summary printed at the end, feedback/),
in English, German and Hungarian (``--lang``); numbers as the language writes them (5.4 · 5,4).
A learner's folder name, exercise name, test title and message are shown as written."""

from __future__ import annotations

__all__ = ["REPORT_WORDS", "STATUS_WORDS", "say", "status_word", "points"]

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
