"""The picture of a simulation (``Simulation.plot()``): who wins, with 95 % intervals, how long a hand
lasts, and the rules acting, side by side; a ``Chart`` (Vega-Lite, and matplotlib where it can be
imported).  The numbers are worked out once, here, and both pictures draw the same ones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..charts import PX_PER_INCH, Chart, bin_counts, bin_edges, new_figure, number
from ..core.variants import variant, variant_names
from ..text.i18n import fired_rule, t
from ..text.i18n import number as written

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    from .results import Simulation

__all__ = ["plot"]

PLAYER, SEAT, FAIR, LENGTH, RULE, INK = "#2e86c1", "#7f8c8d", "#c0392b", "#48c9b0", "#f5b041", "#1b2631"
#: A Vega-Lite legend below its panel, outside the plot: Vega lays it out where no mark is.
BELOW: dict[str, Any] = {"orient": "bottom", "title": None, "symbolType": "stroke"}


class Numbers(NamedTuple):
    """What the three panels show."""

    title: str
    wins: list[dict[str, Any]]       # per player, then per seat, top to bottom
    fair: float                      # the fair share of the hands, in %
    edges: list[float]               # the bins of the hand lengths
    counts: list[int]
    mean: float
    median: float
    rules: list[tuple[str, float, str]]  # at most 12, the commonest first: label, times per hand, tooltip


def numbers(sim: Simulation) -> Numbers:
    """The numbers and words of the three panels, in the course's language (``mm.set_language``)."""
    rows = [(r["player"], "player", r) for r in sim.by_player()] + [
        (t("seat.label", seat=r["seat"]), "seat", r) for r in sim.by_seat()]
    wins = [{"who": name, "kind": kind, "wins": r["wins"], "games": r["games"],
             "rate": number(r["win_rate"] * 100), "low": number(r["ci_low"] * 100),
             "high": number(r["ci_high"] * 100)} for name, kind, r in rows]
    lengths = sim.lengths
    edges = bin_edges(lengths, min(40, max(5, len(set(lengths)))))
    stats = sim.length_stats()
    same = len(set(sim.players)) == 1
    known = variant(sim.variant) if sim.variant in variant_names() else None
    players = f"{len(sim.players)} × {sim.players[0]}" if same else t("sim.versus").join(sim.names)
    title = t("sim.title", variant=known.title if known else sim.variant, hands=written(sim.games), players=players)
    rules = [(*fired_rule(known, name), rate) for name, rate in list(sim.rules_fired().items())[:12]]
    return Numbers(title, wins, 100 / len(sim.players), edges, bin_counts(lengths, edges), stats["mean"],
                   stats["median"], [(label, rate, tip) for label, tip, rate in rules])


def plot(sim: Simulation, figsize: tuple[float, float]) -> Chart:
    """The chart of ``Simulation.plot``."""
    found = numbers(sim)
    # narrower than the matplotlib panels: the three side by side, with their labels, fit a notebook
    width, height = figsize[0] * PX_PER_INCH / 3 - 100, figsize[1] * PX_PER_INCH - 80
    spec = {"title": found.title, "spacing": 40,
            "resolve": {"scale": {"color": "independent", "strokeDash": "independent"}},
            "hconcat": [_who_wins(found, width, height), _lengths(found, width, height),
                        _rules(found, width, height)]}
    return Chart(spec, lambda: _figure(found, figsize))


# --- Vega-Lite ----------------------------------------------------------------------------------------

def _who_wins(found: Numbers, width: float, height: float) -> dict[str, Any]:
    y = {"field": "who", "type": "nominal", "title": None, "sort": [w["who"] for w in found.wins]}
    x = {"field": "rate", "type": "quantitative", "title": t("sim.won_axis"), "scale": {"domain": [0, 100]}}
    tooltip = [{"field": "who", "title": t("sim.who")}, {"field": "wins", "title": t("sim.wins")},
               {"field": "games", "title": t("sim.hands")}, {"field": "rate", "title": t("sim.won")},
               {"field": "low", "title": t("sim.low")}, {"field": "high", "title": t("sim.high")}]
    colour = {"field": "kind", "type": "nominal", "legend": None,
              "scale": {"domain": ["player", "seat"], "range": [PLAYER, SEAT]}}
    return {"title": t("sim.who_wins"), "width": width, "height": height, "data": {"values": found.wins}, "layer": [
        {"mark": {"type": "bar", "height": {"band": 0.6}},
         "encoding": {"y": y, "x": x, "color": colour, "tooltip": tooltip}},
        {"mark": {"type": "rule", "color": INK}, "encoding": {"y": y, "x": {"field": "low", "type": "quantitative"},
                                                             "x2": {"field": "high"}}},
        # the fair share is named in a legend below the panel: a label at the line's foot stood on a bar
        {"data": {"values": [{"fair": number(found.fair)}]}, "mark": {"type": "rule", "color": FAIR},
         "encoding": {"x": {"field": "fair", "type": "quantitative"},
                      "strokeDash": {"datum": t("sim.fair"), "type": "nominal", "scale": {"range": [[4, 3]]},
                                     "legend": BELOW | {"symbolStrokeColor": FAIR}}}}]}


