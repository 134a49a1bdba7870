"""What ``maumau grade`` writes (grades.csv, summary.md, feedback) and its words: spreadsheet-safe
CSV cells, the report's words by language, the sentence on lateness, and the files themselves.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import tempfile
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .exercise import NotebookError, read_regular_file
from .gradebook import STATUSES, Row
from .inline_markdown import md_text
from .inline_markdown import printable_line as _one_line
from .submissions import FOLDER, printable

if TYPE_CHECKING:
    from .similarity import Flag

__all__ = [
    "FORMULA_SIGNS", "QUOTE", "formula_like", "csv_text", "cell_text", "csv_table", "REPORT_WORDS",
    "STATUS_WORDS", "MESSAGES", "say", "status_word", "points", "message_words", "lateness_sentence",
    "LATE_WORDS", "COLUMNS", "write_reports", "summary_markdown", "feedback_markdown", "feedback_names", "fmt",
    "grades_csv", "md_text", "ReportError"
]


# --- spreadsheet-safe cells ---------------------------------------------------------------------------------
#
# Text cells of a CSV file that a spreadsheet shows as text, never runs as a formula.
#
# A spreadsheet reads a cell starting with ``= + - @`` (or a tab or carriage return, which some
# strip first) as a formula.  OWASP's advice on CSV injection is to put a ``'`` before such a cell.
# Learners choose the names and messages that end up in grades.csv and the LMS files, so "starting
# with" is read the way a spreadsheet or a person might:
#
# - in the text's NFKC form: the full-width ``＝ ＋ － ＠`` and the small and super-/subscript
#   forms (``﹦ ⁺ ₋ ﹫``) are the ASCII signs;
# - after any leading characters that show nothing: spaces of every kind, control and format
#   characters (U+200B, U+FEFF, the direction marks), and Unicode's other default-ignorable
#   code points (U+034F, the variation selectors, the Hangul fillers U+3164 ...);
# - a dash or minus of any kind (U+2010-U+2015, U+2212 ...) counts as ``-``.
#
# A cell that starts with ``'`` is quoted too, so that reading a cell back (``plain``) is exact:
# ``cell_text(csv_text(x)) == printable(x)`` for every ``x``.  Numbers (scores) are never passed
# through here: they stay numbers.
#
# ``csv_table`` writes the rows (lines end in ``
# ``) with every cell that holds a line break in
# quotes, a carriage return too: Python's writer quotes only the characters of its line
# terminator, and a reader that takes a bare ``
# `` for the end of a line would read a learner's
# ``"x
# mallory,02,6"`` as a row of its own.

#: What a spreadsheet reads as the start of a formula.
FORMULA_SIGNS = frozenset("=+-@\t\r")
#: The mark that makes a cell text.
QUOTE = "'"
#: Signs that NFKC keeps apart from ``+`` and ``-`` but that read as them.
_LIKE_SIGNS = {"\u2212": "-", "\u2796": "-", "\u2795": "+", "\u2052": "-", "\u2e3a": "-", "\u2e3b": "-"}
#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt) that are neither
#: format (Cf) nor control characters: marks and fillers that show nothing.
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
              (0xE0000, 0xE0FFF))


def invisible(ch: str) -> bool:
    """Whether ``ch`` shows nothing at the start of a cell (tab and carriage return excepted:
    they are formula signs themselves)."""
    if ch in "\t\r":
        return False
    if unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp") or ch.isspace():
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE)


def _sign(ch: str) -> str:
    """``ch`` as the ASCII sign it reads as (itself if none)."""
    if unicodedata.category(ch) == "Pd":  # every dash: hyphen, en dash, small hyphen-minus ...
        return "-"
    return _LIKE_SIGNS.get(ch, ch)


def formula_like(text: str) -> bool:
    """Whether a spreadsheet could take ``text`` for a formula: its NFKC form, after the
    leading characters that show nothing, starts with ``= + - @``, a tab or a carriage return."""
    normal = unicodedata.normalize("NFKC", text)
    first = next((ch for ch in normal if not invisible(ch)), "")
    return _sign(first) in FORMULA_SIGNS if first else False


def csv_text(value: object) -> str:
    """A text cell as a spreadsheet shows it: as text, never as a formula."""
    text = printable(str(value))
    return QUOTE + text if text.startswith(QUOTE) or formula_like(text) else text


def cell_text(cell: str) -> str:
    """A cell written by ``csv_text`` as it was before: less the quote ``csv_text`` added."""
    rest = cell[1:]
    return rest if cell.startswith(QUOTE) and (rest.startswith(QUOTE) or formula_like(rest)) else cell


def csv_table(rows: Iterable[Iterable[object]]) -> str:
    """The rows as CSV text, one line each ending in ``\n``, a cell with ``\r`` or ``\n`` quoted."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")  # so that \r and \n in a cell are quoted
    lines = []
    for row in rows:
        writer.writerow(row)
        lines.append(buf.getvalue()[:-2] + "\n")
        buf.seek(0)
        buf.truncate()
    return "".join(lines)


