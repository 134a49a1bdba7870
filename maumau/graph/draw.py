"""Pictures of graphs (matplotlib): state graphs in layers by depth, phase machines side by side.

Nothing here is imported before it is needed, so ``import maumau`` stays light.
"""

from __future__ import annotations

import math
import textwrap
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from .explore import GraphError, state_label

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    from matplotlib.axes import Axes

__all__ = ["draw", "draw_phases", "layered_layout", "SEAT_COLOURS", "VALUE_COLOURS"]

#: Seat colours (colour-blind safe: blue, orange, green, purple, brown).
SEAT_COLOURS = ("#3b75af", "#ef8636", "#519e3e", "#8d69b8", "#84584e")
VALUE_COLOURS = {"nobody wins": "#c7c7c7", "unknown": "#ffffff"}
LIMIT = 150


def _value_colour(value: str) -> str:
    if value.startswith("seat "):
        return SEAT_COLOURS[int(value.split()[1]) % len(SEAT_COLOURS)]
    return VALUE_COLOURS.get(value, "#ffffff")


def layered_layout(G: nx.DiGraph, key: str = "depth") -> dict[Hashable, tuple[float, float]]:
    """Layers by ``depth`` (top to bottom), each ordered by where its parents stand, so that
    edges cross little; the same idea as networkx's ``multipartite_layout``, plus the ordering."""
    layers: dict[int, list[Hashable]] = defaultdict(list)
    for node, depth in G.nodes(data=key):
        if depth is None:
            raise GraphError(f"every node needs a {key!r} attribute to be drawn in layers")
        layers[depth].append(node)
    pos: dict[Hashable, tuple[float, float]] = {}
    for depth in sorted(layers):
        wanted = {}
        for i, node in enumerate(layers[depth]):
            xs = [pos[p][0] for p in G.predecessors(node) if p in pos]
            wanted[node] = (sum(xs) / len(xs) if xs else 0.0, i)
        order = sorted(layers[depth], key=wanted.__getitem__)
        xs = [wanted[n][0] for n in order]
        for i in range(1, len(xs)):  # keep one unit between neighbours
            xs[i] = max(xs[i], xs[i - 1] + 1.0)
        shift = (sum(wanted[n][0] for n in order) - sum(xs)) / len(xs)  # stay under the parents
        for node, x in zip(order, xs, strict=True):
            pos[node] = (x + shift, -float(depth))
    return pos


def _path_summary(G: nx.DiGraph, ax: Axes, limit: int) -> Axes:
    """A long played hand: hand sizes over the moves, phases other than a normal turn marked."""
    order = sorted(G, key=lambda n: G.nodes[n]["depth"])
    sizes = [G.nodes[n]["hand_sizes"] for n in order]
    for seat in range(len(sizes[0])):
        ax.plot(range(len(order)), [h[seat] for h in sizes], color=SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                label=f"seat {seat}: cards in hand")
    phases = sorted({G.nodes[n]["phase"] for n in order} - {"normal turn", "hand over", "blocked (void)"})
    top = max(max(h) for h in sizes)
    for i, phase in enumerate(phases):
        xs = [k for k, n in enumerate(order) if G.nodes[n]["phase"] == phase]
        ax.scatter(xs, [top + 1 + i] * len(xs), marker="|", s=60, label=phase,
                   color=("#7f7f7f", "#2ca02c", "#9467bd", "#e377c2", "#bcbd22", "#17becf", "#8c564b")[i % 7])
    ax.set_xlabel("move")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    ax.set_title(f"{_title(G)}: too long to draw as a path (limit {limit}), so here are the hand sizes "
                 "and the phases move by move", fontsize=9, loc="left")
    return ax


def _summary(G: nx.DiGraph, ax: Axes, limit: int) -> Axes:
    """A bar chart of states per depth, with the size warning, instead of a hairball."""
    per_depth: dict[int, int] = defaultdict(int)
    for _, d in G.nodes(data="depth"):
        per_depth[d if d is not None else 0] += 1
    depths = sorted(per_depth)
    ax.bar(depths, [per_depth[d] for d in depths], color=SEAT_COLOURS[0])
    ax.set_xlabel("depth (moves from the start)")
    ax.set_ylabel("states")
    ax.set_title(f"{len(G):,} states are too many to draw readably (limit {limit}), so here is how many "
                 "states each depth has.\nDraw a part: mm.graph.draw(mm.graph.around(G, state, radius=2)), "
                 "or all of it: mm.graph.draw(G, limit=None)", fontsize=9, loc="left")
    return ax


