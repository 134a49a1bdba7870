"""Phase machines as Vega-Lite (the picture of ``draw_phases`` where matplotlib is missing, as in the
browser): one panel per machine, every phase in the same place in each, its box saying what the
matplotlib box says; arrows as wide as the step is common, their labels where they cover nothing,
and a tooltip on every arrow with the step's moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..charts import number
from ..text.graph_words import graph_words
from .layout import bends, curve, phase_positions
from .machine_text import box_text, entries, short, wrap
from .style import TEXT_PX, TITLE_PX
from .vega_frame import (
    Box,
    Frame,
    arrow,
    boxes_layer,
    crosses,
    data_row,
    on_screen,
    place,
    text_box,
    text_layer,
    tie,
)

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

__all__ = ["phases_spec"]

UNIT = 110  # pixels per unit of the phases' places (at least): one panel to a row, texts of TEXT_PX
LANE = 70  # pixels between neighbouring boxes (at least): room for arrows and a label
_STEP = (2.3, 1.6)  # units between neighbouring places across and down (layout._PLACES)
BOX_FONT, LABEL_FONT = TEXT_PX, TEXT_PX
ARROW = "#8c8c8c"
Point = tuple[float, float]


def phases_spec(graphs: Sequence[nx.DiGraph], moves: int, columns: int) -> dict[str, Any]:
    """The Vega-Lite spec of ``draw_phases(*graphs)``: the panels ``columns`` to a row."""
    pos = phase_positions(graphs)
    texts = [{p: box_text(G, p, entries(G, moves), moves) for p in G} for G in graphs]
    frame = _frame(pos, texts)
    everywhere = set.intersection(*(set(G) for G in graphs))
    panels = [_machine(G, frame, pos, found, moves, odd=set(G) - everywhere) for G, found in zip(graphs, texts,
                                                                                                 strict=True)]
    title = graph_words("Phase machines of ") + ", ".join(dict.fromkeys(str(G.graph.get("variant")) for G in graphs))
    return {"title": {"text": title, "fontSize": TITLE_PX}, "columns": columns, "spacing": 16, "concat": panels,
            "config": {"view": {"stroke": "#dddddd"}, "title": {"fontSize": TEXT_PX}}}


def _frame(pos: dict[str, Point], texts: list[dict[str, str]]) -> Frame:
    """One frame for all panels (the same phase in the same place), with room for the largest box
    of each phase, and lanes between neighbouring boxes wide enough for arrows and their labels
    (wider boxes, as German ones, spread the places)."""
    sizes = [text_box((0, 0), found[p], BOX_FONT, pad=6) for found in texts for p in found]
    widest, tallest = max(b.x1 - b.x0 for b in sizes), max(b.y1 - b.y0 for b in sizes)
    unit = max(UNIT, (widest + LANE) / _STEP[0], (tallest + LANE) / _STEP[1])
    spans = [text_box((x * unit, y * unit), found[p], BOX_FONT, pad=6) for found in texts
             for p, (x, y) in pos.items() if p in found]
    x0, x1 = min(b.x0 for b in spans) / unit - 0.15, max(b.x1 for b in spans) / unit + 0.15
    y0, y1 = min(b.y0 for b in spans) / unit - 0.15, max(b.y1 for b in spans) / unit + 0.15
    return Frame((x0, x1), (y0, y1), (x1 - x0) * unit, (y1 - y0) * unit)


def _machine(G: nx.DiGraph, frame: Frame, pos: dict[str, Point], texts: dict[str, str], moves: int,
             odd: set[str]) -> dict[str, Any]:
    """One machine: the arrows, then the boxes, then the arrows' labels (placed last, clear of the rest)."""
    boxes = {p: text_box(frame.px(pos[p]), texts[p], BOX_FONT, pad=6) for p in G}
    areas = {p: (frame.data((b.x0, b.y0)), frame.data((b.x1, b.y1))) for p, b in boxes.items()}
    edges = sorted(((u, v, d) for u, v, d in G.edges(data=True) if u != v), key=lambda e: -e[2]["count"])
    bend = bends(edges, pos, areas, 5 * (frame.xs[1] - frame.xs[0]) / frame.width)  # 5 pixels off every box
    found = entries(G, moves)
    taken = [b.grown(2) for b in boxes.values()]
    arrows, lines = _arrows(frame, edges, pos, boxes, bend, moves)
    labels: list[tuple[Box, str]] = []
    owners: list[dict[str, Any]] = []
    ties: list[list[Point]] = []
    for k, (u, v, d) in enumerate(edges):
        label = short(d["moves"], moves)
        if not G.nodes[v]["terminal"] and found.get(v) != label:  # an end needs no label; an entry is in the box
            text = wrap(graph_words(label), 18)
            others = [line for j, line in enumerate(lines) if j != k] + ties  # and the ties of labels before
            box = place(text, LABEL_FONT, on_screen(frame, curve(pos[u], pos[v], bend[u, v])), taken, frame, others,
                        own=lines[k])
            labels.append((box, text))
            line = tie(box, lines[k]) or []  # drawn only where it crosses no box (taken[-1] is the label's own)
            ties += [line if not any(crosses(other, line) for other in taken[:-1]) else []]
            owners.append({"arrow": k})
    g = G.graph
    part = f" ({g['part']})" if g.get("part") else ""
    tie_lines = _ties(frame, ties, owners)
    return {"title": graph_words(f"{g.get('variant')}{part}: {g.get('games')} random hands, "
                                 f"{g.get('decisions', 0):,} decisions"),
            "width": number(frame.width), "height": number(frame.height),
            "layer": [*arrows, *tie_lines, _boxes(G, frame, boxes, texts, odd),
                      boxes_layer(frame, [b for b, _ in labels], "#fffbe6", "#d9cfa6", 0.95),
                      text_layer(frame, labels, LABEL_FONT, owners)]}


