"""What a class sees: pictures (matplotlib, rendered with Agg: a chart's ``figure()``) and the HTML of
cards and states.

Readable means: no two texts of a picture cover each other, no text is smaller than 8 points,
and nothing is cut off at the edge of the figure.  The course's own pictures (issue 24) are read
from the back of a classroom at 1280×720: every text at least 14 pixels as the notebook shows it
(a PNG of 100 dpi, scaled down when wider than the notebook's output area), in matplotlib and in
Vega-Lite (whose label boxes are measured from the spec: the place of each text and its size).
"""

from __future__ import annotations

import itertools
import re

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import maumau as mm  # noqa: E402
from maumau import graph as gr  # noqa: E402

SMALLEST = 8.0  # points
#: The width of a notebook's output area in JupyterLab at 1280×720 (file browser closed), and the
#: smallest text a class reads from the back, in pixels on that screen.
NOTEBOOK_PX, READABLE_PX = 1100, 14.0


def rendered_px(fig) -> dict[str, float]:
    """Each text's height in pixels as JupyterLab shows the PNG (``Chart.png``: 100 dpi, tight
    box, shrunk to the output area when wider)."""
    fig.canvas.draw()
    width = fig.get_tightbbox(fig.canvas.get_renderer()).width * 100
    scale = min(1.0, NOTEBOOK_PX / width)
    return {t.get_text(): t.get_fontsize() * 100 / 72 * scale for t, _ in texts(fig)}


def assert_projector_readable(fig) -> None:
    assert_readable(fig)
    small = {text: round(px, 1) for text, px in rendered_px(fig).items() if px < READABLE_PX}
    assert not small, f"texts under {READABLE_PX} px at 1280×720: {list(small.items())[:5]}"


