"""The rules of the four variants of RULES.md, in the order the engine asks them, each cited by
the id it has in its variant's own section (the same 8-skip is MK-5 in makao and MR-6 in
mau_mau_runde).  ``maumau.core.variants`` makes the variants of them."""

from __future__ import annotations

from . import (
    AceExtraPlay,
    AceMayPlayAgain,
    AceWishesSuit,
    CardPoints,
    DrawEndsTurn,
    EightSkipsSummed,
    ForcedPlay,
    FourSkips,
    HandsWon,
    JackWishesRank,
    JackWishesSuit,
    JoinAndLeave,
    JokerCardPoints,
    JokerDrawsFour,
    JokerUpcard,
    KingsDrawFive,
    LastSevenHits,
    MacauPenalty,
    Matching,
    MauLocksLastCard,
    MauPenalty,
    PlayAfterDrawing,
    PlayDrawnCard,
    QueenOfHeartsCancels,
    ReverseOnNine,
    Runde,
    SameRankSets,
    SevenDrawsTwo,
    SevenDrawsTwoPlayOn,
    SkipOnEight,
    TwoThreeDraw,
    UpcardCovered,
    UpcardIsDealersPlay,
    UpcardToBottom,
    VictoryPoints,
)
from .base import Rule

__all__ = ["lite_macau", "mau_mau_runde", "makao", "joker_mau_mau"]


def lite_macau(points_to_win: int) -> list[Rule]:
    return [
        Matching(), UpcardIsDealersPlay(), DrawEndsTurn().cite("LM-3"), AceWishesSuit(),
        JackWishesRank(), SameRankSets(), TwoThreeDraw(), KingsDrawFive(),
        QueenOfHeartsCancels(), FourSkips(), MacauPenalty(),
        VictoryPoints(points_to_win),
    ]


def mau_mau_runde(hands_to_win: int) -> list[Rule]:
    return [
        Matching(), UpcardToBottom(), ForcedPlay(), PlayDrawnCard(),
        JackWishesSuit().cite("MR-3"), SevenDrawsTwoPlayOn(), SkipOnEight().cite("MR-6"), Runde(),
        MauPenalty().cite("MR-7"), HandsWon(hands_to_win),
    ]


def makao(limit: int, strict: bool) -> list[Rule]:
    return [
        Matching(), UpcardCovered(), DrawEndsTurn(), SevenDrawsTwo(),
        SkipOnEight(), ReverseOnNine(), JackWishesSuit(), AceExtraPlay(),
        MauPenalty(), LastSevenHits(), CardPoints(limit, strict), JoinAndLeave(),
    ]


def joker_mau_mau(jacks: bool, threshold: int) -> list[Rule]:
    """``jacks``: JM-1, without jokers the Jacks follow every Joker rule."""
    return [
        Matching(), JokerUpcard(), PlayAfterDrawing(), JokerDrawsFour(jacks),
        SevenDrawsTwoPlayOn().cite("JM-5"), EightSkipsSummed(), AceMayPlayAgain(),
        MauLocksLastCard(), JokerCardPoints(threshold, jacks),
    ]
