"""State graphs as Vega-Lite (the picture of ``draw(G)`` where matplotlib is missing, as in the browser):
nodes where ``layered_layout`` puts them, coloured and shaped as the matplotlib picture, with
their text and a tooltip describing the state; moves as arrows with their labels where they
cover nothing.  A graph over the limit becomes the same bar or line chart as in matplotlib.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..charts import PALETTE, PX_PER_INCH, number
from ..text.graph_words import graph_sentence, graph_words
from .explore import state_label
from .layout import BACK_BENDS, crossings, curve, least_crossing
from .routes import side_route
from .style import MARKS, SEAT_COLOURS, TEXT_PX, TITLE_PX, graph_title, node_fill, node_text, seat_colour
from .turn_phase import BLOCKED, NORMAL, OVER
from .vega_frame import Box, Frame, arrow, boxes_layer, data_row, on_screen, place, text_box, text_layer

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

__all__ = ["state_graph_spec", "summary_spec", "path_summary_spec"]

Position = dict[Hashable, tuple[float, float]]
FONT, LABEL_FONT = TEXT_PX, TEXT_PX
#: Bends tried for a move that is not one layer down (the first that crosses least).
CURVED = (0.25, -0.25, 0.4, -0.4, 0.15, -0.15, 0.6, -0.6, 0.8, -0.8)  # readable at 1280×720 (style.TEXT_PX)
#: How edges look, drawn in this order (the marked ones on top): colour, width, head size.
EDGE_LOOKS = {"plain": ("#b0b0b0", 1.0, 40), "best": ("#444444", 1.8, 55), "path": ("#d62728", 3.0, 110)}
SHAPES = {"decision": "circle", "hand over": "square", "after a reshuffle": "diamond"}


def state_graph_spec(G: nx.DiGraph, pos: Position, color: str, labels: str, edge_labels: bool,
                     highlight: Sequence[Hashable] | None, title: str | None) -> dict[str, Any]:
    """The Vega-Lite spec of ``draw(G, ...)`` (its arguments already checked and worked out)."""
    texts = {n: _node_text(G, n, labels == "long") for n in G} if labels in ("long", "short") else {}
    frame = _frame(pos, labels, texts.values())
    size = 260 if labels == "none" else 420  # a marker's area, as in matplotlib
    radius = math.sqrt(size / math.pi)
    centres = {n: frame.px(pos[n]) for n in G}
    taken = [Box(x - radius, y - radius, x + radius, y + radius) for x, y in centres.values()]
    boxes = {n: text_box((x, y - radius - 4 - _height(texts[n]) / 2), texts[n], FONT)
             for n, (x, y) in centres.items()} if texts else {}
    # arrows leave a state below the text under it, so that they never run across a state's text
    starts = {n: frame.data(((b.x0 + b.x1) / 2, b.y0 - 1)) for n, b in boxes.items()}
    areas = [(frame.data((b.x0, b.y0)), frame.data((b.x1, b.y1))) for b in taken + list(boxes.values())]
    margin = frame.data((8.0, 8.0))
    margin = (margin[0] - frame.xs[0], margin[1] - frame.ys[0])
    paths = {(u, v): _path(G, pos, starts, u, v, areas, margin) for u, v in G.edges}
    layers, lines = _edge_layers(G, pos, frame, centres, radius, highlight, starts, paths)
    if texts:
        taken += boxes.values()
        layers += _texts(frame, [(boxes[n], texts[n]) for n in G], FONT, "white", "white", 0.85)
    layers.append(_node_layer(G, pos, frame, color, highlight, size))
    if edge_labels:
        placed, owners = [], []
        for k, (u, v) in enumerate(G.edges):
            # from the target's end, as matplotlib does: labels of the moves out of one state spread out
            along = on_screen(frame, paths[u, v], lambda t: min(1.0, 1.15 - t))
            label = graph_words(str(G.edges[u, v].get("label", "")))
            others = [line for j, line in enumerate(lines) if j != k]
            placed.append((place(label, LABEL_FONT, along, taken, frame, others), label))
            owners.append({"edge": k})
        layers += _texts(frame, placed, LABEL_FONT, "#fffbe6", "#d9cfa6", 0.95, owners)
    heading = {"text": title if title is not None else graph_title(G), "fontSize": TITLE_PX, "anchor": "start",
               "subtitle": [graph_words(m) for m in MARKS] if texts and labels == "long" else [],
               "subtitleFontSize": TEXT_PX}
    return {"title": heading, "width": number(frame.width), "height": number(frame.height), "layer": layers,
            "config": {"view": {"stroke": None}, "legend": {"labelFontSize": TEXT_PX, "titleFontSize": TEXT_PX,
                                                            "orient": "bottom", "direction": "vertical"}}}


def _frame(pos: Position, labels: str, texts: Iterable[str]) -> Frame:
    """Room for the nodes and the texts under them: as many pixels per unit as the matplotlib
    picture has inches, or more, so that the texts of neighbours do not touch."""
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    widest = max((text_box((0, 0), text, FONT).x1 * 2 for text in texts), default=0.0)
    across = max({"long": 0.95, "short": 0.75}.get(labels, 0.45) * PX_PER_INCH, widest + 6)
    down = max((1.35 if labels == "long" else 0.9) * PX_PER_INCH,
               max((_height(text) for text in texts), default=0.0) + 40)
    below = {"long": 0.75, "short": 0.45}.get(labels, 0.3)
    x_range = (min(xs) - 0.6, max(xs) + 0.6)
    y_range = (min(ys) - below, max(ys) + 0.35)
    # within the sizes the matplotlib picture keeps to (6 to 40 inches across, 3 to 30 down)
    width = min(max((x_range[1] - x_range[0]) * across, 6 * PX_PER_INCH), 40 * PX_PER_INCH)
    height = min(max((y_range[1] - y_range[0]) * down, 3 * PX_PER_INCH), 30 * PX_PER_INCH)
    return Frame(x_range, y_range, width, height)


def _height(text: str) -> float:
    box = text_box((0, 0), text, FONT)
    return box.y1 - box.y0


def _node_text(G: nx.DiGraph, node: Hashable, long: bool) -> str:
    return node_text(G.nodes[node].get("state", node), G.nodes[node], long)


def _path(G: nx.DiGraph, pos: Position, starts: Position, u: Hashable, v: Hashable,
          areas: list[tuple[tuple[float, float], tuple[float, float]]], margin: tuple[float, float],
          ) -> Callable[[float], tuple[float, float]]:
    """A move one layer down straight, any other bent the way that crosses the fewest states and
    texts; one that every bend brings across some goes round the columns (``routes.side_route``)."""
    a, b = starts.get(u, pos[u]), pos[v]
    if G.nodes[v]["depth"] == G.nodes[u]["depth"] + 1:
        return curve(a, b, 0.0)
    others = [r for r in areas if not _within(a, r) and not _within(b, r)]
    rad = least_crossing([(a, b)], BACK_BENDS, others)
    if crossings([(a, b)], rad, others):
        return side_route(a, b, areas, margin) or curve(a, b, rad)
    return curve(a, b, rad)


def _within(p: tuple[float, float], area: tuple[tuple[float, float], tuple[float, float]]) -> bool:
    (x0, y0), (x1, y1) = area
    return x0 - 1e-9 <= p[0] <= x1 + 1e-9 and y0 - 1e-9 <= p[1] <= y1 + 1e-9


def _edge_layers(G: nx.DiGraph, pos: Position, frame: Frame, centres: dict[Hashable, tuple[float, float]],
                 radius: float, highlight: Sequence[Hashable] | None,
                 starts: Position, paths: dict[tuple[Hashable, Hashable], Callable[[float], tuple[float, float]]]
                 ) -> tuple[list[dict[str, Any]], list[list[tuple[float, float]]]]:
    """One line layer per look (plain, best play, the highlighted path) and the arrows' heads; and
    each edge's line in pixels.  An arrow leaves from ``starts`` (under a state's text) where given,
    else from the edge of its state's marker."""
    on_path = set(zip(highlight, highlight[1:], strict=False)) if highlight else set()
    lines: dict[str, list[dict[str, Any]]] = {look: [] for look in EDGE_LOOKS}
    heads, drawn = [], []
    for number_, (u, v, d) in enumerate(G.edges(data=True)):
        look = "path" if (u, v) in on_path else "best" if d.get("best") else "plain"
        points, head, angle = arrow(frame, paths[u, v],
                                    (lambda p: False) if u in starts else _near(centres[u], radius),
                                    _near(centres[v], radius + 1))
        drawn.append(points)
        info = {"edge": number_, "move": graph_words(str(d.get("label", ""))), "explain": str(d.get("explain", ""))}
        lines[look] += [{**info, "step": k, **data_row(frame, p)} for k, p in enumerate(points)]
        heads.append({**data_row(frame, head), "angle": number(angle), "ink": EDGE_LOOKS[look][0],
                      "size": EDGE_LOOKS[look][2]})
    layers = []
    for look, rows in lines.items():
        ink, width, _ = EDGE_LOOKS[look]
        if rows:
            layers.append({"data": {"values": rows}, "mark": {"type": "line", "color": ink, "strokeWidth": width},
                           "encoding": {**frame.encoding(), "detail": {"field": "edge", "type": "nominal"},
                                        "order": {"field": "step", "type": "quantitative"},
                                        "tooltip": [{"field": "move"}, {"field": "explain"}]}})
    layers.append({"data": {"values": heads}, "mark": {"type": "point", "shape": "triangle-up", "filled": True,
                                                       "opacity": 1},
                   "encoding": {**frame.encoding(), "angle": {"field": "angle", "type": "quantitative", "scale": None},
                                "color": {"field": "ink", "type": "nominal", "scale": None, "legend": None},
                                "size": {"field": "size", "type": "quantitative", "scale": None, "legend": None}}})
    return layers, drawn