def _arrows(frame: Frame, edges: list[tuple[str, str, Any]], pos: dict[str, Point], boxes: dict[str, Box],
            bend: dict[tuple[str, str], float], moves: int) -> tuple[list[dict[str, Any]], list[list[Point]]]:
    """From box edge to box edge, wider the more often the step is taken (on a log scale, so that
    rare steps stay visible), with a head at the end; and each arrow's line in pixels."""
    most = max((d["count"] for *_, d in edges), default=1)
    rows, heads, lines = [], [], []
    for k, (u, v, d) in enumerate(edges):
        width = 0.6 + 3.0 * math.log1p(d["count"]) / math.log1p(most)
        points, head, angle = arrow(frame, curve(pos[u], pos[v], bend[u, v]), boxes[u].grown(3).contains,
                                    boxes[v].grown(3).contains)
        lines.append(points)
        info = {"arrow": k, "width": number(width), "step": graph_words(f"{u} → {v}".replace("_", " ")),
                "taken": d["count"], "moves": graph_words(short(d["moves"], moves + 3))}
        rows += [{**info, "i": i, **data_row(frame, p)} for i, p in enumerate(points)]
        heads.append({**data_row(frame, head), "angle": number(angle), "size": number(40 + 14 * width)})
    xy = frame.encoding()
    return [{"data": {"values": rows}, "mark": {"type": "line", "color": ARROW},
             "encoding": {**xy, "detail": {"field": "arrow", "type": "nominal"},
                          "order": {"field": "i", "type": "quantitative"},
                          "strokeWidth": {"field": "width", "type": "quantitative", "scale": None},
                          "tooltip": [{"field": "step", "title": graph_words("step")},
                                      {"field": "taken", "title": graph_words("times taken")},
                                      {"field": "moves", "title": graph_words("moves")}]}},
            {"data": {"values": heads}, "mark": {"type": "point", "shape": "triangle-up", "filled": True,
                                                 "color": ARROW, "opacity": 1},
             "encoding": {**xy, "angle": {"field": "angle", "type": "quantitative", "scale": None},
                          "size": {"field": "size", "type": "quantitative", "scale": None}}}], lines


def _ties(frame: Frame, ties: list[list[Point]], owners: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Thin lines from the labels that found no room on or beside their arrow to the arrow's nearest
    point (as matplotlib ties such labels), drawn under the labels' boxes."""
    rows = [{**owner, "i": i, **data_row(frame, p)} for line, owner in zip(ties, owners, strict=True)
            for i, p in enumerate(line)]
    return [{"data": {"values": rows}, "mark": {"type": "line", "color": "#b5a66a", "strokeWidth": 0.8},
             "encoding": {**frame.encoding(), "detail": {"field": "arrow", "type": "nominal"},
                          "order": {"field": "i", "type": "quantitative"}}}] if rows else []


def _boxes(G: nx.DiGraph, frame: Frame, boxes: dict[str, Box], texts: dict[str, str],
           odd: set[str]) -> dict[str, Any]:
    """The phases: grey for an end, blue otherwise, outlined red where not every machine has it."""
    rows = [{**frame.rows(b), "fill": "#eeeeee" if G.nodes[p]["terminal"] else "#dde9f5",
             "outline": "#d62728" if p in odd else "#3b75af", "line": 2 if p in odd else 1.2,
             "phase": p, "name": graph_words(p.replace("_", " "))}
            for p, b in boxes.items()]
    field = {"type": "nominal", "scale": None, "legend": None}
    return {"layer": [
        {"data": {"values": rows}, "mark": {"type": "rect", "cornerRadius": 6},
         "encoding": {**frame.encoding(), "x2": {"field": "x2"}, "y2": {"field": "y2"},
                      "fill": {"field": "fill", **field}, "stroke": {"field": "outline", **field},
                      "strokeWidth": {"field": "line", "type": "quantitative", "scale": None},
                      "tooltip": [{"field": "name", "title": graph_words("phase")}]}},
        text_layer(frame, [(boxes[p], texts[p]) for p in boxes], BOX_FONT)]}
