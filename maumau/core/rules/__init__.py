"""Every rule of RULES.md as a small class (see ``base`` for the hooks)."""

from .announce import MacauPenalty, MauLocksLastCard, MauPenalty
from .base import Pending, Role, Rule, Table
from .common import Matching
from .penalties import (
    JokerDrawsFour,
    KingsDrawFive,
    LastSevenHits,
    QueenOfHeartsCancels,
    SevenDrawsTwo,
    SevenDrawsTwoPlayOn,
    TwoThreeDraw,
)
from .scoring import CardPoints, HandsWon, JoinAndLeave, JokerCardPoints, Scoring, VictoryPoints
from .skips import EightSkipsSummed, FourSkips, ReverseOnNine, SkipOnEight
from .turns import (
    AceExtraPlay,
    AceMayPlayAgain,
    DrawEndsTurn,
    ForcedPlay,
    PlayAfterDrawing,
    PlayDrawnCard,
    Runde,
    SameRankSets,
)
from .upcard import JokerUpcard, UpcardCovered, UpcardIsDealersPlay, UpcardToBottom
from .wishes import AceWishesSuit, JackWishesRank, JackWishesSuit

__all__ = [
    "Rule", "Role", "Table", "Pending", "Matching",
    "AceWishesSuit", "JackWishesRank", "JackWishesSuit",
    "TwoThreeDraw", "KingsDrawFive", "QueenOfHeartsCancels", "SevenDrawsTwo",
    "SevenDrawsTwoPlayOn", "LastSevenHits", "JokerDrawsFour",
    "FourSkips", "SkipOnEight", "EightSkipsSummed", "ReverseOnNine",
    "DrawEndsTurn", "PlayDrawnCard", "PlayAfterDrawing", "ForcedPlay", "AceExtraPlay",
    "AceMayPlayAgain", "SameRankSets", "Runde",
    "MauPenalty", "MacauPenalty", "MauLocksLastCard",
    "UpcardIsDealersPlay", "JokerUpcard", "UpcardToBottom", "UpcardCovered",
    "Scoring", "VictoryPoints", "HandsWon", "CardPoints", "JokerCardPoints", "JoinAndLeave",
]
