"""An interactive view of a state graph (ipywidgets): choose a state, see its table and moves.

Choose a state in the list, or click a move to follow its edge; "back" returns along the
way you came.  The table shows every hand (the teacher's view), the moves say what they do
and, once the graph is solved, what they are worth.  A small picture shows the state's
neighbourhood in the graph.
"""

from __future__ import annotations

import html
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, cast

from ..text.graph_words import after_moves, graph_words
from ..text.i18n import t
from .explore import GraphError

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

    from ..core.state import GameState
    from .solve import Solution

__all__ = ["GraphView", "view"]

MAX_OPTIONS = 2000


class GraphView:
    """The widgets of ``view(G)``; ``select(node)`` and the move buttons drive it from code too."""

    def __init__(self, G: nx.DiGraph, solution: Solution | None = None, node: Hashable | None = None,
                 picture: bool = True) -> None:
        import ipywidgets as w

        if len(G) == 0:
            raise GraphError("the graph is empty: nothing to view")
        self.graph = G
        self.solution = solution
        order = sorted(G, key=lambda n: G.nodes[n].get("depth", 0))
        self._order = order[:MAX_OPTIONS]
        self._index = {n: i for i, n in enumerate(self._order)}
        self.chooser = w.Dropdown(options=[(self._option(n), i) for i, n in enumerate(self._order)],
                                  description=graph_words("state"), layout=w.Layout(width="95%"))
        self.table = w.HTML()
        self.moves = w.VBox()
        self.back = w.Button(description=graph_words("◀ back"), layout=w.Layout(width="90px"))
        self.up = w.Button(description=graph_words("▲ parent"), layout=w.Layout(width="90px"))
        self.picture = w.Output() if picture else None
        self.history: list[Hashable] = []
        self.node: Hashable = order[0]
        self.chooser.observe(self._chosen, names="value")
        self.back.on_click(lambda _: self._go_back())
        self.up.on_click(lambda _: self._go_up())
        rows: list[Any] = [self.chooser, w.HBox([self.back, self.up]), self.table, self.moves]
        if self.picture is not None:
            rows.append(self.picture)
        self.widget = w.VBox(rows)
        self.select(G.graph.get("root", order[0]) if node is None else node, remember=False)

    # --- what it shows ---------------------------------------------------------------------------
    def _option(self, node: Hashable) -> str:
        """A state in words: "after 2 moves: seat 0 to move, cards 2 and 1, top 10♠" (no ▶ or ·)."""
        d = self.graph.nodes[node]
        if not hasattr(node, "hands"):
            return after_moves(d.get("depth", "?"), str(d.get("label", node)))
        state = cast("GameState", node)
        if state.is_over:
            who = "blocked" if state.blocked else f"seat {state.winner} went out"
        else:
            who = f"seat {state.to_move} to move"
        sizes = " / ".join(str(len(h)) for h in state.hands)
        return after_moves(d.get("depth", "?"), f"{who}, {sizes}, {state.top.symbol}")

    def _value(self, node: Hashable) -> str:
        return "" if self.solution is None else self.solution.value(node)

    def _state_html(self, node: Hashable) -> str:
        d = self.graph.nodes[node]
        state = d.get("state", node)
        table = state._repr_html_() if hasattr(state, "_repr_html_") else html.escape(str(state))
        facts = [f"depth {d.get('depth')}", f"phase: {d.get('phase', '?')}"]
        if self.solution is not None:
            facts.append(f"<b>{html.escape(self._value(node))}</b> with best play")
        if d.get("chance"):
            facts.append("reached by a reshuffle: the new stock order is hidden, not explored further")
        elif not d.get("expanded", True) and not d.get("terminal"):
            facts.append("not explored (a bound cut the graph here)")
        return table + "<div>" + graph_words(" · ".join(facts)) + "</div>"

    def _moves_html(self, node: Hashable) -> str:
        rows = []
        best = set(self.solution.best_moves(node)) if self.solution is not None else set()
        for child, d in self.graph[node].items():
            worth = f" → <i>{html.escape(self._value(child))}</i>" if self.solution is not None else ""
            star = "★ " if best & set(d.get("moves", (d.get("move"),))) else ""
            rows.append(f"<li>{star}<b>{html.escape(str(d.get('label', '')))}</b>: "
                        f"{html.escape(str(d.get('explain', '')))}{worth}</li>")
        if not rows:
            return f"<i>{graph_words('no moves: the hand is over')}</i>"
        return "<ul style='margin:0'>" + graph_words("".join(rows)) + "</ul>"

    def select(self, node: Hashable, remember: bool = True) -> None:
        """Show ``node``: its table, its moves (as buttons) and its place in the graph."""
        import ipywidgets as w

        if node not in self.graph:
            raise GraphError("that state is not a node of this graph")
        if remember and node != self.node:
            self.history.append(self.node)
        self.node = node
        if node not in self._index:
            self._index[node] = len(self._order)
            self._order.append(node)
            self.chooser.options = [*self.chooser.options, (self._option(node), self._index[node])]
        if self.chooser.value != self._index[node]:
            self.chooser.value = self._index[node]
        self.table.value = self._state_html(node) + self._moves_html(node)
        buttons = []
        for child, d in self.graph[node].items():
            label = str(d.get("label", "move"))
            if self.solution is not None:
                label += f" → {self._value(child)}"
            button = w.Button(description=graph_words(label), tooltip=str(d.get("explain", "")),
                              layout=w.Layout(width="auto"))
            button.on_click(lambda _, c=child: self.select(c))
            buttons.append(button)
        self.moves.children = tuple(buttons)
        self.back.disabled = not self.history
        self.up.disabled = not any(True for _ in self.graph.predecessors(node))
        self._draw()

    def _draw(self) -> None:
        if self.picture is None:
            return
        from IPython.display import display

        from .draw import draw
        from .explore import around

        self.picture.clear_output(wait=True)
        part = around(self.graph, self.node, radius=1)
        chart = draw(part, highlight=[self.node], labels="long" if len(part) <= 12 else "short",
                     title=graph_words("around this state (red)"))
        with self.picture:
            display(chart)  # a PNG, or Vega-Lite where matplotlib is missing (the browser edition)

    # --- how it moves -------------------------------------------------------------------------
    def _chosen(self, change: dict[str, Any]) -> None:
        node = self._order[change["new"]]
        if node != self.node:
            self.select(node)

    def _go_back(self) -> None:
        if self.history:
            self.select(self.history.pop(), remember=False)

    def _go_up(self) -> None:
        parents = sorted(self.graph.predecessors(self.node), key=lambda n: self.graph.nodes[n].get("depth", 0))
        if parents:
            self.select(parents[0])

    # --- showing it in Jupyter -------------------------------------------------------------------
    def __repr__(self) -> str:
        return t("graph.view", n=len(self.graph))

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = repr(self)
        return bundle


def view(G: nx.DiGraph, solution: Solution | None = None, node: Hashable | None = None,
         picture: bool = True) -> GraphView:
    """An interactive view of ``G``: choose a state (or click its moves) to see its table."""
    return GraphView(G, solution, node, picture)
