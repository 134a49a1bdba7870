"""The state graph: every situation reachable from a state, found breadth first.

Nodes are the GameStates themselves (immutable and hashable, and equal when they are
the same game situation, so transpositions merge by themselves); an edge is a legal
move.  The explorer follows ``legal_moves()``, so Mau is always announced (a move that
forgets it is legal but penalised, and would only double the graph).

A reshuffle (C-6) shuffles the pile into a new stock that nobody can know: hidden
randomness.  By default the explorer stops there (``reshuffle="stop"``): the state
after the reshuffle is kept as a leaf marked ``chance``.  ``reshuffle="follow"``
follows the engine's seeded shuffle instead, and such graphs keep growing (every
reshuffle brings a new seed), so only the bounds end them.  ``fixed_stock(state)``
plays the same position under a house rule that never reshuffles: its graph is
finite, complete and solvable.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any

from ..core.cards import Rank, Suit
from ..core.events import Reshuffled
from ..core.moves import Draw, Move, Pass, Play
from ..core.rules.common import FixedStock  # the house rule lives with the rules (C-6)
from ..core.state import GameState
from ..simulation.collector import collector_paused
from ..text.explain import narrate
from ..text.graph_words import graph_sentence
from . import store
from .turn_phase import phase_of

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

__all__ = ["state_graph", "around", "FixedStock", "fixed_stock", "node_attributes", "move_label",
           "state_label", "describe", "GraphError", "phase_text"]


class GraphError(ValueError):
    """Bad input to the graph tools: not a state, a bound that is not a number, ..."""


def fixed_stock(state: GameState) -> GameState:
    """The same situation played under the ``FixedStock`` house rule (no reshuffle, C-6).

    Its state graph is finite: without a reshuffle every move plays or draws a card for
    good, and C-7 ends a hand in which nobody can play or draw.
    """
    if not isinstance(state, GameState):
        raise GraphError(f"fixed_stock takes a GameState (mm.position or mm.deal), not {state!r}")
    variant = state.variant
    if not variant.reshuffles:
        return state
    return state.replace(variant=variant.with_rules(FixedStock()))


def _wish_text(wish: Suit | Rank | None) -> str | None:
    if wish is None:
        return None
    return wish.symbol if isinstance(wish, Suit) else wish.value


def _pending_text(state: GameState) -> str | None:
    p = state.pending
    if p is None:
        return None
    return f"{p.kind} {p.amount} ({p.rule.rule_id})"


#: What a learner reads off a state's node, each made from the state when read (``store``).
READ_OFF: dict[str, Any] = {
    "to_move": lambda s: s.to_move,
    "hand_sizes": lambda s: tuple(len(h) for h in s.hands),
    "top": lambda s: s.top.text,
    "wish": lambda s: _wish_text(s.wish),
    "pending": _pending_text,
    "phase": phase_of,
    "phase_text": lambda s: phase_text(phase_of(s)),
    "stock": lambda s: s.stock_size,
    "terminal": lambda s: s.is_over,
    "winner": lambda s: s.winner,
    "blocked": lambda s: s.blocked,
}


def phase_text(phase: str, lang: str | None = None) -> str:
    """A phase (``phase_of``: a stable key code compares, such as ``"penalty: seven_draws_two"``) in
    the words of ``lang``, default the course's: ``"Strafe: 7 zieht 2"``."""
    from ..text.graph_words import graph_words

    return graph_words(phase.replace("_", " "), lang)


def node_attributes(state: GameState, depth: int) -> dict[str, Any]:
    """The attributes of a state's node: what a learner reads off it."""
    attrs = {key: read(state) for key, read in READ_OFF.items()}
    attrs.update(depth=depth, expanded=state.is_over, chance=False)
    return attrs


def move_label(move: Move, state: GameState | None = None, lang: str | None = None) -> str:
    """A short label for a move: ``7♥``, ``J♣→♥``, ``Q♠ Q♦``, ``draw``, ``take 4``, ``pass``; in ``lang``
    (default: the course's language) with its words and card letters (``B♣→♥``, ``ziehen``)."""
    from ..text.i18n import card_symbol, rank_letter, t

    if isinstance(move, Play):
        text = " ".join(card_symbol(c, lang) if c.rank is not None else c.symbol for c in move.cards)
        if move.wish is not None:
            wish = move.wish
            text += "→" + (wish.symbol if isinstance(wish, Suit) else rank_letter(wish, lang))
        if move.runde:
            text += " Runde"
        return text
    pending = state.pending if state is not None else None
    if isinstance(move, Draw):
        if pending is not None and pending.kind == "draw":
            return t("graph.take", lang, n=pending.amount)
        return t("graph.draw", lang)
    if isinstance(move, Pass):
        return t("graph.sit_out" if pending is not None else "graph.pass", lang)
    return str(move)


