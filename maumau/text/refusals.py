"""The words of a refusal: a ``maumau.core.refusal.Refusal`` (a sentence key, the rule id and
the values) said in the language of the moment, from the catalogues of ``maumau/text/locale``."""

from __future__ import annotations

from typing import Any

from ..core.cards import Card, Rank, Suit
from ..core.refusal import Either, Held, Ranks, Refusal
from ..core.rules.base import Pending
from .i18n import card_symbol, describe_pending, language, rank_letter, rank_name, t

__all__ = ["sentence", "word"]


def sentence(refusal: Refusal | str) -> str:
    """The refusal as a sentence (a learner's ``forbids`` that returns a sentence of its own is
    said as it is)."""
    if isinstance(refusal, str):
        return refusal
    values = {name: _as_said(word(value)) for name, value in refusal.values}
    return t(refusal.key, **{"rule": refusal.rule, **values})


class _Said(str):
    """A value said as it is, also where a sentence asks for a rank's letter (a learner's rule
    may name a rank by a word of its own)."""

    def __format__(self, spec: str) -> str:
        return str(self) if spec == "letter" else super().__format__(spec)


def _as_said(value: Any) -> Any:
    return _Said(value) if type(value) is str else value


class RankWord(_Said):
    """A rank in a sentence: its name in the language (``Dame``), or with ``{rank:letter}`` its
    letter as the table writes it (``D``)."""

    letter: str

    def __new__(cls, rank: Rank) -> RankWord:
        said = super().__new__(cls, rank_name(rank))
        said.letter = rank_letter(rank)
        return said

    def __format__(self, spec: str) -> str:
        return self.letter if spec == "letter" else str.__format__(self, spec)


def word(value: Any) -> Any:
    """One value of a refusal in words (see ``maumau.core.refusal.refuse``): a card, suit or rank
    in the letters and names of the language (D♥, Dame; Á♥, ász)."""
    if isinstance(value, Card):
        return card_symbol(value) if value.rank is not None else value.symbol
    if isinstance(value, Suit):
        return value.symbol
    if isinstance(value, Either):
        return t("word.or").join(repr(move) for move in value)
    if isinstance(value, Held):
        return " ".join(word(card) for card in value) or t("word.nothing")
    if isinstance(value, Ranks):
        names = [rank_letter(r) if language() == "en" else rank_name(r) for r in value]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + t("word.or") + names[-1]
    if isinstance(value, Rank):
        return RankWord(value)
    if isinstance(value, Pending):
        return describe_pending(value)
    return value
