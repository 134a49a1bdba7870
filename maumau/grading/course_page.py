"""The teacher's course page: learners × exercises with score, lateness and status; for each exercise
the checks most learners fail and the RULES.md ids their code gets wrong; each learner's feedback
one click away.  ``maumau grade`` writes it as ``course.html`` beside grades.csv (for teachers
without a class server); the class server shows the same page to its teacher.

Everything a learner wrote (names, messages) is escaped; the page has no script, so it opens from
a file, a server or an LMS alike.  Accessible as the table page: a captioned table with header
cells, words beside every colour, the language on the page (en, de, hu).
"""

from __future__ import annotations

import html
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from .exercise import SOLUTION, TEST, Exercise
from .gradebook import Row

if TYPE_CHECKING:
    from .similarity import Flag

__all__ = ['course_html', 'rule_ids', 'PAGE_WORDS']


#: A rule id of RULES.md: C-3, MK-4, LM-7, MR-8, JM-9.
RULE_ID = re.compile(r"\b(?:C|MK|LM|MR|JM)-\d{1,2}\b")

PAGE_WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "Course grades", "caption": "Each learner's score by exercise (after late penalties)",
           "learner": "Learner", "total": "Total", "late": "{days} d late, −{penalty}", "extended": "extended",
           "by_exercise": "By exercise", "fail": "Checks most learners fail", "of": "{n} of {m} learners",
           "rules": "Rules their code gets wrong", "none": "Every learner passes every check.",
           "feedback": "feedback", "hidden": "hidden", "n": "{n} learners", "not_handed_in": "not handed in",
           "intro": "Learners: {learners} · exercises: {exercises}. The status ok means that every cell ran.",
           "empty": "Nothing is graded yet: maumau grade --gradebook (this server's database) fills this page."},
    "de": {"title": "Noten des Kurses", "caption": "Punkte jeder Person je Aufgabe (nach Abzug für Verspätung)",
           "learner": "Person", "total": "Summe", "late": "{days} T. zu spät, −{penalty}", "extended": "verlängert",
           "by_exercise": "Je Aufgabe", "fail": "Prüfungen, an denen die meisten scheitern",
           "of": "{n} von {m} Personen", "rules": "Regeln, die ihr Code falsch umsetzt",
           "none": "Alle bestehen alle Prüfungen.", "feedback": "Rückmeldung", "hidden": "verborgen",
           "n": "{n} Personen",
           "not_handed_in": "nicht abgegeben",
           "intro": "Personen: {learners} · Aufgaben: {exercises}. Der Status ok heißt: jede Zelle lief.",
           "empty": "Noch nichts bewertet: maumau grade --gradebook (die Datenbank dieses Servers) füllt diese Seite."},
    "hu": {"title": "A kurzus jegyei", "caption": "Mindenki pontjai feladatonként (a késés levonása után)",
           "learner": "Tanuló", "total": "Összesen", "late": "{days} nap késés, −{penalty}",
           "extended": "hosszabbítva", "by_exercise": "Feladatonként",
           "fail": "Ellenőrzések, amelyeken a legtöbben elbuknak", "of": "{m} tanulóból {n}",
           "rules": "Szabályok, amelyeket a kódjuk rosszul valósít meg", "none": "Mindenki minden ellenőrzésen átment.",
           "feedback": "visszajelzés", "hidden": "rejtett", "n": "{n} tanuló", "not_handed_in": "nincs beadva",
           "intro": "Tanulók: {learners} · feladatok: {exercises}. Az ok állapot azt jelenti: minden cella lefutott.",
           "empty": "Még nincs értékelés: a maumau grade --gradebook (ennek a szervernek az adatbázisa) tölti ki."},
}

_STYLE = """body{font:16px/1.5 system-ui,sans-serif;margin:1.5rem;color:#111;background:#fff}
table{border-collapse:collapse;margin:1rem 0}caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{border:1px solid #555;padding:.3rem .6rem;text-align:right;vertical-align:top}
th[scope=row],thead th:first-child{text-align:left}.status{display:block;font-size:.85em}
.bad{color:#8a1c00}.late{color:#6b3d00}
a{color:#0645ad}a:focus{outline:3px solid #111;outline-offset:2px}li{margin:.2rem 0}"""


def rule_ids(exercise: Exercise) -> dict[str, tuple[str, ...]]:
    """The RULES.md ids each test of ``exercise`` checks: those its own source names, else those
    the exercise's solution cells cite (the rule the learner writes)."""
    cited = tuple(dict.fromkeys(i for c in exercise.cells if c.role == SOLUTION for i in RULE_ID.findall(c.source)))
    return {c.key or "": tuple(dict.fromkeys(RULE_ID.findall(c.source))) or cited
            for c in exercise.cells if c.role == TEST}


def _pct(share: float, lang: str) -> str:
    text = f"{share * 100:.0f}"
    return f"{text} %" if lang != "en" else f"{text}%"


def _num(x: float, lang: str) -> str:
    text = str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")
    return text.replace(".", ",") if lang != "en" else text


