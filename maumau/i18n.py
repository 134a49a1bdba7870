"""Messages in one catalogue: every sentence the engine says, by key.

English is complete here; other languages fall back to English for any key they lack.
``t(key, **values)`` formats a message in the current language (``set_language``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .rules.base import Pending

__all__ = ["t", "set_language", "language", "LANGUAGES", "CATALOGUE", "describe_pending"]

LANGUAGES = ("en", "de", "hu")

EN: dict[str, str] = {
    # why a move is illegal
    "illegal.match": "{card} matches neither the suit {suit} nor the rank {rank} (C-3).",
    "illegal.wish_suit": "{card} does not follow the wished suit {suit} (C-3).",
    "illegal.wish_rank": "{card} is not the wished rank {rank} (LM-4).",
    "illegal.generic": "{card} may not be played here.",
    "illegal.pending": "{card} does not answer {pending}: play an answer or take it ({rule}, C-5).",
    "illegal.no_overwrite_rank": "{card} may not overwrite the rank wish {rank}: "
                                 "suit and rank wishes cannot overwrite each other (LM-4).",
    "illegal.no_overwrite_suit": "{card} may not overwrite the suit wish {suit}: "
                                 "only the Jack of that suit may (LM-4).",
    "illegal.runde": "During the Runde of {rank}s only {rank}s may be played (MR-9).",
    "illegal.over": "The hand is over; no more moves (C-9).",
    "illegal.not_held": "{card} is not in your hand.",
    "illegal.not_a_move": "{move!r} is not a move: use Play(...), Draw() or Pass().",
    "illegal.locked": "Your last card is locked because you did not say Mau: "
                      "you must draw (JM-9).",
    "illegal.drawn_only": "After drawing you may play only the drawn card {card}, or pass (MR-4).",
    "illegal.wish_missing": "{card} names a wish: say which, e.g. Play(\"{text}\", wish=\"{example}\").",
    "illegal.wish_wrong": "{card} names a {kind}, not {wish!r}.",
    "illegal.wish_unexpected": "{card} names no wish; play it without wish=.",
    "illegal.set_variant": "This variant plays one card at a time; sets are a lite_macau rule (LM-5).",
    "illegal.set_rank": "All cards of a set must have the same rank (LM-5).",
    "illegal.set_special": "No card in a set may be special (A, J, 2, 3, 4, K♥, K♠, Q♥) (LM-5).",
    "illegal.set_pending": "A set may only be played in a normal turn (LM-5).",
    "illegal.mau_early": "Mau is said only when the move leaves exactly one card (C-8).",
    "illegal.runde_variant": "This variant has no Runde (MR-8).",
    "illegal.runde_when": "A Runde may only be opened in a normal turn, with no 7 pending "
                          "and no Runde running (MR-8).",
    "illegal.runde_rank": "A Runde is opened only with a 9, 10, Q, K or A (MR-8).",
    "illegal.runde_second": "To open a Runde you must still hold another {rank} (MR-8).",
    "illegal.draw_forced": "You have a legal play, so you must play (MR-4, MR-10).",
    "illegal.draw_now": "You may not draw now: {hint}",
    "illegal.pass": "You may not pass now: a turn is a play or a draw (C-4).",
    "illegal.pending_draw": "You face {pending}: answer it or Draw() to take it (C-5).",
    "illegal.pending_skip": "You face {pending}: answer it or Pass() to sit out (C-5).",
    "illegal.extra": "After the Ace play one more card on it, or {closer} (MK-8, JM-8).",
    "illegal.drawn_phase": "After drawing, play a legal card or Pass().",
    # pending effects
    "pending.draw": "a draw penalty of {amount}",
    "pending.skip": "a skip",
    "pending.skip_n": "a skip of {amount} players",
    # what a move does
    "do.play": "Seat {seat} plays {cards}",
    "do.wish": "and wishes {wish}",
    "do.mau": "and says Mau",
    "do.runde": "and opens a Runde of {rank}s (MR-8)",
    "do.out": "and goes out, which ends the hand (C-9)",
    "do.draw": "Seat {seat} draws a card",
    "do.draw_none": "Seat {seat} has nothing to draw and passes (C-7)",
    "do.accept_draw": "Seat {seat} takes {amount} cards",
    "do.accept_skip": "Seat {seat} sits out",
    "do.pass": "Seat {seat} passes",
    "then.pending_draw": "seat {target} must draw {amount} or answer",
    "then.pending_skip": "seat {target} is skipped unless they answer",
    "then.next": "seat {seat} moves next",
    "then.again": "seat {seat} plays again",
    "then.drawn": "seat {seat} may play a card or pass",
    "then.no_mau": "without Mau: {penalty}",
    "then.penalty_cards": "{n} penalty cards",
    "then.locked": "the last card is locked (JM-9)",
    "then.reverse": "the direction reverses (MK-6)",
    "then.skipped": "seat {seat} is skipped",
    "then.blocked": "nobody can play or draw: the hand is blocked and void (C-7)",
    "then.runde_end": "the Runde ends (MR-12)",
    "then.reshuffle": "the pile is reshuffled into the stock (C-6)",
    "then.cancel": "the penalty is cancelled (LM-6)",
    "then.joker": "seat {seat} draws {n} (JM-4)",
    "then.last_seven": "seat {seat} still draws {n} (MK-10)",
    "leave.variant": "Players may not leave a {variant} hand; only makao allows it (MK-14).",
    "leave.seat": "Seat {seat} is not at the table.",
}

CATALOGUE: dict[str, dict[str, str]] = {"en": EN, "de": {}, "hu": {}}

_current = ["en"]


def set_language(lang: str) -> None:
    """Choose the language of all messages: "en", "de" or "hu"."""
    if lang not in CATALOGUE:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    _current[0] = lang


def language() -> str:
    return _current[0]


@contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Temporarily speak another language: ``with use_language("de"): ...``."""
    before = _current[0]
    set_language(lang)
    try:
        yield
    finally:
        _current[0] = before


def t(key: str, lang: str | None = None, **values: Any) -> str:
    """The message ``key`` in the current (or given) language, filled with ``values``."""
    table = CATALOGUE.get(lang or _current[0], EN)
    return table.get(key, EN[key]).format(**values)


def describe_pending(pending: Pending) -> str:
    if pending.kind == "draw":
        return t("pending.draw", amount=pending.amount)
    if pending.amount == 1:
        return t("pending.skip")
    return t("pending.skip_n", amount=pending.amount)
