"""Computer players: ``Random``, ``Heuristic`` and ``Search`` (easy, medium, hard).

A player has ``choose(view) -> Move`` (the ``Player`` protocol): ``view`` is what its seat
may see (a ``View``), and the move is one of ``view.legal_moves``.  ``ask(player, state)`` is
how maumau asks any player for its move; ``for_strength("hard", seed=1)`` makes one by strength.
"""

from .base import IllegalChoice, Player, Random, ask, sees_state
from .heuristic import Heuristic
from .search import Search
from .strength import STRENGTHS, for_strength, strength_names
from .view import View

__all__ = ["Player", "Random", "Heuristic", "Search", "View", "ask", "sees_state", "IllegalChoice", "STRENGTHS",
           "for_strength", "strength_names"]
