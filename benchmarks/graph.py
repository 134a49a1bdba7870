"""Graph benchmark: how fast state graphs build and solve, and what a node costs in memory.

    python benchmarks/graph.py                  # every variant
    python benchmarks/graph.py --variant makao --repeat 3

For each variant it builds the complete graph of a two-player position with 3 cards in each
hand and 4 in the stock, under the fixed-stock house rule (no reshuffle, so the graph is
finite), with and without the explain() sentences on the edges, and solves it.  Then it
measures nodes explored per second on a bigger graph that a bound cuts (the engine's seeded
reshuffles followed, ``max_nodes``), and the memory per node (tracemalloc, the graph and its
states together).  Times are CPU seconds of this process (``time.process_time``), best of
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


def memory_per_node(state: mm.GameState, max_nodes: int) -> tuple[int, float]:
    """Nodes built and bytes per node (graph, attributes and states) for a bounded graph."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    G = gr.state_graph(state, max_nodes=max_nodes, reshuffle="follow")
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return len(G), used / len(G)


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
    print(f"{'variant':<15}{'states/s':>10}{'moves/s':>10}{'bytes/state':>13}")
    for name in names:
        state = mm.position(name, **POSITIONS[name])
        elapsed, G = best_time(lambda s=state: gr.state_graph(s, max_nodes=args.nodes, reshuffle="follow"),
                               args.repeat)
        _, per_node = memory_per_node(state, args.nodes)
        print(f"{name:<15}{len(G) / elapsed:>10,.0f}{G.number_of_edges() / elapsed:>10,.0f}{per_node:>13,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
