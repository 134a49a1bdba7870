"""Game-state graphs (maumau.graph): exploring, solving, phases, drawing, the view, export."""

from __future__ import annotations

import random
from collections import Counter

import matplotlib
import networkx as nx
import pytest

import maumau as mm
from maumau.core.events import Reshuffled
from maumau.graph import (
    FixedStock,
    GraphError,
    HiddenRandomness,
    SolveError,
    compare_phases,
    draw,
    draw_phases,
    fixed_stock,
    game_path,
    natural_move,
    natural_traps,
    phase_graph,
    phase_of,
    phase_statistics,
    solve,
    state_graph,
)

matplotlib.use("Agg")

#: The trap of the graphs page (docs/reference/graphs.md): playing the 8♠ "to get rid of a card" loses;
#: drawing the 8♦ wins.
TRAP = dict(hands=["8S QD", "3H 3S"], top="10S", stock="8D")


def fixed(game: str = "makao", **kw) -> mm.GameState:
    return fixed_stock(mm.position(game, **kw))


def reshuffles(state: mm.GameState) -> bool:
    return any(isinstance(e, Reshuffled) for e in state.events) and not state.is_over


def brute_force(start: mm.GameState, stop_at_reshuffle: bool = True) -> tuple[int, int]:
    """Distinct states and distinct (state, next state) pairs, by a plain depth-first search."""
    seen, pairs, stack = {start}, set(), [start]
    while stack:
        state = stack.pop()
        if stop_at_reshuffle and state is not start and reshuffles(state):
            continue
        for move in state.legal_moves():
            child = state.apply(move)
            pairs.add((state, child))
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return len(seen), len(pairs)


def minimax(state: mm.GameState, memo: dict) -> int | None:
    """Plain minimax over apply(): the seat that wins with best play, None for a blocked hand.
    (Fixed-stock games are finite and acyclic, so recursion ends.)"""
    if state in memo:
        return memo[state]
    if state.is_over:
        value = state.winner
    else:
        me = state.to_move
        values = [minimax(state.apply(m), memo) for m in state.legal_moves()]
        value = me if me in values else None if None in values else next(v for v in values)
    memo[state] = value
    return value


def random_positions(game: str, count: int, cards: int, stock: int, seed: int) -> list[mm.GameState]:
    rng = random.Random(seed)
    deck = list(mm.variant(game).distinct_cards)
    out = []
    while len(out) < count:
        cs = rng.sample(deck, 2 * cards + 1 + stock)
        if game == "makao" and cs[2 * cards].rank.value in "789JA":
            continue
        out.append(fixed(game, hands=[cs[:cards], cs[cards:2 * cards]], top=cs[2 * cards], stock=cs[2 * cards + 1:]))
    return out


# --- exploring ------------------------------------------------------------------------------------------

def test_one_card_position_counted_by_hand():
    # Seat 0 holds 7♥ on 7♣: play it (out) or draw (nothing to draw: a pass).  Then seat 1's 8♥
    # fits nothing, so it draws nothing too, and nobody could play or draw: blocked (C-7).
    s = mm.position("makao", hands=["7H", "8H"], top="7C", stock="")
    G = mm.state_graph(s)
    assert (len(G), G.number_of_edges()) == (4, 3)
    assert G.graph["complete"] and not G.graph["truncated"]
    ends = {d["winner"] for n, d in G.nodes(data=True) if d["terminal"]}
    assert ends == {0, None}
    root = G.nodes[s]
    assert (root["to_move"], root["hand_sizes"], root["top"], root["depth"]) == (0, (1, 1), "7C", 0)
    assert {d["label"] for *_, d in G.edges(data=True)} == {"7♥", "draw"}
    assert all(d["explain"].startswith("Seat") for *_, d in G.edges(data=True))


@pytest.mark.parametrize("game", mm.variant_names())
def test_counts_match_brute_force(game):
    for s in random_positions(game, 4, cards=2, stock=2, seed=7):
        G = state_graph(s, explain=False)
        assert (len(G), G.number_of_edges()) == brute_force(s)
        assert not G.graph["truncated"] and G.graph["chance_nodes"] == 0


@pytest.mark.parametrize("game", ["makao", "joker_mau_mau"])
def test_stop_at_reshuffle_matches_brute_force(game):
    s = mm.position(game, hands=["7H 9C AS", "8H 10D QC"], top="9H", stock="KH 10S")
    G = state_graph(s, explain=False)
    assert (len(G), G.number_of_edges()) == brute_force(s, stop_at_reshuffle=True)
    chance = [n for n, d in G.nodes(data=True) if d["chance"]]
    assert chance and G.graph["chance_nodes"] == len(chance) and not G.graph["complete"]
    assert all(G.out_degree(n) == 0 for n in chance)
    assert all(d["reshuffle"] for u, v, d in G.edges(data=True) if G.nodes[v]["chance"])


