"""The course page's section of similar pairs: each flagged pair with its evidence side by side.

For each pair: how close their code is, each exercise's code of the two learners next to each other
with the lines whose fingerprints they share marked (a ``mark`` and a word beside it, not colour
alone), and the rare wrong answers they share.  It says first what a flag is: a reason to look,
never a finding; nothing is penalised.  Everything the learners wrote is escaped; no script.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from .similarity import CodeEvidence, Flag

__all__ = ["SIMILAR_WORDS", "similar_section", "SIMILAR_STYLE", "similar_sentence", "MAX_SHOWN_ANSWERS"]

SIMILAR_WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "Similar work",
           "intro": "Pairs of learners whose code is close (shared fingerprints that ignore names, comments "
                    "and order, beyond what everyone has) or whose code gives the same rare wrong answers. "
                    "A flag is a reason to look, not a finding: nothing is penalised.",
           "none": "No pair of learners is flagged.",
           "pair": "{first} and {second}",
           "code": "Code: {score} of the smaller one's distinctive fingerprints shared",
           "exercise": "{exercise}: {shared} of {of} fingerprints shared",
           "marked": "marked lines (▶) hold code both have",
           "answers": "The same rare wrong answers",
           "columns": "Exercise|Check|Expected|Both answered|Others with it",
           "more": "… and {n} more",
           "said": "Pairs flagged as similar: {n} (their evidence is in course.html; nothing is penalised).",
           "when": "From the grading run of {at}."},
    "de": {"title": "Ähnliche Arbeiten",
           "intro": "Paare, deren Code sich nahe ist (gemeinsame Fingerabdrücke, die Namen, Kommentare und "
                    "Reihenfolge übergehen, über das hinaus, was alle haben) oder deren Code dieselben seltenen "
                    "falschen Antworten gibt. Eine Markierung ist ein Grund hinzusehen, kein Befund: "
                    "nichts wird abgezogen.",
           "none": "Kein Paar ist markiert.",
           "pair": "{first} und {second}",
           "code": "Code: {score} der eigenen Fingerabdrücke des kleineren gemeinsam",
           "exercise": "{exercise}: {shared} von {of} Fingerabdrücken gemeinsam",
           "marked": "markierte Zeilen (▶) enthalten Code, den beide haben",
           "answers": "Dieselben seltenen falschen Antworten",
           "columns": "Aufgabe|Prüfung|Erwartet|Beide antworteten|Andere mit ihr",
           "more": "… und {n} weitere",
           "said": "Als ähnlich markierte Paare: {n} (die Belege stehen in course.html; nichts wird abgezogen).",
           "when": "Aus dem Bewertungslauf vom {at}."},
    "hu": {"title": "Hasonló munkák",
           "intro": "Tanulópárok, akiknek a kódja közel áll egymáshoz (közös ujjlenyomatok, amelyek nem "
                    "törődnek a nevekkel, megjegyzésekkel és a sorrenddel, azon túl, ami mindenkinél megvan), "
                    "vagy akiknek a kódja ugyanazokat a ritka hibás válaszokat adja. A jelölés ok a "
                    "megnézésre, nem megállapítás: senki sem kap levonást.",
           "none": "Egyetlen tanulópár sincs megjelölve.",
           "pair": "{first} és {second}",
           "code": "Kód: a kisebbik saját ujjlenyomatainak {score} része közös",
           "exercise": "{exercise}: {of} ujjlenyomatból {shared} közös",
           "marked": "a jelölt sorok (▶) olyan kódot tartalmaznak, amely mindkettejüknél megvan",
           "answers": "Ugyanazok a ritka hibás válaszok",
           "columns": "Feladat|Ellenőrzés|Várt|Mindketten ezt adták|Mások ezzel",
           "more": "… és még {n}",
           "said": "Hasonlóként megjelölt párok: {n} (a bizonyítékok a course.html-ben; senki sem kap levonást).",
           "when": "A {at} értékelési futásból."},
}

#: The shared wrong answers of a pair the page lists (the rest is counted).
MAX_SHOWN_ANSWERS = 25

SIMILAR_STYLE = """.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}.pair figure{margin:0;min-width:0}
.pair pre{overflow-x:auto;border:1px solid #555;padding:.4rem;font-size:.85em;line-height:1.35}
.pair pre:focus{outline:3px solid #111;outline-offset:2px}
.pair mark{background:#ffe08a;color:#111}.pair figcaption{font-weight:600}
.similar{border-top:2px solid #555;margin-top:1.5rem}.similar td{text-align:left}"""


def similar_sentence(n: int, lang: str) -> str:
    """What ``maumau grade`` says of the flags: how many pairs."""
    return SIMILAR_WORDS.get(lang, SIMILAR_WORDS["en"])["said"].format(n=n)


def _pct(share: float, lang: str) -> str:
    return f"{share * 100:.0f} %" if lang != "en" else f"{share * 100:.0f}%"


def _code(text: str, lines: Sequence[int]) -> str:
    """``text`` escaped, the lines in ``lines`` (from 1) marked with ▶ and a ``mark``."""
    marked = set(lines)
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        shown = html.escape(line, quote=False) or " "
        out.append(f"<mark>▶ {shown}</mark>" if n in marked else f"  {shown}")
    return "\n".join(out)


def _evidence(c: CodeEvidence, names: tuple[str, str], words: Mapping[str, str]) -> list[str]:
    # a long line scrolls the code sideways: tabindex lets a keyboard scroll it too
    sides = "".join(f'<figure><figcaption>{html.escape(who)}</figcaption><pre tabindex="0"><code>'
                    f"{_code(text, lines)}</code></pre></figure>"
                    for who, text, lines in zip(names, c.code, c.lines, strict=True))
    if not c.shared:  # shown beside shared answers: no fingerprint in common
        return [f"<h4>{html.escape(c.exercise)}</h4>", f'<div class="pair">{sides}</div>']
    head = words["exercise"].format(exercise=c.exercise, shared=c.shared, of=c.of)
    return [f"<h4>{html.escape(head)}</h4>", f"<p>{html.escape(words['marked'])}</p>",
            f'<div class="pair">{sides}</div>']


def _answers(flag: Flag, words: Mapping[str, str]) -> list[str]:
    if not flag.answers:
        return []
    head = "".join(f'<th scope="col">{html.escape(w)}</th>' for w in words["columns"].split("|"))
    body = []
    for a in flag.answers[:MAX_SHOWN_ANSWERS]:
        check = ": ".join(str(x) for x in (a.get("scenario"), a.get("what")) if x)
        body.append(f'<tr><td>{html.escape(str(a.get("exercise", "")))}</td><td>{html.escape(check)}</td>'
                    f'<td>{html.escape(str(a.get("expected", "")))}</td><td>{html.escape(str(a.get("got", "")))}</td>'
                    f'<td>{html.escape(str(a.get("others", 0)))}</td></tr>')
    if len(flag.answers) > MAX_SHOWN_ANSWERS:
        more = words["more"].format(n=len(flag.answers) - MAX_SHOWN_ANSWERS)
        body.append(f'<tr><td colspan="5">{html.escape(more)}</td></tr>')
    return [f"<h4>{html.escape(words['answers'])}</h4>",
            f"<table><thead><tr>{head}</tr></thead><tbody>", *body, "</tbody></table>"]


def similar_section(flags: Sequence[Flag], lang: str = "en", at: str = "") -> list[str]:
    """The lines of the section (``at``: when the flags were made, if known)."""
    words = SIMILAR_WORDS.get(lang, SIMILAR_WORDS["en"])
    out = [f'<section class="similar" aria-labelledby="similar"><h2 id="similar">{html.escape(words["title"])}</h2>',
           f"<p>{html.escape(words['intro'])}</p>"]
    if at:
        out.append(f"<p>{html.escape(words['when'].format(at=at))}</p>")
    if not flags:
        return out + [f"<p>{html.escape(words['none'])}</p>", "</section>"]
    for flag in flags:
        first, second = flag.learners
        out.append(f"<h3>{html.escape(words['pair'].format(first=first, second=second))}</h3>")
        if flag.score:
            out.append(f"<p>{html.escape(words['code'].format(score=_pct(flag.score, lang)))}</p>")
        for c in flag.code:
            out += _evidence(c, flag.learners, words)
        out += _answers(flag, words)
    return out + ["</section>"]
