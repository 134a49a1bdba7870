"""Pictures of state graphs (a Chart: Vega-Lite, and matplotlib where it can be imported): layers
by depth, root at the top.

The pieces live by idea: ``layout`` (where things stand), ``style`` (colours, node texts, legend),
``placement`` (labels that cover nothing), ``draw_machines`` (phase machines side by side).
This module keeps the names it has always had (``draw``, ``draw_phases``, ``layered_layout``,
the colours).  Nothing here imports matplotlib before it is needed, so ``import maumau`` stays light.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from ..charts import Chart, new_figure
from ..text.graph_words import graph_sentence, graph_words
from .draw_machines import draw_phases
from .explore import GraphError
from .layout import BACK_BENDS, crossings, curve, layered_layout, least_crossing
from .placement import displayed, extent, place_label
from .routes import side_route
from .style import (
    SEAT_COLOURS,
    TEXT_PT,
    TITLE_PT,
    VALUE_COLOURS,
    graph_title,
    legend,
    node_fill,
    node_text,
    seat_colour,
)
from .turn_phase import BLOCKED, NORMAL, OVER
from .vega import path_summary_spec, state_graph_spec, summary_spec

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["draw", "draw_phases", "layered_layout", "SEAT_COLOURS", "VALUE_COLOURS"]

LIMIT = 150

Position = dict[Hashable, tuple[float, float]]
Edge = tuple[Hashable, Hashable]


def draw(G: nx.DiGraph, ax: Axes | None = None, *, color: str = "auto", labels: str = "auto",
         edge_labels: bool | None = None, highlight: Sequence[Hashable] | None = None,
         limit: int | None = LIMIT, title: str | None = None) -> Any:
    """Draw a state graph in layers by depth, root at the top.

    ``color``: ``"to_move"`` (seat to move; ends in the winner's colour, as squares),
    ``"value"`` (after ``solve``: who wins with best play), or ``"auto"`` (value when
    solved).  ``labels``: ``"long"`` (hands), ``"short"`` (hand sizes), ``"none"`` or
    ``"auto"``.  ``highlight``: a path of nodes (e.g. a solution's line) drawn thick.
    Over ``limit`` nodes a chart of states per depth is drawn instead, with a warning.

    Without ``ax``: a ``maumau.charts.Chart`` (shown as a PNG, or as Vega-Lite with a tooltip on
    every state where matplotlib is missing, as in the browser); with ``ax``: drawn on that
    matplotlib Axes, which is returned.
    """
    color = _checked_colour(G, color)
    pos = layered_layout(G) if len(G) <= (limit or math.inf) else {}
    if labels == "auto":
        labels = "long" if len(G) <= 40 else "short" if len(G) <= 100 else "none"
    if edge_labels is None:
        edge_labels = len(G) <= 40
    if ax is None:
        return _chart(G, pos, color, labels, edge_labels, highlight, limit or 0, title)
    if not pos:
        return (_path_summary if G.graph.get("path") else _summary)(G, ax, limit or 0)
    node_size = 260 if labels == "none" else 420
    _draw_nodes(G, pos, ax, node_size, color, highlight)
    ax.set_title(title if title is not None else graph_title(G), fontsize=TITLE_PT)
    ax.set_ylim(-_depth(pos) + 0.4, 0.6)
    ax.set_axis_off()
    font = _font(ax, pos, labels)
    if labels in ("long", "short"):
        _draw_node_texts(G, pos, ax, labels == "long", font)
    arrows = _draw_edges(G, pos, ax, node_size, highlight)
    if edge_labels:
        _draw_edge_labels(G, pos, ax, node_size, arrows, font)
    ax.legend(handles=legend(G, color, marks=labels == "long"), loc="upper left", bbox_to_anchor=(0.0, 0.0),
              fontsize=font, frameon=False, ncols=2, handletextpad=0.3)  # under the graph: its width stays
    return ax


def _chart(G: nx.DiGraph, pos: Position, color: str, labels: str, edge_labels: bool,
           highlight: Sequence[Hashable] | None, limit: int, title: str | None) -> Chart:
    """The picture of ``draw`` without an Axes: Vega-Lite, and matplotlib on a figure of its own."""
    if not pos:
        spec = (path_summary_spec if G.graph.get("path") else summary_spec)(G, limit)
    else:
        spec = state_graph_spec(G, pos, color, labels, edge_labels, highlight, title)

    def figure() -> Figure:
        fig = _new_figure(pos, labels)
        draw(G, fig.subplots(), color=color, labels=labels, edge_labels=edge_labels, highlight=highlight,
             limit=limit or None, title=title)
        return fig
    return Chart(spec, figure)


def _checked_colour(G: nx.DiGraph, color: str) -> str:
    """Refuse what cannot be drawn; ``"auto"`` made ``"value"`` for a solved graph, else ``"to_move"``."""
    import networkx as nx

    if not isinstance(G, nx.DiGraph):
        raise GraphError(f"draw takes a graph from mm.state_graph or mm.graph.game_path, not {type(G).__name__}")
    if len(G) == 0:
        raise GraphError("the graph is empty: nothing to draw")
    if color == "auto":
        color = "value" if all("value" in d for _, d in G.nodes(data=True)) and len(G) else "to_move"
    if color not in ("to_move", "value"):
        raise GraphError(f"color is 'to_move', 'value' or 'auto', not {color!r}")
    if color == "value" and not all("value" in d for _, d in G.nodes(data=True)):
        raise GraphError("color='value' needs solved values: call mm.graph.solve(G) first")
    return color


def _depth(pos: Position) -> int:
    """How many layers the layout has (the root's is at y = 0, the next at -1, ...)."""
    return int(-min((p[1] for p in pos.values()), default=0)) + 1


def _new_figure(pos: Position, labels: str) -> Figure:
    """A figure as big as the graph needs: wider per node with longer labels, within limits a
    notebook can show (and a fixed size for the chart drawn instead of a big graph)."""
    return new_figure(_size(pos, labels))


def _size(pos: Position, labels: str) -> tuple[float, float]:
    xs = [p[0] for p in pos.values()]
    width = max(xs) - min(xs) + 1 if xs else 1
    per = {"long": 1.25, "short": 0.95}.get(labels, 0.55)  # room for texts of TEXT_PT
    tall = 1.75 if labels == "long" else 1.15
    return (10, 4) if not pos else (min(max(6.0, width * per + 2), 40), min(max(3.0, _depth(pos) * tall + 0.5), 30))


def _font(ax: Axes, pos: Position, labels: str) -> float:
    """``TEXT_PT`` on the figure ``draw`` makes; smaller (down to 8 points) in smaller axes of
    one's own, so that the texts keep their room."""
    width, height = ax.get_position().size * ax.figure.get_size_inches()  # type: ignore[union-attr]
    want_w, want_h = _size(pos, labels)
    return float(max(8.0, TEXT_PT * min(1.0, width / (want_w * 0.75), height / (want_h * 0.75))))  # 0.77: subplots()


#: How moves look, drawn in this order (the marked ones on top): colour, width, head size.
_EDGE_LOOKS = {"plain": ("#b0b0b0", 0.8, 8), "best": ("#444444", 1.6, 9), "path": ("#d62728", 3.0, 11)}


def _draw_edges(G: nx.DiGraph, pos: Position, ax: Axes, node_size: int,
                highlight: Sequence[Hashable] | None) -> dict[Edge, tuple[Any, Any]]:
    """Moves one layer down straight, others (back up, across) bent the way that crosses fewest
    states and texts: grey, best play dark, the highlighted path thick and red, the marked ones on
    top.  An arrow leaves a state below the text under it, so that it never runs across it.
    Returns each edge's arrow and its curve (data units, t from 0 to 1)."""
    from matplotlib.patches import FancyArrowPatch
    from matplotlib.path import Path
    from matplotlib.transforms import Bbox

    renderer = ax.figure.canvas.get_renderer() if hasattr(ax.figure.canvas, "get_renderer") else None
    inv = ax.transData.inverted()
    under = {t.get_gid(): extent(t, renderer) for t in ax.texts if t.get_gid()}
    starts = {n: tuple(inv.transform(((b.x0 + b.x1) / 2, b.y0 - 1))) for n, b in
              ((n, under.get(f"node {k}")) for k, n in enumerate(G)) if b is not None}
    radius = math.sqrt(node_size / math.pi) * ax.figure.dpi / 72  # a marker's size is its area in points²
    circles = [Bbox.from_extents(x - radius, y - radius, x + radius, y + radius)
               for x, y in ax.transData.transform([pos[n] for n in G])]
    areas = [((float(x0), float(y0)), (float(x1), float(y1))) for (x0, y0), (x1, y1) in
             (inv.transform(b) for b in [*under.values(), *circles])]
    path_edges = set(zip(highlight, highlight[1:], strict=False)) if highlight else set()
    (x0, y0), (x1, y1) = inv.transform([(0, 0), (8, radius + 1)])
    drawn = {}
    for k, (u, v, d) in enumerate(G.edges(data=True)):
        look = "path" if (u, v) in path_edges else "best" if d.get("best") else "plain"
        colour, width, head = _EDGE_LOOKS[look]
        a, b = starts.get(u, pos[u]), pos[v]
        others = [r for r in areas if not (_within(a, r) or _within(b, r))]
        rad = 0.0 if G.nodes[v]["depth"] == G.nodes[u]["depth"] + 1 else least_crossing([(a, b)], BACK_BENDS, others)
        route = side_route(a, b, areas, (x1 - x0, (x1 - x0) * 0.8), top=(b[0], b[1] + y1 - y0)) if rad and crossings(
            [(a, b)], rad, others) else None
        looks: dict[str, Any] = {"color": colour, "lw": width, "mutation_scale": head + 4, "arrowstyle": "-|>"}
        zorder = {"plain": 2, "best": 2.5, "path": 3}[look]
        if route is not None:  # round the columns (routes.side_route): a path of its own, ends where the state begins
            patch = FancyArrowPatch(path=Path(route.points), zorder=zorder, **looks)
            patch.set_clip_on(False)  # it runs outside the columns, which may be outside the axes
            ax.add_artist(patch)
        else:
            arrow = ax.annotate("", xy=b, xytext=a, zorder=zorder, arrowprops={
                **looks, "connectionstyle": f"arc3,rad={rad}",
                "shrinkA": 0 if u in starts else radius * 72 / ax.figure.dpi,
                "shrinkB": radius * 72 / ax.figure.dpi + 1})
            assert arrow.arrow_patch is not None  # an annotation with arrowprops has one
            patch = arrow.arrow_patch
        patch.set_gid(f"edge {k}")
        drawn[u, v] = (patch, route or curve(a, b, rad))
    return drawn


def _within(p: Any, area: Any) -> bool:
    (x0, y0), (x1, y1) = area
    return bool(min(x0, x1) - 1e-9 <= p[0] <= max(x0, x1) + 1e-9 and min(y0, y1) - 1e-9 <= p[1] <= max(y0, y1) + 1e-9)


def _draw_nodes(G: nx.DiGraph, pos: Position, ax: Axes, node_size: int, color: str,
                highlight: Sequence[Hashable] | None) -> None:
    """Circles for decisions, squares for ends, diamonds for states after a reshuffle; the
    highlighted path outlined red, states a bound left unexplored outlined grey."""
    import networkx as nx

    data = G.nodes
    nodes = list(G)
    shapes = {"o": [n for n in nodes if not data[n]["terminal"] and not data[n].get("chance")],
              "s": [n for n in nodes if data[n]["terminal"]], "D": [n for n in nodes if data[n].get("chance")]}
    for shape, group in shapes.items():
        if group:
            edge = ["#d62728" if highlight and n in highlight else
                    "#888888" if not data[n].get("expanded", True) else "#333333" for n in group]
            nx.draw_networkx_nodes(G, pos, nodelist=group, node_shape=shape,
                                   node_color=[node_fill(data[n], color) for n in group],
                                   edgecolors=edge, linewidths=1.2, node_size=node_size, ax=ax)


def _draw_node_texts(G: nx.DiGraph, pos: Position, ax: Axes, long: bool, font: float = TEXT_PT) -> None:
    """The text under every node, on a white ground (its gid names the node, so that arrows leave
    below it)."""
    data = G.nodes
    for k, n in enumerate(G):
        x, y = pos[n]
        text = ax.text(x, y - 0.14, node_text(data[n].get("state", n), data[n], long), ha="center", va="top",
                       fontsize=font, linespacing=1.0, zorder=5,
                       bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})
        text.set_gid(f"node {k}")


def _draw_edge_labels(G: nx.DiGraph, pos: Position, ax: Axes, node_size: int, arrows: dict[Edge, tuple[Any, Any]],
                      font: float) -> None:
    """The moves on the edges where they cover no other text, node or arrow, else beside them (as
    the phase machines' labels)."""
    from matplotlib.transforms import Bbox

    renderer = ax.figure.canvas.get_renderer() if hasattr(ax.figure.canvas, "get_renderer") else None
    taken = [extent(t, renderer) for t in [*ax.texts, ax.title] if t.get_text()]
    radius = math.sqrt(node_size / math.pi) * ax.figure.dpi / 72  # a marker's size is its area in points²
    taken += [Bbox.from_extents(x - radius, y - radius, x + radius, y + radius)
              for x, y in ax.transData.transform([pos[n] for n in G])]
    if renderer is not None:
        ax.figure.canvas.draw()  # the arrows as drawn (their shrink is in points: needs the dpi)
    lines = {e: displayed(patch) for e, (patch, _) in arrows.items()}
    for u, v in G.edges:
        patch, at = arrows[u, v]
        label = graph_words(G.edges[u, v].get("label", ""))
        place_label(ax, label, lambda t, at=at: at(1.15 - t), taken, renderer, font, gid=patch.get_gid(),
                    avoid=[line for e, drawn in lines.items() if e != (u, v) for line in drawn])


# --- instead of a graph too big to read ---------------------------------------------------------------

def _path_summary(G: nx.DiGraph, ax: Axes, limit: int) -> Axes:
    """A long played hand: hand sizes over the moves, phases other than a normal turn marked."""
    order = sorted(G, key=lambda n: G.nodes[n]["depth"])
    sizes = [G.nodes[n]["hand_sizes"] for n in order]
    for seat in range(len(sizes[0])):
        ax.plot(range(len(order)), [h[seat] for h in sizes], color=seat_colour(seat),
                label=graph_sentence("cards_in_hand", seat=seat))
    phases = sorted({G.nodes[n]["phase"] for n in order} - {NORMAL, OVER, BLOCKED})
    top = max(max(h) for h in sizes)
    for i, phase in enumerate(phases):
        xs = [k for k, n in enumerate(order) if G.nodes[n]["phase"] == phase]
        ax.scatter(xs, [top + 1 + i] * len(xs), marker="|", s=60, label=graph_words(phase.replace("_", " ")),
                   color=("#7f7f7f", "#2ca02c", "#9467bd", "#e377c2", "#bcbd22", "#17becf", "#8c564b")[i % 7])
    _whole_ticks(ax)
    ax.set_xlabel(graph_words("moves played"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=TEXT_PT, frameon=False)
    title = graph_sentence("too_long", title=graph_title(G), limit=limit)
    ax.set_title(title.replace(", so ", ",\nso ").replace("; ", ";\n"), fontsize=TEXT_PT, loc="left")
    return ax


def _summary(G: nx.DiGraph, ax: Axes, limit: int) -> Axes:
    """A bar chart of states per depth, with the size warning, instead of a hairball."""
    per_depth: dict[int, int] = defaultdict(int)
    for _, d in G.nodes(data="depth"):
        per_depth[d if d is not None else 0] += 1
    depths = sorted(per_depth)
    ax.bar(depths, [per_depth[d] for d in depths], color=SEAT_COLOURS[0])
    _whole_ticks(ax)
    ax.set_xlabel(graph_words("depth (moves from the start)"))
    ax.set_ylabel(graph_words("states"))
    ax.set_title(graph_sentence("too_many", n=len(G), limit=limit) + "\n" + graph_sentence("draw_part"),
                 fontsize=TEXT_PT, loc="left")
    return ax


def _whole_ticks(ax: Axes) -> None:
    """Depths, moves and counts are whole numbers: ticks at whole numbers, written as the course's
    language writes them (1.000 in German)."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    from ..text.i18n import number

    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MaxNLocator(integer=True))
        axis.set_major_formatter(FuncFormatter(lambda x, _: number(x)))
