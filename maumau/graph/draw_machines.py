"""Pictures of phase machines (a Chart: Vega-Lite, and matplotlib where it can be imported), side by
side with the same phase in the same place.

Nothing here imports matplotlib before it is needed, so ``import maumau`` stays light.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..charts import Chart, new_figure
from ..text.graph_words import graph_words
from .explore import GraphError
from .layout import bends, curve, equal_limits, phase_positions, split_busy
from .machine_text import box_text, entries, short, wrap
from .placement import displayed, extent, place_label
from .vega_machines import phases_spec

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.text import Text

__all__ = ["draw_phases"]

_FONT = 10.5  # phase boxes: 14.6 pixels at 100 dpi (style.TEXT_PT)
_PANEL = (10.5, 8.0)  # inches: one panel fits the notebook's width unscaled

Point = tuple[float, float]


def draw_phases(*graphs: nx.DiGraph, axes: Sequence[Axes] | None = None, moves: int = 2,
                columns: int = 1) -> Any:
    """Draw phase machines side by side, the same phase in the same place in every panel.

    Each phase box shows its share of all decisions and its mean number of legal moves (↻:
    the moves that stay in the phase); an arrow's width follows how often the step is taken,
    its label names the ``moves`` commonest moves (those with an effect first).  Labels never
    cover each other: one that finds no room on its arrow stands beside it, tied to it by a
    thin line.  A phase that not every machine has is outlined red.

    Without ``axes``: a ``maumau.charts.Chart``, ``columns`` panels to a row (shown as a PNG, or
    as Vega-Lite with the moves of every step in a tooltip where matplotlib is missing); with
    ``axes`` (matplotlib Axes, one per machine): drawn there, and the Axes used are returned.
    """
    if not graphs:
        raise GraphError("draw_phases needs at least one phase graph (mm.graph.phase_graph(...))")
    if axes is None:  # a busy machine takes two panels
        panels = split_busy(graphs)
        return Chart(phases_spec(panels, moves, columns), lambda: _figure(panels, moves, columns))
    axes = list(axes)
    if len(axes) < len(graphs):
        raise GraphError(f"draw_phases got {len(graphs)} phase graphs but only {len(axes)} axes")
    pos = phase_positions(graphs)
    everywhere = set.intersection(*(set(G) for G in graphs))
    for G, ax in zip(graphs, axes, strict=False):
        _draw_machine(G, ax, pos, moves, odd=set(G) - everywhere)
    return axes[:len(graphs)]


def _figure(graphs: Sequence[nx.DiGraph], moves: int, columns: int) -> Figure:
    fig = new_figure(_size(len(graphs), columns))
    draw_phases(*graphs, axes=_panels(fig, len(graphs), columns), moves=moves)
    return fig


def _size(count: int, columns: int) -> tuple[float, float]:
    cols = max(1, min(columns, count))
    return (_PANEL[0] * cols, _PANEL[1] * math.ceil(count / cols))


def _panels(fig: Figure, count: int, columns: int) -> list[Axes]:
    """One panel of ``fig`` per machine, ``columns`` to a row; the panels left over are blank."""
    cols = max(1, min(columns, count))
    rows = math.ceil(count / cols)
    ax_array = fig.subplots(rows, cols, squeeze=False, gridspec_kw={
        "left": 0.01, "right": 0.99, "bottom": 0.01, "top": 1 - 0.35 / rows / 8.0, "wspace": 0.04,
        "hspace": 0.1})
    axes = list(ax_array.flat)
    for spare in axes[count:]:
        spare.set_axis_off()
    return axes


def _draw_machine(G: nx.DiGraph, ax: Axes, pos: dict[str, Point], moves: int, odd: set[str]) -> None:
    """One machine in one panel: the phase boxes, then the arrows, then the arrows' labels
    (placed last, so that they can keep clear of everything else)."""
    g = G.graph
    part = f" ({g['part']})" if g.get("part") else ""
    ax.set_title(graph_words(f"{g.get('variant')}{part}: {g.get('games')} random hands, "
                             f"{g.get('decisions', 0):,} decisions"), fontsize=12)
    xs, ys = [x for x, _ in pos.values()], [y for _, y in pos.values()]
    equal_limits(ax, (min(xs) - 0.3, max(xs) + 0.3), (min(ys) - 0.3, max(ys) + 0.3))
    found = entries(G, moves)
    boxes = {p: _box(ax, G, p, pos[p], box_text(G, p, found, moves), p in odd) for p in G}
    renderer = ax.figure.canvas.get_renderer() if hasattr(ax.figure.canvas, "get_renderer") else None
    areas = _make_room(ax, boxes, xs, ys, renderer)
    taken = [extent(t, renderer) for t in boxes.values()] + [extent(ax.title, renderer)]
    edges = sorted(((u, v, d) for u, v, d in G.edges(data=True) if u != v), key=lambda e: -e[2]["count"])
    (x0, _), (x1, _) = ax.transData.inverted().transform([(0, 0), (5, 0)])  # 5 pixels in data units
    (t0, u0), (t1, u1) = ax.transData.inverted().transform(extent(ax.title, renderer))
    bend = bends(edges, pos, areas, x1 - x0, [((t0, u0), (t1, u1))])  # arrows keep off the boxes and the title
    arrows = _draw_arrows(ax, edges, pos, boxes, bend)
    if renderer is not None:
        ax.figure.canvas.draw()  # the boxes' frames in place: the arrows are clipped to them
    lines = [displayed(arrow) for arrow in arrows]
    for k, (u, v, d) in enumerate(edges):
        label = short(d["moves"], moves)
        if G.nodes[v]["terminal"] or found.get(v) == label:  # an end needs no label; an entry is in the box
            continue
        place_label(ax, wrap(graph_words(label), 18), curve(pos[u], pos[v], bend[u, v]), taken, renderer, _font(ax),
                    gid=arrows[k].get_gid(), avoid=[line for j, drawn in enumerate(lines) if j != k for line in drawn])


def _font(ax: Axes) -> float:
    """``_FONT`` in a panel of the size ``draw_phases`` makes; smaller in smaller axes of one's own
    (down to 8 points), so that the boxes keep their room."""
    width, height = ax.get_position().size * ax.figure.get_size_inches()  # type: ignore[union-attr]
    return float(max(8.0, _FONT * min(1.0, width / (_PANEL[0] * 0.98), height / (_PANEL[1] * 0.9))))


def _box(ax: Axes, G: nx.DiGraph, p: str, xy: Point, text: str, odd: bool) -> Text:
    """A phase's box: grey for an end, blue otherwise, outlined red where not every machine has it."""
    terminal = G.nodes[p]["terminal"]
    return ax.text(*xy, text, ha="center", va="center", fontsize=_font(ax), zorder=5, linespacing=1.15,
                   bbox={"boxstyle": "round,pad=0.4", "lw": 2 if odd else 1.2,
                         "fc": "#eeeeee" if terminal else "#dde9f5", "ec": "#d62728" if odd else "#3b75af"})