# --- the report's words -------------------------------------------------------------------------------------
#
# The words of ``maumau grade``'s reports (summary.md, the summary printed at the end, feedback/),
# in English, German and Hungarian (``--lang``); numbers as the language writes them (5.4 · 5,4).
# A learner's folder name, exercise name, test title and message are shown as written.

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


# --- the sentence on lateness -------------------------------------------------------------------------------
#
# The feedback's sentence on a hand-in's time and lateness, in the learner's language.

LATE_WORDS: dict[str, dict[str, str]] = {
    "en": {"on_time": "Handed in {when}, on time.",
           "late": "Handed in {when}, {days} late: {penalty} of the points are taken off, {final} of {max} count.",
           "too_late": "Handed in {when}, {days} late: past the last day that counts, so no points count.",
           "extended": " (with your extension)",
           "day": "1 day", "days": "{n} days"},
    "de": {"on_time": "Abgegeben am {when}, rechtzeitig.",
           "late": "Abgegeben am {when}, {days} zu spät: {penalty} der Punkte werden abgezogen, "
                   "{final} von {max} zählen.",
           "too_late": "Abgegeben am {when}, {days} zu spät: nach dem letzten Tag, der zählt, "
                       "also zählen keine Punkte.",
           "extended": " (mit deiner Verlängerung)",
           "day": "1 Tag", "days": "{n} Tage"},
    "hu": {"on_time": "Beadva: {when}, időben.",
           "late": "Beadva: {when}, {days} késéssel: a pontok {penalty}-át levonjuk, {max} pontból {final} számít.",
           "too_late": "Beadva: {when}, {days} késéssel: az utolsó beszámítható nap után, így nem számít pont.",
           "extended": " (a hosszabbításoddal)",
           "day": "1 nap", "days": "{n} nap"},
}


def _number(x: float, lang: str) -> str:
    text = str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")
    return text.replace(".", ",") if lang in ("de", "hu") else text


def _percent(share: float, lang: str) -> str:
    text = _number(round(share * 100, 1), lang)
    return f"{text} %" if lang in ("de", "hu") else f"{text}%"


def lateness_sentence(row: Row, lang: str = "en") -> str:
    """"Handed in 2026-12-11 09:30 +01:00, 1 day late: 10% of the points are taken off, 5.4 of 6
    count." — empty when the hand-in time is not known."""
    if not row.submitted:
        return ""
    words = LATE_WORDS.get(lang, LATE_WORDS["en"])
    when = row.submitted.replace("T", " ")
    when = when[:16] + " " + when[19:] if len(when) > 19 else when
    days = words["day"] if row.late_days == 1 else words["days"].format(n=row.late_days)
    if row.late_days <= 0:
        text = words["on_time"].format(when=when)
    elif row.penalty >= 1:
        text = words["too_late"].format(when=when, days=days)
    else:
        text = words["late"].format(when=when, days=days, penalty=_percent(row.penalty, lang),
                                    final=_number(row.final, lang), max=_number(row.max_score, lang))
    return text[:-1] + words["extended"] + "." if row.extended else text


