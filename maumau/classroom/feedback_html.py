"""A learner's feedback on one exercise as a part of a page, built from the gradebook's row.

The pages that show feedback (the learner's ``/my-feedback``, the LTI exercise page, the teacher's
``/course/feedback``) show it as a page, not as the Markdown a notebook renders: the points, the
lateness sentence, the status when the row is not ok, a list of the tests (each with its sign ✓ or ✗,
the word passed or failed beside it, so that a screen reader and a black-and-white printout say it
too, and its points), the first failure's message, each failed hidden test's explanation as a block
of its own, and the grader's notes.  The words are the report's (``grading.report``) and the feedback
catalogue's (``text.locale.feedback``), in English, German or Hungarian.

Everything a learner or the grader wrote (titles, messages, explanations, notes) is escaped; the
catalogue's sentences are escaped too, and a value put into one is escaped before it is.
"""

from __future__ import annotations

import html
import re

from ..grading.gradebook import Row, TestResult
from ..grading.report import REPORT_WORDS, lateness_sentence, message_words, points, say, status_word
from ..grading.submissions import FOLDER, printable
from ..text.locale.feedback import FEEDBACK, said

__all__ = ["feedback_html", "page_html"]

#: Control characters, shown as ``\\xNN`` (line breaks and tabs stay: a message keeps its lines).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_PASSED, _FAILED = "color:#0b6b2f", "color:#a3161a"  # both at least 4.5:1 on white; the words say it too
_BLOCK = "border-left:4px solid #555;background:#f3f3f3;padding:.25rem .75rem;margin:.5rem 0"
_CODE = "white-space:pre-wrap;font:15px/1.4 ui-monospace,monospace;margin:.25rem 0"


def feedback_html(row: Row, lang: str, explain: bool = True, level: int = 3) -> str:
    """``row``'s feedback in ``lang`` as HTML (``level``: the level of its own headings; ``explain``:
    the failed hidden tests' explanations too, once released and always for the teacher)."""
    if row.exercise == FOLDER:  # the learner's folder as a whole (the teacher's view)
        status = _escaped(status_word(row.status, lang))
        return f"<p>{_sentence(REPORT_WORDS, 'your_folder', lang, status=status)}</p>{_message(row.message, lang)}"
    parts = [f"<p><strong>{_score(row.score, row.max_score, lang)}</strong></p>"]
    if late := lateness_sentence(row, lang):
        parts.append(f"<p>{_escaped(late)}</p>")
    if row.status != "ok":
        status = f"<strong>{_escaped(status_word(row.status, lang))}</strong>"
        parts.append(f"<p>{_sentence(FEEDBACK, 'status_line', lang, status=status)} "
                     f"{_escaped(message_words(row.message, lang))}</p>")
    if row.tests:
        parts.append(f"<h{level}>{_escaped(said('tests', lang))}</h{level}>")
        parts.append('<ul style="list-style:none;padding-left:0">' + "".join(_test(t, lang) for t in row.tests)
                     + "</ul>")
    first = next((t for t in row.tests if not t.passed and t.message), None)
    if first is not None:
        title = f"<em>{_escaped(first.title)}</em>"
        parts.append(f"<p>{_sentence(REPORT_WORDS, 'first_failure', lang, title=title)}</p>"
                     f'<pre style="{_CODE}">{_escaped(message_words(first.message, lang))}</pre>')
    if explain:
        parts += [_explanation(t, lang) for t in row.tests if not t.passed and t.explanation and not t.message]
    parts += [f"<p>{_escaped(say('note', lang, note=message_words(n, lang)))}</p>" for n in row.notes if n]
    return "".join(parts)


def page_html(title: str, lang: str, body: str) -> str:
    """A whole page of feedback: ``title`` (text) as its heading, ``body`` (HTML) below, no script."""
    title = _escaped(title)
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
            f"<title>{title}</title><style>body{{font:16px/1.5 system-ui,sans-serif;margin:1.5rem;color:#111;"
            f"background:#fff;max-width:60rem}}</style></head><body><main><h1>{title}</h1>"
            f"{body}</main></body></html>")


def _test(test: TestResult, lang: str) -> str:
    """One test as a list item: its sign and word, its kind and title, its points."""
    sign, word, color = ("✓", "passed", _PASSED) if test.passed else ("✗", "failed", _FAILED)
    kind = say("hidden_test" if test.hidden else "test", lang)
    return (f'<li style="margin:.2rem 0"><span aria-hidden="true" style="{color};font-weight:bold">{sign}</span> '
            f'<strong style="{color}">{_escaped(said(word, lang))}</strong>: {_escaped(kind)} '
            f"<em>{_escaped(test.title)}</em> · {_score(test.points, test.max_points, lang)}</li>")


def _explanation(test: TestResult, lang: str) -> str:
    """A failed test's own explanation (the reference's words) as a block of its own."""
    title = f"<em>{_escaped(test.title)}</em>"
    heading = _sentence(FEEDBACK, "explained" if test.hidden else "explained_test", lang, title=title)
    return (f'<div role="note" style="{_BLOCK}"><p style="margin:.25rem 0">{heading}</p>'
            f'<pre style="{_CODE}">{_escaped(test.explanation)}</pre></div>')


def _message(message: str, lang: str) -> str:
    return f"<p>{_escaped(message_words(message, lang))}</p>" if message else ""


def _score(score: float, most: float, lang: str) -> str:
    return _escaped(said("score", lang, score=points(score, lang), max=points(most, lang)))


def _sentence(catalogue: dict[str, dict[str, str]], key: str, lang: str, **values: str) -> str:
    """A catalogue's sentence, escaped, with ``values`` that are HTML already (escaped by the caller)."""
    words = catalogue.get(lang, catalogue["en"])
    return html.escape(words.get(key, catalogue["en"][key])).format(**values)


def _escaped(text: str) -> str:
    """Text as written, never markup, its control characters visible."""
    return html.escape(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", printable(text)))