def _make_room(ax: Axes, boxes: dict[str, Text], xs: list[float], ys: list[float],
               renderer: Any) -> dict[str, Any]:
    """Widen the limits to hold the boxes themselves (their size is in points, the places in
    data units); the area of every box afterwards, in data units."""
    inv = ax.transData.inverted()
    spans = [inv.transform(extent(t, renderer)) for t in boxes.values()]
    equal_limits(ax, (min(xs + [s[0][0] - 0.15 for s in spans]), max(xs + [s[1][0] + 0.15 for s in spans])),
                 (min(ys + [s[0][1] - 0.15 for s in spans]), max(ys + [s[1][1] + 0.15 for s in spans])))
    inv = ax.transData.inverted()  # the limits changed: a new transform
    return {p: inv.transform(extent(t, renderer)) for p, t in boxes.items()}


def _draw_arrows(ax: Axes, edges: list[tuple[str, str, Any]], pos: dict[str, Point], boxes: dict[str, Text],
                 bend: dict[tuple[str, str], float]) -> list[Any]:
    """The steps between phases, from box edge to box edge, wider the more often they are taken
    (on a log scale, so that rare steps stay visible); their arrows, named ``arrow K``."""
    most = max((d["count"] for *_, d in edges), default=1)
    arrows = []
    for k, (u, v, d) in enumerate(edges):
        width = 0.6 + 3.0 * math.log1p(d["count"]) / math.log1p(most)
        # over the boxes (zorder 5.5): a box moves its frame when it is drawn, and an arrow drawn before
        # it would be clipped to where the frame stood at the last draw (short of a moved box)
        arrow = ax.annotate("", xy=pos[v], xytext=pos[u], zorder=5.5, arrowprops={
            "arrowstyle": "-|>", "connectionstyle": f"arc3,rad={bend[u, v]}", "lw": width, "color": "#8c8c8c",
            "patchA": boxes[u].get_bbox_patch(), "patchB": boxes[v].get_bbox_patch(),
            "shrinkA": 3, "shrinkB": 3, "mutation_scale": 10 + 2 * width})
        assert arrow.arrow_patch is not None  # an annotation with arrowprops has one
        arrow.arrow_patch.set_gid(f"arrow {k}")
        arrows.append(arrow.arrow_patch)
    return arrows
