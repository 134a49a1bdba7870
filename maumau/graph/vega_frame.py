"""Geometry for the Vega-Lite pictures of graphs: where a data point lands in pixels, how big a text
will be, arrows as sampled curves with a head, and labels placed where they cover nothing.

Vega-Lite measures no text before it draws, so text sizes are estimated from the number of
characters (generously: a label that is given too much room is only a little far from its arrow).
Pixels here count up from the bottom, as the data does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..charts import number

__all__ = ["Frame", "Box", "text_box", "arrow", "on_screen", "place", "boxes_layer", "text_layer", "data_row",
           "ON_ARROW", "crosses", "tie"]

Point = tuple[float, float]
#: Places along an arrow to try for its label, from the middle outwards.
ON_ARROW = (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8)
CHAR = 0.62   # a character's width, in font sizes (wide enough for most fonts)
LINE = 1.25   # a line's height, in font sizes


class Box(NamedTuple):
    """A rectangle in pixels."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def contains(self, point: Point) -> bool:
        return self.x0 <= point[0] <= self.x1 and self.y0 <= point[1] <= self.y1

    def inside(self, other: Box) -> bool:
        return other.x0 <= self.x0 and self.x1 <= other.x1 and other.y0 <= self.y0 and self.y1 <= other.y1

    def grown(self, by: float) -> Box:
        return Box(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)


class Frame:
    """A plot area: data ranges ``xs``, ``ys`` drawn ``width`` × ``height`` pixels."""

    def __init__(self, xs: Point, ys: Point, width: float, height: float) -> None:
        self.xs, self.ys, self.width, self.height = xs, ys, width, height

    def px(self, point: Point) -> Point:
        (x0, x1), (y0, y1) = self.xs, self.ys
        return ((point[0] - x0) / (x1 - x0) * self.width, (point[1] - y0) / (y1 - y0) * self.height)

    def data(self, point: Point) -> Point:
        (x0, x1), (y0, y1) = self.xs, self.ys
        return (x0 + point[0] / self.width * (x1 - x0), y0 + point[1] / self.height * (y1 - y0))

    @property
    def box(self) -> Box:
        return Box(0, 0, self.width, self.height)

    def encoding(self, x: str = "x", y: str = "y") -> dict[str, Any]:
        """x and y in data units on this frame's ranges, without axes."""
        def axis(field: str, lo: float, hi: float) -> dict[str, Any]:
            return {"field": field, "type": "quantitative", "axis": None,
                    "scale": {"domain": [number(lo), number(hi)], "nice": False, "zero": False}}
        return {"x": axis(x, *self.xs), "y": axis(y, *self.ys)}

    def rows(self, box: Box) -> dict[str, float | int]:
        """A pixel box as data for a ``rect`` mark (x, y, x2, y2 in data units)."""
        (x0, y0), (x1, y1) = self.data((box.x0, box.y0)), self.data((box.x1, box.y1))
        return {"x": number(x0), "y": number(y0), "x2": number(x1), "y2": number(y1)}


def text_box(at: Point, text: str, font: float, pad: float = 2.0) -> Box:
    """The estimated box of ``text`` (lines split at ``\\n``) centred on ``at`` (pixels)."""
    lines = text.split("\n")
    half_w = max(len(line) for line in lines) * CHAR * font / 2 + pad
    half_h = len(lines) * LINE * font / 2 + pad
    return Box(at[0] - half_w, at[1] - half_h, at[0] + half_w, at[1] + half_h)


def arrow(frame: Frame, curve: Callable[[float], Point], leave: Callable[[Point], bool],
          reach: Callable[[Point], bool], steps: int = 16) -> tuple[list[Point], Point, float]:
    """An arrow along ``curve`` (data units, t from 0 to 1): the points from where it ``leave``s
    its start to where it would ``reach`` its end (pixels), the head's place and its angle in
    degrees clockwise from up (Vega's ``angle``; a ``triangle-up`` symbol points up)."""
    def at(t: float) -> Point:
        return frame.px(curve(t))

    start = _edge(at, 0.0, next((t for t in (0.5, 0.65, 0.8, 0.95) if not leave(at(t))), 0.5), leave)
    end = _edge(at, 1.0, max(start, 0.5), reach)
    if end <= start:  # the two ends touch: a plain line between the centres
        start, end = 0.0, 1.0
    shares = {start + (end - start) * k / steps for k in range(steps + 1)}  # and every corner of a route
    points = [at(t) for t in sorted(shares | {t for t in getattr(curve, "corners", ()) if start < t < end})]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    return points, points[-1], math.degrees(math.atan2(x1 - x0, y1 - y0))


def _edge(at: Callable[[float], Point], inside: float, outside: float, within: Callable[[Point], bool]) -> float:
    """Where the curve crosses the border of ``within`` between ``inside`` and ``outside`` (by halving)."""
    if not within(at(inside)) or within(at(outside)):
        return inside
    for _ in range(20):
        middle = (inside + outside) / 2
        inside, outside = (middle, outside) if within(at(middle)) else (inside, middle)
    return outside


def on_screen(frame: Frame, curve: Callable[[float], Point],
              at: Callable[[float], float] = lambda t: t) -> Callable[[float], Point]:
    """A curve in data units as one in pixels (t → pixels), ``at`` choosing where along it t is."""
    return lambda t: frame.px(curve(at(t)))