def draw(G: nx.DiGraph, ax: Axes | None = None, *, color: str = "auto", labels: str = "auto",
         edge_labels: bool | None = None, highlight: Sequence[Hashable] | None = None,
         limit: int | None = LIMIT, title: str | None = None) -> Axes:
    """Draw a state graph in layers by depth, root at the top.

    ``color``: ``"to_move"`` (seat to move; ends in the winner's colour, as squares),
    ``"value"`` (after ``solve``: who wins with best play), or ``"auto"`` (value when
    solved).  ``labels``: ``"long"`` (hands), ``"short"`` (hand sizes), ``"none"`` or
    ``"auto"``.  ``highlight``: a path of nodes (e.g. a solution's line) drawn thick.
    Over ``limit`` nodes a chart of states per depth is drawn instead, with a warning.
    """
    import matplotlib.pyplot as plt
    import networkx as nx
    from matplotlib.lines import Line2D

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
    pos = layered_layout(G) if len(G) <= (limit or math.inf) else {}
    xs = [p[0] for p in pos.values()]
    width = max(xs) - min(xs) + 1 if xs else 1
    depth = int(-min((p[1] for p in pos.values()), default=0)) + 1
    if labels == "auto":
        labels = "long" if len(G) <= 40 else "short" if len(G) <= 100 else "none"
    if edge_labels is None:
        edge_labels = len(G) <= 40
    if ax is None:
        per = {"long": 0.95, "short": 0.75}.get(labels, 0.45)
        tall = 1.35 if labels == "long" else 0.9
        size = (10, 4) if not pos else (min(max(6.0, width * per + 2), 40), min(max(3.0, depth * tall + 0.5), 30))
        _, ax = plt.subplots(figsize=size)
    if not pos:
        return (_path_summary if G.graph.get("path") else _summary)(G, ax, limit or 0)
    nodes = list(G)
    data = G.nodes
    states = {n: data[n].get("state", n) for n in nodes}

    def fill(n: Hashable) -> str:
        d = data[n]
        if color == "value":
            return _value_colour(d["value"])
        if d["terminal"]:
            return SEAT_COLOURS[d["winner"] % len(SEAT_COLOURS)] if d.get("winner") is not None else "#999999"
        return SEAT_COLOURS[d["to_move"] % len(SEAT_COLOURS)]

    node_size = 260 if labels == "none" else 420
    path_edges = set(zip(highlight, highlight[1:], strict=False)) if highlight else set()
    straight = [(u, v) for u, v in G.edges if data[v]["depth"] == data[u]["depth"] + 1]
    curved = [(u, v) for u, v in G.edges if (u, v) not in set(straight)]
    for edges, style in ((straight, "arc3"), (curved, "arc3,rad=0.25")):
        plain = [e for e in edges if e not in path_edges]
        best = [e for e in plain if G.edges[e].get("best")]
        nx.draw_networkx_edges(G, pos, edgelist=[e for e in plain if e not in set(best)], ax=ax, edge_color="#b0b0b0",
                               arrowsize=8, node_size=node_size, connectionstyle=style, width=0.8)
        nx.draw_networkx_edges(G, pos, edgelist=best, ax=ax, edge_color="#444444", arrowsize=9,
                               node_size=node_size, connectionstyle=style, width=1.6)
        nx.draw_networkx_edges(G, pos, edgelist=[e for e in edges if e in path_edges], ax=ax, edge_color="#d62728",
                               arrowsize=11, node_size=node_size, connectionstyle=style, width=3)
    shapes = {"o": [n for n in nodes if not data[n]["terminal"] and not data[n].get("chance")],
              "s": [n for n in nodes if data[n]["terminal"]], "D": [n for n in nodes if data[n].get("chance")]}
    for shape, group in shapes.items():
        if group:
            edge = ["#d62728" if highlight and n in highlight else
                    "#888888" if not data[n].get("expanded", True) else "#333333" for n in group]
            nx.draw_networkx_nodes(G, pos, nodelist=group, node_shape=shape, node_color=[fill(n) for n in group],
                                   edgecolors=edge, linewidths=1.2, node_size=node_size, ax=ax)
    ax.set_title(title if title is not None else _title(G), fontsize=10)
    ax.set_ylim(-depth + 0.4, 0.6)
    ax.set_axis_off()
    if labels in ("long", "short"):
        for n in nodes:
            x, y = pos[n]
            ax.text(x, y - 0.14, _node_text(states[n], data[n], labels == "long"), ha="center", va="top", fontsize=8,
                    linespacing=1.0, bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8},
                    zorder=5)
    if edge_labels:  # on the edge where they cover no other text, else beside it (as the phase machines)
        renderer = ax.figure.canvas.get_renderer() if hasattr(ax.figure.canvas, "get_renderer") else None
        from matplotlib.transforms import Bbox

        taken = [_extent(t, renderer) for t in [*ax.texts, ax.title]]
        radius = math.sqrt(node_size / math.pi) * ax.figure.dpi / 72
        taken += [Bbox.from_extents(x - radius, y - radius, x + radius, y + radius)
                  for x, y in ax.transData.transform([pos[n] for n in nodes])]
        lines = set(straight)
        for u, v in G.edges:
            at = _curve(pos[u], pos[v], 0.0 if (u, v) in lines else 0.25)
            _place_label(ax, G.edges[u, v].get("label", ""), lambda t, at=at: at(1.15 - t), taken, renderer)
    legend = _legend(G, color, Line2D)
    ax.legend(handles=legend, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    return ax


def _node_text(state: Any, d: dict[str, Any], long: bool) -> str:
    """Long: one line per hand (▶ marks the player to move), then the top card; short: hand sizes."""
    if not hasattr(state, "hands"):
        return str(d.get("label", state))
    if not long:
        return state_label(state).split(" ·")[0]
    lines = [("▶" if seat == state.to_move and not state.is_over else "") + (" ".join(c.symbol for c in h) or "–")
             for seat, h in enumerate(state.hands)]
    return "\n".join(lines) + "\n·" + state_label(state).split(" ·", 1)[1]


def _legend(G: nx.DiGraph, color: str, Line2D: Any) -> list[Any]:
    def mark(shape: str, fc: str, text: str) -> Any:
        return Line2D([], [], marker=shape, linestyle="", markerfacecolor=fc, markeredgecolor="#333333",
                      markersize=8, label=text)

    seats = sorted({d["to_move"] for _, d in G.nodes(data=True)} | {d["winner"] for _, d in G.nodes(data=True)
                                                                      if d.get("winner") is not None})
    items = []
    if color == "value":
        for value in sorted({d["value"] for _, d in G.nodes(data=True)}):
            items.append(mark("o", _value_colour(value), value + " with best play"))
    else:
        items += [mark("o", SEAT_COLOURS[s % len(SEAT_COLOURS)], f"seat {s} to move") for s in seats]
        items += [mark("s", "#ffffff", "hand over (colour: winner)")]
    if any(d.get("chance") for _, d in G.nodes(data=True)):
        items.append(mark("D", "#ffffff", "after a reshuffle (not explored)"))
    if any(not d.get("expanded", True) and not d["terminal"] and not d.get("chance") for _, d in G.nodes(data=True)):
        items.append(mark("o", "#ffffff", "not explored (bound)"))
    if any(d.get("best") for *_, d in G.edges(data=True)):
        items.append(Line2D([], [], color="#444444", lw=1.6, label="move of best play"))
    return items


def _title(G: nx.DiGraph) -> str:
    from .explore import describe

    if G.graph.get("path"):
        return f"{G.graph.get('variant')}: a played hand, {len(G) - 1} moves"
    return f"{G.graph.get('variant', '')}: {describe(G)}"


# --- phase machines -----------------------------------------------------------------------------------

#: Places round the normal turn: turn-like phases on the left and top, effects waiting for an
#: answer (penalties, skips) in the right column, the ends of the hand below.
_PLACES = {"normal turn": (0.0, 0.0), "wish active": (-2.3, 0.0), "drawn-card choice": (-2.3, 1.6),
           "last card locked": (-2.3, -1.6), "Ace extra play": (0.0, 1.6), "Runde running": (0.0, 1.6),
           "hand over": (-1.15, -2.9), "blocked (void)": (1.15, -2.9)}
_FREE = ((2.3, 0.0), (2.3, 1.6), (2.3, -1.6), (0.0, -1.6), *((x, y) for x in (4.6, -4.6, 6.9) for y in (0, 1.6, -1.6)))
_FONT = 8.5        # phase boxes
_LABEL_FONT = 8    # moves on the arrows


def _phase_positions(graphs: Sequence[nx.DiGraph]) -> dict[str, tuple[float, float]]:
    """Fixed places, shared by side-by-side machines so that they line up (see ``_PLACES``).
    Phases that never meet in one machine may share a place (Ace extra play and Runde running,
    the penalties of different variants); a phase without a free place of its own gets the next
    place from ``_FREE``, the commonest phases first."""
    phases = {p for G in graphs for p in G}
    meets = {p: {q for G in graphs if p in G for q in G} for p in phases}
    pos: dict[str, tuple[float, float]] = {}
    spare = sorted(phases - set(_PLACES), key=lambda p: (-sum(p in G for G in graphs), p))
    for p in [p for p in _PLACES if p in phases] + spare:
        places = ([_PLACES[p]] if p in _PLACES else []) + list(_FREE)
        free = [xy for xy in places if not any(pos[q] == xy for q in meets[p] if q in pos)]
        pos[p] = free[0] if free else (9.2, 1.6 * len(pos))
    return pos


def draw_phases(*graphs: nx.DiGraph, axes: Sequence[Axes] | None = None, moves: int = 2,
                columns: int = 2) -> list[Axes]:
    """Draw phase machines side by side, the same phase in the same place in every panel.

    Each phase box shows its share of all decisions and its mean number of legal moves (↻:
    the moves that stay in the phase); an arrow's width follows how often the step is taken,
    its label names the ``moves`` commonest moves (those with an effect first).  Labels never
    cover each other: one that finds no room on its arrow stands beside it, tied to it by a
    thin line.  A phase that not every machine has is outlined red.
    """
    import matplotlib.pyplot as plt

    if not graphs:
        raise GraphError("draw_phases needs at least one phase graph (mm.graph.phase_graph(...))")
    if axes is None:
        cols = max(1, min(columns, len(graphs)))
        rows = math.ceil(len(graphs) / cols)
        _, ax_array = plt.subplots(rows, cols, figsize=(6.5 * cols, 5.6 * rows), squeeze=False, gridspec_kw={
            "left": 0.01, "right": 0.99, "bottom": 0.01, "top": 1 - 0.35 / rows / 5.6, "wspace": 0.04,
            "hspace": 0.1})
        axes = list(ax_array.flat)
        for spare in axes[len(graphs):]:
            spare.set_axis_off()
    axes = list(axes)
    if len(axes) < len(graphs):
        raise GraphError(f"draw_phases got {len(graphs)} phase graphs but only {len(axes)} axes")
    pos = _phase_positions(graphs)
    everywhere = set.intersection(*(set(G) for G in graphs))
    for G, ax in zip(graphs, axes, strict=False):
        _draw_machine(G, ax, pos, moves, odd=set(G) - everywhere)
    return axes[:len(graphs)]


def _draw_machine(G: nx.DiGraph, ax: Axes, pos: dict[str, tuple[float, float]], moves: int,
                  odd: set[str]) -> None:
    g = G.graph
    ax.set_title(f"{g.get('variant')}: {g.get('games')} random hands, {g.get('decisions', 0):,} decisions",
                 fontsize=11)
    xs, ys = [x for x, _ in pos.values()], [y for _, y in pos.values()]
    _equal_limits(ax, (min(xs) - 0.3, max(xs) + 0.3), (min(ys) - 0.3, max(ys) + 0.3))
    entries = _entries(G, moves)
    boxes = {}
    for p in G:
        d = G.nodes[p]
        text = p.replace(": ", ":\n").replace("_", " ")
        if p in entries:
            text += "\n" + _wrap("entered by: " + entries[p], 22)
        if G.has_edge(p, p):
            text += "\n" + _wrap("↻ " + _short(G.edges[p, p]["moves"], moves + 1), 22)
        if not d["terminal"]:
            share = f"{d['share']:.0%}" if d["share"] >= 0.005 or not d["share"] else "<1%"
            text += f"\n{share} of decisions\n{d['branching']:.1f} moves to choose"
        boxes[p] = ax.text(*pos[p], text, ha="center", va="center", fontsize=_FONT, zorder=5, linespacing=1.15,
                           bbox={"boxstyle": "round,pad=0.4", "lw": 2 if p in odd else 1.2,
                                 "fc": "#eeeeee" if d["terminal"] else "#dde9f5",
                                 "ec": "#d62728" if p in odd else "#3b75af"})
    renderer = ax.figure.canvas.get_renderer() if hasattr(ax.figure.canvas, "get_renderer") else None
    inv = ax.transData.inverted()
    # make room for the boxes themselves (their size is in points, the places in data units)
    spans = [inv.transform(_extent(t, renderer)) for t in boxes.values()]
    _equal_limits(ax, (min(xs + [s[0][0] - 0.15 for s in spans]), max(xs + [s[1][0] + 0.15 for s in spans])),
                  (min(ys + [s[0][1] - 0.15 for s in spans]), max(ys + [s[1][1] + 0.15 for s in spans])))
    inv = ax.transData.inverted()
    areas = {p: inv.transform(_extent(t, renderer)) for p, t in boxes.items()}
    taken = [_extent(t, renderer) for t in boxes.values()] + [_extent(ax.title, renderer)]
    edges = sorted(((u, v, d) for u, v, d in G.edges(data=True) if u != v), key=lambda e: -e[2]["count"])
    most = max((d["count"] for *_, d in edges), default=1)
    bends = _bends(edges, pos, areas)
    for u, v, d in edges:
        width = 0.6 + 3.0 * math.log1p(d["count"]) / math.log1p(most)
        ax.annotate("", xy=pos[v], xytext=pos[u], zorder=3, arrowprops={
            "arrowstyle": "-|>", "connectionstyle": f"arc3,rad={bends[u, v]}", "lw": width, "color": "#8c8c8c",
            "patchA": boxes[u].get_bbox_patch(), "patchB": boxes[v].get_bbox_patch(),
            "shrinkA": 3, "shrinkB": 3, "mutation_scale": 10 + 2 * width})
    for u, v, d in edges:
        label = _short(d["moves"], moves)
        if G.nodes[v]["terminal"] or entries.get(v) == label:
            continue
        _place_label(ax, _wrap(label, 18), _curve(pos[u], pos[v], bends[u, v]), taken, renderer)


def _wrap(text: str, width: int) -> str:
    """Lines of at most ``width`` characters, broken after commas only (``9 reverse`` stays whole)."""
    return textwrap.fill(", ".join(part.replace(" ", "\u00a0") for part in text.split(", ")), width)


def _entries(G: nx.DiGraph, moves: int) -> dict[str, str]:
    """How a phase is entered, where two or more arrows into it (or its only one) carry the same
    moves: that label is written once in the phase's box instead of on every arrow."""
    found = {}
    for v in (v for v in G if not G.nodes[v]["terminal"]):
        labels = Counter(_short(d["moves"], moves) for u, _, d in G.in_edges(v, data=True) if u != v)
        if labels and (labels.most_common(1)[0][1] >= 2 or len(labels) == 1):
            found[v] = labels.most_common(1)[0][0]
    return found


def _extent(text: Any, renderer: Any) -> Any:
    """The window extent of a text with its box (the pad of a bbox patch included), in pixels."""
    box = text.get_window_extent(renderer)
    patch = text.get_bbox_patch()
    pad = patch.get_boxstyle().pad * text.get_fontsize() if patch is not None else 0.0
    return box.padded(pad * text.figure.dpi / 72 + 1)


def _curve(a: tuple[float, float], b: tuple[float, float], rad: float) -> Callable[[float], tuple[float, float]]:
    """The point at ``t`` of matplotlib's ``arc3`` connection from ``a`` to ``b`` (a quadratic
    Bézier curve whose control point stands ``rad`` times the distance off the middle)."""
    (x1, y1), (x2, y2) = a, b
    cx, cy = (x1 + x2) / 2 + rad * (y2 - y1), (y1 + y2) / 2 - rad * (x2 - x1)

    def at(t: float) -> tuple[float, float]:
        s = 1 - t
        return s * s * x1 + 2 * s * t * cx + t * t * x2, s * s * y1 + 2 * s * t * cy + t * t * y2
    return at


def _bends(edges: list, pos: dict, areas: dict) -> dict[tuple[str, str], float]:
    """A bend for every arrow that passes as few other boxes as it can; both directions between
    two phases bend alike, which puts them on opposite sides."""
    bends: dict[tuple[str, str], float] = {}
    steps = {(u, v) for u, v, _ in edges}
    for u, v, _ in edges:
        pair = [e for e in ((u, v), (v, u)) if e in steps]

        def hits(rad: float, pair: list = pair) -> int:
            return sum(x0 < x < x1 and y0 < y < y1 for a, b in pair for t in (0.2, 0.35, 0.5, 0.65, 0.8)
                       for x, y in [_curve(pos[a], pos[b], rad)(t)]
                       for p, ((x0, y0), (x1, y1)) in areas.items() if p not in (a, b))
        if (u, v) not in bends:
            bends.update(dict.fromkeys(pair, min((0.15, -0.15, 0.3, -0.3, 0.45, -0.45), key=hits)))
    return bends


_ON_ARROW = (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8)


def _place_label(ax: Axes, label: str, at: Callable[..., tuple[float, float]], taken: list, renderer: Any) -> None:
    """Put ``label`` on its arrow where it covers nothing placed before; failing that right beside
    the arrow, or a little away, tied to it by a thin line; ``taken`` gets its box."""
    frame = ax.get_window_extent(renderer)
    text = ax.text(*at(0.5), label, fontsize=_LABEL_FONT, ha="center", va="center", zorder=6, color="#222222",
                   bbox={"boxstyle": "round,pad=0.2", "fc": "#fffbe6", "ec": "#d9cfa6", "lw": 0.6, "alpha": 0.95})
    half = _extent(text, renderer)
    half = (half.width / 2 + 2, half.height / 2 + 2)
    to_data, to_px = ax.transData.inverted().transform, ax.transData.transform

    def fits(xy: tuple[float, float]) -> bool:
        text.set_position(xy)
        box = _extent(text, renderer)
        return frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1) and not any(
            box.overlaps(other) for other in taken)

    def touching(t: float, side: int) -> tuple[float, float]:
        """Beside the arrow at ``t``, the label's box just off the line."""
        (x0, y0), (x1, y1) = to_px([at(max(t - 0.02, 0)), at(min(t + 0.02, 1))])
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx_, ny_ = side * (y0 - y1) / length, side * (x1 - x0) / length
        shift = abs(nx_) * half[0] + abs(ny_) * half[1]
        return tuple(to_data(((x0 + x1) / 2 + nx_ * shift, (y0 + y1) / 2 + ny_ * shift)))

    on = (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8)
    beside = ((at(t), (at(t)[0] + r * math.cos(k * math.pi / 6), at(t)[1] + 0.8 * r * math.sin(k * math.pi / 6)))
              for r in (0.45, 0.7, 1.0, 1.4, 1.9, 2.5) for t in (0.5, 0.35, 0.65) for k in range(12))
    if not any(fits(at(t)) for t in on) and not any(fits(touching(t, side)) for t in on[:7] for side in (1, -1)):
        anchor, spot = next(((a, xy) for a, xy in beside if fits(xy)), (None, at(0.5)))
        text.set_position(spot)  # where nothing fits at all, on the arrow after all
        if anchor is not None:
            ax.annotate("", xy=anchor, xytext=spot, zorder=4, arrowprops={
                "arrowstyle": "-", "lw": 0.8, "color": "#b5a66a", "shrinkA": 0, "shrinkB": 0})
    taken.append(_extent(text, renderer))


