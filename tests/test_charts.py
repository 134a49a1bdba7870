"""maumau.charts: every picture of the course is a Chart, shown as a PNG where matplotlib can be
imported and as Vega-Lite where it cannot (the browser edition); its spec holds its data inline,
the same JSON every time, and the numbers the picture claims."""

from __future__ import annotations

import base64
import json
import sys
from collections import Counter

import pytest

import maumau as mm
from maumau import charts
from maumau import graph as gr

MATPLOTLIB = ("matplotlib", "matplotlib.pyplot", "matplotlib.figure", "matplotlib.backends",
              "matplotlib.backends.backend_agg")


@pytest.fixture
def no_matplotlib(monkeypatch):
    """A Python without matplotlib, as Pyodide's: importing it (or any part) fails."""
    for name in MATPLOTLIB:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.fixture(autouse=True)
def shown_as_chosen():
    yield
    charts.use("auto")


@pytest.fixture(scope="module")
def tiny():
    start = gr.fixed_stock(mm.position("makao", hands=["8S QD", "3H 3S"], top="10S", stock="8D"))
    G = mm.state_graph(start)
    return G, gr.solve(G)


def datas(spec):
    """Every ``data`` of a spec, however deep."""
    if isinstance(spec, dict):
        return ([spec["data"]] if "data" in spec else []) + [d for v in spec.values() for d in datas(v)]
    if isinstance(spec, list):
        return [d for v in spec for d in datas(v)]
    return []


def layers(spec):
    """Every single view of a spec (a dict with a mark), however deep."""
    found = [spec] if "mark" in spec else []
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for part in spec.get(key, []):
            found += layers(part)
    return found


def assert_vega_lite(bundle, chart):
    assert set(bundle) == {"application/vnd.vegalite.v5+json", "text/plain"}
    spec = bundle["application/vnd.vegalite.v5+json"]
    assert spec["$schema"] == "https://vega.github.io/schema/vega-lite/v5.json"
    assert json.loads(json.dumps(spec)) == spec  # plain JSON: dicts, lists, strings, numbers
    found = datas(spec)
    assert found and all(set(d) == {"values"} and isinstance(d["values"], list) for d in found)  # inline, no URL
    assert bundle["text/plain"] == repr(chart)


# --- the Chart itself ----------------------------------------------------------------------------------

def test_with_matplotlib_a_chart_shows_as_a_png_and_leaves_no_pyplot_figure():
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    chart = mm.charts.histogram([1, 2, 2, 3], bins=3, title="three bins")
    bundle = chart._repr_mimebundle_()
    assert set(bundle) == {"image/png", "text/plain"} and bundle["text/plain"] == "<Chart: three bins>"
    assert base64.b64decode(bundle["image/png"]).startswith(b"\x89PNG\r\n\x1a\n")
    assert plt.get_fignums() == before
    assert chart.figure().axes[0].get_title() == "three bins"


def test_without_matplotlib_a_chart_shows_as_vega_lite(no_matplotlib):
    chart = mm.charts.histogram({"a": [1, 2, 2, 3], "b": [3, 3]}, bins=[0, 2, 4], title="two")
    assert not charts.has_matplotlib()
    assert_vega_lite(chart._repr_mimebundle_(), chart)
    with pytest.raises(ImportError, match="chart.figure\\(\\) needs matplotlib.*chart.spec"):
        chart.figure()
    with pytest.raises(ImportError, match="PNG charts need matplotlib"):
        charts.use("png")


def test_either_kind_can_be_asked_for():
    chart = mm.charts.histogram([1, 2, 2, 3], bins=3, title="t")
    assert set(chart.vega_lite()._repr_mimebundle_()) == {charts.VEGA_LITE, "text/plain"}
    assert chart.vega_lite().data is chart.spec
    assert chart.png().data.startswith(b"\x89PNG") and set(chart.png()._repr_mimebundle_()) == {"image/png",
                                                                                                 "text/plain"}
    charts.use("vega-lite")
    assert set(chart._repr_mimebundle_()) == {charts.VEGA_LITE, "text/plain"}
    charts.use("png")
    assert set(chart._repr_mimebundle_()) == {"image/png", "text/plain"}
    with pytest.raises(ValueError, match="'auto', 'png' or 'vega-lite'"):
        charts.use("svg")
    assert set(charts.Chart({"mark": "point"})._repr_mimebundle_()) == {charts.VEGA_LITE, "text/plain"}  # no drawing
    with pytest.raises(ValueError, match="no matplotlib drawing"):
        charts.Chart({"mark": "point"}).figure()


# --- histograms -------------------------------------------------------------------------------------

def by_hand(values, edges):
    counts = [0] * (len(edges) - 1)
    for v in values:
        for i in range(len(edges) - 1):
            last = i == len(edges) - 2
            if edges[i] <= v < edges[i + 1] or (last and v == edges[-1]):
                counts[i] += 1
    return counts