def place(text: str, font: float, along: Callable[[float], Point], taken: list[Box], frame: Frame,
          avoid: Sequence[Sequence[Point]] = (), own: Sequence[Point] = ()) -> Box:
    """A box for a label of an arrow (``along``: t → pixels): on the arrow where it covers nothing
    in ``taken`` and no other arrow of ``avoid`` (polylines in pixels) runs across it, else just
    beside it, else a little away (where its ``tie`` to the arrow drawn as ``own`` crosses no box
    either, if it can); as a last resort on its middle.  ``taken`` gets the box."""
    def free(box: Box, lines: bool = True) -> bool:
        return box.inside(frame.box) and not any(box.overlaps(other) for other in taken) and not (
            lines and any(crosses(box, line) for line in avoid))

    def tied(box: Box) -> bool:
        line = tie(box, own)
        return free(box) and (line is None or not any(crosses(other, line) for other in taken))

    size = text_box((0, 0), text, font)
    half_w, half_h = (size.x1 - size.x0) / 2, (size.y1 - size.y0) / 2
    tries = [along(t) for t in ON_ARROW]
    for t in ON_ARROW[:7]:
        (xa, ya), (xb, yb) = along(max(t - 0.02, 0.0)), along(min(t + 0.02, 1.0))
        length = math.hypot(xb - xa, yb - ya) or 1.0
        nx, ny = (ya - yb) / length, (xb - xa) / length  # across the arrow
        shift = abs(nx) * half_w + abs(ny) * half_h + 2
        tries += [((xa + xb) / 2 + side * nx * shift, (ya + yb) / 2 + side * ny * shift) for side in (1, -1)]
    tries += [(along(t)[0] + r * math.cos(k * math.pi / 6), along(t)[1] + r * math.sin(k * math.pi / 6))
              for r in (30, 45, 60, 80, 105, 135, 170, 210, 260, 320, 390) for t in (0.5, 0.35, 0.65, 0.2, 0.8)
              for k in range(12)]
    boxes = [text_box(p, text, font) for p in tries]
    box = next((b for b in boxes if tied(b)), None) or next((b for b in boxes if free(b)), None) or next(
        # crowded: at least on no other text
        (b for b in boxes if free(b, lines=False)), text_box(along(0.5), text, font))
    taken.append(box)
    return box


def tie(box: Box, own: Sequence[Point]) -> list[Point] | None:
    """The line tying a label's ``box`` that is away from its arrow (``own``, pixels) to the arrow's
    nearest point; None for a label on or beside its arrow."""
    if not own or crosses(box.grown(4), own):
        return None
    centre = ((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
    return [centre, min(own, key=lambda p: math.dist(p, centre))]


def crosses(box: Box, line: Sequence[Point]) -> bool:
    """Whether a polyline (pixels) runs through ``box``: a point inside it or a segment cutting it."""
    def cut(p: Point, q: Point) -> bool:  # Liang-Barsky: is some part of the segment inside the box?
        t0, t1, dx, dy = 0.0, 1.0, q[0] - p[0], q[1] - p[1]
        for d, room in ((-dx, p[0] - box.x0), (dx, box.x1 - p[0]), (-dy, p[1] - box.y0), (dy, box.y1 - p[1])):
            if d == 0 and room < 0:
                return False
            if d < 0:
                t0 = max(t0, room / d)
            elif d > 0:
                t1 = min(t1, room / d)
        return t0 < t1
    return any(box.contains(p) for p in line) or any(cut(p, q) for p, q in zip(line, line[1:], strict=False))


def boxes_layer(frame: Frame, boxes: Sequence[Box], fill: str, stroke: str, opacity: float = 1.0) -> dict[str, Any]:
    """Rectangles behind texts (Vega-Lite's text marks have no box of their own)."""
    return {"data": {"values": [frame.rows(b) for b in boxes]},
            "mark": {"type": "rect", "fill": fill, "stroke": stroke, "strokeWidth": 0.6, "cornerRadius": 3,
                     "opacity": opacity},
            "encoding": {**frame.encoding(), "x2": {"field": "x2"}, "y2": {"field": "y2"}}}


def data_row(frame: Frame, px: Point) -> dict[str, float | int]:
    """A point in pixels as a row of data (x, y in data units)."""
    x, y = frame.data(px)
    return {"x": number(x), "y": number(y)}


def text_layer(frame: Frame, placed: Sequence[tuple[Box, str]], font: float,
               owners: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Texts centred in their boxes, several lines where they have ``\\n`` (Vega centres only the
    first line on a "middle" baseline, so a text hangs from the top of its lines instead); ``owners``:
    fields for each text's row (a label names its arrow, as the arrow's rows do)."""
    rows = [{**data_row(frame, ((b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2 + len(text.split("\n")) * LINE * font / 2)),
             "text": text, **(owners[k] if owners else {})} for k, (b, text) in enumerate(placed)]
    return {"data": {"values": rows}, "mark": {"type": "text", "fontSize": font, "lineBreak": "\n",
                                               "lineHeight": number(LINE * font), "baseline": "top",
                                               "align": "center", "color": "#222222"},
            "encoding": {**frame.encoding(), "text": {"field": "text"}}}