# --- the files grade writes ---------------------------------------------------------------------------------
#
# What ``maumau grade`` writes: grades.csv, summary.md, course.html (``course_page``) and one feedback
# file per learner.
#
# Feedback shows results only: each test's title (the first comment line of its cell, which
# learners see in their own notebook), pass or fail, points, and the first failure's message.
# The source of hidden tests never appears; messages are already redacted and shortened.
#
# Learners choose their folder names and what their code raises, so nothing they wrote can
# become markup or a formula:
#
# - grades.csv: a text cell starting with ``= + - @``, a tab or a carriage return, in any Unicode
#   form of these and after any leading invisible characters, gets a leading ``'`` (OWASP's advice
#   on CSV injection; ``csv_text``); the numbers stay numbers;
# - summary.md and feedback: learner text is escaped (``<script>`` shows as text, ``[a](b)``
#   is no link), a failure message sits in a code fence longer than any backtick run in it;
# - feedback/<name>.md: one file per learner, never shared; a name that is not plain ASCII
#   (``🙂``) or could clash gets a short hash of the learner's name (``_-1a2b3c4d.md``), and
#   summary.md lists those files.
#
# grades.csv is written atomically (a temporary file in the same folder, fsync, rename), its
# SHA-256 goes to ``grades.csv.sha256`` (``sha256sum -c grades.csv.sha256``), and after
# everything is written it is read back: a grades.csv that is not exactly what was meant
# raises ``ReportError`` rather than standing as the grades.

COLUMNS = ("student", "exercise", "score", "max_score", "manual_pending", "status", "passed", "failed", "seconds",
           "message", "submitted", "late_days", "penalty", "final")
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,79}")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_WINDOWS = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


class ReportError(NotebookError):
    """grades.csv is not what the grader wrote (something rewrote it)."""


def fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


# --- grades.csv -----------------------------------------------------------------------------------------

def _share(x: float) -> str:
    """A share as grades.csv writes it: 0, 0.2, 1."""
    return f"{x:.4f}".rstrip("0").rstrip(".") if x else "0"


def grades_csv(rows: list[Row]) -> str:
    return csv_table([COLUMNS] + [
        [csv_text(r.student), csv_text(r.exercise), fmt(r.score), fmt(r.max_score), fmt(r.manual_pending),
         csv_text(r.status), r.passed, r.failed, f"{r.seconds:.1f}", csv_text(r.message), r.submitted, r.late_days,
         _share(r.penalty), fmt(r.final)] for r in rows])


# --- Markdown -------------------------------------------------------------------------------------------

def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in ``text``."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _exercise_name(r: Row, lang: str = "en") -> str:
    return say("folder", lang) if r.exercise == FOLDER else md_text(r.exercise)


