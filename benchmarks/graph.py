"""Graph benchmark: how fast state graphs build and solve, and what a node costs in memory.

    python benchmarks/graph.py                  # every variant
    python benchmarks/graph.py --variant makao --repeat 3

For each variant it builds the complete graph of a two-player position with 3 cards in each
hand and 4 in the stock, under the fixed-stock house rule (no reshuffle, so the graph is
finite), with and without the explain() sentences on the edges, and solves it.  Then it
measures nodes explored per second on a bigger graph that a bound cuts (the engine's seeded
reshuffles followed, ``max_nodes``), and the memory per node (tracemalloc, the graph and its
states together; then what the states alone hold, and what a plain networkx DiGraph of the same
shape with integer nodes costs: the floor no networkx graph of these nodes and edges goes below).
Times are CPU seconds of this process (``time.process_time``), best of
``--repeat`` runs: on a machine shared with other work, wall-clock time mostly measures the
neighbours.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx  # noqa: E402

import maumau as mm  # noqa: E402
from maumau import graph as gr  # noqa: E402

#: Two players, 3 cards each, 4 in the stock; wild cards and penalties included.
POSITIONS = {
    "makao": dict(hands=["7H 9C AS", "8H JD 5C"], top="5H", stock="KH 2C 9H 10S"),
    "lite_macau": dict(hands=["7H 9C QS", "8H 5D 5C"], top="5H", stock="KH 2C 9H 10S"),
    "mau_mau_runde": dict(hands=["7H 9C AS", "8H 10D QC"], top="9H", stock="KH 7C 10H 10S"),
    "joker_mau_mau": dict(hands=["7H 9C AS", "8H 10D QC"], top="9H", stock="KH 7C 10H 10S"),
}


def best_time(fn, repeat: int) -> tuple[float, object]:
    """The fastest of ``repeat`` runs of ``fn()`` (CPU seconds) and its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return best, result


def memory_per_node(state: mm.GameState, max_nodes: int) -> tuple[int, float, float]:
    """Nodes built, bytes per node (graph, attributes and states) for a bounded graph, and of these
    the bytes per node that the states themselves hold (what is left when the graph is dropped)."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    G = gr.state_graph(state, max_nodes=max_nodes, reshuffle="follow")
    used = tracemalloc.get_traced_memory()[0] - base
    states = list(G)
    listed = tracemalloc.get_traced_memory()[0] - base - used
    n = len(G)
    del G
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base - listed
    tracemalloc.stop()
    del states
    return n, used / n, held / n


def networkx_floor(state: mm.GameState, max_nodes: int) -> float:
    """Bytes per node of a plain networkx DiGraph of the same shape with integers for nodes and no
    attributes: what networkx's dict-of-dicts costs whatever a node is."""
    G = gr.state_graph(state, max_nodes=max_nodes, reshuffle="follow")
    number = {node: i for i, node in enumerate(G)}
    edges = [(number[u], number[v]) for u, v in G.edges()]
    n = len(G)
    del G, number
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    plain = nx.DiGraph()
    plain.add_nodes_from(range(n))
    plain.add_edges_from(edges)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=sorted(POSITIONS), help="repeatable; default: all")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best counts")
    parser.add_argument("--nodes", type=int, default=50_000, help="bound for the throughput and memory runs")
    args = parser.parse_args(argv)
    names = args.variant or sorted(POSITIONS)

    print(f"maumau {mm.__version__}, Python {sys.version.split()[0]}; best of {args.repeat}")
    print("\nComplete graph of the 3+3 cards, 4 in the stock position (fixed stock):")
    print(f"{'variant':<15}{'states':>8}{'moves':>8}{'build s':>9}{'no text s':>11}{'solve s':>9}  root value"
          "   (CPU seconds)")
    for name in names:
        state = gr.fixed_stock(mm.position(name, **POSITIONS[name]))
        built, G = best_time(lambda s=state: gr.state_graph(s), args.repeat)
        bare, _ = best_time(lambda s=state: gr.state_graph(s, explain=False), args.repeat)
        solved, sol = best_time(lambda g=G: gr.solve(g), args.repeat)
        print(f"{name:<15}{len(G):>8,}{G.number_of_edges():>8,}{built:>9.2f}{bare:>11.2f}{solved:>9.2f}  "
              f"{sol.value(state)}")

    print(f"\nA graph cut at {args.nodes:,} states (reshuffles followed), explain() text on every edge:")
    print(f"{'variant':<15}{'states/s':>10}{'moves/s':>10}{'bytes/state':>13}{'the states':>12}"
          f"{'networkx floor':>16}")
    for name in names:
        state = mm.position(name, **POSITIONS[name])
        elapsed, G = best_time(lambda s=state: gr.state_graph(s, max_nodes=args.nodes, reshuffle="follow"),
                               args.repeat)
        _, per_node, held = memory_per_node(state, args.nodes)
        floor = networkx_floor(state, args.nodes)
        print(f"{name:<15}{len(G) / elapsed:>10,.0f}{G.number_of_edges() / elapsed:>10,.0f}{per_node:>13,.0f}"
              f"{held:>12,.0f}{floor:>16,.0f}")
    print("(the states: bytes per state still held when the graph is dropped; networkx floor: a plain DiGraph "
          "of the same shape, integer nodes, no attributes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
