"""The words of a phase machine's picture, the same in matplotlib and in Vega-Lite: what a phase's
box says, how a phase is entered, and the few moves an arrow's label names."""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import TYPE_CHECKING, Any

from ..text.graph_words import graph_words

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

__all__ = ["box_text", "entries", "short", "wrap"]


def box_text(G: nx.DiGraph, p: str, entered: dict[str, str], moves: int) -> str:
    """A phase box: its name, how it is entered, the moves that stay in it, and for a phase with
    decisions its share of them and its mean number of legal moves."""
    d = G.nodes[p]
    text = graph_words(p.replace("_", " ")).replace(": ", ":\n")  # in the course's language
    if p in entered:
        text += "\n" + wrap(graph_words("entered by: " + entered[p]), 22)
    if G.has_edge(p, p):
        text += "\n" + wrap(graph_words("↻ " + short(G.edges[p, p]["moves"], moves + 1)), 22)
    if not d["terminal"]:
        share = f"{d['share']:.0%}" if d["share"] >= 0.005 or not d["share"] else "<1%"
        text += "\n" + graph_words(f"{share} of decisions\n{d['branching']:.1f} moves to choose")
    return text


def wrap(text: str, width: int) -> str:
    """Lines of at most ``width`` characters, broken after commas only (``9 reverse`` stays whole)."""
    return textwrap.fill(", ".join(part.replace(" ", "\u00a0") for part in text.split(", ")), width,
                         break_long_words=False)  # a longer piece stays whole on a line of its own


def entries(G: nx.DiGraph, moves: int) -> dict[str, str]:
    """How a phase is entered, where two or more arrows into it (or its only one) carry the same
    moves: that label is written once in the phase's box instead of on every arrow."""
    found = {}
    for v in (v for v in G if not G.nodes[v]["terminal"]):
        labels = Counter(short(d["moves"], moves) for u, _, d in G.in_edges(v, data=True) if u != v)
        if labels and (labels.most_common(1)[0][1] >= 2 or len(labels) == 1):
            found[v] = labels.most_common(1)[0][0]
    return found


def short(moves: Any, n: int) -> str:
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
