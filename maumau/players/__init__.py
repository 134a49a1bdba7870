"""Computer players: ``Random``, ``Heuristic`` and ``Search`` (easy, medium, hard).

Every player has ``choose(state) -> Move`` (the ``Player`` protocol) and reads only what
its seat may see (``View``); ``for_strength("hard", seed=1)`` makes one by strength.
"""

from .base import Player, Random
from .heuristic import Heuristic
from .search import Search
from .strength import STRENGTHS, for_strength, strength_names
from .view import View

__all__ = ["Player", "Random", "Heuristic", "Search", "View", "STRENGTHS", "for_strength", "strength_names"]
