"""Notebook 06's pictures measured where they are drawn (issue 24, item 2): the Vega-Lite pictures
in headless Chromium (vega-embed draws the spec, the boxes of its texts and the lines of its arrows
are read back from the scenegraph: tests/browser/vega_boxes.py), the matplotlib pictures with the
Agg renderer (each text's window extent, each arrow's path as drawn).

Readable from the back of a class at 1280×720: every text at least 14 px, no text over another,
no text of the picture with an arrow running across it (other than the arrow a label names, and
its tie line) -- in every language, in both renderers.  A move that no bend keeps off the texts
goes round the columns (maumau/graph/routes.py); the two measures are shown to see a crossing
put in on purpose (the last test of each half).
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

from matplotlib.patches import FancyArrowPatch  # noqa: E402
from matplotlib.text import Annotation  # noqa: E402

import maumau as mm  # noqa: E402
from maumau import graph as gr  # noqa: E402
from maumau.text.i18n import use_language  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent / "browser"))
import vega_boxes  # noqa: E402
from test_pictures import READABLE_PX, rendered_px, texts  # noqa: E402

LANGUAGES = ("en", "de", "hu")



def notebook_06_pictures(lang: str) -> dict[str, mm.charts.Chart]:
    """The state graph (solved, its best line highlighted) and the phase machines of notebook 06."""
    start = gr.fixed_stock(mm.position("makao", hands=["8S QD", "3H 3S"], top="10S", stock="8D"))
    G = mm.state_graph(start)
    solution = gr.solve(G)
    with use_language(lang):
        phases = [gr.phase_graph(name, games=100, seed=1) for name in mm.variant_names()]
        return {"state graph": gr.draw(G, highlight=[state for state, _ in solution.line()]),
                "phase machines": gr.draw_phases(*phases)}


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict[tuple[str, str], dict]:
    why = vega_boxes.available()
    if why:
        pytest.skip(why)
    specs = {(lang, name): chart.spec for lang in LANGUAGES for name, chart in notebook_06_pictures(lang).items()}
    found = vega_boxes.measure(list(specs.values()), tmp_path_factory.mktemp("vega"))
    return dict(zip(specs, found, strict=True))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["state graph", "phase machines"])
def test_the_vega_lite_pictures_are_readable_in_a_browser(measured, lang, name):
    found = measured[lang, name]
    assert len(found["texts"]) == found["svg_texts"] > 20  # every text measured was drawn
    assert found["lines"], "the arrows were drawn"
    problems = vega_boxes.problems(found, READABLE_PX)
    assert not problems["small"], f"texts under {READABLE_PX} px: {problems['small'][:5]}"
    assert not problems["covered"], f"texts over texts: {problems['covered'][:5]}"
    labels = [t for t in found["texts"] if vega_boxes.owner(t["datum"]) is not None]
    assert labels, "the arrows' labels name their arrow"
    assert not problems["over_edge"], f"texts an arrow runs across: {problems['over_edge']}"


def test_the_browser_measure_finds_overlaps_and_arrows_across_texts(tmp_path):
    """The measure itself: two texts on one spot, a small one, and a line through a text."""
    why = vega_boxes.available()
    if why:
        pytest.skip(why)
    spec = {"width": 300, "height": 200, "layer": [
        {"data": {"values": [{"x": 0, "y": 1, "edge": 0}, {"x": 10, "y": 1, "edge": 0}]}, "mark": "line",
         "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                      "detail": {"field": "edge"}}},
        {"data": {"values": [{"x": 5, "y": 1, "text": "draw"}, {"x": 5.1, "y": 1, "text": "pass"},
                             {"x": 8, "y": 5, "text": "tiny", "edge": 0}]},
         "mark": {"type": "text", "fontSize": 16},
         "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                      "text": {"field": "text"}, "size": {"condition": {"test": "datum.text == 'tiny'",
                                                                        "value": 9}, "value": 16}}}]}
    found = vega_boxes.measure([spec], tmp_path, screenshots=False)[0]
    problems = vega_boxes.problems(found)
    assert ("draw", "pass") in problems["covered"]
    assert ("tiny", 9) in problems["small"]
    assert {text for text, _ in problems["over_edge"]} == {"draw", "pass"}  # "tiny" is off the line


# --- the same in matplotlib ------------------------------------------------------------------------

def drawn_arrows(fig) -> list[tuple[str | None, list[tuple[float, float]]]]:
    """Every arrow of ``fig`` as drawn (pixels), shaft and head, with its gid (which arrow)."""
    fig.canvas.draw()
    found = []
    for ax in fig.axes:
        arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
        arrows += [t.arrow_patch for t in ax.texts if isinstance(t, Annotation) and t.arrow_patch is not None]
        for arrow in arrows:
            path = arrow.get_transform().transform_path(arrow.get_path())
            found += [(arrow.get_gid(), [tuple(xy) for xy in polygon]) for polygon in path.to_polygons(
                closed_only=False)]
    return found


def clipped_arrows(fig) -> list[str | None]:
    """Arrows partly outside the axes that clip them (drawn cut off, though measured whole)."""
    fig.canvas.draw()
    found = []
    for ax in fig.axes:
        arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
        arrows += [t.arrow_patch for t in ax.texts if isinstance(t, Annotation) and t.arrow_patch is not None]
        box = ax.bbox.padded(1)
        found += [a.get_gid() for a in arrows if a.get_clip_on() and a.get_clip_box() is not None and not all(
            box.contains(x, y) for x, y in a.get_transform().transform_path(a.get_path()).vertices)]
    return found


def arrows_across_texts(fig) -> list[tuple[str, str | None]]:
    boxes = [(t, (b.x0, b.y0, b.x1, b.y1)) for t, b in texts(fig)]
    arrows = drawn_arrows(fig)
    return [(t.get_text(), gid) for t, box in boxes for gid, line in arrows
            if (t.get_gid() is None or t.get_gid() != gid) and vega_boxes.crosses(box, [list(p) for p in line])]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_matplotlib_pictures_keep_texts_off_arrows(lang):
    import itertools

    for name, chart in notebook_06_pictures(lang).items():
        with use_language(lang):
            fig = chart.figure()
        found = texts(fig)
        covered = [(a.get_text(), b.get_text()) for (a, box_a), (b, box_b) in itertools.combinations(found, 2)
                   if box_a.overlaps(box_b)]
        assert not covered, f"{name}: texts over texts {covered[:4]}"
        small = {text: round(px, 1) for text, px in rendered_px(fig).items() if px < READABLE_PX}
        assert not small, f"{name}: texts under {READABLE_PX} px at 1280×720: {list(small.items())[:5]}"
        crossed = arrows_across_texts(fig)
        assert drawn_arrows(fig) and any(t.get_gid() for t, _ in found), "arrows and their labels carry gids"
        assert not crossed, f"{name}: texts an arrow runs across: {crossed}"
        assert not clipped_arrows(fig), f"{name}: arrows cut off by their axes (the measure saw them whole)"


def test_the_matplotlib_measure_sees_an_arrow_across_a_text():
    from maumau.charts import new_figure

    fig = new_figure((4, 3))
    ax = fig.subplots()
    ax.text(0.5, 0.5, "draw", fontsize=14, ha="center", va="center")
    ax.annotate("", xy=(0.9, 0.5), xytext=(0.1, 0.5), arrowprops={"arrowstyle": "-|>"}).arrow_patch.set_gid("a")
    ax.text(0.5, 0.9, "pass", fontsize=14, ha="center", gid="a")
    assert arrows_across_texts(fig) == [("draw", "a")]


# --- numbers as the language writes them (issue 24, item 4) ---------------------------------------------

#: What Vega writes for 0.423 as ".1%" and for 1234.5 as ",.1f", per language.
WRITTEN = {"en": ("42.3%", "1,234.5"), "de": ("42,3\u00a0%", "1.234,5"), "hu": ("42,3\u00a0%", "1\u00a0234,5")}


def numbers_chart(lang: str) -> mm.charts.Chart:
    with use_language(lang):
        return mm.charts.Chart({"data": {"values": [{"share": 0.423, "n": 1234.5}]}, "mark": "point", "encoding": {
            "x": {"field": "share", "type": "quantitative", "axis": {"format": ".1%", "values": [0.423]}},
            "y": {"field": "n", "type": "quantitative", "axis": {"format": ",.1f", "values": [1234.5]}}}})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_chart_carries_its_languages_number_format(lang):
    point, thousands = {"en": (".", ","), "de": (",", "."), "hu": (",", "\u00a0")}[lang]
    number = numbers_chart(lang).spec["config"]["locale"]["number"]
    assert (number["decimal"], number["thousands"], number["grouping"]) == (point, thousands, [3])
    with use_language(lang):  # the charts maumau makes carry it too
        assert mm.charts.histogram([1, 2, 2, 3]).spec["config"]["locale"]["number"] == number


def test_the_browser_writes_numbers_in_the_charts_language(tmp_path):
    why = vega_boxes.available()
    if why:
        pytest.skip(why)
    found = vega_boxes.measure([numbers_chart(lang).spec for lang in LANGUAGES], tmp_path, screenshots=False)
    for lang, drawn in zip(LANGUAGES, found, strict=True):
        written = {t["text"] for t in drawn["texts"]}
        assert set(WRITTEN[lang]) <= written, (lang, written)
