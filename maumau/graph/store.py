"""How a state graph stores its nodes and edges: little per state, the rest made when read.

A graph of 100,000 states keeps 100,000 GameStates anyway; what networkx adds per node and per
edge is a dict of attributes.  Storing every attribute there (the hand sizes, the top card as text,
an edge's label and its explain() sentence) doubled the memory of a graph and the time to build it,
for texts few are ever read.  So a node's dict stores its state (hidden) and what exploring decided
(``depth``, ``expanded``, ``chance``), an edge's dict its move and the two states (hidden); the other
attributes are made from the state when asked for, and are not kept.  To everyone reading them,
``G.nodes[s]["top"]``, ``G.edges[u, v]["explain"]``, ``d.get("label")``, ``d.items()``, ``dict(d)``,
``d.copy()``, pickling, the dicts look as if every attribute were stored.  A value set by hand
(``G.nodes[s]["value"] = 1``, a solver's result) is stored and wins over a made one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # pragma: no cover
    from ..core.state import GameState

__all__ = ["LazyAttributes", "NodeData", "EdgeData", "HIDDEN"]

#: The prefix of the stored keys nobody reads (the states a dict makes its attributes from).
HIDDEN = "_mm_"


class LazyAttributes(dict[str, Any]):
    """A dict whose ``MADE`` keys are computed from its hidden keys when read, and never stored."""

    __slots__ = ()
    MADE: ClassVar[dict[str, Callable[[LazyAttributes], Any]]] = {}
    #: The hidden key that must be there for the made keys to exist.
    SOURCE: ClassVar[str] = ""

    #: The order the keys are listed in (as a plain dict of the same attributes would list them).
    ORDER: ClassVar[tuple[str, ...]] = ()

    def __getitem__(self, key: Any) -> Any:
        try:
            return dict.__getitem__(self, key)
        except KeyError:
            make = self.MADE.get(key) if isinstance(key, str) else None
            if make is None or not dict.__contains__(self, self.SOURCE):
                raise
            return make(self)

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str) and key.startswith(HIDDEN):
            return False
        return dict.__contains__(self, key) or (key in self.MADE and dict.__contains__(self, self.SOURCE))

    def keys(self) -> list[Any]:  # type: ignore[override]
        made = dict.__contains__(self, self.SOURCE)
        first = [k for k in self.ORDER if dict.__contains__(self, k) or (made and k in self.MADE)]
        rest = [k for k in dict.__iter__(self)
                if k not in self.ORDER and not (isinstance(k, str) and k.startswith(HIDDEN))]
        return first + rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())

    def items(self) -> list[tuple[Any, Any]]:  # type: ignore[override]
        return [(k, self[k]) for k in self.keys()]

    def values(self) -> list[Any]:  # type: ignore[override]
        return [self[k] for k in self.keys()]

    def copy(self) -> dict[Any, Any]:
        """A plain dict of every attribute (made ones included, hidden ones not)."""
        return dict(self.items())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython shows it as the plain dict it stands for."""
        p.pretty(dict(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self.items()),))

    def state(self, key: str) -> GameState:
        found: GameState = dict.__getitem__(self, key)
        return found


def _node(compute: Callable[[GameState], Any]) -> Callable[[LazyAttributes], Any]:
    return lambda d: compute(d.state(NodeData.SOURCE))


class NodeData(LazyAttributes):
    """A node's attributes: ``depth``, ``expanded``, ``chance`` stored; the rest read off its state."""

    __slots__ = ()
    SOURCE = HIDDEN + "state"
    MADE: ClassVar[dict[str, Callable[[LazyAttributes], Any]]] = {}


class EdgeData(LazyAttributes):
    """An edge's attributes: ``move`` and ``reshuffle`` stored (``moves`` when two moves lead to the
    same state); ``moves``, ``label`` and ``explain`` made from the move and the two states."""

    __slots__ = ()
    SOURCE = HIDDEN + "from"
    MADE: ClassVar[dict[str, Callable[[LazyAttributes], Any]]] = {}


def define(node: Mapping[str, Callable[[GameState], Any]],
           edge: Mapping[str, Callable[[GameState, Any, GameState], Any]],
           node_order: tuple[str, ...], edge_order: tuple[str, ...]) -> None:
    """Say how the made attributes are made (``explore`` does, with its functions), and the order of
    every attribute."""
    NodeData.ORDER, EdgeData.ORDER = node_order, edge_order
    NodeData.MADE.update({key: _node(fn) for key, fn in node.items()})
    for key, fn in edge.items():
        EdgeData.MADE[key] = (lambda f: lambda d: f(d.state(EdgeData.SOURCE), dict.__getitem__(d, "move"),
                                                    d.state(HIDDEN + "to")))(fn)
