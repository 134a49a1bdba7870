"""Solving a state graph: who wins with best play, and how (retrograde analysis).

Two players, all hands open (the teacher's view), a known stock.  The same player may
move twice in a row (an 8, an Ace), so the analysis works with outcomes ("seat 1
wins"), not with "the player to move wins".  It is the classic retrograde analysis of
a reachability game, done with a queue and a counter per node, never with recursion:

- a seat wins from a node if it moves there and one move reaches a node it wins, or
  the other seat moves there and every move reaches a node the first seat wins;
- a node that neither seat can force is a draw ("nobody wins"): both can keep the game away from
  losing, by a blocked hand (C-7) or by playing on forever round a cycle.

The queue also measures how many moves the win takes when the winner hurries and the
loser holds out (``plies``), which gives the winning line.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.moves import Move, Play
from ..text.graph_words import graph_sentence, graph_words
from ..text.i18n import language
from .explore import move_label

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

    from ..core.state import GameState

__all__ = ["solve", "Solution", "SolveError", "HiddenRandomness", "natural_move", "natural_traps", "Trap"]

DRAW = None
#: The value of a draw, in words that cannot be taken for the move Draw().
NOBODY = "nobody wins"


class SolveError(ValueError):
    """A graph ``solve`` cannot answer for: more than two players, or cut by a bound."""


class HiddenRandomness(SolveError):
    """The graph holds a reshuffle (C-6): the new stock order is hidden, the game no longer open."""


def _seats(G: nx.DiGraph) -> tuple[int, int]:
    players = G.graph.get("players")
    seats = sorted({d["to_move"] for _, d in G.nodes(data=True) if not d["terminal"]}
                   | {d["winner"] for _, d in G.nodes(data=True) if d.get("winner") is not None})
    if (players is not None and players > 2) or len(seats) > 2:
        n = players if players is not None else len(seats)
        raise SolveError(
            f"solve() is for two players, and this game has {n}: with three or more, 'best play' "
            "depends on who helps whom (the players who cannot win may decide who does). "
            "Explore the graph instead, or build a two-player position.")
    root = G.graph.get("root")
    if len(seats) < 2 and root is not None and hasattr(root, "active"):
        seats = [i for i, a in enumerate(root.active) if a]
    while len(seats) < 2:
        seats.append(max(seats, default=-1) + 1)
    return seats[0], seats[1]


def _unknown_leaves(G: nx.DiGraph, partial: bool) -> set[Hashable]:
    """States whose value the graph cannot tell: unexplored (a bound) or after a reshuffle."""
    cut = [n for n, d in G.nodes(data=True) if not d["terminal"] and not d.get("chance") and G.out_degree(n) == 0]
    chance = [n for n, d in G.nodes(data=True) if d.get("chance")]
    shuffled = [v for _, v, r in G.edges(data="reshuffle") if r and not G.nodes[v]["terminal"]]
    if partial:
        return set(cut) | set(chance) | set(shuffled)
    if chance or shuffled:
        raise HiddenRandomness(
            f"this graph reshuffles the pile ({len(set(chance) | set(shuffled))} states come after a reshuffle, "
            "C-6): the new stock order is hidden randomness, so the game is no longer open and has no "
            "single value. Solve the same position under the house rule that never reshuffles "
            "(mm.state_graph(mm.graph.fixed_stock(state))), or use solve(G, partial=True) for the "
            "values that hold whatever the shuffle brings.")
    if cut:
        raise SolveError(
            f"the graph was cut by a bound ({G.graph.get('truncated_by') or 'unexplored states'}): "
            f"{len(cut)} states were not explored, so some values would be guesses. Build it with a "
            "larger max_nodes (or no max_depth), or use solve(G, partial=True).")
    return set()


def _attractor(G: nx.DiGraph, seat: int, targets: set[Hashable], leaves: set[Hashable]) -> dict[Hashable, int]:
    """The nodes from which ``seat`` can force reaching ``targets``, with the moves it takes."""
    plies: dict[Hashable, int] = {}
    left: dict[Hashable, int] = {}
    queue: deque[Hashable] = deque()
    for t in targets:
        plies[t] = 0
        queue.append(t)
    nodes = G.nodes
    while queue:
        node = queue.popleft()
        for pred in G.predecessors(node):
            if pred in plies or pred in leaves:
                continue
            if nodes[pred]["to_move"] == seat:  # the first such child found is the fastest
                plies[pred] = plies[node] + 1
                queue.append(pred)
                continue
            count = left.get(pred)
            if count is None:
                count = G.out_degree(pred)
            left[pred] = count = count - 1
            if count == 0:  # every move lets the seat win; this child was the slowest
                plies[pred] = plies[node] + 1
                queue.append(pred)
    return plies


@dataclass
class Solution:
    """The solved graph: ``values[node]`` is the seat that wins with best play (None for a
    draw; nodes left unknown by ``partial=True`` are missing), ``plies[node]`` the moves
    to the end when the winner hurries and the loser holds out."""

    graph: nx.DiGraph
    seats: tuple[int, int]
    values: dict[Hashable, int | None]
    plies: dict[Hashable, int]
    unknown: set[Hashable] = field(default_factory=set)

    def value(self, node: Hashable) -> str:
        """``"seat 0 wins"``, ``"nobody wins"`` (a blocked hand, or endless play) or ``"unknown"``."""
        if node not in self.values:
            return "unknown"
        v = self.values[node]
        return NOBODY if v is None else f"seat {v} wins"

    def _moves(self, node: Hashable) -> list[tuple[Move, Hashable]]:
        return [(m, child) for child, data in self.graph[node].items()
                for m in data.get("moves", (data.get("move"),))]

    def _rank(self, mover: int, child: Hashable) -> tuple[Any, ...]:
        """How good a child is for ``mover``: a win soon, then a draw or unknown, then a loss late."""
        if child not in self.values:
            return (1, 0)
        v = self.values[child]
        if v is None:
            return (2, 0)
        return (0, self.plies[child]) if v == mover else (3, -self.plies[child])

    def _best(self, node: Hashable) -> list[tuple[Move, Hashable]]:
        if self.graph.nodes[node]["terminal"]:
            return []
        mover = self.graph.nodes[node]["to_move"]
        ranked = sorted(self._moves(node), key=lambda mc: self._rank(mover, mc[1]))
        best = self._rank(mover, ranked[0][1])[0] if ranked else None
        return [(m, c) for m, c in ranked if self._rank(mover, c)[0] == best]

    def best_moves(self, node: Hashable) -> list[Move]:
        """The moves of best play, best first: the fastest win, a draw, or the longest resistance."""
        return [m for m, _ in self._best(node)]

    def winning_moves(self, node: Hashable) -> list[Move]:
        """Every move that keeps a won position won for the player to move (fastest first)."""
        if self.graph.nodes[node]["terminal"]:
            return []
        mover = self.graph.nodes[node]["to_move"]
        won = [(self.plies[c], i, m) for i, (m, c) in enumerate(self._moves(node)) if self.values.get(c, -1) == mover]
        return [m for *_, m in sorted(won)]

    def line(self, node: Hashable | None = None, max_moves: int = 60) -> list[tuple[Hashable, Move | None]]:
        """Best play from ``node`` (default: the root): ``[(state, move), ..., (last state, None)]``."""
        node = self.graph.graph.get("root") if node is None else node
        steps: list[tuple[Hashable, Move | None]] = []
        seen = set()
        while node not in seen and len(steps) < max_moves:
            seen.add(node)
            best = self._best(node)
            if not best:
                break
            steps.append((node, best[0][0]))
            node = best[0][1]
        steps.append((node, None))
        return steps

    def counts(self) -> dict[str, int]:
        """How many states each value has."""
        out: dict[str, int] = {}
        for node in self.graph:
            key = self.value(node)
            out[key] = out.get(key, 0) + 1
        return dict(sorted(out.items()))

    def __str__(self) -> str:
        root = self.graph.graph.get("root")
        head = f"root: {self.value(root)}" if root in self.graph else "solved"
        if root in self.plies:
            head += f" in {self.plies[root]} moves"
        return head + "; " + ", ".join(f"{k}: {v}" for k, v in self.counts().items())

    def __repr__(self) -> str:
        return f"<Solution of {len(self.graph)} states: {self}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))


def solve(G: nx.DiGraph, partial: bool = False, annotate: bool = True) -> Solution:
    """The game-theoretic value of every node of a two-player state graph.

    Raises ``SolveError`` for three or more players or a graph cut by a bound, and
    ``HiddenRandomness`` for a graph with a reshuffle.  ``partial=True`` solves what can be
    known anyway: a value is kept only if it holds whatever the unexplored or reshuffled
    states turn out to be (the others are ``"unknown"``).  ``annotate`` writes ``value`` and
    ``plies`` onto the nodes and ``best=True`` onto the edges of best play.
    """
    seats = _seats(G)
    leaves = _unknown_leaves(G, partial)
    wins = {s: {n for n, d in G.nodes(data=True) if d["terminal"] and d.get("winner") == s} for s in seats}
    sure = {s: _attractor(G, s, wins[s], leaves) for s in seats}
    values: dict[Hashable, int | None] = {}
    plies: dict[Hashable, int] = {}
    for s in seats:
        for node, n in sure[s].items():
            values[node] = s
            plies[node] = n
    maybe: set[Hashable] = set()
    if leaves:
        for s in seats:
            maybe |= set(_attractor(G, s, wins[s] | leaves, set()))
    unknown = {n for n in G if n not in values and (n in maybe or n in leaves)}
    for node in G:
        if node not in values and node not in unknown:
            values[node] = DRAW
    solution = Solution(G, seats, values, plies, unknown)
    if annotate:
        _annotate(solution)
    return solution


def _annotate(sol: Solution) -> None:
    G = sol.graph
    for node, data in G.nodes(data=True):
        data["value"] = sol.value(node)
        data["plies"] = sol.plies.get(node)
    for *_, data in G.edges(data=True):
        data["best"] = False
    for node in G:
        best = set(sol.best_moves(node))
        for data in G[node].values():
            if best & set(data.get("moves", (data.get("move"),))):
                data["best"] = True


# --- where the natural move loses --------------------------------------------------------------

def natural_move(state: GameState) -> Move:
    """The move a beginner makes: play a card rather than draw (the first legal play)."""
    moves = state.legal_moves()
    return next((m for m in moves if isinstance(m, Play)), moves[0])


@dataclass
class Trap:
    """A state where the natural move throws away the value of best play."""

    state: Any
    natural: Move
    natural_value: str
    value: str
    best: list[Move]
    depth: int

    def __str__(self) -> str:
        """The state, the natural move and the best play with what each is worth, in the course's
        language (moves in English by their names, ``play 8S mau``; elsewhere as the graph draws
        them, ``8♠``, ``ziehen``)."""
        if language() == "en":
            def say(move: Move) -> str:
                return str(move)
        else:
            def say(move: Move) -> str:
                return graph_words(move_label(move, self.state if hasattr(self.state, "pending") else None))
        return graph_sentence("trap", state=repr(self.state), natural=say(self.natural),
                              natural_value=graph_words(self.natural_value),
                              best=", ".join(say(m) for m in self.best), value=graph_words(self.value))

    def __repr__(self) -> str:
        return f"<Trap: {self.natural} → {self.natural_value}, but {self.best[0]} → {self.value}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))


def natural_traps(sol: Solution, choose: Callable[[Any], Move] | Any = natural_move) -> list[Trap]:
    """Every state where ``choose`` (a function of the state, or a player with ``choose``)
    picks a move that is worse than best play for the player to move, shallowest first."""
    pick = getattr(choose, "choose", choose)
    G = sol.graph
    traps = []
    for node, data in G.nodes(data=True):
        if data["terminal"] or node in sol.unknown or not hasattr(node, "legal_moves"):
            continue
        move = pick(node)
        child = next((c for m, c in sol._moves(node) if m == move), None)
        if child is None or child in sol.unknown:
            continue
        mover = data["to_move"]
        if sol._rank(mover, child)[0] > sol._rank(mover, node)[0]:
            traps.append(Trap(node, move, sol.value(child), sol.value(node), sol.best_moves(node), data["depth"]))
    traps.sort(key=lambda t: (t.depth, sum(len(h) for h in t.state.hands)))
    return traps