def test_three_three_four_position_is_complete():
    s = fixed(hands=["7H 9C AS", "8H JD 5C"], top="5H", stock="KH 2C 9H 10S")
    G = state_graph(s, explain=False)
    assert G.graph["complete"] and len(G) > 1000
    assert nx.is_directed_acyclic_graph(G)  # without a reshuffle every move uses a card or a turn
    assert all(d["expanded"] for _, d in G.nodes(data=True))


def test_equal_situations_merge():
    s = fixed(hands=["5C 6C", "5D 6D"], top="5H", stock="7S 8S 9S")
    assert s == fixed(hands=["6C 5C", "6D 5D"], top="5H", stock="7S 8S 9S")
    G = state_graph(s)
    paths = Counter()  # the game tree would repeat each merged situation once per way to reach it
    for node in nx.topological_sort(G):
        paths[node] = 1 if node == s else sum(paths[p] for p in G.predecessors(node))
    assert sum(paths.values()) > len(G)


def test_bounds_are_reported():
    s = fixed(hands=["7H 9C AS", "8H JD 5C"], top="5H", stock="KH 2C 9H 10S")
    G = state_graph(s, max_nodes=50)
    assert len(G) <= 50 and G.graph["truncated"] and G.graph["truncated_by"] == "max_nodes"
    assert G.graph["frontier"] == sum(1 for _, d in G.nodes(data=True) if not d["expanded"] and not d["terminal"])
    for node, d in G.nodes(data=True):  # a node is expanded whole or not at all
        assert G.out_degree(node) == (len(set(node.apply(m) for m in node.legal_moves())) if d["expanded"] else 0)
    H = state_graph(s, max_depth=2)
    assert H.graph["truncated"] and H.graph["truncated_by"] == "max_depth"
    assert max(d for _, d in H.nodes(data="depth")) == 2
    assert "cut by max_depth" in mm.graph.describe(H)


def test_bad_input():
    s = fixed(**TRAP)
    with pytest.raises(GraphError, match="GameState"):
        state_graph("makao")
    with pytest.raises(GraphError, match="max_nodes"):
        state_graph(s, max_nodes=0)
    with pytest.raises(GraphError, match="reshuffle"):
        state_graph(s, reshuffle="sometimes")


def test_fixed_stock_house_rule():
    s = fixed(hands=["7H", "8H"], top="7C", stock="", discard="2C 3C")
    assert "fixed_stock" in s.variant and not s.variant.reshuffles
    assert fixed_stock(s) is s
    t = s.apply(mm.Draw())  # a full pile under the top, but it is never reshuffled
    assert t.stock == () and len(t.hands[0]) == 1 and not any(isinstance(e, Reshuffled) for e in t.events)
    assert t.apply(mm.Draw()).blocked  # nobody could play or draw: C-7
    assert mm.Game.from_json(mm.Game(s).to_json()).start == s  # the house rule is saved with the game
    assert FixedStock().summary.startswith("House rule")


# --- solving ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", mm.variant_names())
def test_solve_agrees_with_minimax(game):
    for s in random_positions(game, 5, cards=2, stock=2, seed=11):
        G = state_graph(s, explain=False)
        sol = solve(G)
        memo: dict = {}
        for node in G:
            assert sol.values[node] == minimax(node, memo)
        line = sol.line()
        end = line[-1][0]
        assert end.is_over and end.winner == sol.values[s]
        if sol.values[s] is not None:
            assert len(line) - 1 == sol.plies[s]


def graph(edges: list[tuple[str, str]], movers: dict[str, int], wins: dict[str, int | None]) -> nx.DiGraph:
    """A hand-built graph: ``movers`` for inner nodes, ``wins`` for ends (None: a draw)."""
    G = nx.DiGraph()
    for node, seat in movers.items():
        G.add_node(node, to_move=seat, terminal=False, winner=None, depth=0)
    for node, seat in wins.items():
        G.add_node(node, to_move=seat if seat is not None else 0, terminal=True, winner=seat, depth=1)
    for u, v in edges:
        G.add_edge(u, v, move=mm.Pass(), label=f"{u}{v}")
    G.graph["players"] = 2
    return G


