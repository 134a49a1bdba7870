"""How a state graph stores its nodes and edges: little per state, the rest made when read.

A graph of 100,000 states keeps 100,000 GameStates anyway; what networkx adds per node and per
edge is a dict of attributes.  Storing every attribute there (the hand sizes, the top card as text,
an edge's label and its explain() sentence) doubled the memory of a graph and the time to build it,
for texts few are ever read.  So what exploring decides lives in the slots of the attribute dict,
not in its table: a node keeps its state, ``depth``, ``expanded`` and ``chance``; an edge keeps
its two states, its ``move`` (``moves`` when two moves lead to the same state) and ``reshuffle``.
An attribute dict whose table is empty costs no table at all, so a node's dict costs about 100
bytes instead of 400.  The other attributes (``to_move``, ``hand_sizes``, ``top``, ..., an edge's
``label`` and ``explain`` sentence) are made from the states when read, and not kept.

To everyone reading them, ``G.nodes[s]["top"]``, ``G.edges[u, v]["explain"]``, ``d.get("label")``,
``d.items()``, ``dict(d)``, ``d.copy()``, pickling, the dicts look as if every attribute were
stored.  A value set by hand (``G.nodes[s]["value"] = 1``, a solver's result) is stored in the
table and wins over a made one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # pragma: no cover
    from ..core.state import GameState

__all__ = ["LazyAttributes", "NodeData", "EdgeData", "HIDDEN", "new_node", "new_edge"]

#: The prefix of attribute names nobody reads (older graphs stored their states under it).
HIDDEN = "_mm_"

_MISSING = object()


class LazyAttributes(dict[Any, Any]):
    """A dict whose ``SLOTS`` keys live in slots and whose ``MADE`` keys are computed when read."""

    __slots__ = ()
    #: Public key -> the slot that holds it (what exploring decided).
    SLOTS: ClassVar[dict[str, str]] = {}
    MADE: ClassVar[dict[str, Callable[[LazyAttributes], Any]]] = {}
    #: The slot that must be set for the made keys to exist (the state they are read off).
    SOURCE: ClassVar[str] = ""
    #: The order the keys are listed in (as a plain dict of the same attributes would list them).
    ORDER: ClassVar[tuple[str, ...]] = ()

    def _slot(self, key: Any) -> Any:
        """The value of ``key``'s slot, or _MISSING (not a slot key, or never set)."""
        slot = self.SLOTS.get(key) if type(key) is str else None
        return _MISSING if slot is None else getattr(self, slot, _MISSING)

    def _made(self) -> bool:
        return hasattr(self, self.SOURCE)

    def __getitem__(self, key: Any) -> Any:
        value = self._slot(key)
        if value is not _MISSING:
            return value
        try:
            return dict.__getitem__(self, key)
        except KeyError:
            make = self.MADE.get(key) if type(key) is str else None
            if make is None or not self._made():
                raise
            return make(self)

    def __setitem__(self, key: Any, value: Any) -> None:
        slot = self.SLOTS.get(key) if type(key) is str else None
        if slot is None:
            dict.__setitem__(self, key, value)
        else:
            object.__setattr__(self, slot, value)

    def __delitem__(self, key: Any) -> None:
        if self._slot(key) is not _MISSING:
            object.__delattr__(self, self.SLOTS[key])
        else:
            dict.__delitem__(self, key)

    def update(self, *args: Any, **kwargs: Any) -> None:  # networkx's add_node/add_edge call it
        pairs: Iterable[tuple[Any, Any]]
        for source in (*args, kwargs):
            pairs = source.items() if isinstance(source, Mapping) else source
            for key, value in pairs:
                self[key] = value

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self or not default:
            value = self[key]
            if self._slot(key) is not _MISSING or dict.__contains__(self, key):
                del self[key]
            return value
        return default[0]

    def clear(self) -> None:
        for slot in self.SLOTS.values():
            if hasattr(self, slot):
                object.__delattr__(self, slot)
        dict.clear(self)

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return (self._slot(key) is not _MISSING or dict.__contains__(self, key)
                or (key in self.MADE and self._made()))

    def keys(self) -> list[Any]:  # type: ignore[override]
        first = [k for k in self.ORDER if k in self]
        return first + [k for k in dict.__iter__(self) if k not in self.ORDER]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())

    def items(self) -> list[tuple[Any, Any]]:  # type: ignore[override]
        return [(k, self[k]) for k in self.keys()]

    def values(self) -> list[Any]:  # type: ignore[override]
        return [self[k] for k in self.keys()]

    def copy(self) -> dict[Any, Any]:
        """A plain dict of every attribute (made ones included)."""
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


class NodeData(LazyAttributes):
    """A node's attributes: its state, ``depth``, ``expanded``, ``chance`` kept; the rest read off the state."""

    __slots__ = ("_state", "_depth", "_expanded", "_chance")
    SLOTS: ClassVar[dict[str, str]] = {"depth": "_depth", "expanded": "_expanded", "chance": "_chance"}
    SOURCE = "_state"
    MADE: ClassVar[dict[str, Callable[[LazyAttributes], Any]]] = {}

    _state: GameState
    _depth: int
    _expanded: bool
    _chance: bool


class EdgeData(LazyAttributes):
    """An edge's attributes: its two states, ``move``, ``moves`` (when two moves lead to the same
    state) and ``reshuffle`` kept; ``moves``, ``label`` and ``explain`` made from the move and the states."""

    __slots__ = ("_from", "_to", "_move", "_moves", "_reshuffle", "_explain")
    SLOTS: ClassVar[dict[str, str]] = {"move": "_move", "moves": "_moves", "reshuffle": "_reshuffle",
                                       "explain": "_explain"}
    SOURCE = "_from"
    MADE: ClassVar[dict[str, Callable[[LazyAttributes], Any]]] = {}

    _from: GameState
    _to: GameState
    _move: Any
    _reshuffle: bool


def new_node(state: GameState, depth: int, expanded: bool, chance: bool) -> NodeData:
    """A node's attribute dict as exploring makes it (no table: every value in a slot)."""
    data = NodeData()
    data._state, data._depth, data._expanded, data._chance = state, depth, expanded, chance
    return data


def new_edge(before: GameState, move: Any, after: GameState, reshuffle: bool) -> EdgeData:
    """An edge's attribute dict as exploring makes it."""
    data = EdgeData()
    data._from, data._move, data._to, data._reshuffle = before, move, after, reshuffle
    return data


def define(node: Mapping[str, Callable[[GameState], Any]],
           edge: Mapping[str, Callable[[GameState, Any, GameState], Any]],
           node_order: tuple[str, ...], edge_order: tuple[str, ...]) -> None:
    """Say how the made attributes are made (``explore`` does, with its functions), and the order of
    every attribute."""
    NodeData.ORDER, EdgeData.ORDER = node_order, edge_order
    NodeData.MADE.update({key: (lambda f: lambda d: f(d._state))(fn)
                          for key, fn in node.items()})
    for key, fn in edge.items():
        EdgeData.MADE[key] = (lambda f: lambda d: f(d._from, d["move"], d._to))(fn)