def _cell(row: Row | None, words: Mapping[str, str], lang: str) -> str:
    if row is None:
        return "<td></td>"
    if row.status == "missing":
        return f'<td><span class="status bad">{html.escape(words["not_handed_in"])}</span></td>'
    parts = [f"{_num(row.final, lang)}/{_num(row.max_score, lang)}"]
    if row.status != "ok":
        parts.append(f'<span class="status bad">{html.escape(row.status)}</span>')
    if row.late_days:
        late = words["late"].format(days=row.late_days, penalty=_pct(row.penalty, lang))
        parts.append(f'<span class="status late">{html.escape(late)}</span>')
    if row.extended:
        parts.append(f'<span class="status">{html.escape(words["extended"])}</span>')
    return "<td>" + "".join(parts) + "</td>"


def _exercise_section(name: str, rows: list[Row], ids: Mapping[str, tuple[str, ...]],
                      words: Mapping[str, str]) -> list[str]:
    graded = [r for r in rows if r.tests]
    failed: Counter[str] = Counter()
    titles: dict[str, tuple[str, bool]] = {}
    rules: Counter[str] = Counter()
    for r in graded:
        wrong_rules: set[str] = set()
        for t in r.tests:
            titles[t.key] = (t.title, t.hidden)
            if not t.passed:
                failed[t.key] += 1
                wrong_rules.update(ids.get(t.key, ()))
        rules.update(wrong_rules)
    out = [f"<h3>{html.escape(name)}</h3>"]
    if not failed:
        return out + [f"<p>{html.escape(words['none'])}</p>"]
    out.append(f"<p>{html.escape(words['fail'])}:</p><ol>")
    for key, n in failed.most_common(5):
        title, hidden = titles[key]
        mark = f" ({html.escape(words['hidden'])})" if hidden else ""
        out.append(f"<li>{html.escape(title)}{mark}: {html.escape(words['of'].format(n=n, m=len(graded)))}</li>")
    out.append("</ol>")
    if rules:
        listed = ", ".join(f"{html.escape(rule)} ({html.escape(words['n'].format(n=n))})"
                           for rule, n in rules.most_common())
        out.append(f"<p>{html.escape(words['rules'])}: {listed}</p>")
    return out


def course_html(rows: Iterable[Row], lang: str = "en", feedback: Mapping[str, str] | None = None,
                ids: Mapping[str, Mapping[str, tuple[str, ...]]] | None = None,
                similar: Sequence[Flag] | None = None, similar_at: str = "") -> str:
    """The course page; ``feedback`` maps a learner to their feedback's link (already a URL), ``ids`` gives
    by exercise and test key the rule ids it checks (``rule_ids``); ``similar``, when given, the pairs
    flagged as alike (``similarity``; ``similar_at``: when), listed with their evidence at the end."""
    words = PAGE_WORDS.get(lang, PAGE_WORDS["en"])
    rows = [r for r in rows if r.exercise and r.status not in ("unknown exercise", "duplicate")]
    exercises = sorted({r.exercise for r in rows})
    table: dict[str, dict[str, Row]] = defaultdict(dict)
    for r in rows:
        table[r.student][r.exercise] = r
    head = "".join(f'<th scope="col">{html.escape(e)}</th>' for e in exercises)
    body = []
    for student in sorted(table, key=str.lower):
        link = (feedback or {}).get(student)
        name = html.escape(student)
        if link:
            name += f' <a href="{html.escape(link)}">{html.escape(words["feedback"])}</a>'
        got = table[student]
        total = sum(r.final for r in got.values())
        most = sum(r.max_score for r in got.values())
        body.append(f'<tr><th scope="row">{name}</th>' + "".join(_cell(got.get(e), words, lang) for e in exercises)
                    + f"<td>{_num(total, lang)}/{_num(most, lang)}</td></tr>")
    sections = [line for e in exercises
                for line in _exercise_section(e, [r for r in rows if r.exercise == e], (ids or {}).get(e, {}), words)]
    intro = words["intro"].format(learners=len(table), exercises=len(exercises))
    style, alike = _STYLE, []
    if similar is not None:
        from .similarity_page import SIMILAR_STYLE, similar_section

        style, alike = _STYLE + "\n" + SIMILAR_STYLE, similar_section(similar, lang, similar_at)
    if not table:
        return "\n".join([
            "<!doctype html>", f'<html lang="{lang}"><head><meta charset="utf-8"><link rel="icon" href="data:,">',
            f"<title>{html.escape(words['title'])}</title><style>{_STYLE}</style></head><body><main>",
            f"<h1>{html.escape(words['title'])}</h1>", f"<p>{html.escape(words['empty'])}</p>",
            "</main></body></html>", ""])
    return "\n".join([
        "<!doctype html>", f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">',
        f"<title>{html.escape(words['title'])}</title><style>{style}</style></head><body><main>",
        f"<h1>{html.escape(words['title'])}</h1>", f"<p>{html.escape(intro)}</p>",
        f"<table><caption>{html.escape(words['caption'])}</caption>",
        f'<thead><tr><th scope="col">{html.escape(words["learner"])}</th>{head}'
        f'<th scope="col">{html.escape(words["total"])}</th></tr></thead>',
        "<tbody>", *body, "</tbody></table>",
        f"<h2>{html.escape(words['by_exercise'])}</h2>", *sections, *alike, "</main></body></html>", ""])
