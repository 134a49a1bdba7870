"""What ``maumau grade`` writes: grades.csv, summary.md and one feedback file per learner.

Feedback shows results only: each test's title (the first comment line of its cell, which
learners see in their own notebook), pass or fail, points, and the first failure's message.
The source of hidden tests never appears; messages are already redacted and shortened.
"""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from collections import defaultdict
from pathlib import Path

from .grade import STATUSES, Row

__all__ = ["COLUMNS", "write_reports", "summary_markdown", "feedback_markdown", "fmt"]

COLUMNS = ("student", "exercise", "score", "max_score", "status", "passed", "failed", "seconds", "message")
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def grades_csv(rows: list[Row]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow([r.student, r.exercise, fmt(r.score), fmt(r.max_score), r.status, r.passed,
                         r.failed, f"{r.seconds:.1f}", r.message])
    return buf.getvalue()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def summary_markdown(rows: list[Row]) -> str:
    """A table per learner and exercise, then one row per learner with the total."""
    exercises = sorted({r.exercise for r in rows if r.status != "unknown exercise"})
    by_student: dict[str, dict[str, Row]] = defaultdict(dict)
    for r in rows:
        by_student[r.student][r.exercise] = r
    lines = ["# Grades", "", "| student | " + " | ".join(exercises) + " | total |",
             "|---|" + "---:|" * (len(exercises) + 1)]
    for student in sorted(by_student):
        got = by_student[student]
        cells = []
        for name in exercises:
            r = got.get(name)
            if r is None:
                cells.append("")
                continue
            text = f"{fmt(r.score)}/{fmt(r.max_score)}"
            cells.append(text if r.status == "ok" else f"{text} ({r.status})")
        total = sum(r.score for r in got.values())
        most = sum(r.max_score for r in got.values())
        lines.append(f"| {_cell(student)} | " + " | ".join(cells) + f" | {fmt(total)}/{fmt(most)} |")
    counts = defaultdict(int)
    for r in rows:
        counts[r.status] += 1
    lines += ["", "Statuses: " + ", ".join(f"{s} {counts[s]}" for s in STATUSES if counts[s]) + ".", ""]
    problems = [r for r in rows if r.status != "ok"]
    if problems:
        lines += ["## Rows that need a look", "", "| student | exercise | status | message |", "|---|---|---|---|"]
        lines += [f"| {_cell(r.student)} | {r.exercise} | {r.status} | {_cell(r.message)} |" for r in problems]
        lines.append("")
    return "\n".join(lines)


def feedback_markdown(student: str, rows: list[Row]) -> str:
    """One learner's feedback: per exercise the score, status, tests and first failure."""
    lines = [f"# Feedback for {student}", ""]
    for r in sorted(rows, key=lambda r: r.exercise):
        lines += [f"## {r.exercise}: {fmt(r.score)} of {fmt(r.max_score)} points", ""]
        if r.status != "ok":
            lines.append(f"Status: **{r.status}**. {r.message}".rstrip())
            lines.append("")
        for t in r.tests:
            mark = "✓" if t.passed else "✗"
            kind = "hidden test" if t.hidden else "test"
            lines.append(f"- {mark} {kind} *{t.title}*: {fmt(t.points)}/{fmt(t.max_points)}")
        first = next((t for t in r.tests if not t.passed and t.message), None)
        if first is not None:
            lines += ["", f"First failure ({first.title}):", "", "```", first.message, "```"]
        notes = [n for n in r.notes if n]
        if notes:
            lines += [""] + [f"Note: {n}." for n in notes]
        lines.append("")
    return "\n".join(lines)


def write_reports(rows: list[Row], out: Path) -> None:
    """grades.csv, summary.md and feedback/<student>.md in ``out`` (each written atomically)."""
    out.mkdir(parents=True, exist_ok=True)
    _atomic_write(out / "grades.csv", grades_csv(rows))
    _atomic_write(out / "summary.md", summary_markdown(rows))
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    by_student: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        by_student[r.student].append(r)
    for student, mine in by_student.items():
        name = _SAFE.sub("_", student).strip("._") or "student"
        _atomic_write(feedback / f"{name}.md", feedback_markdown(student, mine))