def test_histogram_counts_are_the_counts_by_hand():
    data = {"makao": [3, 5, 5, 8, 12, 40, 155, 170], "lite_macau": [0, 4, 4, 4, 7, 159]}
    edges = list(range(0, 160, 4))
    chart = mm.charts.histogram(data, bins=range(0, 160, 4), title="Hand length", x="decisions", y="hands")
    rows = chart.spec["data"]["values"]
    for name, values in data.items():
        counts = {row["start"]: row["count"] for row in rows if row["series"] == name}
        assert [counts[e] for e in edges[:-1]] == by_hand(values, edges)
        assert counts[-4] == counts[156] == 0  # a step outline starts and ends on the floor
    assert chart.spec["mark"]["type"] == "line" and chart.spec["encoding"]["x"]["title"] == "decisions"
    assert chart.spec["encoding"]["color"]["scale"]["domain"] == ["makao", "lite_macau"]


def test_histogram_of_equal_bins_counts_as_numpy_does():
    numpy = pytest.importorskip("numpy")
    values = [17, 23, 23, 40, 41, 58, 90, 91, 91, 130]
    chart = mm.charts.histogram(values, bins=7)
    rows = chart.spec["data"]["values"]
    counts, edges = numpy.histogram(values, bins=7)
    assert [row["count"] for row in rows] == counts.tolist()
    assert [row["start"] for row in rows] == pytest.approx(edges[:-1].tolist())
    assert chart.spec["mark"]["type"] == "rect" and "color" not in chart.spec["encoding"]  # one series: bars


def test_histogram_refuses_what_it_cannot_draw():
    with pytest.raises(ValueError, match="increasing"):
        mm.charts.histogram([1, 2], bins=[3, 1])
    with pytest.raises(ValueError, match="style"):
        mm.charts.histogram([1, 2], style="pie")


# --- the course's pictures ------------------------------------------------------------------------

def test_the_simulation_chart_says_what_the_simulation_found(no_matplotlib):
    result = mm.simulate("makao", players=["heuristic"] * 3, games=40, seed=2, executor="serial", progress=False)
    chart = result.plot()
    assert_vega_lite(chart._repr_mimebundle_(), chart)
    who, lengths, rules = chart.spec["hconcat"]
    wins = who["data"]["values"]
    assert [w["who"] for w in wins] == [r["player"] for r in result.by_player()] + ["Seat 0", "Seat 1", "Seat 2"]
    assert [w["wins"] for w in wins[:3]] == [r["wins"] for r in result.by_player()]
    bins = lengths["layer"][0]["data"]["values"]
    assert sum(b["hands"] for b in bins) == 40
    assert Counter(b["start"] <= n <= b["end"] for n in result.lengths for b in bins)[True] >= 40
    ids = {r.name: r.rule_id for r in mm.variant("makao").rules}  # a rule by its RULES.md id, as the explorer names it
    expected = [ids.get(name, name) for name in result.rules_fired()]  # reshuffle, blocked: in words (English here)
    assert [r["rule"] for r in rules["data"]["values"]] == expected[:12]
    again = mm.simulate("makao", players=["heuristic"] * 3, games=40, seed=2, executor="serial", progress=False)
    assert again.plot().to_json() == chart.to_json()  # the same seed, the same JSON (nbval compares it)


def test_the_state_graph_chart_has_a_mark_for_every_state_and_move(tiny, no_matplotlib):
    G, solution = tiny
    line = [state for state, _ in solution.line()]
    chart = gr.draw(G, highlight=line)
    assert_vega_lite(chart._repr_mimebundle_(), chart)
    views = layers(chart.spec)
    nodes = next(v for v in views if v["mark"]["type"] == "point" and "shape" in v["encoding"])
    assert len(nodes["data"]["values"]) == len(G)
    pos = gr.layered_layout(G)
    assert sorted((n["x"], n["y"]) for n in nodes["data"]["values"]) == sorted(
        (round(x, 6), round(y, 6)) for x, y in pos.values())
    assert {n["state"] for n in nodes["data"]["values"]} == {gr.state_label(s) for s in G}
    assert {n["who"] for n in nodes["data"]["values"]} == {"seat 0 wins", "seat 1 wins", "nobody wins"}
    lines = [v for v in views if v["mark"]["type"] == "line"]
    edges = {(v["mark"]["color"], row["edge"]) for v in lines for row in v["data"]["values"]}
    assert len(edges) == G.number_of_edges()
    assert sum(colour == "#d62728" for colour, _ in edges) == len(line) - 1  # the highlighted path, in red
    heads = next(v for v in views if v["mark"].get("shape") == "triangle-up")
    assert len(heads["data"]["values"]) == G.number_of_edges()
    labels = [v for v in views if v["mark"]["type"] == "text"][-1]  # the moves: the last texts, on top
    assert sorted(t["text"] for t in labels["data"]["values"]) == sorted(d["label"] for *_, d in G.edges(data=True))
    assert gr.draw(G, highlight=line).to_json() == chart.to_json()