def state_label(state: GameState, long: bool = False) -> str:
    """A node label: ``▶7♥ 9♣ | 8♥ ·9♥`` (hands, the player to move marked, then the top card).

    The short form gives the hand sizes only: ``▶3:2 ·9♥``.
    """
    marks = ["▶" if seat == state.to_move and not state.is_over else "" for seat in range(state.players)]
    if long:
        hands = " | ".join(m + (" ".join(c.symbol for c in h) or "–") for m, h in zip(marks, state.hands, strict=True))
    else:
        hands = ":".join(m + str(len(h)) for m, h in zip(marks, state.hands, strict=True))
    extra = ""
    if state.wish is not None:
        extra += f" wish {_wish_text(state.wish)}"
    if state.pending is not None:
        extra += f" {'+' if state.pending.kind == 'draw' else 'skip '}{state.pending.amount}"
    if state.is_over:
        extra += " blocked" if state.blocked else f" seat {state.winner} out"
    return f"{hands} ·{state.top.symbol}{extra}"


store.define(READ_OFF, {"label": lambda before, move, after: move_label(move, before),
                        "explain": narrate, "moves": lambda before, move, after: (move,)},
             node_order=(*READ_OFF, "depth", "expanded", "chance"),
             edge_order=("move", "moves", "label", "explain", "reshuffle"))


def _graph_class() -> type:
    """networkx's DiGraph with the attribute dicts of ``store`` (made once, when networkx is loaded)."""
    import networkx as nx

    global _STATE_GRAPH
    if _STATE_GRAPH is None:
        _STATE_GRAPH = type("StateGraph", (nx.DiGraph,), {
            "node_attr_dict_factory": store.NodeData, "edge_attr_dict_factory": store.EdgeData,
            "__doc__": "A state graph: a networkx DiGraph whose attributes are made when read (maumau.graph.store).",
            "__module__": __name__})
    return _STATE_GRAPH


_STATE_GRAPH: type | None = None


def __getattr__(name: str) -> Any:
    # the class is made on first use (networkx loads lazily); pickle finds it here by its name
    if name == "StateGraph":
        return _graph_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _reshuffled(state: GameState) -> bool:
    return any(type(e) is Reshuffled for e in state.events)


def state_graph(state: GameState, max_nodes: int | None = 20_000, max_depth: int | None = None, *,
                reshuffle: str = "stop", explain: bool = True) -> nx.DiGraph:
    """The graph of every state reachable from ``state``, breadth first.

    Nodes are GameStates with the attributes of ``node_attributes`` (``to_move``,
    ``hand_sizes``, ``top``, ``wish``, ``pending``, ``phase``, ``terminal``, ``winner``,
    ``depth``, ...).  Edges carry ``move``, ``label``, ``explain`` (what the move does,
    in one sentence) and ``reshuffle``.  A node is expanded whole or not at all;
    ``G.graph["truncated"]`` says whether ``max_nodes`` or ``max_depth`` left states
    unexplored (their nodes have ``expanded=False``), ``G.graph["chance_nodes"]`` how
    many states were reached by a reshuffle and left there (``reshuffle="stop"``).
    """
    _check_arguments(state, max_nodes, max_depth, reshuffle)
    started = time.perf_counter()
    G = _graph_class()()
    _add_state(G, state, 0, False)
    with collector_paused():
        cut_by = _explore(G, state, max_nodes, max_depth, reshuffle, explain)
    _changed(G)
    _record_summary(G, state, cut_by, reshuffle, max_nodes, max_depth, started)
    return G


def _changed(G: nx.DiGraph) -> None:
    """Tell networkx (3.3+) that the graph changed behind its back: its cached views start afresh."""
    import networkx as nx

    clear = getattr(nx, "_clear_cache", None)
    if clear is not None:
        clear(G)


def _check_arguments(state: object, max_nodes: object, max_depth: object, reshuffle: object) -> None:
    """Refuse bad input before any work, with a message a learner can act on."""
    if not isinstance(state, GameState):
        raise GraphError(f"state_graph takes a GameState (mm.position or mm.deal), not {state!r}")
    for name, bound in (("max_nodes", max_nodes), ("max_depth", max_depth)):
        if bound is not None and (not isinstance(bound, int) or bound < (1 if name == "max_nodes" else 0)):
            raise GraphError(f"{name} must be a positive whole number or None, not {bound!r}")
    if reshuffle not in ("stop", "follow"):
        raise GraphError(f"reshuffle is 'stop' or 'follow', not {reshuffle!r}")


def _explore(G: nx.DiGraph, root: GameState, max_nodes: int | None, max_depth: int | None, reshuffle: str,
             explain: bool) -> set[str]:
    """Expand ``G`` breadth first from ``root`` until nothing is left or a bound is hit; the
    names of the bounds that left states unexplored."""
    queue: deque[GameState] = deque([root])
    cut_by: set[str] = set()
    nodes = G._node  # the graph's own tables: networkx's add_node/add_edge cost more than a state's moves
    while queue:
        node = queue.popleft()
        attrs = nodes[node]
        if node.is_over or attrs._chance:  # an end has no moves; a chance node is left where it is
            continue
        depth = attrs._depth
        if max_depth is not None and depth >= max_depth:
            cut_by.add("max_depth")
            continue
        children = [(move, node.apply(move)) for move in node.legal_moves()]
        # a node is expanded whole or not at all, so the check comes before any child is added
        if max_nodes is not None and len(nodes) + len({c for _, c in children if c not in nodes}) > max_nodes:
            cut_by.add("max_nodes")
            break
        queue.extend(_add_children(G, node, children, depth, reshuffle == "stop", explain))
        attrs._expanded = True
    return cut_by