def _lengths(found: Numbers, width: float, height: float) -> dict[str, Any]:
    bins = [{"start": number(a), "end": number(b), "hands": n}
            for a, b, n in zip(found.edges, found.edges[1:], found.counts, strict=False)]
    # the labels stand at the top, one under the other (y in pixels: no scale)
    marks = [{"what": t("sim.mean", x=written(found.mean)), "at": number(found.mean)},
             {"what": t("sim.median", x=_whole(found.median)), "at": number(found.median)}]
    x = {"field": "start", "type": "quantitative", "title": t("sim.decisions"),
         "scale": {"domain": [number(found.edges[0]), number(found.edges[-1])], "nice": False, "zero": False}}
    at = {"field": "at", "type": "quantitative"}
    # named in a legend below the panel, as the fair share is: labels at the top stood on the tallest bars
    dash = {"field": "what", "type": "nominal", "legend": BELOW | {"symbolStrokeColor": INK},
            "scale": {"domain": [m["what"] for m in marks], "range": [[1, 0], [2, 2]]}}
    return {"title": t("sim.lengths"), "width": width, "height": height, "layer": [
        {"data": {"values": bins}, "mark": {"type": "rect", "color": LENGTH, "stroke": "white", "strokeWidth": 0.5},
         "encoding": {"x": x, "x2": {"field": "end"}, "y": {"field": "hands", "type": "quantitative",
                                                             "title": t("sim.hands")}, "y2": {"datum": 0},
                      "tooltip": [{"field": "start", "title": t("sim.from")}, {"field": "end", "title": t("sim.below")},
                                  {"field": "hands", "title": t("sim.hands")}]}},
        {"data": {"values": marks}, "mark": {"type": "rule", "color": INK, "strokeWidth": 1.2},
         "encoding": {"x": at, "strokeDash": dash}}]}


def _rules(found: Numbers, width: float, height: float) -> dict[str, Any]:
    base = {"title": t("sim.rules"), "width": width, "height": height}
    if not found.rules:
        return {**base, "data": {"values": [{"text": t("sim.no_rule")}]},
                "mark": {"type": "text", "fontSize": 14}, "encoding": {"text": {"field": "text"}}}
    values = [{"rule": label, "per_hand": number(rate), "says": tip} for label, rate, tip in found.rules]
    return {**base, "data": {"values": values}, "mark": {"type": "bar", "color": RULE, "height": {"band": 0.6}},
            "encoding": {"y": {"field": "rule", "type": "nominal", "title": None, "sort": [v["rule"] for v in values]},
                         "x": {"field": "per_hand", "type": "quantitative", "title": t("sim.per_hand")},
                         "tooltip": [{"field": "rule", "title": t("sim.rule")}, {"field": "says", "title": " "},
                                     {"field": "per_hand", "title": t("sim.per_hand")}]}}


def _whole(x: float) -> str:
    """A whole number as one, else with one decimal; as the course's language writes it (1.234,5)."""
    return written(x, 0 if float(x).is_integer() else 1)


# --- matplotlib ---------------------------------------------------------------------------------------

def _figure(found: Numbers, figsize: tuple[float, float]) -> Figure:
    fig = new_figure(figsize, layout="constrained")
    ax_win, ax_len, ax_rule = fig.subplots(1, 3)
    named = [*_draw_wins(ax_win, found), *_draw_lengths(ax_len, found)]
    _draw_rules(ax_rule, found)
    for ax in (ax_win, ax_len, ax_rule):
        ax.spines[["top", "right"]].set_visible(False)
    # the fair share, the mean and the median named below the panels, where no bar is (a legend in a
    # panel stood on a bar: with 2 players the last seat's bar reaches the fair share at 50 %)
    fig.legend(handles=named, loc="outside lower center", ncols=3, frameon=False)
    fig.suptitle(found.title)
    return fig


def _draw_wins(ax: Axes, found: Numbers) -> list[Line2D]:
    """The win rates with their 95 % intervals and the fair share's line (returned, for the legend)."""
    rows = found.wins[::-1]  # barh draws from the bottom up
    ax.barh([r["who"] for r in rows], [r["rate"] for r in rows], height=0.6, capsize=4,
            xerr=[[r["rate"] - r["low"] for r in rows], [r["high"] - r["rate"] for r in rows]],
            color=[PLAYER if r["kind"] == "player" else SEAT for r in rows])
    fair = ax.axvline(found.fair, color=FAIR, lw=1, ls="--", label=t("sim.fair"))
    ax.set_xlim(0, 100)
    ax.set_xlabel(t("sim.won_axis"))
    ax.set_title(t("sim.who_wins"))
    return [fair]


def _draw_lengths(ax: Axes, found: Numbers) -> list[Line2D]:
    """The histogram of the hand lengths and the lines of the mean and the median (returned)."""
    widths = [b - a for a, b in zip(found.edges, found.edges[1:], strict=False)]
    ax.bar(found.edges[:-1], found.counts, width=widths, align="edge", color=LENGTH, edgecolor="white")
    mean = ax.axvline(found.mean, color=INK, lw=1.2, label=t("sim.mean", x=written(found.mean)))
    median = ax.axvline(found.median, color=INK, lw=1.2, ls=":", label=t("sim.median", x=_whole(found.median)))
    ax.set_xlabel(t("sim.decisions"))
    ax.set_ylabel(t("sim.hands"))
    ax.set_title(t("sim.lengths"))
    return [mean, median]


def _draw_rules(ax: Axes, found: Numbers) -> None:
    fired = found.rules[::-1]
    if fired:
        ax.barh([n for n, _, _ in fired], [v for _, v, _ in fired], color=RULE, height=0.6)
    else:
        ax.text(0.5, 0.5, t("sim.no_rule"), ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel(t("sim.per_hand"))
    ax.set_title(t("sim.rules"))
