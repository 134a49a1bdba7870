"""The words of a refusal: a ``maumau.core.refusal.Refusal`` (a sentence key, the rule id and
the values) said in the language of the moment, from the catalogues of ``maumau/text/locale``."""

from __future__ import annotations

from typing import Any

from ..core.cards import Rank
from ..core.refusal import Either, Held, Ranks, Refusal
from ..core.rules.base import Pending
from .i18n import describe_pending, language, rank_letter, rank_name, t

__all__ = ["sentence", "word"]


def sentence(refusal: Refusal | str) -> str:
    """The refusal as a sentence (a learner's ``forbids`` that returns a sentence of its own is
    said as it is)."""
    if isinstance(refusal, str):
        return refusal
    values = {name: word(value) for name, value in refusal.values}
    return t(refusal.key, **{"rule": refusal.rule, **values})


def word(value: Any) -> Any:
    """One value of a refusal in words (see ``maumau.core.refusal.refuse``)."""
    if isinstance(value, Either):
        return t("word.or").join(repr(move) for move in value)
    if isinstance(value, Held):
        return " ".join(card.symbol for card in value) or t("word.nothing")
    if isinstance(value, Ranks):
        names = [rank_letter(r) if language() == "en" else rank_name(r) for r in value]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + t("word.or") + names[-1]
    if isinstance(value, Rank):
        return rank_name(value)
    if isinstance(value, Pending):
        return describe_pending(value)
    return value
