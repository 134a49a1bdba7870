"""What the views share: languages, names at the table, computer opponents, scores in words."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as W

from .. import players as _players
from ..core.variants import Variant
from ..text.explain import goal_sentence
from ..text.i18n import LANGUAGES, seat_regex, t, use_language
from ..text.locale.seats import seat_label

__all__ = ["Displayed", "check_lang", "announce_word", "computer", "default_names", "Seating", "score_word",
           "goal_text", "STRENGTHS", "esc"]

STRENGTHS = tuple(_players.STRENGTHS)  # the players' own table: easy, medium, hard


class Displayed:
    """Base of the views: Jupyter shows ``self.widget``; the text form stays short and stable
    (nbval compares text/plain, and a widget's own repr lists every child)."""

    widget: W.Widget

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle: Any = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(bundle, tuple):
            bundle = bundle[0]
        bundle["text/plain"] = repr(self)
        shown: dict[str, Any] = bundle
        return shown


def check_lang(lang: str | None) -> str:
    """``lang``, or the course's language (``mm.set_language``) when None."""
    if lang is None:
        from ..text.i18n import language

        return language()
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


def announce_word(variant: Variant) -> str:
    """What a player says before the last card: Makaó, Macau or Mau (C-8)."""
    return variant.call


def computer(strength: str, seed: int | None) -> Any:
    """A computer player of that strength (``maumau.players.for_strength``), or a random
    player while the package has no stronger ones."""
    make = getattr(_players, "for_strength", None)
    if make is not None:
        return make(strength, seed=seed)
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}: choose one of {', '.join(STRENGTHS)}")
    return _players.Random(seed)


def default_names(count: int, lang: str) -> list[str]:
    """Names for the computer players in the language, repeated with numbers if needed."""
    base = t("ui.names", lang).split(",")
    return [base[i % len(base)] + ("" if i < len(base) else f" {i // len(base) + 1}") for i in range(count)]


class Seating:
    """Who sits where: names by match seat, and the learner's seat (or None)."""

    def __init__(self, names: Sequence[str], me: int | None, lang: str, own_name: str | None = None) -> None:
        self.names = list(names)
        self.me = me
        self.lang = lang
        self.own_name = own_name  # the learner's own name as given (None: the seat has none)
        self._regex = seat_regex(lang)

    def name(self, seat: int, seats: Sequence[int] | None = None) -> str:
        """The name of a hand seat (``seats`` maps hand seats to match seats)."""
        match_seat = seats[seat] if seats is not None else seat
        if match_seat >= len(self.names):
            return t("seat.label", self.lang, seat=match_seat)
        return self.names[match_seat]

    def label(self, seat: int, seats: Sequence[int] | None = None) -> str:
        """The name on a seat's panel: the learner's own seat is "You (seat 0)" ("Du (Platz 0)",
        "Te (0. játékos)"), as in the terminal and on the class page; the others as ``name``.
        Sentences keep ``name`` ("eine Ziehstrafe für Platz 0 (du)": German declines a pronoun)."""
        match_seat = seats[seat] if seats is not None else seat
        if self.me is not None and match_seat == self.me:
            return seat_label(match_seat, True, self.lang, name=self.own_name)
        return self.name(seat, seats)

    def rename(self, sentence: str, seats: Sequence[int] | None = None) -> str:
        """Put the players' names in place of the seat numbers of an engine sentence."""
        def swap(found: Any) -> str:
            seat = int(found.group(1))
            if seats is not None and seat >= len(seats):
                return str(found.group(0))
            return self.name(seat, seats)
        return self._regex.sub(swap, sentence)


def score_word(variant: Variant, lang: str) -> str:
    key = variant.scoring.score_key
    return t(key, lang) if key.startswith("ui.score.") else ""  # plain "points" go unsaid


def goal_text(variant: Variant, lang: str) -> str:
    """How the match is won, in one sentence (the scoring rule says it)."""
    with use_language(lang):
        return goal_sentence(variant.scoring)


def esc(text: str) -> str:
    return html.escape(text, quote=False)