def summary_markdown(rows: list[Row], names: dict[str, str] | None = None, isolation: str = "",
                     lang: str = "en") -> str:
    """A table per learner and exercise, then one row per learner with the total; the rows
    that need a look; the feedback files not named like their learner (``names``).
    ``isolation``: why the kernels ran without a sandbox, shown first (empty when they had one).
    ``lang``: the words and numbers (en, de, hu; learners' names and messages as written)."""
    exercises = sorted({r.exercise for r in rows if r.status != "unknown exercise" and r.exercise != FOLDER})
    by_student: dict[str, dict[str, Row]] = defaultdict(dict)
    for r in rows:
        by_student[r.student][r.exercise] = r
    lines = [f"# {say('grades', lang)}", ""]
    if isolation:
        lines += [f"**{say('warning', lang)}** {md_text(isolation)}", ""]
    lines += [f"| {say('student', lang)} | " + " | ".join(md_text(e) for e in exercises)
              + f" | {say('total', lang)} |",
             "|---|" + "---:|" * (len(exercises) + 1)]
    for student in sorted(by_student):
        got = by_student[student]
        cells = []
        for name in exercises:
            row = got.get(name)
            if row is None:
                cells.append("")
                continue
            text = f"{points(row.score, lang)}/{points(row.max_score, lang)}"
            cells.append(text if row.status == "ok" else f"{text} ({md_text(status_word(row.status, lang))})")
        total = sum(r.score for r in got.values())
        most = sum(r.max_score for r in got.values())
        lines.append(f"| {md_text(student)} | " + " | ".join(cells)
                     + f" | {points(total, lang)}/{points(most, lang)} |")
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        counts[r.status] += 1
    listed = ", ".join(f"{status_word(s, lang)} {counts[s]}" for s in STATUSES if counts[s])
    lines += ["", say("statuses", lang, list=listed), ""]
    problems = [r for r in rows if r.status != "ok"]
    if problems:
        head = " | ".join(say(w, lang) for w in ("student", "exercise", "status", "message"))
        lines += [f"## {say('need_look', lang)}", "", f"| {head} |", "|---|---|---|---|"]
        lines += [f"| {md_text(r.student)} | {_exercise_name(r, lang)} | {md_text(status_word(r.status, lang))} | "
                  f"{md_text(message_words(r.message, lang))} |" for r in problems]
        lines.append("")
    renamed = {s: n for s, n in (names or {}).items() if n != f"{s}.md"}
    if renamed:
        lines += [f"## {say('feedback_files', lang)}", "", f"| {say('student', lang)} | {say('file', lang)} |",
                  "|---|---|"]
        lines += [f"| {md_text(s)} | feedback/{md_text(n)} |" for s, n in sorted(renamed.items())]
        lines.append("")
    return "\n".join(lines)


def feedback_markdown(student: str, rows: list[Row], lang: str = "en", explain: bool = False,
                      titles: Mapping[str, str] | None = None) -> str:
    """One learner's feedback: per exercise the score, status, tests and first failure; when it
    was handed in and what lateness cost, in ``lang``.  ``explain``: also each failed hidden test's
    own explanation (for the teacher, and for learners once the feedback is released); ``titles``:
    what the exercises are called, by name (else their names)."""

    lines = [f"# {say('feedback_for', lang, name=md_text(student))}", ""]
    for r in sorted(rows, key=lambda r: r.exercise):
        if r.exercise == FOLDER:
            lines += [f"## {say('your_folder', lang, status=md_text(status_word(r.status, lang)))}", "",
                      md_text(message_words(r.message, lang)), ""]
            continue
        title = (titles or {}).get(r.exercise, r.exercise)
        heading = say("exercise_points", lang, exercise=md_text(title), score=points(r.score, lang),
                      max=points(r.max_score, lang))
        lines += [f"## {heading}", ""]
        if late := lateness_sentence(r, lang):
            lines += [late, ""]
        if r.status != "ok":
            status = say("status_line", lang, status=md_text(status_word(r.status, lang)))
            lines += [f"{status} {md_text(message_words(r.message, lang))}".rstrip(), ""]
        for t in r.tests:
            kind = say("hidden_test" if t.hidden else "test", lang)
            lines.append(f"- {'✓' if t.passed else '✗'} {kind} *{md_text(t.title)}*: "
                         f"{points(t.points, lang)}/{points(t.max_points, lang)}")
        first = next((t for t in r.tests if not t.passed and t.message), None)
        if first is not None:
            message = _one_line(message_words(first.message, lang))  # in a code fence: as it is, never markup
            fence = _fence(message)
            lines += ["", say("first_failure", lang, title=md_text(first.title)), "", fence, message, fence]
        if explain:
            lines += _explained(r, lang)
        notes = [n for n in r.notes if n]
        if notes:
            lines += [""] + [say("note", lang, note=md_text(message_words(n, lang))) for n in notes]
        lines.append("")
    return "\n".join(lines)


