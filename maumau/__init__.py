"""maumau: a Jupyter teaching toolkit for the Mau-Mau family of card games.

>>> import maumau as mm
>>> s = mm.deal("makao", players=3, seed=7)
>>> len(s.hands), len(s.hands[0])
(3, 7)
"""

from typing import Any

# _compiled first (it chooses the engine modules); engine, illegal, explain and serialize each
# lend GameState its methods when they are imported.
from . import _compiled, engine, explain, illegal, players, serialize  # noqa: F401
from ._version import __version__ as __version__
from .cards import JOKER, Card, CardError, Rank, Suit, cards
from .game import FormatError, Game
from .match import HandResult, Match, MatchError
from .moves import Draw, Move, Pass, Play
from .rules.base import Role, Rule
from .simulate import simulate
from .start import deal, position
from .state import GameState, IllegalMove
from .variants import Variant, VariantError, variant, variant_names


def __getattr__(name: str) -> Any:
    # networkx and the graph drawing load on first use: every grading kernel imports maumau
    if name in ("graph", "state_graph"):
        import importlib

        graph = importlib.import_module(__name__ + ".graph")  # sets the package's attribute graph
        globals()["state_graph"] = graph.state_graph
        return globals()[name]
    raise AttributeError(f"module 'maumau' has no attribute {name!r}")


def play(game: str | Variant = "makao", opponents: int = 3, **options: Any) -> Any:
    """A card table in Jupyter: you against computer players (see ``maumau.widgets.play``)."""
    from .widgets import play as _play  # ipywidgets is imported only when a table is shown

    return _play(game, opponents, **options)


def replay(source: Any, **options: Any) -> Any:
    """Step through a game, a table or a match in Jupyter (see ``maumau.widgets.replay``)."""
    from .widgets import replay as _replay

    return _replay(source, **options)



#: Whether the Cython-compiled engine runs (else its Python sources do; see ``maumau._compiled``).
compiled: bool = _compiled.COMPILED

__all__ = [
    "players", "Card", "CardError", "JOKER", "Rank", "Suit", "cards",
    "Move", "Play", "Draw", "Pass",
    "GameState", "IllegalMove", "deal", "position", "Game", "FormatError", "Match", "MatchError", "HandResult",
    "Rule", "Role", "Variant", "VariantError", "variant", "variant_names", "play", "replay", "state_graph", "simulate",
]
