"""Game-state graphs: explore, solve and draw small games (networkx).

>>> import maumau as mm
>>> s = mm.position("makao", hands=["7H", "8H"], top="7C", stock="")
>>> G = mm.state_graph(s)
>>> len(G), G.graph["truncated"]
(4, False)

Modules: ``explore`` (the state graph), ``solve`` (retrograde analysis), ``turn_phase``
(``phase_of``: what kind of decision a state asks for), ``phases`` (the turn-phase machine,
games as paths, statistics), ``draw`` (pictures of state graphs; with ``layout``, ``style``,
``placement`` and ``draw_machines``, the phase machines), ``view`` (an ipywidgets explorer),
``export`` (GraphML, node-link JSON).  Imports run one way: ``phases`` → ``explore`` →
``turn_phase``.
"""

from .draw import draw, draw_phases, layered_layout
from .explore import (
    FixedStock,
    GraphError,
    around,
    describe,
    fixed_stock,
    move_label,
    node_attributes,
    phase_text,
    state_graph,
    state_label,
)
from .export import from_json, from_node_link, read_graphml, to_json, to_node_link, write_graphml
from .phases import (
    PhaseComparison,
    PhaseTable,
    compare_phases,
    game_path,
    phase_graph,
    phase_graph_of,
    phase_of,
    phase_statistics,
    random_games,
    transition_label,
)
from .solve import HiddenRandomness, Solution, SolveError, Trap, natural_move, natural_traps, outcome_words, solve
from .view import GraphView, view

# networkx, matplotlib and ipywidgets are imported inside the functions that need them.
__all__ = [
    "state_graph", "around", "describe", "fixed_stock", "FixedStock", "GraphError", "move_label",
    "node_attributes", "state_label", "phase_text", "outcome_words",
    "solve", "Solution", "SolveError", "HiddenRandomness", "natural_move", "natural_traps", "Trap",
    "phase_of", "phase_graph", "phase_graph_of", "random_games", "transition_label", "compare_phases",
    "PhaseComparison", "game_path", "phase_statistics", "PhaseTable",
    "draw", "draw_phases", "layered_layout", "view", "GraphView",
    "write_graphml", "read_graphml", "to_node_link", "from_node_link", "to_json", "from_json",
]
