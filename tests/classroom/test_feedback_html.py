"""A learner's released feedback as a page (issue 38 item 2): HTML built from the gradebook's row, not
Markdown source in a <pre>; every text a learner or the grader wrote escaped; the words in en/de/hu.
And the notebook's ``classroom.feedback(...)`` object, whose Markdown Jupyter renders: read by a
CommonMark renderer, its fences are code blocks and its tests a list."""

from __future__ import annotations

import pytest

bs4 = pytest.importorskip("bs4")

from maumau.classroom.feedback_client import Feedback  # noqa: E402
from maumau.classroom.feedback_html import feedback_html, page_html  # noqa: E402
from maumau.grading.gradebook import Row  # noqa: E402
from maumau.grading.gradebook import TestResult as Result  # noqa: E402
from maumau.grading.report import feedback_markdown  # noqa: E402

HOSTILE = "<img src=x onerror=alert(1)> **bold** ```\n# heading"


def _row(title: str = "matching suit or rank", explanation: str = "two tens: a 10H on a 10S is legal: expected True",
         message: str = "") -> Row:
    return Row("anna", "01_matching", 4, 6, submitted="2026-12-10T21:58:00+00:00", tests=[
        Result("v", title, 2, 2, True, False),
        Result("w", "the jack on anything", 2, 2, True, False, message),
        Result("h", "a ten on a ten", 0, 2, False, True, "", explanation)])


def _soup(text: str) -> bs4.BeautifulSoup:
    return bs4.BeautifulSoup(text, "html.parser")


def test_what_a_learner_or_the_grader_wrote_is_text_never_markup():
    row = _row(title=HOSTILE, explanation=HOSTILE, message=HOSTILE)
    row.notes = [HOSTILE]
    row.status, row.message = "error", HOSTILE
    soup = _soup(page_html(HOSTILE, "en", feedback_html(row, "en")))
    assert soup.find("img") is None and soup.find("script") is None
    assert soup.h1.get_text() == HOSTILE and soup.em.get_text() == HOSTILE  # shown as written
    assert soup.find("div", role="note").pre.get_text() == HOSTILE  # the explanation keeps its lines
    control = _soup(feedback_html(_row(title="a\x1b[2Jb"), "en"))
    assert "\x1b" not in str(control) and "a\\x1b[2Jb" in control.get_text()


@pytest.mark.parametrize(("lang", "points", "passed", "failed", "why", "late"), [
    ("en", "4 of 6 points", "passed", "failed", "Why the hidden test a ten on a ten failed:", "on time"),
    ("de", "4 von 6 Punkten", "bestanden", "nicht bestanden", "Warum der verdeckte Test a ten on a ten nicht",
     "rechtzeitig"),
    ("hu", "4 pont a 6 pontból", "sikerült", "nem sikerült", "Miért nem sikerült a(z) a ten on a ten rejtett",
     "időben")])
def test_the_feedback_is_a_page_built_from_the_row(lang, points, passed, failed, why, late):
    soup = _soup(feedback_html(_row(), lang))
    text = soup.get_text()
    assert "```" not in text and "# " not in text and "*" not in text and "- ✓" not in text
    assert soup.p.strong.get_text() == points
    assert late in soup.find_all("p")[1].get_text()
    items = soup.ul.find_all("li")
    assert len(items) == 3 and soup.h3 is not None
    assert items[0].get_text().startswith(f"✓ {passed}: ") and items[0].em.get_text() == "matching suit or rank"
    assert items[2].get_text().startswith(f"✗ {failed}: ") and "0" in items[2].get_text()
    assert items[0].find("span", attrs={"aria-hidden": "true"}).get_text() == "✓"  # the word is what is read
    block = soup.find("div", role="note")
    assert block.p.get_text().startswith(why) and block.pre.get_text().endswith("expected True")


def test_without_explain_no_explanation_and_a_failure_message_in_a_block():
    row = _row()
    row.tests[1] = Result("w", "the jack on anything", 0, 2, False, False, "your value: False")
    soup = _soup(feedback_html(row, "en", explain=False))
    assert soup.find("div", role="note") is None and "expected True" not in soup.get_text()
    assert soup.pre.get_text() == "your value: False"
    assert "First failure (the jack on anything):" in soup.get_text()


def test_the_notebooks_markdown_renders_as_a_page_in_a_commonmark_renderer():
    markdown_it = pytest.importorskip("markdown_it")
    row = _row(message="```not a fence``` and `code`")
    row.tests[1] = Result("w", "the jack on *anything*", 0, 2, False, False, "```\n# not a heading")
    text = feedback_markdown("anna", [row], "en", explain=True, titles={"01_matching": "01 Matching (C-3)"})
    shown = Feedback("01_matching", True, "Your feedback on 01 *Matching* (C-3), released on 2026-12-11.", text)
    soup = _soup(markdown_it.MarkdownIt("commonmark").render(shown._repr_markdown_()))
    assert soup.em.get_text() == "Your feedback on 01 *Matching* (C-3), released on 2026-12-11."
    headings = [h.get_text() for h in soup.find_all(["h1", "h2"])]
    assert headings == ["Feedback for anna", "01 Matching (C-3): 4 of 6 points"]
    assert len(soup.find_all("li")) == 3 and soup.find("li").em.get_text() == "matching suit or rank"
    blocks = [pre.get_text() for pre in soup.find_all("pre")]
    assert blocks == ["``` # not a heading\n", "two tens: a 10H on a 10S is legal: expected True\n"]
    assert "```" not in soup.get_text().replace(blocks[0], "")  # no fence is left over as text
