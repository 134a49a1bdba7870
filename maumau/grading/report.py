"""What ``maumau grade`` writes: grades.csv, summary.md, course.html (``course_page``) and one feedback
file per learner.

Feedback shows results only: each test's title (the first comment line of its cell, which
learners see in their own notebook), pass or fail, points, and the first failure's message.
The source of hidden tests never appears; messages are already redacted and shortened.

Learners choose their folder names and what their code raises, so nothing they wrote can
become markup or a formula:

- grades.csv: a text cell starting with ``= + - @``, a tab or a carriage return, in any Unicode
  form of these and after any leading invisible characters, gets a leading ``'`` (OWASP's advice
  on CSV injection; ``spreadsheet``); the numbers stay numbers;
- summary.md and feedback: learner text is escaped (``<script>`` shows as text, ``[a](b)``
  is no link), a failure message sits in a code fence longer than any backtick run in it;
- feedback/<name>.md: one file per learner, never shared; a name that is not plain ASCII
  (``🙂``) or could clash gets a short hash of the learner's name (``_-1a2b3c4d.md``), and
  summary.md lists those files.

grades.csv is written atomically (a temporary file in the same folder, fsync, rename), its
SHA-256 goes to ``grades.csv.sha256`` (``sha256sum -c grades.csv.sha256``), and after
everything is written it is read back: a grades.csv that is not exactly what was meant
raises ``ReportError`` rather than standing as the grades.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections import defaultdict
from pathlib import Path

from .notebook import NotebookError, read_regular_file
from .report_words import message_words, points, say, status_word
from .rows import STATUSES, Row
from .spreadsheet import csv_table, csv_text
from .submissions import FOLDER, printable

__all__ = ["COLUMNS", "write_reports", "summary_markdown", "feedback_markdown", "feedback_names", "fmt",
           "grades_csv", "csv_text", "md_text", "ReportError"]

COLUMNS = ("student", "exercise", "score", "max_score", "manual_pending", "status", "passed", "failed", "seconds",
           "message", "submitted", "late_days", "penalty", "final")
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,79}")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_WINDOWS = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_MD_PUNCT = re.compile(r"[\\`*\[\]!|~#<>&$@]")
_MD_SPECIAL = {"_", "*"}


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

def _one_line(text: str) -> str:
    """Printable, on one line, without control characters (the summary is also printed to a
    terminal, where an escape sequence would act)."""
    text = _CONTROL.sub(lambda m: " " if m.group() in "\t\n\r" else f"\\x{ord(m.group()):02x}", printable(text))
    return " ".join(text.split())


def md_text(text: object) -> str:
    """Learner text for inline Markdown: shown as written, never as markup (HTML, links,
    images, emphasis, code, table cells, bare URLs)."""
    text = _one_line(str(text))
    out = []
    for i, ch in enumerate(text):
        if _MD_PUNCT.match(ch):
            out.append("\\" + ch)
        elif ch == "_":  # between two letters or digits "_" is no emphasis: snake_case stays readable
            inner = 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum()
            out.append(ch if inner else "\\_")
        else:
            out.append(ch)
    # no bare link either (GitHub and some renderers link http://... and www.... by themselves)
    return "".join(out).replace("://", "\\://").replace("www.", "www\\.")


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


def feedback_markdown(student: str, rows: list[Row], lang: str = "en") -> str:
    """One learner's feedback: per exercise the score, status, tests and first failure; when it
    was handed in and what lateness cost, in ``lang``."""
    from .late_words import lateness_sentence

    lines = [f"# {say('feedback_for', lang, name=md_text(student))}", ""]
    for r in sorted(rows, key=lambda r: r.exercise):
        if r.exercise == FOLDER:
            lines += [f"## {say('your_folder', lang, status=md_text(status_word(r.status, lang)))}", "",
                      md_text(message_words(r.message, lang)), ""]
            continue
        heading = say("exercise_points", lang, exercise=md_text(r.exercise), score=points(r.score, lang),
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
        notes = [n for n in r.notes if n]
        if notes:
            lines += [""] + [say("note", lang, note=md_text(message_words(n, lang))) for n in notes]
        lines.append("")
    return "\n".join(lines)


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
                  ids: dict[str, dict[str, tuple[str, ...]]] | None = None) -> str:
    """grades.csv (with grades.csv.sha256), summary.md and feedback/<name>.md in ``out``,
    each written atomically; returns the SHA-256 of grades.csv.  ReportError if grades.csv
    does not read back as written once everything is written.  ``isolation``: why the kernels
    ran without a sandbox (summary.md says so first); empty when they ran in one."""
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
        _write_atomically(feedback / names[student], feedback_markdown(student, mine, lang).encode("utf-8"))
    from urllib.parse import quote

    from .course_page import course_html  # the teacher's page: learners × exercises, the checks most fail

    links = {student: f"feedback/{quote(name)}" for student, name in names.items()}
    _write_atomically(out / "course.html", course_html(rows, lang, links, ids).encode("utf-8"))
    _check_written(out / "grades.csv", grades)
    return digest
