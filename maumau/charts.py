"""Pictures that show everywhere: a ``Chart`` is a Vega-Lite v5 spec plus, where it can be, the same
picture drawn with matplotlib.

In Jupyter a chart shows as a PNG drawn with matplotlib where matplotlib can be imported, and as
Vega-Lite (which JupyterLab and JupyterLite render themselves, offline) where it cannot, as in the
browser edition of the course (Pyodide).  Either can be asked for:

>>> import maumau as mm
>>> chart = mm.charts.histogram({"a": [1, 2, 2, 3], "b": [2, 3, 3]}, bins=[1, 2, 3, 4], title="Lengths")
>>> chart
<Chart: Lengths>
>>> chart.spec["$schema"]
'https://vega.github.io/schema/vega-lite/v5.json'

``chart.spec`` is the Vega-Lite spec (a dict, its data inline), ``chart.vega_lite()`` and
``chart.png()`` show only the one kind, ``chart.figure()`` is a new matplotlib Figure to change or
save, and ``mm.charts.use("vega-lite")`` (or ``"png"``, ``"auto"``) says what every chart shows.
Nothing here imports matplotlib before a PNG is asked for.
"""

from __future__ import annotations

import base64
import io
import json
import math
import sys
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["Chart", "Picture", "histogram", "use", "has_matplotlib", "new_figure", "bin_edges", "bin_counts",
           "draw_histogram", "number", "SCHEMA", "VEGA_LITE", "PALETTE"]

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
#: The mime type JupyterLab's built-in Vega renderer shows.
VEGA_LITE = "application/vnd.vegalite.v5+json"
#: matplotlib's default colours (tab10), so that both pictures of a chart look alike.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
#: Pixels per inch of a matplotlib size, for the size of the Vega-Lite picture.
PX_PER_INCH = 80
_KINDS = ("auto", "png", "vega-lite")
_shown = "auto"