def test_solve_cycles():
    # A (seat 0) and B (seat 1) can pass the turn round forever, or step into the other's win.
    G = graph([("A", "B"), ("B", "A"), ("A", "W1"), ("B", "W0")], {"A": 0, "B": 1}, {"W1": 1, "W0": 0})
    sol = solve(G)
    assert sol.values["A"] is None and sol.values["B"] is None  # both stay in the cycle: a draw
    assert sol.best_moves("A") == [mm.Pass()] and sol.value("A") == "nobody wins"
    # Now A can win at once, so B, whose every move leads to A or to a win of seat 0, is lost too.
    G = graph([("A", "B"), ("B", "A"), ("A", "W0"), ("B", "X0")], {"A": 0, "B": 1}, {"W0": 0, "X0": 0})
    sol = solve(G)
    assert (sol.values["A"], sol.plies["A"], sol.values["B"], sol.plies["B"]) == (0, 1, 0, 2)
    # Seat 1 escapes the cycle A→B→C→A with a win from B; seat 0's only way out from C is a loss.
    G = graph([("A", "B"), ("B", "C"), ("C", "A"), ("B", "W1"), ("C", "L")], {"A": 0, "B": 1, "C": 0},
              {"W1": 1, "L": 1})
    sol = solve(G)
    assert [sol.values[n] for n in "ABC"] == [1, 1, 1] and sol.plies["C"] == 3
    assert [s for s, _ in sol.line("C")] == ["C", "A", "B", "W1"]
    # A blocked hand is a draw that seat 0 prefers to a loss.
    G = graph([("A", "D"), ("A", "L")], {"A": 0}, {"D": None, "L": 1})
    assert solve(G).values["A"] is None


def test_solve_long_cycle_needs_no_recursion():
    n = 50_000
    G = graph([(f"v{i}", f"v{(i + 1) % n}") for i in range(n)] + [("v0", "W")], {f"v{i}": i % 2 for i in range(n)},
              {"W": 0})
    sol = solve(G, annotate=False)
    assert sol.values["v0"] == 0 and sol.values["v1"] == 0 and sol.plies["v1"] == n


def test_solve_refuses_what_it_cannot_answer():
    three = mm.position("makao", hands=["7H", "8H", "9H"], top="7C", stock="")
    with pytest.raises(SolveError, match="two players"):
        solve(state_graph(fixed_stock(three)))
    hidden = state_graph(mm.position("makao", **TRAP))
    with pytest.raises(HiddenRandomness, match="reshuffle"):
        solve(hidden)
    with pytest.raises(HiddenRandomness):
        solve(state_graph(mm.position("makao", **TRAP), max_nodes=300, reshuffle="follow"))
    cut = state_graph(fixed(**TRAP), max_depth=2)
    with pytest.raises(SolveError, match="cut"):
        solve(cut)
    partial = solve(hidden, partial=True)
    assert all(partial.value(n) != "unknown" for n, d in hidden.nodes(data=True) if d["terminal"])
    assert all(partial.value(n) == "unknown" for n, d in hidden.nodes(data=True) if d["chance"])


def test_partial_values_are_sound():
    s = fixed(**TRAP)
    G = state_graph(s)
    full = solve(G)
    cut = state_graph(s, max_depth=3)
    part = solve(cut, partial=True)
    for node in cut:
        if part.value(node) != "unknown":
            assert part.values[node] == full.values[node]


def test_natural_move_loses():
    s = fixed(**TRAP)
    sol = solve(state_graph(s))
    assert sol.value(s) == "seat 0 wins" and sol.winning_moves(s) == [mm.Draw()]
    assert natural_move(s) == mm.Play("8S", mau=True)
    trap = natural_traps(sol)[0]
    assert trap.state == s and trap.natural_value == "seat 1 wins" and trap.best == [mm.Draw()]
    assert "natural move: play 8S" in str(trap)


# --- phases, paths and statistics -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def phases() -> dict[str, nx.DiGraph]:
    return {name: phase_graph(name, games=25, seed=1) for name in mm.variant_names()}


def moves_of(G: nx.DiGraph) -> set[str]:
    return {m for *_, d in G.edges(data=True) for m in d["moves"]}


def test_phase_graphs_differ_where_the_rules_differ(phases):
    makao, lite = phases["makao"], phases["lite_macau"]
    assert "9 reverse" in moves_of(makao) and not any("reverse" in m for m in moves_of(lite))
    assert "penalty: kings_draw_five" in lite and "penalty: kings_draw_five" not in makao
    assert "Ace extra play" in makao and "Ace extra play" not in lite
    assert "Runde running" in phases["mau_mau_runde"]
    assert "skip: eight_skips_summed" in phases["joker_mau_mau"] and "drawn-card choice" in phases["joker_mau_mau"]
    diff = compare_phases(makao, lite)
    assert "penalty: kings_draw_five" in diff.only_b and "Ace extra play" in diff.only_a
    assert ("reverse", "9 reverse") in diff.effects_only_a and "cancel" in dict(diff.effects_only_b)
    assert "only in lite_macau" in str(diff)


def test_phase_graph_follows_house_rules():
    plain = phase_graph(mm.variant("makao").without("reverse_on_nine"), games=10, seed=1)
    assert not any("reverse" in m for m in moves_of(plain))