def test_edge_labels_of_the_state_graph_cover_nothing(tiny):
    from maumau.graph.vega import state_graph_spec
    from maumau.graph.vega_frame import Box

    G, _ = tiny
    spec = state_graph_spec(G, gr.layered_layout(G), "to_move", "long", True, None, None)
    rects = [v for v in layers(spec) if v["mark"]["type"] == "rect"]
    boxes = [Box(r["x"], r["y"], r["x2"], r["y2"]) for v in rects for r in v["data"]["values"]]
    assert len(boxes) == len(G) + G.number_of_edges()
    overlapping = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if a.overlaps(b)]
    assert not overlapping


def test_a_graph_too_big_is_a_bar_chart(no_matplotlib):
    start = gr.fixed_stock(mm.position("makao", hands=["8S QD 5S", "3H 3S 9H"], top="10S", stock="8D 4S"))
    G = mm.state_graph(start)
    chart = gr.draw(G, limit=100)
    assert_vega_lite(chart._repr_mimebundle_(), chart)
    assert sum(row["states"] for row in chart.spec["data"]["values"]) == len(G)


def test_the_phase_machines_chart_has_a_box_for_every_phase_and_an_arrow_for_every_step(no_matplotlib):
    machines = [gr.phase_graph(name, games=30, seed=1) for name in ("makao", "lite_macau")]
    chart = gr.draw_phases(*machines)
    assert_vega_lite(chart._repr_mimebundle_(), chart)
    assert len(chart.spec["concat"]) == 2 and chart.spec["columns"] == 1  # one panel to a row: readable on a projector
    for G, panel in zip(machines, chart.spec["concat"], strict=True):
        views = layers(panel)
        boxes = next(v for v in views if v["mark"]["type"] == "rect" and v["mark"].get("cornerRadius") == 6)
        assert sorted(b["phase"] for b in boxes["data"]["values"]) == sorted(G)
        odd = {b["phase"] for b in boxes["data"]["values"] if b["outline"] == "#d62728"}
        assert odd == set(G) - set(machines[0]) & set(G) | set(G) - set(machines[1])
        arrows = next(v for v in views if v["mark"]["type"] == "line")
        assert len({row["arrow"] for row in arrows["data"]["values"]}) == sum(u != v for u, v in G.edges)
    assert gr.draw_phases(*machines).to_json() == chart.to_json()


def test_the_graph_view_shows_its_picture_without_matplotlib(tiny, no_matplotlib, monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", shown.append)
    G, solution = tiny
    view = gr.view(G, solution)
    view.select(next(iter(G.successors(G.graph["root"]))))
    assert len(shown) == 2 and all(isinstance(c, charts.Chart) for c in shown)
    assert set(shown[-1]._repr_mimebundle_()) == {charts.VEGA_LITE, "text/plain"}
    assert shown[-1].spec["title"]["text"] == "around this state (red)"


def test_in_pyodide_the_nulls_of_a_spec_survive_the_way_to_javascript(tiny, no_matplotlib, monkeypatch):
    """Pyodide's kernel drops a None in a dict on its way to JavaScript (toJs makes it undefined): the
    state graph would get axes, legends and default colours.  Its jsnull survives; the chart sends that."""
    import types

    jsnull = object()
    ffi = types.ModuleType("pyodide.ffi")
    ffi.jsnull = jsnull  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.setattr(sys, "platform", "emscripten")
    chart = gr.draw(tiny[0])
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda bundle, raw: shown.append((bundle, raw)))
    chart._ipython_display_()  # what IPython calls, in Pyodide, before any _repr_*_
    ((bundle, raw),) = shown
    sent = bundle[charts.VEGA_LITE]

    def nones(v):
        if isinstance(v, dict):
            return sum(nones(x) for x in v.values())
        if isinstance(v, list):
            return sum(nones(x) for x in v)
        return v is None

    def same_shape(a, b):  # b is a with every None as jsnull
        if isinstance(a, dict):
            return a.keys() == b.keys() and all(same_shape(a[k], b[k]) for k in a)
        if isinstance(a, list):
            return len(a) == len(b) and all(same_shape(x, y) for x, y in zip(a, b, strict=True))
        return b is jsnull if a is None else a == b

    assert raw and nones(chart.spec) > 0 and nones(sent) == 0
    assert same_shape(chart.spec, sent)
    monkeypatch.setattr(sys, "platform", "linux")
    assert chart._ipython_display_ is None  # elsewhere IPython asks _repr_mimebundle_ as usual
    assert nones(chart._repr_mimebundle_()[charts.VEGA_LITE]) > 0