def texts(fig) -> list[tuple[Text, object]]:
    """Every visible, non-empty text of ``fig`` with its box on the canvas (the rounded box
    around it included), after a real draw with the Agg renderer."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    found, candidates = [], list(fig.texts) + [t for t in (fig._suptitle,) if t is not None]
    for ax in fig.axes:
        candidates += [*ax.texts, ax.title, ax._left_title, ax._right_title]
        if ax.axison:  # tick labels of ticks in view (the locator may make some outside, never drawn)
            (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
            candidates += [t for t in ax.get_xticklabels() if x0 - 1e-9 <= t.get_position()[0] <= x1 + 1e-9]
            candidates += [t for t in ax.get_yticklabels() if y0 - 1e-9 <= t.get_position()[1] <= y1 + 1e-9]
            candidates += [ax.xaxis.label, ax.yaxis.label]
        if ax.get_legend() is not None:
            candidates += [*ax.get_legend().get_texts(), ax.get_legend().get_title()]
    for t in dict.fromkeys(candidates):
        if not t.get_visible() or not t.get_text().strip():
            continue
        patch = t.get_bbox_patch()
        found.append((t, patch.get_window_extent(renderer) if patch is not None else
                      Text.get_window_extent(t, renderer)))
    return found


def assert_readable(fig, edge: bool = True) -> None:
    found = texts(fig)
    assert found, "the picture has no text at all"
    small = [(t.get_text(), t.get_fontsize()) for t, _ in found if t.get_fontsize() < SMALLEST]
    assert not small, f"texts under {SMALLEST} pt: {small[:5]}"
    overlaps = [(a.get_text(), b.get_text()) for (a, box_a), (b, box_b) in itertools.combinations(found, 2)
                if box_a.overlaps(box_b)]
    assert not overlaps, f"{len(overlaps)} pairs of texts cover each other, e.g. {overlaps[:4]}"
    frame = fig.bbox
    cut = edge and [t.get_text() for t, box in found
           if box.x0 < frame.x0 - 1 or box.x1 > frame.x1 + 1 or box.y0 < frame.y0 - 1 or box.y1 > frame.y1 + 1]
    assert not cut, f"texts cut off at the edge of the figure: {cut[:5]}"


@pytest.fixture(scope="module")
def phases() -> dict:
    """The phase machines notebook 06 draws."""
    return {name: gr.phase_graph(name, games=100, seed=1) for name in mm.variant_names()}


@pytest.mark.parametrize("name", mm.variant_names())
def test_a_phase_machine_has_readable_labels(phases, name):
    from maumau.graph.placement import LABEL_FONT

    axes = gr.draw_phases(phases[name]).figure().axes
    assert len(axes) == (2 if name in ("joker_mau_mau", "mau_mau_runde") else 1)  # busy machines in two panels
    labels = [t.get_text() for ax in axes for t in ax.texts if t.get_text() and t.get_fontsize() == LABEL_FONT]
    assert labels or name == "makao", "the arrows carry the moves"
    assert_projector_readable(axes[0].figure)
    plt.close("all")


def test_phase_machines_side_by_side_are_readable(phases):
    axes = gr.draw_phases(phases["makao"], phases["lite_macau"]).figure().axes
    assert len(axes) == 2 and axes[0].figure is axes[1].figure
    assert_readable(axes[0].figure)
    axes = gr.draw_phases(*phases.values()).figure().axes
    assert len(axes) == 6  # joker_mau_mau and mau_mau_runde take two panels each
    assert_projector_readable(axes[0].figure)
    plt.close("all")


def test_phase_machines_in_axes_of_ones_own_are_readable(phases):
    """Notebook 06 used to hand draw_phases a 2×2 grid of its own: small panels, still no overlaps."""
    fig, axes = plt.subplots(2, 2, figsize=(14, 11))
    gr.draw_phases(*phases.values(), axes=axes.ravel())
    assert_readable(fig)
    plt.close("all")


def test_a_phase_keeps_its_place_and_phases_that_never_meet_share_one(phases):
    axes = gr.draw_phases(*phases.values()).figure().axes
    where = {}
    for ax in axes:
        for t in ax.texts:
            patch = t.get_bbox_patch()  # a phase's box, not an arrow's label (pale yellow)
            if patch is not None and matplotlib.colors.to_hex(patch.get_facecolor()) != "#fffbe6":
                lines = t.get_text().split("\n")
                name = " ".join(lines[:2]) if lines[0].endswith(":") else lines[0]
                where.setdefault(name, set()).add(t.get_position())
    assert all(len(places) == 1 for places in where.values())
    assert where["Ace extra play"] == where["Runde running"]
    plt.close("all")


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_pictures_of_notebook_06_are_readable_in_german_and_hungarian(phases, lang):
    start = gr.fixed_stock(mm.position("makao", hands=["8S QD", "3H 3S"], top="10S", stock="8D"))
    G = mm.state_graph(start)
    solution = gr.solve(G)
    with mm.text.i18n.use_language(lang):
        chart = gr.draw(G, highlight=[state for state, _ in solution.line()])
        fig = chart.figure()
        machines = gr.draw_phases(*phases.values())
        assert_projector_readable(machines.figure())
        assert_vega_readable(machines.spec)
    assert_readable(fig, edge=False)
    assert_vega_readable(chart.spec)
    words = " ".join(t.get_text() for t, _ in texts(fig))
    assert not re.search(r"\b(seat|states|moves|draw|blocked|wins|best play)\b", words), words
    assert ("Zustände" if lang == "de" else "állapot") in words
    plt.close("all")


def test_the_state_graph_of_notebook_06_is_readable():
    start = gr.fixed_stock(mm.position("makao", hands=["8S QD", "3H 3S"], top="10S", stock="8D"))
    G = mm.state_graph(start)
    solution = gr.solve(G)
    fig, ax = plt.subplots(figsize=(12, 7))
    gr.draw(G, ax=ax, highlight=[state for state, _ in solution.line()])
    assert sum(t.get_text() == "draw" for t in ax.texts) == sum(d["label"] == "draw" for *_, d in G.edges(data=True))
    assert_readable(fig, edge=False)  # the legend stands under the axes: a notebook's tight crop shows it
    plt.close("all")
    chart = gr.draw(G, highlight=[state for state, _ in solution.line()])  # as the notebook shows it
    fig = chart.figure()
    assert_readable(fig, edge=False)
    small = {text: round(px, 1) for text, px in rendered_px(fig).items() if px < READABLE_PX}
    assert not small, f"texts under {READABLE_PX} px at 1280×720: {list(small.items())[:5]}"
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(text.startswith("▶") for text in legend) and any(text.startswith("·") for text in legend)
    plt.close("all")


def test_the_simulation_picture_is_readable_and_tells_identical_players_apart():
    result = mm.simulate("makao", players=["heuristic"] * 3, games=30, seed=2, executor="serial", progress=False)
    fig = result.plot().figure()
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()][::-1][:3] == [
        "Heuristic() #1", "Heuristic() #2", "Heuristic() #3"]
    assert_projector_readable(fig)
    plt.close("all")
    assert_projector_readable(mm.charts.histogram({"a": result.lengths, "b": result.lengths[::2]},
                                                  bins=range(0, 160, 4), title="Hand length").figure())
    plt.close("all")


# --- the same pictures as Vega-Lite (the browser edition) ------------------------------------------

def vega_texts(spec: dict) -> list[tuple[str, float, tuple[float, float, float, float], int]]:
    """(text, font size, box in pixels, panel) of every text mark of a layered Vega-Lite spec (and of its
    panels): its place from the data through the layer's x/y scale, its size from the number of
    characters and lines, as wide as the widest font draws them (0.62 of the size a character)."""
    found = []
    for number, panel in enumerate(spec.get("concat", [spec])):
        width, height = panel["width"], panel["height"]
        layers = list(panel.get("layer", []))
        while any("layer" in layer for layer in layers):  # layers of layers
            layers = [inner for layer in layers for inner in layer.get("layer", [layer])]
        for layer in layers:
            mark = layer.get("mark", {})
            mark = mark if isinstance(mark, dict) else {"type": mark}
            if mark.get("type") != "text":
                continue
            font = mark["fontSize"]
            (x0, x1), (y0, y1) = (layer["encoding"][a]["scale"]["domain"] for a in ("x", "y"))
            for row in layer["data"]["values"]:
                x = (row["x"] - x0) / (x1 - x0) * width
                top = height - (row["y"] - y0) / (y1 - y0) * height  # baseline "top": the first line's top
                lines = str(row["text"]).split("\n")
                w, h = max(map(len, lines)) * 0.62 * font, len(lines) * 1.25 * font
                found.append((row["text"], font, (x - w / 2, top, x + w / 2, top + h), number))
    return found


def assert_vega_readable(spec: dict) -> None:
    found = vega_texts(spec)
    assert found, "the picture has no text at all"
    small = [(text, font) for text, font, *_ in found if font < READABLE_PX]
    assert not small, f"texts under {READABLE_PX} px: {small[:5]}"

    def overlap(a, b) -> bool:
        return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5
    covered = [(a[0], b[0]) for a, b in itertools.combinations(found, 2) if a[3] == b[3] and overlap(a[2], b[2])]
    assert not covered, f"{len(covered)} pairs of texts cover each other, e.g. {covered[:4]}"
    for part in [spec, *spec.get("concat", [])]:
        title = part.get("title")
        if isinstance(title, dict):
            assert title.get("fontSize", 13) >= READABLE_PX, title


def test_the_vega_lite_pictures_of_notebook_06_are_readable(phases):
    start = gr.fixed_stock(mm.position("makao", hands=["8S QD", "3H 3S"], top="10S", stock="8D"))
    G = mm.state_graph(start)
    solution = gr.solve(G)
    spec = gr.draw(G, highlight=[state for state, _ in solution.line()]).spec
    assert_vega_readable(spec)
    assert spec["title"]["subtitle"][0].startswith("▶") and spec["title"]["subtitle"][1].startswith("·")
    assert spec["config"]["legend"]["labelFontSize"] >= READABLE_PX
    machines = gr.draw_phases(*phases.values()).spec
    assert len(machines["concat"]) == 6 and machines["columns"] == 1
    assert_vega_readable(machines)


def test_the_vega_measure_finds_what_it_looks_for():
    spec = {"width": 200, "height": 100, "layer": [{"mark": {"type": "text", "fontSize": 14}, "encoding": {
        "x": {"scale": {"domain": [0, 1]}}, "y": {"scale": {"domain": [0, 1]}}},
        "data": {"values": [{"x": 0.5, "y": 0.5, "text": "draw"}, {"x": 0.52, "y": 0.5, "text": "pass"}]}}]}
    with pytest.raises(AssertionError, match="cover each other"):
        assert_vega_readable(spec)
    spec["layer"][0]["mark"]["fontSize"] = 9
    with pytest.raises(AssertionError, match="under 14"):
        assert_vega_readable(spec)


# --- cards and states as HTML ---------------------------------------------------------------------


def test_a_card_is_a_small_playing_card_of_its_own():
    from maumau.core.cards import card_html

    for text in ("10H", "QS", "JOKER"):
        card = mm.Card.parse(text)
        html = card_html(card)
        assert 'class="mm-cardface"' in html and "mm-card\"" not in html  # not the table's button class
        assert "width:2.5em" in html and "height:3.4em" in html  # portrait, in the font's size
        if not card.is_joker:
            assert f">{card.rank.value}<" in html and f">{card.suit.symbol}<" in html
            assert ("#c62828" in html) == card.is_red
    assert "opacity:0.45" in card_html(mm.Card.parse("7H"), faded=True)
    assert mm.cards("7H 8S")._repr_html_().count("mm-cardface") == 2


def test_the_table_style_sheet_reaches_only_its_own_buttons():
    import re

    from maumau.widgets.style import CSS

    for selector in re.findall(r"([^{}]*)\{", CSS):
        for part in selector.split(","):
            if "mm-card" in part:
                assert ".jupyter-widgets.mm-card" in part, part.strip()


def test_state_html_counts_in_words():
    one = mm.position("makao", hands=["7H", "8S 9S"], top="9H", stock="2C", to_move=0)
    html = one._repr_html_()
    assert "stock: 1 card " in html and "pile: 1 card<" in html and "1 card</small>" in html
    assert "2 cards</small>" in html and "1 cards" not in html
    r = mm.position("mau_mau_runde", hands=["AH AS 7C", "KD 8H", "10C"], top="AC", stock="8C 9D", to_move=0)
    runde = r.apply(next(m for m in r.legal_moves() if m.runde))
    assert "Runde of aces opened by seat 0" in runde._repr_html_() and "Runde of aces" in repr(runde)
    assert "Runde of As" not in runde._repr_html_()


CHROMIUM = "/usr/bin/chromium"


def test_cards_render_with_rank_and_suit_beside_the_card_table_in_a_browser(tmp_path):
    """The cards of a state in headless Chromium, on a page that also holds the card table's style
    sheet (as a notebook does once a table was shown): portrait cards, rank and suit inside."""
    import os

    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Debian chromium")
    from maumau.widgets.style import CSS

    state = mm.deal("makao", players=3, seed=7)
    page_html = (f"<html><meta charset='utf-8'><style>{CSS}</style>"
                 f"<body style='font-size:13px'>{state._repr_html_()}</body></html>")
    (tmp_path / "state.html").write_text(page_html, encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 800, "height": 600})
        page.goto((tmp_path / "state.html").as_uri())
        cards = page.evaluate("""() => Array.from(document.querySelectorAll('.mm-cardface')).map((c) => {
            const box = c.getBoundingClientRect();
            const [rank, pip] = Array.from(c.children).map((s) => s.getBoundingClientRect());
            return {w: box.width, h: box.height, text: c.innerText.replace(/\\s+/g, ''),
                    inside: [rank, pip].every((r) => r.width > 0 && r.left >= box.left && r.right <= box.right
                                                 && r.top >= box.top && r.bottom <= box.bottom + 0.5),
                    rank: rank.height, colour: getComputedStyle(c).color}; })""")
        page.screenshot(path=str(tmp_path / "state.png"))
        browser.close()
    assert len(cards) == 1 + 21
    for card, shown in zip([state.top, *[c for h in state.hands for c in h]], cards, strict=True):
        assert shown["text"] == card.rank.value + card.suit.symbol
        assert 30 <= shown["w"] <= 50 and 1.25 < shown["h"] / shown["w"] < 1.5, shown  # a small portrait card
        assert shown["inside"] and shown["rank"] >= 12, shown
        assert (shown["colour"] == "rgb(198, 40, 40)") == card.is_red