def _explained(row: Row, lang: str) -> list[str]:
    """The explanations of the failed tests that say no message of their own (hidden tests, and the
    tests after one), each in a code fence: the reference's words, never markup."""
    from ..text.locale.feedback import said

    lines: list[str] = []
    for t in row.tests:
        if not t.passed and t.explanation and not t.message:
            text = _one_line(t.explanation)
            fence = _fence(text)
            title = f"*{md_text(t.title)}*"  # emphasised, as in the list of tests above
            heading = said("explained" if t.hidden else "explained_test", lang, title=title)
            lines += ["", heading, "", fence, text, fence]
    return lines


# --- file names and writing -----------------------------------------------------------------------------

def _hashed(student: str, length: int = 8) -> str:
    digest = hashlib.sha256(student.encode("utf-8", "surrogatepass")).hexdigest()[:length]
    stem = _UNSAFE.sub("_", printable(student)).strip("._-")[:40] or "_"
    return f"{stem}-{digest}"


def feedback_names(students: list[str]) -> dict[str, str]:
    """A feedback file name for each learner, different for different learners (also on a
    file system that ignores case): the name itself when it is plain ASCII, else with a hash."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    plain = [s for s in students if _PLAIN_NAME.fullmatch(s) and s.split(".")[0].lower() not in _WINDOWS]
    for student in sorted(plain, key=lambda s: (s.lower(), s)):
        if student.lower() not in taken:  # "Alice" and "alice": the second gets a hash
            names[student] = student
            taken.add(student.lower())
    for student in sorted(set(students) - set(names)):
        length = 8
        while (name := _hashed(student, length)).lower() in taken:  # only if someone chose such a name
            length += 4
        names[student] = name
        taken.add(name.lower())
    return {s: n + ".md" for s, n in names.items()}


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a temporary file in the same folder, fsync, rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:  # the rename itself survives a crash once the folder is synced
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass  # a file system that cannot sync folders: the rename is still atomic


def _check_written(path: Path, data: bytes) -> None:
    try:
        found = read_regular_file(path, len(data) + 1, follow_links=False)
    except NotebookError as err:
        raise ReportError(f"{path} was changed after the grader wrote it ({err}): do not trust it") from None
    if found != data:
        raise ReportError(f"{path} was changed after the grader wrote it: do not trust it, grade again")


def write_reports(rows: list[Row], out: Path, isolation: str = "", lang: str = "en",
                  ids: dict[str, dict[str, tuple[str, ...]]] | None = None,
                  languages: Mapping[str, str] | None = None,
                  similar: Sequence[Flag] | None = None) -> str:
    """grades.csv (with grades.csv.sha256), summary.md and feedback/<name>.md in ``out``,
    each written atomically; returns the SHA-256 of grades.csv.  ReportError if grades.csv
    does not read back as written once everything is written.  ``isolation``: why the kernels
    ran without a sandbox (summary.md says so first); empty when they ran in one.  ``lang``: the
    language of summary.md, course.html and the feedback; ``languages``: a learner's own
    language for their feedback (the language of the notebooks they handed in), by learner;
    ``similar``: the pairs course.html lists as alike (``similarity``; None: no such section)."""
    out.mkdir(parents=True, exist_ok=True)
    grades = grades_csv(rows).encode("utf-8")
    digest = hashlib.sha256(grades).hexdigest()
    _write_atomically(out / "grades.csv", grades)
    _write_atomically(out / "grades.csv.sha256", f"{digest}  grades.csv\n".encode())
    by_student: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        by_student[r.student].append(r)
    names = feedback_names(list(by_student))
    _write_atomically(out / "summary.md", summary_markdown(rows, names, isolation, lang).encode("utf-8"))
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    for student, mine in by_student.items():
        theirs = (languages or {}).get(student, lang)
        text = feedback_markdown(student, mine, theirs if theirs in REPORT_WORDS else lang)
        _write_atomically(feedback / names[student], text.encode("utf-8"))
    from urllib.parse import quote

    from .course_page import course_html

    links = {student: f"feedback/{quote(name)}" for student, name in names.items()}
    _write_atomically(out / "course.html", course_html(rows, lang, links, ids, similar).encode("utf-8"))
    _check_written(out / "grades.csv", grades)
    return digest
