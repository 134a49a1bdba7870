"""Arrows that go round: a state graph's move back up (or across) a level that no bend keeps off
the states' texts is drawn as a route outside the columns instead (issue 24: no text of a
picture with an arrow across it).

The route leaves its state downwards into the free lane under the state's text, runs along that
lane to the outside of the picture, up (or down) beside every column, along the free lane above
the target and down into it.  Lanes and sides are found by testing the boxes of the picture, in
whatever units the caller uses (data units in both renderers).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import accumulate

from .vega_frame import Box, crosses

__all__ = ["Route", "side_route"]

Point = tuple[float, float]
Area = tuple[Point, Point]
#: How far (in lanes of ``margin``) a route looks for a free lane under its start or above its end.
_LANE_TRIES = 60


class Route:
    """A polyline as a curve: ``route(t)`` is the point a share ``t`` (0 to 1) along its length;
    ``corners`` are the shares where it bends (a drawing samples them, so no corner is cut)."""

    def __init__(self, points: Sequence[Point]) -> None:
        self.points = [(float(x), float(y)) for x, y in points]
        lengths = [math.dist(p, q) for p, q in zip(self.points, self.points[1:], strict=False)]
        total = sum(lengths) or 1.0
        self._at = [s / total for s in accumulate(lengths, initial=0.0)]
        self.corners = self._at[1:-1]

    def __call__(self, t: float) -> Point:
        t = min(max(t, 0.0), 1.0)
        k = next((k for k in range(1, len(self._at)) if t <= self._at[k]), len(self._at) - 1)
        span = self._at[k] - self._at[k - 1] or 1.0
        share = (t - self._at[k - 1]) / span
        (x0, y0), (x1, y1) = self.points[k - 1], self.points[k]
        return x0 + share * (x1 - x0), y0 + share * (y1 - y0)


def side_route(start: Point, end: Point, areas: Sequence[Area], margin: Point, top: Point | None = None,
               ) -> Route | None:
    """A route from ``start`` (under the state's text) to ``end`` (the target's centre; ``top``: where
    its marker begins, if the line should stop there) that keeps ``margin`` (x, y) off every area but
    the ones it starts or ends in; None when no free lane is found.  Of the two sides, the shorter."""
    mx, my = margin
    boxes = [Box(min(x0, x1) - mx, min(y0, y1) - my, max(x0, x1) + mx, max(y0, y1) + my)
             for (x0, y0), (x1, y1) in areas]
    sides = (min(b.x0 for b in boxes) - mx, max(b.x1 for b in boxes) + mx) if boxes else ()
    boxes = [b for b in boxes if not b.contains(start) and not b.contains(end)]

    def free(*points: Point) -> bool:
        return not any(crosses(b, points) for b in boxes)

    routes = []
    for side in sides:
        below = next((y for y in (start[1] - my * k for k in range(2, _LANE_TRIES))
                      if free(start, (start[0], y), (side, y))), None)
        above = next((y for y in (end[1] + my * k for k in range(2, _LANE_TRIES))
                      if free((side, y), (end[0], y), end)), None)
        if below is not None and above is not None and free((side, below), (side, above)):
            routes.append([start, (start[0], below), (side, below), (side, above), (end[0], above), top or end])
    if not routes:
        return None
    return Route(min(routes, key=lambda r: sum(math.dist(p, q) for p, q in zip(r, r[1:], strict=False))))
