"""Where things stand in a picture: state graphs in layers by depth, phases in fixed places,
and the arcs of the arrows between them (all in data units)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from .explore import GraphError
from .turn_phase import BLOCKED, NORMAL, OVER

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    from matplotlib.axes import Axes

__all__ = ["layered_layout", "phase_positions", "curve", "bends", "least_crossing", "BACK_BENDS", "equal_limits",
           "split_busy", "BUSY", "crossings"]

#: A phase machine with more labelled steps than this is drawn in two panels (issue 24: a tangle
#: of labels is unreadable on a projector): the steps of the normal turn, then all the others.
BUSY = 12

Point = tuple[float, float]


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


# --- phase machines -----------------------------------------------------------------------------------

def split_busy(graphs: Sequence[nx.DiGraph]) -> list[nx.DiGraph]:
    """The machines to draw, one panel each: a busy machine (over ``BUSY`` labelled steps) as two
    copies with every phase, one with the steps into and out of the normal turn, one with the
    rest; ``graph["part"]`` says which."""
    panels = []
    for G in graphs:
        labelled = [(u, v) for u, v in G.edges if u != v and not G.nodes[v]["terminal"]]
        if len(labelled) <= BUSY:
            panels.append(G)
            continue
        parts: tuple[tuple[str, Callable[[str, str], bool]], ...] = (
            ("steps of the normal turn", lambda u, v: NORMAL in (u, v)),
            ("the other steps", lambda u, v: NORMAL not in (u, v)))
        for part, keep in parts:
            H = G.copy()
            H.remove_edges_from([(u, v) for u, v in G.edges if u != v and not keep(u, v)])
            H.graph["part"] = part
            panels.append(H)
    return panels


#: Places round the normal turn: turn-like phases on the left and top, effects waiting for an
#: answer (penalties, skips) in the right column, the ends of the hand below.
_PLACES = {NORMAL: (0.0, 0.0), "wish active": (-2.3, 0.0), "drawn-card choice": (-2.3, 1.6),
           "last card locked": (-2.3, -1.6), "Ace extra play": (0.0, 1.6), "Runde running": (0.0, 1.6),
           OVER: (-1.15, -2.9), BLOCKED: (1.15, -2.9)}
_FREE = ((2.3, 0.0), (2.3, 1.6), (2.3, -1.6), (0.0, -1.6), *((x, y) for x in (4.6, -4.6, 6.9) for y in (0, 1.6, -1.6)))


def phase_positions(graphs: Sequence[nx.DiGraph]) -> dict[str, tuple[float, float]]:
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


# --- arrows and the axes' scale --------------------------------------------------------------------------

def curve(a: Point, b: Point, rad: float) -> Callable[[float], Point]:
    """The point at ``t`` of matplotlib's ``arc3`` connection from ``a`` to ``b`` (a quadratic
    Bézier curve whose control point stands ``rad`` times the distance off the middle)."""
    (x1, y1), (x2, y2) = a, b
    cx, cy = (x1 + x2) / 2 + rad * (y2 - y1), (y1 + y2) / 2 - rad * (x2 - x1)

    def at(t: float) -> Point:
        s = 1 - t
        return s * s * x1 + 2 * s * t * cx + t * t * x2, s * s * y1 + 2 * s * t * cy + t * t * y2
    return at


def bends(edges: list[tuple[str, str, Any]], pos: dict[str, Point], areas: dict[str, Any], margin: float = 0.0,
          keep_off: Sequence[tuple[Point, Point]] = ()) -> dict[tuple[str, str], float]:
    """A bend for every arrow that passes as few other boxes (grown by ``margin``, so that an arrow
    does not graze a corner) and ``keep_off`` areas (a panel's title) as it can; both directions
    between two phases bend alike, which puts them on opposite sides."""
    grown = {p: ((min(x0, x1) - margin, min(y0, y1) - margin), (max(x0, x1) + margin, max(y0, y1) + margin))
             for p, ((x0, y0), (x1, y1)) in areas.items()}
    found: dict[tuple[str, str], float] = {}
    steps = {(u, v) for u, v, _ in edges}
    for u, v, _ in edges:
        pair = [e for e in ((u, v), (v, u)) if e in steps]
        if (u, v) not in found:
            rad = least_crossing([(pos[a], pos[b]) for a, b in pair], _BENDS if len(pair) == 2 else (*_BENDS, 0.0),
                                 [area for p, area in grown.items() if p not in (u, v)] + list(keep_off))
            found.update(dict.fromkeys(pair, rad))
    return found


_BENDS = tuple(sign * k / 20 for k in range(2, 21) for sign in (1, -1))  # 0.1 to 1, either way
#: Bends tried for a state graph's move that is not one layer down (the first that crosses least).
BACK_BENDS = (0.25, -0.25, 0.4, -0.4, 0.15, -0.15, 0.6, -0.6, 0.8, -0.8)
#: Where along an arc it is tested against the boxes: densely, so that no corner is cut unseen.
_ALONG = tuple(k / 40 for k in range(1, 40))


def least_crossing(arcs: Sequence[tuple[Point, Point]], rads: Sequence[float],
                   areas: Sequence[tuple[Point, Point]]) -> float:
    """Of ``rads``, the first bend with which the ``arcs`` (from, to) pass through the fewest
    ``areas`` (boxes as ((x0, y0), (x1, y1)) in the same units)."""
    return min(rads, key=lambda rad: crossings(arcs, rad, areas))


def crossings(arcs: Sequence[tuple[Point, Point]], rad: float, areas: Sequence[tuple[Point, Point]]) -> int:
    """How often the ``arcs`` bent by ``rad`` are inside one of the ``areas`` (tested densely along them)."""
    return sum(min(x0, x1) < x < max(x0, x1) and min(y0, y1) < y < max(y0, y1) for a, b in arcs for t in _ALONG
               for x, y in [curve(a, b, rad)(t)] for (x0, y0), (x1, y1) in areas)


def equal_limits(ax: Axes, xr: Point, yr: Point) -> None:
    """Widen one range so that a unit is as long across as it is up (arcs and label places)."""
    box = ax.get_window_extent().transformed(ax.figure.dpi_scale_trans.inverted())
    per_inch = max((xr[1] - xr[0]) / box.width, (yr[1] - yr[0]) / box.height)
    for (lo, hi), inches, setter in ((xr, box.width, ax.set_xlim), (yr, box.height, ax.set_ylim)):
        grow = (per_inch * inches - (hi - lo)) / 2
        setter(lo - grow, hi + grow)
    ax.set_axis_off()