def _equal_limits(ax: Axes, xr: tuple[float, float], yr: tuple[float, float]) -> None:
    """Widen one range so that a unit is as long across as it is up (arcs and label places)."""
    box = ax.get_window_extent().transformed(ax.figure.dpi_scale_trans.inverted())
    per_inch = max((xr[1] - xr[0]) / box.width, (yr[1] - yr[0]) / box.height)
    for (lo, hi), inches, setter in ((xr, box.width, ax.set_xlim), (yr, box.height, ax.set_ylim)):
        grow = (per_inch * inches - (hi - lo)) / 2
        setter(lo - grow, hi + grow)
    ax.set_axis_off()


def _short(moves: Any, n: int) -> str:
    """The ``n`` most telling moves: those with an effect (``9 reverse``) first, then the
    commonest; a forgotten announcement only where nothing else happened.  Cards with the same
    effect share it: ``A, K opens Runde``."""
    plain = [m for m, _ in moves.most_common() if not m.endswith("no Mau")] or [m for m, _ in moves.most_common()]
    plain.sort(key=lambda m: " " not in m.replace("take penalty", "").replace("sit out", ""))
    groups: dict[str, list[str]] = {}
    for m in plain[:n]:
        card, _, effect = m.partition(" ") if m not in ("take penalty", "sit out") else (m, "", "")
        groups.setdefault(effect, []).append(card)
    text = ", ".join(" ".join([", ".join(cards), effect]).strip() for effect, cards in groups.items())
    return text + ("\u00a0…" if len(plain) > n else "")  # a no-break space: "…" never on a line of its own
