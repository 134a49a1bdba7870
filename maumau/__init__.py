"""maumau: a Jupyter teaching toolkit for the Mau-Mau family of card games.

>>> import maumau as mm
>>> s = mm.deal("makao", players=3, seed=7)
>>> len(s.hands), len(s.hands[0])
(3, 7)
"""

from . import players
from .cards import JOKER, Card, CardError, Rank, Suit, cards
from .game import FormatError, Game
from .match import HandResult, Match, MatchError
from .moves import Draw, Move, Pass, Play
from .rules.base import Rule
from .start import deal, position
from .state import GameState, IllegalMove
from .variants import Variant, VariantError, variant, variant_names

__version__ = "0.1.0"

__all__ = [
    "players", "Card", "CardError", "JOKER", "Rank", "Suit", "cards",
    "Move", "Play", "Draw", "Pass",
    "GameState", "IllegalMove", "deal", "position", "Game", "FormatError", "Match", "MatchError", "HandResult",
    "Rule", "Variant", "VariantError", "variant", "variant_names",
]