def test_phase_statistics(phases):
    table = phase_statistics(phases["makao"])
    assert abs(sum(r["share"] for r in table.rows) - 1) < 1e-3  # shares to four decimals
    assert table.rows[0]["phase"] == "normal turn" and all(r["branching"] >= 1 for r in table.rows)
    assert "normal turn" in str(table)


def test_game_path():
    g = next(mm.graph.random_games("mau_mau_runde", games=1, seed=3))
    P = game_path(g)
    assert len(P) == len(g) + 1 and nx.is_directed_acyclic_graph(P)
    assert [P.nodes[i]["phase"] for i in range(len(P))] == [phase_of(s) for s in g.states]
    assert P.edges[0, 1]["move"] == g.moves[0] and P.nodes[len(g)]["terminal"]
    assert phase_statistics([g]).games == 1


# --- drawing, the view, export -------------------------------------------------------------------------------

def test_draw(tmp_path):
    import matplotlib.pyplot as plt

    s = fixed(**TRAP)
    G = state_graph(s)
    ax = draw(G).figure().axes[0]  # without an Axes, draw gives a Chart; its figure() is matplotlib's
    assert ax.get_title().startswith("makao: 30 states")
    with pytest.raises(GraphError, match="solve"):
        draw(G, color="value")
    sol = solve(G)
    _, ax = plt.subplots()
    assert draw(G, ax, highlight=[n for n, _ in sol.line()]) is ax  # an Axes given is drawn on and returned
    ax.figure.savefig(tmp_path / "trap.png")
    big = state_graph(fixed(hands=["7H 9C AS", "8H JD 5C"], top="5H", stock="KH 2C 9H 10S"), explain=False)
    assert "too many to draw" in draw(big).figure().axes[0].get_title(loc="left")
    assert "too many to draw" in draw(big).spec["title"]["text"][0]
    long_game = game_path(next(mm.graph.random_games("makao", games=1, seed=2)))
    assert len(long_game) > 150 and "too long" in draw(long_game).figure().axes[0].get_title(loc="left")
    assert "too long" in draw(long_game).spec["title"]["text"]
    path = draw(game_path(next(mm.graph.random_games("mau_mau_runde", games=1))))
    assert path.figure().axes[0].get_title().startswith("mau_mau") and path.spec["title"]["text"].startswith("mau_mau")
    with pytest.raises(GraphError, match="empty"):
        draw(nx.DiGraph())
    axes = draw_phases(phase_graph("makao", games=3), phase_graph("lite_macau", games=3)).figure().axes
    assert len(axes) == 2
    plt.close("all")


def test_view():
    s = fixed(**TRAP)
    G = state_graph(s)
    v = mm.graph.view(G, solve(G), picture=False)
    assert v.node == s and "8♠" in v.table.value and "seat 0 wins" in v.table.value
    labels = [b.description for b in v.moves.children]
    assert labels == ["8♠ → seat 1 wins", "draw → seat 0 wins"]
    v.moves.children[1].click()
    assert v.node == s.apply(mm.Draw()) and v.history == [s]
    v.back.click()
    assert v.node == s and not v.history
    v.chooser.value = 3
    assert v.node is v._order[3]
    assert repr(v) == "<GraphView of 30 states>"
    assert mm.graph.view(G).picture is not None  # with its picture, outside a notebook too


def test_export_round_trip(tmp_path):
    s = fixed(**TRAP)
    G = state_graph(s)
    solve(G)
    for H in (mm.graph.read_graphml(mm.graph.write_graphml(G, tmp_path / "g.graphml")),
              mm.graph.from_json(mm.graph.to_json(G))):
        assert set(H) == set(G) and set(H.edges) == set(G.edges) and H.graph["root"] == s
        assert all(H.nodes[n] == G.nodes[n] for n in G)
        assert all(H.edges[e] == G.edges[e] for e in G.edges)
        assert H.graph == G.graph
    P = phase_graph("makao", games=3)
    Q = mm.graph.read_graphml(mm.graph.write_graphml(P, tmp_path / "p.graphml"))
    assert all(Q.edges[e] == P.edges[e] for e in P.edges) and Q.graph == P.graph
    data = mm.graph.to_node_link(G)
    assert nx.node_link_graph(data, edges="edges").number_of_edges() == G.number_of_edges()
    with pytest.raises(mm.FormatError):
        mm.graph.from_json("{not json")
    with pytest.raises(mm.FormatError):
        mm.graph.from_json('{"nodes": 3}')


def test_public_names():
    assert mm.state_graph is mm.graph.state_graph
    assert callable(mm.graph.draw) and callable(mm.graph.view) and callable(mm.graph.solve)
