"""The words of a refusal: a ``maumau.core.refusal.Refusal`` (a sentence key, the rule id and
the values) said in the language of the moment, from the catalogues of ``maumau/text/locale``."""

from __future__ import annotations

from typing import Any

from ..core.cards import Card, CardError, Rank
from ..core.refusal import Either, Held, Ranks, Refusal
from ..core.rules.base import Pending
from .i18n import card_symbol, describe_pending, language, rank_letter, rank_name, t

__all__ = ["sentence", "word"]


def sentence(refusal: Refusal | str) -> str:
    """The refusal as a sentence (a learner's ``forbids`` that returns a sentence of its own is
    said as it is)."""
    if isinstance(refusal, str):
        return refusal
    values = {name: in_letters(name, word(value)) for name, value in refusal.values}
    return t(refusal.key, **{"rule": refusal.rule, **values})


def word(value: Any) -> Any:
    """One value of a refusal in words (see ``maumau.core.refusal.refuse``)."""
    if isinstance(value, Either):
        return t("word.or").join(repr(move) for move in value)
    if isinstance(value, Held):
        return " ".join(card_symbol(card) if card.rank else card.symbol for card in value) or t("word.nothing")
    if isinstance(value, Ranks):
        names = [rank_letter(r) if language() == "en" else rank_name(r) for r in value]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + t("word.or") + names[-1]
    if isinstance(value, Rank):
        return rank_name(value)
    if isinstance(value, Pending):
        return describe_pending(value)
    return value


def in_letters(name: str, value: Any) -> Any:
    """A ``card`` or a ``rank`` the core (or a learner's rule) names in the engine's spelling
    (``card.symbol``: Q♥, ``rank.value``: Q) in the letters of the language, as the table shows
    them: D♥ and D in German, Á♥ and Á in Hungarian; the Joker keeps its mark."""
    if not isinstance(value, str) or name not in ("card", "rank"):
        return value
    try:
        if name == "rank":
            return rank_letter(Rank.parse(value))
        card = Card.parse(value)
    except CardError:  # "—", or a learner's own word
        return value
    return card_symbol(card) if card.rank is not None else value
