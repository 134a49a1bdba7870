"""The course text renders as Markdown: headings as headings, lists as lists.

nbval never looks at Markdown cells, so a notebook written from a percent-format script can keep
the script's ``# `` in front of every line, and JupyterLab then shows every line as a huge
heading and every bullet as a literal ``- ...``.  These tests render each cell the way
JupyterLab does (CommonMark, markdown-it-py) and look at the HTML.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
#: Every language's notebooks and exercises (English, and the translations in de/ and hu/).
NOTEBOOKS = [p for folder in ("notebooks", "exercises") for pattern in ("*.ipynb", "*/*.ipynb")
             for p in sorted((ROOT / folder).glob(pattern))]
MD = MarkdownIt("commonmark").enable("table")


def markdown_cells(path: Path) -> list[tuple[str, str]]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(c.get("id", str(i)), "".join(c["source"]))
            for i, c in enumerate(cells) if c["cell_type"] == "markdown"]


def comment_lines(source: str) -> tuple[int, int]:
    """(lines written as ``# `` comments, non-empty lines) of a Markdown cell."""
    lines = [line for line in source.splitlines() if line.strip()]
    hashed = [line for line in lines if line == "#" or line.startswith("# ")]
    return len(hashed), len(lines)


def test_the_check_catches_comment_lines() -> None:
    """The detector itself: a script's comment block is caught, a real heading is not."""
    assert comment_lines("# # Title\n#\n# - a\n# - b") == (4, 4)
    assert comment_lines("# Title\n\n- a\n- b") == (1, 3)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_markdown_cells_are_not_comment_lines(path: Path) -> None:
    for cell_id, source in markdown_cells(path):
        hashed, lines = comment_lines(source)
        # One "# Title" line is a heading; more than one line of "# " is a pasted comment block.
        assert hashed <= 1 or hashed < lines / 2, (
            f"{path.name} cell {cell_id}: {hashed} of {lines} lines start with '# ' "
            "(they render as headings): write Markdown, not comments")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_markdown_renders_headings_and_lists(path: Path) -> None:
    cells = markdown_cells(path)
    assert cells, f"{path.name} has no Markdown cells"
    headings = 0
    for cell_id, source in cells:
        html = MD.render(source)
        headings += len(re.findall(r"<h[1-6]>", html))
        # Every line that looks like a list item outside code must come out as a list.
        items = [line for line in _outside_code(source) if re.match(r"\s*([-*]|\d+\.) \S", line)]
        if items:
            assert "<li>" in html, f"{path.name} cell {cell_id}: a list that does not render as a list"
            assert html.count("<li>") >= len(items) - html.count("<pre>"), (
                f"{path.name} cell {cell_id}: {len(items)} list lines but {html.count('<li>')} items")
        # A heading written under "#" lines would show as one: never more than one <h1> per cell.
        assert html.count("<h1>") <= 1, f"{path.name} cell {cell_id}: {html.count('<h1>')} top headings"
        assert "<h1># " not in html and "<h2># " not in html, f"{path.name} cell {cell_id}: '# ' left in a heading"
    assert headings >= 1, f"{path.name}: no Markdown heading at all"
    # The first cell is the page's title.
    first = MD.render(cells[0][1])
    assert re.match(r"\s*<h1>", first), f"{path.name}: the first Markdown cell does not start with a title"


def headings(source: str) -> list[tuple[int, str]]:
    """(level, text) of every heading of a Markdown cell, as CommonMark parses it."""
    tokens = MD.parse(source)
    return [(int(tok.tag[1]), tokens[i + 1].content.strip())
            for i, tok in enumerate(tokens) if tok.type == "heading_open"]


def sentence_heading(text: str) -> bool:
    """A heading that is really a sentence: long, or ending like one (a title may end with '?')."""
    return len(text) > MAX_HEADING or text.endswith((".", ":", ","))


MAX_HEADING = 70


def test_the_check_catches_sentence_headings() -> None:
    """The detector itself: a converted comment line is caught, a real title is not."""
    assert headings("# 3 · States and moves\n\ntext\n\n## Try it") == [(1, "3 · States and moves"), (2, "Try it")]
    assert headings("```\n# not a heading\n```") == []
    assert sentence_heading("A typo is caught at once, with a message that says what is expected:")
    assert sentence_heading("The last position, all cards open:")
    assert sentence_heading("In Jupyter you can also walk through the graph: choose a state and see its table, "
                            "or click a move to follow it.")
    assert not sentence_heading("6 · Game-state graphs: who wins with perfect play?")
    assert not sentence_heading("A probability question: must Makaó's up-card be covered?")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_headings_are_titles_not_sentences(path: Path) -> None:
    """A '# ' line left over from a script renders a sentence as a huge heading: only titles are
    headings, and the page has one top heading, its title."""
    top = []
    for cell_id, source in markdown_cells(path):
        for level, text in headings(source):
            if level <= 2:
                assert not sentence_heading(text), (
                    f"{path.name} cell {cell_id}: the sentence {text!r} renders as an <h{level}> heading: "
                    "write it as a paragraph (no '#')")
            if level == 1:
                top.append((cell_id, text))
    assert len(top) == 1, f"{path.name}: {len(top)} top (H1) headings, only the title may be one: {top}"


def _outside_code(source: str) -> list[str]:
    lines, fenced = [], False
    for line in source.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced and not line.startswith("    "):
            lines.append(line)
    return lines