def has_matplotlib() -> bool:
    """Whether matplotlib can be imported here (not in Pyodide, nor where it is blocked)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def use(kind: str) -> None:
    """What every chart shows in Jupyter from now on: ``"png"`` (matplotlib), ``"vega-lite"``, or
    ``"auto"`` (the default: PNG where matplotlib can be imported, else Vega-Lite).  A chart made
    without a matplotlib drawing always shows as Vega-Lite."""
    global _shown
    if kind not in _KINDS:
        raise ValueError(f"a chart shows as 'auto', 'png' or 'vega-lite', not {kind!r}")
    if kind == "png" and not has_matplotlib():
        raise ImportError("PNG charts need matplotlib, which cannot be imported here: use 'vega-lite' or 'auto'")
    _shown = kind


#: Text sizes of the course's pictures (issue 24): 14 pixels and more in Vega-Lite, 10.5 points
#: (14.6 pixels at the 100 dpi of ``Chart.png``) in matplotlib.
READABLE_PX, READABLE_PT = 14, 10.5


def new_figure(figsize: tuple[float, float], **options: Any) -> Figure:
    """A matplotlib Figure on an Agg canvas, outside pyplot: nothing keeps it alive, and a notebook
    never shows it twice (pyplot's figures show again at the end of a cell until they are closed)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, **options)
    FigureCanvasAgg(fig)
    return fig


class Picture:
    """One kind of picture of a chart (``chart.png()``, ``chart.vega_lite()``): ``mime`` and
    ``data`` (PNG bytes, or the Vega-Lite spec); shows in Jupyter as just that."""

    def __init__(self, mime: str, data: Any, title: str) -> None:
        self.mime, self.data, self.title = mime, data, title

    def __repr__(self) -> str:
        return f"<Chart: {self.title}>"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        data = base64.b64encode(self.data).decode("ascii") if isinstance(self.data, bytes) else self.data
        return {self.mime: data, "text/plain": repr(self)}

    @property
    def _ipython_display_(self) -> Callable[[], None] | None:
        """How IPython shows the picture: in Pyodide's kernel by ``_display_in_pyodide``; elsewhere
        None, so that IPython asks ``_repr_mimebundle_`` as usual."""
        return self._display_in_pyodide if sys.platform == "emscripten" else None

    def _display_in_pyodide(self) -> None:
        """Pyodide's kernel hands display data to JavaScript with ``toJs()``, where a None in a dict
        becomes ``undefined`` and its key is dropped: ``"axis": null`` (no axis) or ``"scale": null``
        (the colours as given) would silently turn into Vega-Lite's defaults.  So the picture is
        displayed with Pyodide's ``jsnull`` in their place (a result's JSON check would refuse it)."""
        from IPython.display import display

        display(_nulls_kept(self._repr_mimebundle_()), raw=True)


def _nulls_kept(value: Any) -> Any:
    """``value`` with every None as Pyodide's ``jsnull``, which JavaScript gets as ``null``."""
    from pyodide.ffi import jsnull  # type: ignore[import-not-found]  # only inside Pyodide

    def kept(v: Any) -> Any:
        if v is None:
            return jsnull
        if isinstance(v, dict):
            return {k: kept(x) for k, x in v.items()}
        if isinstance(v, list):
            return [kept(x) for x in v]
        return v

    return kept(value)


class Chart:
    """A picture as a Vega-Lite v5 spec (``spec``, a plain dict with its data inline) and, optionally,
    ``draw``: a function that draws the same picture as a new matplotlib Figure (see ``new_figure``).

    In Jupyter it shows as a PNG where matplotlib can be imported, else as Vega-Lite (see ``use``).
    """

    def __init__(self, spec: dict[str, Any], draw: Callable[[], Figure] | None = None) -> None:
        self.spec = {"$schema": SCHEMA, **spec}
        # texts of at least 14 pixels, readable on a projector at 1280×720 (a picture may say more)
        config = self.spec.setdefault("config", {})
        for part in ("axis", "legend", "header"):
            config.setdefault(part, {}).setdefault("labelFontSize", READABLE_PX)
            config[part].setdefault("titleFontSize", READABLE_PX)
        config.setdefault("title", {}).setdefault("fontSize", READABLE_PX + 2)
        config.setdefault("text", {}).setdefault("fontSize", READABLE_PX)
        config.setdefault("locale", vega_locale())
        self._draw = draw

    @property
    def title(self) -> str:
        title = self.spec.get("title", "")
        return str(title.get("text", "") if isinstance(title, dict) else title) or "chart"

    def __repr__(self) -> str:
        return f"<Chart: {self.title}>"

    def to_json(self, indent: int | None = None) -> str:
        """The Vega-Lite spec as JSON (paste it into the Vega editor, or save it)."""
        return json.dumps(self.spec, indent=indent, ensure_ascii=False)

    def figure(self) -> Figure:
        """The picture drawn with matplotlib, as a new Figure (``chart.figure().savefig("hands.png")``)."""
        if self._draw is None:
            raise ValueError(f"{self!r} has no matplotlib drawing: show chart.spec (Vega-Lite)")
        if not has_matplotlib():
            raise ImportError("chart.figure() needs matplotlib, which cannot be imported here (in the browser "
                              "edition there is none): chart.spec is the same picture as Vega-Lite") from None
        import matplotlib

        with matplotlib.rc_context({"font.size": READABLE_PT}):  # ticks, labels, legends: 14.6 px at 100 dpi
            return self._draw()

    def png(self) -> Picture:
        """The matplotlib picture as PNG (``.data``: the bytes), shown in Jupyter as an image."""
        buffer = io.BytesIO()
        # no "Software" entry: the bytes depend on the picture only, not on matplotlib's version
        self.figure().savefig(buffer, format="png", dpi=100, bbox_inches="tight", facecolor="white",
                              metadata={"Software": None})
        return Picture("image/png", buffer.getvalue(), self.title)

    def vega_lite(self) -> Picture:
        """The Vega-Lite picture, shown in Jupyter as Vega-Lite (interactive: tooltips) even where
        matplotlib could draw it."""
        return Picture(VEGA_LITE, self.spec, self.title)

    def picture(self) -> Picture:
        """The picture Jupyter shows: PNG where matplotlib can draw it, else Vega-Lite (see ``use``)."""
        # a chart without a matplotlib drawing is Vega-Lite whatever was chosen
        as_png = self._draw is not None and (_shown == "png" or (_shown == "auto" and has_matplotlib()))
        return self.png() if as_png else self.vega_lite()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return self.picture()._repr_mimebundle_(include, exclude)

    @property
    def _ipython_display_(self) -> Callable[[], None] | None:
        """In Pyodide's kernel, the picture's own display (see ``Picture._display_in_pyodide``)."""
        return self.picture()._display_in_pyodide if sys.platform == "emscripten" else None


# --- numbers for specs ------------------------------------------------------------------------------

def vega_locale(lang: str | None = None) -> dict[str, Any]:
    """How Vega writes numbers (axes, tooltips with a format) in the course's language (the one
    chosen when the chart is made): 42.3% and 1,234.5 in English, 42,3 % and 1.234,5 in German,
    42,3 % and 1 234,5 in Hungarian (d3-format's locale, which Vega-Lite takes as ``config.locale``)."""
    from .text.i18n import NUMBER_FORMAT, language

    point, thousands, space = NUMBER_FORMAT.get(lang or language(), NUMBER_FORMAT["en"])
    return {"number": {"decimal": point, "thousands": thousands, "grouping": [3], "currency": ["", ""],
                       "percent": space + "%"}}


def number(x: float) -> float | int:
    """A number as a spec holds it: whole numbers as ints, others to six decimals (the same JSON
    on every machine)."""
    if isinstance(x, int) or (math.isfinite(x) and float(x).is_integer()):
        return int(x)
    return round(x, 6)


# --- histograms -------------------------------------------------------------------------------------

def bin_edges(values: Sequence[float], bins: int | Sequence[float]) -> list[float]:
    """The edges of ``bins``: given edges as they are, or a number of equal bins from the smallest
    value to the largest (as numpy and matplotlib make them)."""
    if not isinstance(bins, int):
        edges = [float(e) for e in bins]
        if len(edges) < 2 or any(b <= a for a, b in zip(edges, edges[1:], strict=False)):
            raise ValueError("bins are a number, or at least two edges in increasing order")
        return edges
    if bins < 1:
        raise ValueError(f"bins is at least 1, not {bins}")
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if low == high:
        low, high = low - 0.5, high + 0.5
    return [low + (high - low) * i / bins for i in range(bins)] + [float(high)]


def bin_counts(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """How many values fall into each bin: ``edges[i] <= v < edges[i + 1]``, the last bin with its
    right edge; values outside the edges are not counted (as numpy does)."""
    counts = [0] * (len(edges) - 1)
    for v in values:
        if edges[0] <= v <= edges[-1]:
            counts[min(bisect_right(edges, v), len(edges) - 1) - 1] += 1
    return counts


def histogram(data: Mapping[str, Sequence[float]] | Sequence[float], bins: int | Sequence[float] = 20, *,
              title: str = "", x: str = "value", y: str = "count", style: str = "auto",
              size: tuple[float, float] = (9, 4)) -> Chart:
    """Histograms of one or more series on the same bins, overlaid: ``data`` maps a name to its
    values (or is one list of values).  ``style``: ``"step"`` (outlines), ``"bars"`` (translucent
    bars), or ``"auto"``: bars for one series, outlines for more.  ``size`` in inches (matplotlib)."""
    series = dict(data) if isinstance(data, Mapping) else {"": list(data)}
    if style == "auto":
        style = "bars" if len(series) == 1 else "step"
    if style not in ("step", "bars"):
        raise ValueError(f"style is 'step', 'bars' or 'auto', not {style!r}")
    edges = bin_edges([v for values in series.values() for v in values], bins)
    counts = {name: bin_counts(values, edges) for name, values in series.items()}
    rows = _bin_rows(counts, edges, padded=style == "step")
    colours = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(series)}
    spec = _histogram_spec(rows, edges, colours, style, title, x, y, size)

    def draw() -> Figure:
        fig = new_figure(size, layout="constrained")
        draw_histogram(fig.subplots(), counts, edges, colours, style)
        fig.axes[0].set(xlabel=x, ylabel=y, title=title)
        return fig
    return Chart(spec, draw)


def _bin_rows(counts: Mapping[str, list[int]], edges: list[float], padded: bool) -> list[dict[str, Any]]:
    """One row per series and bin; ``padded``: an empty bin on either side, so that a step outline
    starts and ends on the floor."""
    rows = []
    for name, found in counts.items():
        bins = list(zip(edges, edges[1:], found, strict=False))
        if padded:
            first, last = edges[1] - edges[0], edges[-1] - edges[-2]
            bins = [(edges[0] - first, edges[0], 0), *bins, (edges[-1], edges[-1] + last, 0)]
        rows += [{"series": name, "start": number(a), "end": number(b), "middle": number((a + b) / 2),
                  "count": n} for a, b, n in bins]
    return rows


def _histogram_spec(rows: list[dict[str, Any]], edges: list[float], colours: Mapping[str, str], style: str,
                    title: str, x: str, y: str, size: tuple[float, float]) -> dict[str, Any]:
    step = style == "step"
    mark: dict[str, Any] = {"type": "line", "interpolate": "step", "strokeWidth": 2} if step else {
        "type": "rect", "opacity": 0.6 if len(colours) > 1 else 0.9}
    x_field = {"field": "middle" if step else "start", "type": "quantitative", "title": x,
               "scale": {"domain": [number(edges[0]), number(edges[-1])], "nice": False, "zero": False}}
    encoding: dict[str, Any] = {"x": x_field, "y": {"field": "count", "type": "quantitative", "title": y,
                                                    "stack": None}}
    if not step:
        encoding["x2"], encoding["y2"] = {"field": "end"}, {"datum": 0}
        encoding["tooltip"] = [{"field": "series", "title": "series"}, {"field": "start", "title": "from"},
                               {"field": "end", "title": "below"}, {"field": "count", "title": y}]
    if len(colours) > 1 or "" not in colours:
        encoding["color"] = {"field": "series", "type": "nominal", "title": None,
                             "scale": {"domain": list(colours), "range": list(colours.values())}}
    else:
        mark["color"] = PALETTE[0]
    if step:
        mark["clip"] = True  # the padding bins reach half a bin past the edges
    return {"title": title, "width": size[0] * PX_PER_INCH, "height": size[1] * PX_PER_INCH,
            "data": {"values": rows}, "mark": mark, "encoding": encoding}


def draw_histogram(ax: Axes, counts: Mapping[str, list[int]], edges: list[float], colours: Mapping[str, str],
                   style: str) -> None:
    """The counts as matplotlib stairs (the same numbers as the spec, not counted again)."""
    for name, found in counts.items():
        if style == "step":
            ax.stairs(found, edges, color=colours[name], linewidth=2, label=name or None)
        else:
            ax.stairs(found, edges, color=colours[name], fill=True, alpha=0.6 if len(counts) > 1 else 0.9,
                      label=name or None)
    ax.set_xlim(edges[0], edges[-1])
    if len(counts) > 1 or "" not in counts:
        ax.legend(frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
