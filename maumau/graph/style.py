"""How a state graph looks: colours of seats and values, the text on a node, the legend, the title.

Nothing here imports matplotlib before it is needed, so ``import maumau`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..text.graph_words import graph_words
from .explore import describe, state_label

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

__all__ = ["SEAT_COLOURS", "VALUE_COLOURS", "seat_colour", "value_colour", "node_fill", "node_text", "legend",
           "graph_title", "TEXT_PT", "TITLE_PT", "TEXT_PX", "TITLE_PX", "MARKS"]

#: Text sizes readable from the back of a classroom at 1280×720 (issue 24): at least 14 pixels as
#: the notebook shows them.  matplotlib's pictures are saved at 100 dpi (a point is 100/72 pixels)
#: and fit the notebook's width unscaled; Vega-Lite's sizes are pixels.
TEXT_PT, TITLE_PT = 10.5, 12.0
TEXT_PX, TITLE_PX = 14, 16
#: What the marks in a node's text mean (the legend says it).
MARKS = ("▶ the hand of the player to move (one line per seat)", "· the top card, then a wish or what is pending")

#: Seat colours (colour-blind safe: blue, orange, green, purple, brown).
SEAT_COLOURS = ("#3b75af", "#ef8636", "#519e3e", "#8d69b8", "#84584e")
VALUE_COLOURS = {"nobody wins": "#c7c7c7", "unknown": "#ffffff"}


def seat_colour(seat: int) -> str:
    """A seat's colour; more seats than colours start over."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def value_colour(value: str) -> str:
    """The colour of a solved value: the winner's seat colour, grey for nobody, white if unknown."""
    if value.startswith("seat "):
        return seat_colour(int(value.split()[1]))
    return VALUE_COLOURS.get(value, "#ffffff")


def node_fill(d: dict[str, Any], color: str) -> str:
    """A node's colour: its value (``color="value"``), else the seat to move; an end takes the
    winner's colour (grey when the hand is blocked)."""
    if color == "value":
        return value_colour(d["value"])
    if d["terminal"]:
        return seat_colour(d["winner"]) if d.get("winner") is not None else "#999999"
    return seat_colour(d["to_move"])


def node_text(state: Any, d: dict[str, Any], long: bool) -> str:
    """Long: one line per hand (▶ marks the player to move), then the top card; short: hand sizes."""
    if not hasattr(state, "hands"):
        return str(d.get("label", state))
    if not long:
        return graph_words(state_label(state).split(" ·")[0])
    lines = [("▶" if seat == state.to_move and not state.is_over else "") + (" ".join(c.symbol for c in h) or "–")
             for seat, h in enumerate(state.hands)]
    return graph_words("\n".join(lines) + "\n·" + state_label(state).split(" ·", 1)[1])


def legend(G: nx.DiGraph, color: str, marks: bool = False) -> list[Any]:
    """Legend entries for what this graph shows: only the seats, values and marks that occur
    (``marks``: the node texts show hands, with ▶ and ·)."""
    from matplotlib.lines import Line2D

    def mark(shape: str, fc: str, text: str) -> Any:
        return Line2D([], [], marker=shape, linestyle="", markerfacecolor=fc, markeredgecolor="#333333",
                      markersize=10, label=text)

    seats = sorted({d["to_move"] for _, d in G.nodes(data=True)} | {d["winner"] for _, d in G.nodes(data=True)
                                                                      if d.get("winner") is not None})
    items = []
    if color == "value":
        for value in sorted({d["value"] for _, d in G.nodes(data=True)}):
            items.append(mark("o", value_colour(value), value + " with best play"))
    else:
        items += [mark("o", seat_colour(s), f"seat {s} to move") for s in seats]
        items += [mark("s", "#ffffff", "hand over (colour: winner)")]
    if any(d.get("chance") for _, d in G.nodes(data=True)):
        items.append(mark("D", "#ffffff", "after a reshuffle (not explored)"))
    if any(not d.get("expanded", True) and not d["terminal"] and not d.get("chance") for _, d in G.nodes(data=True)):
        items.append(mark("o", "#ffffff", "not explored (bound)"))
    if any(d.get("best") for *_, d in G.edges(data=True)):
        items.append(Line2D([], [], color="#444444", lw=1.6, label="move of best play"))
    if marks:  # the node texts are hands: what ▶ and · in them mean
        items += [Line2D([], [], linestyle="", label=mark) for mark in MARKS]
    for item in items:  # in the course's language
        item.set_label(graph_words(item.get_label()))
    return items


def graph_title(G: nx.DiGraph) -> str:
    """The variant and what the graph is: a played hand's length, or ``describe``'s line."""
    if G.graph.get("path"):
        return graph_words(f"{G.graph.get('variant')}: a played hand, {len(G) - 1} moves")
    return f"{G.graph.get('variant', '')}: {describe(G)}"  # describe speaks the language
