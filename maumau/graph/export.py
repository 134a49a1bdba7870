"""Saving graphs for other tools: GraphML (Gephi, yEd, Cytoscape) and node-link JSON (D3).

GraphML holds only strings and numbers, so every other value is written as JSON text:
a state as its saved form (``state.to_dict()``), a move as ``{"play": "7H"}``, a tuple as
a list.  Reading decodes them again, so a graph survives the round trip: the nodes are
GameStates again and the edges carry Moves.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.moves import Move, move_from_dict
from ..core.state import GameState
from ..play.serialize import STATE_FORMAT, FormatError, state_from_dict
from .explore import GraphError

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

__all__ = ["write_graphml", "read_graphml", "to_node_link", "from_node_link", "to_json", "from_json"]

_MOVE_KEYS = {"play", "wish", "mau", "runde", "draw", "pass"}


def _native(value: Any) -> Any:
    """A JSON-ready form of an attribute value (None stays None)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, GameState):
        return value.to_dict()
    if isinstance(value, Move):
        return value.to_dict()
    if isinstance(value, dict):
        return {str(k): _native(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, set, frozenset)):
        return [_native(v) for v in value]
    return str(value)


def _flat(value: Any) -> Any:
    """A GraphML-ready form: numbers and strings as they are, anything else as JSON text."""
    native = _native(value)
    if native is None or isinstance(native, (bool, int, float, str)):
        return native
    return json.dumps(native, ensure_ascii=False)


def _decode(value: Any) -> Any:
    """The inverse of ``_native`` / ``_flat``."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            value = json.loads(value)
        except ValueError:
            return value
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if isinstance(value, dict):
        if value.get("format") == STATE_FORMAT:
            return state_from_dict(value)
        if set(value) <= _MOVE_KEYS and (isinstance(value.get("play"), str)
                                         or value.get("draw") is True or value.get("pass") is True):
            return move_from_dict(value)
        decoded = {k: _decode(v) for k, v in value.items()}
        return Counter(decoded) if decoded and all(type(v) is int for v in decoded.values()) else decoded
    return value


def _ids(G: nx.DiGraph) -> dict[Any, str]:
    """Node ids: a string node keeps its name, any other node is numbered (``n0``, ``n1``, ...)."""
    ids: dict[Any, str] = {}
    for i, node in enumerate(G):
        ids[node] = node if isinstance(node, str) else f"n{i}"
    if len(set(ids.values())) != len(ids):
        raise GraphError("two nodes would get the same id: rename string nodes that look like n0, n1, ...")
    return ids


def _plain_graph(G: nx.DiGraph, encode: Any) -> tuple[dict[Any, str], dict[str, Any], list[Any], list[Any]]:
    ids = _ids(G)
    graph: dict[str, Any] = {}
    nulls = [key for key, value in G.graph.items() if value is None]
    if nulls:
        graph["null_keys"] = encode(nulls)
    # GraphML has no None: list every attribute name, so that left-out values come back as None.
    graph["node_keys"] = encode(sorted(set().union(*G.nodes.values())) if len(G) else [])
    graph["edge_keys"] = encode(sorted(set().union(*G.edges.values())) if G.number_of_edges() else [])
    for key, value in G.graph.items():
        if key in ("root", "centre") and value in G:
            graph[key + "_id"] = ids[value]
        elif value is not None:
            graph[key] = encode(value)
    nodes = []
    for node, data in G.nodes(data=True):
        attrs = {k: encode(v) for k, v in data.items() if v is not None}
        if not isinstance(node, str):
            attrs["key"] = encode(node)
        nodes.append((ids[node], attrs))
    edges = [(ids[u], ids[v], {k: encode(x) for k, x in d.items() if x is not None}) for u, v, d in G.edges(data=True)]
    return ids, graph, nodes, edges


def _rebuild(graph: dict[str, Any], nodes: list[Any], edges: list[Any]) -> nx.DiGraph:
    import networkx as nx

    G = nx.DiGraph()
    by_id = {}
    for node_id, attrs in nodes:
        attrs = {k: _decode(v) for k, v in attrs.items()}
        node = attrs.pop("key", node_id)
        by_id[node_id] = node
        G.add_node(node, **attrs)
    for u, v, attrs in edges:
        G.add_edge(by_id[u], by_id[v], **{k: _decode(x) for k, x in attrs.items()})
    for key, value in graph.items():
        if key.endswith("_id") and key[:-3] in ("root", "centre"):
            G.graph[key[:-3]] = by_id[value]
        elif key == "null_keys":
            G.graph.update(dict.fromkeys(_decode(value)))
        elif key not in ("node_keys", "edge_keys"):
            G.graph[key] = _decode(value)
    for items, key in ((G.nodes.values(), "node_keys"), (G.edges.values(), "edge_keys")):
        names = set(_decode(graph.get(key, "[]")))
        for attrs in items:
            for name in names - set(attrs):
                attrs[name] = None
    return G


def write_graphml(G: nx.DiGraph, path: str | Path) -> Path:
    """Write ``G`` as GraphML (every non-number attribute as text); returns the path."""
    import networkx as nx

    _, graph, nodes, edges = _plain_graph(G, _flat)
    H = nx.DiGraph()
    H.graph.update(graph)
    H.add_nodes_from(nodes)
    H.add_edges_from(edges)
    path = Path(path)
    nx.write_graphml(H, path)
    return path


def read_graphml(path: str | Path) -> nx.DiGraph:
    """Read a graph written by ``write_graphml`` (states and moves come back as objects)."""
    import networkx as nx

    try:
        H = nx.read_graphml(Path(path))
    except (OSError, nx.NetworkXError, ValueError) as err:
        raise FormatError(f"cannot read {path} as GraphML: {err}") from None
    graph = {k: v for k, v in H.graph.items() if k not in ("node_default", "edge_default")}
    return _rebuild(graph, list(H.nodes(data=True)), list(H.edges(data=True)))


def to_node_link(G: nx.DiGraph) -> dict[str, Any]:
    """``G`` as node-link data (``{"nodes": [...], "edges": [...]}``), ready for ``json.dumps``
    and readable by ``networkx.node_link_graph(data, edges="edges")``."""
    _, graph, nodes, edges = _plain_graph(G, _native)
    return {"directed": True, "multigraph": False, "graph": graph,
            "nodes": [{"id": i, **a} for i, a in nodes],
            "edges": [{"source": u, "target": v, **a} for u, v, a in edges]}


def from_node_link(data: dict[str, Any]) -> nx.DiGraph:
    """The inverse of ``to_node_link``."""
    try:
        nodes = [(n["id"], {k: v for k, v in n.items() if k != "id"}) for n in data["nodes"]]
        edges = [(e["source"], e["target"], {k: v for k, v in e.items() if k not in ("source", "target")})
                 for e in data["edges"]]
        return _rebuild(dict(data.get("graph", {})), nodes, edges)
    except (KeyError, TypeError, AttributeError) as err:
        raise FormatError(f"not node-link graph data: {err!r}") from None


def to_json(G: nx.DiGraph, indent: int | None = None) -> str:
    """``G`` as node-link JSON text."""
    return json.dumps(to_node_link(G), indent=indent, ensure_ascii=False)


def from_json(text: str | bytes) -> nx.DiGraph:
    """A graph from ``to_json`` text; corrupt input raises ``FormatError``."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as err:
        raise FormatError(f"not JSON: {err}") from None
    if not isinstance(data, dict):
        raise FormatError("node-link JSON is an object with nodes and edges")
    return from_node_link(data)
