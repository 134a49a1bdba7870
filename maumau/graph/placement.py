"""Labels on arrows that cover nothing: on the arrow where there is room, else beside it.

Both pictures use it: the moves on a state graph's edges and on a phase machine's arrows.
Boxes are compared in pixels (a text's size is in points, the places in data units), so the
figure must have its final size before labels are placed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .vega_frame import Box, crosses

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.text import Text

__all__ = ["LABEL_FONT", "extent", "place_label", "displayed"]

LABEL_FONT = 10.5  # moves on the arrows: 14.6 pixels at 100 dpi (style.TEXT_PT)
#: Places along an arrow to try, from its middle outwards.
_ON_ARROW = (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73, 0.2, 0.8)

Point = tuple[float, float]


def extent(text: Any, renderer: Any) -> Any:
    """The window extent of a text with its box (the pad of a bbox patch included), in pixels."""
    box = text.get_window_extent(renderer)
    patch = text.get_bbox_patch()
    pad = patch.get_boxstyle().pad * text.get_fontsize() if patch is not None else 0.0
    return box.padded(pad * text.figure.dpi / 72 + 1)


def place_label(ax: Axes, label: str, at: Callable[..., Point], taken: list[Any], renderer: Any,
                font: float = LABEL_FONT, gid: str | None = None, avoid: Sequence[Sequence[Point]] = ()) -> None:
    """Put ``label`` on its arrow where it covers nothing placed before and no other arrow of
    ``avoid`` (lines in pixels, see ``displayed``) runs across it; failing that right beside the
    arrow, or a little away, tied to it by a thin line; ``taken`` gets its box.  ``gid`` names the
    arrow (the label and its tie line get it too)."""
    frame = ax.get_window_extent(renderer)
    text = ax.text(*at(0.5), label, fontsize=font, ha="center", va="center", zorder=6, color="#222222",
                   bbox={"boxstyle": "round,pad=0.2", "fc": "#fffbe6", "ec": "#d9cfa6", "lw": 0.6, "alpha": 0.95})
    text.set_gid(gid)
    fits, loose = _fits(text, frame, taken, renderer, avoid), _fits(text, frame, taken, renderer, ())
    touching = _touching(ax, text, at, renderer)
    if not any(fits(at(t)) for t in _ON_ARROW) and not any(
            fits(touching(t, side)) for t in _ON_ARROW[:7] for side in (1, -1)):
        beside = [(at(t), (at(t)[0] + r * math.cos(k * math.pi / 6), at(t)[1] + 0.8 * r * math.sin(k * math.pi / 6)))
                  for r in (0.45, 0.7, 1.0, 1.4, 1.9, 2.5, 3.2) for t in (0.5, 0.35, 0.65, 0.2, 0.8)
                  for k in range(12)]
        to_px = ax.transData.transform

        def tied(anchor: Point, spot: Point) -> bool:  # the tie line runs across no box placed before
            line = [tuple(xy) for xy in to_px([anchor, spot])]
            return not any(crosses(Box(*box.extents), line) for box in taken)
        anchor, spot = next(((a, xy) for a, xy in beside if fits(xy) and tied(a, xy)), None) or next(
            ((a, xy) for a, xy in beside if fits(xy)), None) or next(  # crowded: on no text at least
            ((a, xy) for a, xy in beside if loose(xy)), (None, at(0.5)))
        text.set_position(spot)  # where nothing fits at all, on the arrow after all
        if anchor is not None:
            tie = ax.annotate("", xy=anchor, xytext=spot, zorder=4, arrowprops={
                "arrowstyle": "-", "lw": 0.8, "color": "#b5a66a", "shrinkA": 0, "shrinkB": 0})
            if tie.arrow_patch is not None:
                tie.arrow_patch.set_gid(gid)
    taken.append(extent(text, renderer))


def _fits(text: Text, frame: Any, taken: list[Any], renderer: Any,
          avoid: Sequence[Sequence[Point]]) -> Callable[[Point], bool]:
    """A test that moves ``text`` to a place and says whether it stays inside the axes there,
    covers nothing in ``taken`` and lies on no line of ``avoid`` (the text is left where it was
    tried last)."""
    def fits(xy: Point) -> bool:
        text.set_position(xy)
        box = extent(text, renderer)
        return frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1) and not any(
            box.overlaps(other) for other in taken) and not any(crosses(Box(*box.extents), line) for line in avoid)
    return fits


def displayed(arrow: Any) -> list[list[Point]]:
    """An arrow's lines in pixels (a FancyArrowPatch: its shaft, and its head where it has one)."""
    path = arrow.get_transform().transform_path(arrow.get_path())
    return [[(float(x), float(y)) for x, y in polygon] for polygon in path.to_polygons(closed_only=False)]


def _touching(ax: Axes, text: Text, at: Callable[..., Point], renderer: Any) -> Callable[[float, int], Point]:
    """Places beside the arrow: at ``t``, on ``side`` 1 or -1, the label's box just off the line."""
    half_box = extent(text, renderer)
    half = (half_box.width / 2 + 2, half_box.height / 2 + 2)
    to_data, to_px = ax.transData.inverted().transform, ax.transData.transform

    def touching(t: float, side: int) -> Point:
        (x0, y0), (x1, y1) = to_px([at(max(t - 0.02, 0)), at(min(t + 0.02, 1))])
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx_, ny_ = side * (y0 - y1) / length, side * (x1 - x0) / length
        shift = abs(nx_) * half[0] + abs(ny_) * half[1]
        return tuple(to_data(((x0 + x1) / 2 + nx_ * shift, (y0 + y1) / 2 + ny_ * shift)))
    return touching