def _add_children(G: nx.DiGraph, node: GameState, children: list[tuple[Move, GameState]], depth: int,
                  stop: bool, explain: bool) -> list[GameState]:
    """Add the moves out of ``node`` and the states they reach; the states new to ``G``, in
    the order of the moves (that order is the breadth-first queue's)."""
    added = []
    nodes, succ, pred = G._node, G._succ, G._pred
    out = succ[node]
    for move, child in children:
        shuffled = _reshuffled(child) and not child.is_over  # an end needs no hidden order
        known = nodes.get(child)
        if known is None:
            _add_state(G, child, depth + 1, shuffled and stop)
            added.append(child)
        else:  # a transposition: the edge points to the state already in the graph, not to a copy of it
            child = known._state
            _forget_key(child)  # comparing with the copy made it build its key again
            if child in out:  # two moves, one situation: keep both moves
                out[child]["moves"] += (move,)
                continue
        # the label and the sentence are made when read (store.EdgeData): only the move is kept
        data = store.new_edge(node, move, child, shuffled)
        if not explain:
            data["explain"] = ""
        out[child] = pred[child][node] = data
    return added


def _add_state(G: nx.DiGraph, state: GameState, depth: int, chance: bool) -> None:
    """What ``G.add_node`` does, with the attribute dict made at once (``store.new_node``)."""
    G._node[state] = store.new_node(state, depth, state.is_over, chance)
    G._succ[state] = {}
    G._pred[state] = {}
    _forget_key(state)


def _forget_key(state: GameState) -> None:
    """Let ``state`` drop the equality key it cached when it was first hashed (a 20-field tuple and the
    sorted discard pile: ~300 bytes, a third of a state): the graph's tables keep its hash, which the
    state caches apart, and the key is made again only to compare it with an equal state (a
    transposition, dropped again here).  Nothing a state says changes: the key is a cache of its own
    fields (``GameState._value``); this is the graph's saving until the core caches only the hash."""
    state._key = None


def _record_summary(G: nx.DiGraph, root: GameState, cut_by: set[str], reshuffle: str, max_nodes: int | None,
                    max_depth: int | None, started: float) -> None:
    """``G.graph``: where the graph came from, whether it is complete, and what cut it short."""
    frontier = sum(1 for _, a in G.nodes(data=True) if not (a["expanded"] or a["terminal"] or a["chance"]))
    chance = sum(1 for _, a in G.nodes(data=True) if a["chance"])
    G.graph.update(
        root=root, variant=root.variant.name, players=sum(root.active), reshuffle=reshuffle,
        reshuffles=root.variant.reshuffles, truncated=bool(frontier), frontier=frontier,
        truncated_by=", ".join(sorted(cut_by)) if frontier else None,
        chance_nodes=chance,
        reshuffle_edges=sum(1 for *_, r in G.edges(data="reshuffle") if r),
        max_nodes=max_nodes, max_depth=max_depth, seconds=time.perf_counter() - started)
    G.graph["complete"] = not G.graph["truncated"] and not G.graph["chance_nodes"]


def describe(G: nx.DiGraph, lang: str | None = None) -> str:
    """One line about a state graph: its size, and whether it is complete, cut or stopped (in
    ``lang``, default the course's language)."""
    g = G.graph
    depth = max((d for _, d in G.nodes(data="depth")), default=0)
    ends = sum(1 for _, t in G.nodes(data="terminal") if t)
    parts = [graph_sentence("describe", lang, states=len(G), moves=G.number_of_edges(), levels=depth + 1, ends=ends)]
    if g.get("truncated"):
        parts.append(graph_sentence("cut_by", lang, bound=g["truncated_by"], n=g["frontier"]))
    if g.get("chance_nodes"):
        parts.append(graph_sentence("chance_states", lang, n=g["chance_nodes"]))
    if g.get("reshuffle_edges") and g.get("reshuffle") == "follow":
        parts.append(graph_sentence("followed", lang, n=g["reshuffle_edges"]))
    if g.get("complete"):
        parts.append(graph_sentence("complete", lang))
    return "; ".join(parts)


def around(G: nx.DiGraph, node: Any, radius: int = 2) -> nx.DiGraph:
    """The part of ``G`` within ``radius`` moves of ``node`` (either way): a piece small
    enough to draw.  Nodes keep their attributes (``depth`` still counts from the root)."""
    import networkx as nx

    if node not in G:
        raise GraphError("that state is not a node of this graph")
    part = nx.ego_graph(G, node, radius=radius, undirected=True).copy()
    part.graph.update(G.graph, part_of=len(G), centre=node)
    return part
