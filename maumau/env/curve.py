"""The learning curve of a training run as a chart: Vega-Lite everywhere, a matplotlib PNG where it can be drawn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..charts import PALETTE, Chart, new_figure
from ..text.i18n import check_language
from .words import say

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["learning_curve"]


def learning_curve(curve: Sequence[Mapping[str, float]], series: Mapping[str, str] | None = None,
                   baseline: float | None = None, title: str | None = None, lang: str | None = None) -> Chart:
    """Win rate by generation, one line per ``series`` (column -> label); ``baseline`` draws a dashed
    level (e.g. what a random player wins); the axes, the legend and the default title in ``lang``
    (None: the course's language)."""
    lang = check_language(lang)
    title = say("curve_title", lang) if title is None else title
    series = dict(series or {"check": say("check", lang), "elite": say("elite", lang)})
    generation, win_rate = say("generation", lang), say("win_rate", lang)
    rows = [{"generation": row["generation"], "win rate": row[key], "series": label}
            for row in curve for key, label in series.items()]
    layers: list[dict[str, object]] = [{
        "mark": {"type": "line", "point": True},
        "encoding": {
            "x": {"field": "generation", "type": "quantitative", "title": generation, "axis": {"tickMinStep": 1}},
            "y": {"field": "win rate", "type": "quantitative", "title": win_rate,
                  "scale": {"domain": [0, 1]}},
            "color": {"field": "series", "type": "nominal", "title": None,
                      "scale": {"domain": list(series.values()), "range": list(PALETTE[:len(series)])}},
            "tooltip": [{"field": "series"}, {"field": "generation"}, {"field": "win rate", "format": ".2f"}],
        },
    }]
    if baseline is not None:
        layers.append({"data": {"values": [{"level": baseline}]}, "mark": {"type": "rule", "strokeDash": [4, 4],
                       "color": "#7f7f7f"}, "encoding": {"y": {"field": "level", "type": "quantitative"}}})
    spec = {"title": title, "width": 480, "height": 260, "data": {"values": rows}, "layer": layers}

    def draw() -> Figure:
        fig = new_figure((6.0, 3.25))
        ax = fig.add_subplot()
        for colour, (key, label) in zip(PALETTE, series.items(), strict=False):
            ax.plot([r["generation"] for r in curve], [r[key] for r in curve], marker="o", color=colour, label=label)
        if baseline is not None:
            ax.axhline(baseline, color="#7f7f7f", linestyle="--", linewidth=1, label=say("random", lang))
        ax.set(xlabel=generation, ylabel=win_rate, ylim=(0, 1.02), title=title)
        ax.set_xticks([r["generation"] for r in curve])
        ax.legend(loc="lower right", fontsize="small")
        fig.tight_layout()
        return fig

    return Chart(spec, draw)