def _near(centre: tuple[float, float], radius: float) -> Callable[[tuple[float, float]], bool]:
    return lambda p: math.dist(p, centre) < radius


def _texts(frame: Frame, placed: list[tuple[Box, str]], font: float, fill: str, stroke: str,
           opacity: float, owners: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Texts on boxes of their own."""
    return [boxes_layer(frame, [b for b, _ in placed], fill, stroke, opacity),
            text_layer(frame, placed, font, owners)]


def _node_layer(G: nx.DiGraph, pos: Position, frame: Frame, color: str, highlight: Sequence[Hashable] | None,
                size: int) -> dict[str, Any]:
    """The states: colour as in matplotlib (with its legend), circles for decisions, squares for
    ends, diamonds after a reshuffle; the highlighted ones outlined red, unexplored ones grey."""
    rows, colours, order_of = [], {}, {}
    marked = set(highlight or ())
    for n, d in G.nodes(data=True):
        english = d["value"] if color == "value" else _who(d)
        who = graph_words(english)  # the legend's values in the course's language
        colours[who], order_of[who] = node_fill(d, color), _legend_order(english)
        kind = "after a reshuffle" if d.get("chance") else "hand over" if d["terminal"] else "decision"
        outline = "#d62728" if n in marked else "#888888" if not d.get("expanded", True) else "#333333"
        state = d.get("state", n)
        text = state_label(state) if hasattr(state, "hands") else str(d.get("label", n))
        rows.append({"x": number(pos[n][0]), "y": number(pos[n][1]), "who": who, "kind": graph_words(kind),
                     "outline": outline, "state": graph_words(text), "depth": d.get("depth"),
                     "phase": graph_words(d.get("phase", "").replace("_", " ")),
                     "value": graph_words(d.get("value", "")),
                     "explored": graph_words("yes" if d.get("expanded", True) else "no (a bound)")})
    order = sorted(colours, key=order_of.__getitem__)
    kinds = [kind for kind in SHAPES if any(row["kind"] == graph_words(kind) for row in rows)]  # only what occurs
    title = graph_words("with best play" if color == "value" else "seat to move (or the winner)")
    tooltip = [{"field": f, "title": graph_words(f)} for f in ("state", "depth", "phase")]
    tooltip += [{"field": "who", "title": title}, {"field": "explored", "title": graph_words("explored")}]
    tooltip += [{"field": "value", "title": graph_words("with best play")}] if color == "value" else []
    return {"data": {"values": rows}, "mark": {"type": "point", "filled": True, "opacity": 1, "strokeWidth": 1.4},
            "encoding": {**frame.encoding(), "size": {"value": size},
                         "fill": {"field": "who", "type": "nominal", "title": title,
                                   "scale": {"domain": order, "range": [colours[w] for w in order]}},
                         "shape": {"field": "kind", "type": "nominal", "title": None,
                                   "scale": {"domain": [graph_words(k) for k in kinds],
                                             "range": [SHAPES[k] for k in kinds]}},
                         "stroke": {"field": "outline", "type": "nominal", "scale": None, "legend": None},
                         "tooltip": tooltip}}


def _who(d: dict[str, Any]) -> str:
    if d["terminal"]:
        return f"seat {d['winner']} wins" if d.get("winner") is not None else "blocked"
    return f"seat {d['to_move']} to move"


def _legend_order(who: str) -> tuple[int, str]:
    return (0 if "to move" in who else 1 if who.startswith("seat") else 2, who)


# --- instead of a graph too big to read ---------------------------------------------------------------

def summary_spec(G: nx.DiGraph, limit: int) -> dict[str, Any]:
    """A bar chart of states per depth, with the size warning (as ``draw``'s matplotlib picture)."""
    per_depth: dict[int, int] = defaultdict(int)
    for _, depth in G.nodes(data="depth"):
        per_depth[depth if depth is not None else 0] += 1
    depth, states = graph_words("depth"), graph_words("states")  # the fields are the axes' and tooltip's titles
    rows = [{depth: d, states: per_depth[d]} for d in sorted(per_depth)]
    title = [graph_sentence("too_many", n=len(G), limit=limit), graph_sentence("draw_part")]
    return {"title": {"text": title, "anchor": "start", "fontSize": TEXT_PX}, "width": 700, "height": 260,
            "data": {"values": rows}, "mark": {"type": "bar", "color": SEAT_COLOURS[0]},
            "encoding": {"x": {"field": depth, "type": "ordinal", "title": graph_words("depth (moves from the start)")},
                         "y": {"field": states, "type": "quantitative", "title": states, "axis": {"format": "d"}},
                         "tooltip": [{"field": depth}, {"field": states}]}}


def path_summary_spec(G: nx.DiGraph, limit: int) -> dict[str, Any]:
    """A long played hand: hand sizes over the moves, phases other than a normal turn marked."""
    order = sorted(G, key=lambda n: G.nodes[n]["depth"])
    sizes = [G.nodes[n]["hand_sizes"] for n in order]
    seats = [graph_sentence("cards_in_hand", seat=s) for s in range(len(sizes[0]))]
    rows = [{"move": k, "seat": seats[s], "cards": h[s]} for k, h in enumerate(sizes) for s in range(len(seats))]
    phases = sorted({G.nodes[n]["phase"] for n in order} - {NORMAL, OVER, BLOCKED})
    top = max(max(h) for h in sizes)
    marks = [{"move": k, "phase": graph_words(phase.replace("_", " ")), "level": top + 1 + phases.index(phase)}
             for k, phase in enumerate(G.nodes[n]["phase"] for n in order) if phase in phases]
    y = {"type": "quantitative", "title": None, "axis": {"format": "d"}}
    title = graph_sentence("too_long", title=graph_title(G), limit=limit)
    return {"title": {"text": title, "anchor": "start", "fontSize": TEXT_PX}, "width": 700, "height": 280,
            "resolve": {"scale": {"color": "independent"}}, "layer": [
                {"data": {"values": rows}, "mark": "line",
                 "encoding": {"x": {"field": "move", "type": "quantitative", "title": graph_words("moves played"),
                                    "axis": {"format": "d"}},
                              "y": {**y, "field": "cards"},
                              "color": {"field": "seat", "type": "nominal", "title": None, "scale": {
                                  "domain": seats, "range": [seat_colour(s) for s in range(len(seats))]}}}},
                {"data": {"values": marks}, "mark": {"type": "tick", "orient": "vertical", "thickness": 1.5},
                 "encoding": {"x": {"field": "move", "type": "quantitative"}, "y": {**y, "field": "level"},
                              "color": {"field": "phase", "type": "nominal", "title": None, "scale": {
                                  "domain": [graph_words(p.replace("_", " ")) for p in phases],
                                  "range": [PALETTE[(i + 7) % 10] for i in range(len(phases))]}},
                              "tooltip": [{"field": "move", "title": graph_words("moves played")},
                                          {"field": "phase", "title": graph_words("phase")}]}}]}

