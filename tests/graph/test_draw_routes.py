"""A move that no bend keeps off the texts goes round the columns (maumau/graph/routes.py): the
route keeps its margin off every box but the ones it starts and ends in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from maumau.graph.routes import Route, side_route
from maumau.graph.vega_frame import Box, crosses


def _boxes_of_a_layer(xs: list[float], y: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Texts of one layer: 0.6 wide, 0.5 tall, under their states at ``y``."""
    return [((x - 0.3, y - 0.65), (x + 0.3, y - 0.15)) for x in xs]


def test_a_move_back_up_past_a_full_layer_goes_round_it():
    layers = {0: [0.0], 1: [-2.0, -1.0, 0.0, 1.0, 2.0], 2: [-2.0, 2.0]}
    areas = [a for depth, xs in layers.items() for a in _boxes_of_a_layer(xs, -depth)]
    start, end = (2.0, -2.66), (-2.0, 0.0 - 1.0)  # from under the text of (2, -2) up to the state at (-2, -1)
    route = side_route(start, end, areas, (0.05, 0.05))
    assert route is not None
    assert route.points[0] == start and route.points[-1] == end
    inner = [Box(min(x0, x1) + 1e-6, min(y0, y1) + 1e-6, max(x0, x1) - 1e-6, max(y0, y1) - 1e-6)
             for (x0, y0), (x1, y1) in areas]
    touched = [b for b in inner if crosses(b, route.points)]
    # the only box it enters is none: the end is the state's centre, above its own text
    assert touched == [], touched
    assert max(abs(x) for x, _ in route.points) > 2.3  # outside the columns


def test_a_route_is_a_curve_along_its_length():
    route = Route([(0, 0), (0, 1), (3, 1)])
    assert route(0) == (0, 0) and route(1) == (3, 1)
    assert route(0.25) == (0, 1)  # a quarter of the length: the corner
    assert route.corners == [0.25]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(-4, 4), min_size=1, max_size=6, unique=True), min_size=3, max_size=6),
       st.data())
def test_a_route_keeps_off_every_box_it_does_not_start_or_end_in(rows, data):
    areas = [a for depth, xs in enumerate(rows) for a in _boxes_of_a_layer([float(x) for x in xs], -depth)]
    low = data.draw(st.integers(1, len(rows) - 1))
    high = data.draw(st.integers(0, low))
    sx, ex = float(data.draw(st.sampled_from(rows[low]))), float(data.draw(st.sampled_from(rows[high])))
    start, end = (sx, -low - 0.66), (ex, -float(high))
    route = side_route(start, end, areas, (0.05, 0.05))
    assert route is not None
    kept_off = [Box(min(x0, x1) - 0.04, min(y0, y1) - 0.04, max(x0, x1) + 0.04, max(y0, y1) + 0.04)
                for (x0, y0), (x1, y1) in areas]
    others = [b for b in kept_off if not b.contains(start) and not b.contains(end)]
    assert not [b for b in others if crosses(b, route.points)]
