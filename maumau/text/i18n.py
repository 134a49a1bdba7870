"""Messages in one catalogue: every sentence the engine, the card table and the terminal say, by key.

The catalogues live in ``maumau/locale/`` (``en``, ``de``, ``hu``); German and Hungarian hold
every English key (a missing key would fall back to English).  ``t(key, **values)`` formats a message in the
current language (``set_language``, or ``use_language`` for a while), ``t(key, lang="de")``
in a given one.  The course's language (``set_language``) holds for the whole process; a language
for a while (``use_language``) is a ``ContextVar``, the one task's or thread's own: a server that
answers one learner in German and another in Hungarian at the same moment never mixes them.

Card, suit and rank names, the rule summaries of the built-in rules and the seat words come in
each language too (``card_name``, ``wish_name``, ``rule_summary``, ``seat_regex``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from . import locale

if TYPE_CHECKING:  # pragma: no cover
    from ..core.cards import Card, Rank, Suit
    from ..core.rules.base import Pending, Rule
    from ..core.variants import Variant

__all__ = ["t", "name_seats", "set_language", "language", "use_language", "LANGUAGES", "CATALOGUE", "describe_pending",
           "card_name", "suit_name", "rank_name", "wish_name", "rule_summary", "seat_regex", "number", "percent",
           "rank_letter", "card_symbol", "read_card", "fired_rule"]

LANGUAGES = ("en", "de", "hu")

EN: dict[str, str] = locale.en.MESSAGES

CATALOGUE: dict[str, dict[str, str]] = {"en": EN, "de": locale.de.MESSAGES, "hu": locale.hu.MESSAGES}

#: Summaries of the built-in rules by class name, where the language is not English
#: (English is the rule's own docstring).
RULE_TEXT: dict[str, dict[str, str]] = {"en": {}, "de": locale.de.RULES, "hu": locale.hu.RULES}

#: The language of the task or thread in ``use_language``, else None (then the course's).  A
#: ContextVar: every asyncio task and every thread has its own, so a request answered in one
#: language never leaks into another answered at the same moment.
_FOR_A_WHILE: ContextVar[str | None] = ContextVar("maumau_language", default=None)


def course_language_from(environ: Mapping[str, str]) -> str:
    """The language a process starts in: ``MAUMAU_LANG`` ("de", "hu", or a locale name such as
    "de_AT.UTF-8"), as `make lab LANG=de` and a school's JupyterHub set it, else English. A value the
    course has no language for is English too: a wrong setting must not stop a lesson."""
    wanted = environ.get("MAUMAU_LANG", "").split("_")[0].split(".")[0].lower()
    return wanted if wanted in LANGUAGES else "en"


class _Course:
    """The course's language (``set_language``): the whole process's, as a teacher chose it for
    every cell, widget callback and thread of a notebook (a ContextVar set in one cell would not
    reach the next one in every Jupyter kernel). It starts as ``MAUMAU_LANG`` says."""

    lang = course_language_from(os.environ)


def _checked(lang: str) -> str:
    if lang not in CATALOGUE:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


def set_language(lang: str) -> None:
    """Choose the language of all messages: "en", "de" or "hu"."""
    _Course.lang = _checked(lang)


def language() -> str:
    """The current language: the one of ``use_language`` in this task or thread, else the course's."""
    return _FOR_A_WHILE.get() or _Course.lang


@contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Temporarily speak another language: ``with use_language("de"): ...`` (in this task or
    thread only: another one speaks on in its own)."""
    token = _FOR_A_WHILE.set(_checked(lang))
    try:
        yield
    finally:
        _FOR_A_WHILE.reset(token)


def t(key: str, lang: str | None = None, **values: Any) -> str:
    """The message ``key`` in the current (or given) language, filled with ``values``."""
    table = CATALOGUE.get(lang or language(), EN)
    return table.get(key, EN[key]).format(**values)


def describe_pending(pending: Pending) -> str:
    if pending.kind == "draw":
        return t("pending.draw", amount=pending.amount)
    if pending.amount == 1:
        return t("pending.skip")
    return t("pending.skip_n", amount=pending.amount)


# --- names in each language -----------------------------------------------------------------------

def suit_name(suit: Suit, lang: str | None = None) -> str:
    """``Hearts``, ``Herz``, ``kőr``."""
    return t("suit." + suit.value, lang)


def rank_name(rank: Rank, lang: str | None = None) -> str:
    """``Queen``, ``Dame``, ``dáma``; number ranks stay numbers."""
    key = "rank." + rank.value
    return t(key, lang) if key in EN else rank.value


def card_name(card: Card, lang: str | None = None) -> str:
    """``Queen of Hearts``, ``Herz Dame``, ``kőr dáma``, ``Joker``."""
    if card.rank is None or card.suit is None:
        return t("card.joker", lang)
    return t("card.name", lang, rank=rank_name(card.rank, lang), suit=suit_name(card.suit, lang))


def wish_name(wish: Suit | Rank, lang: str | None = None) -> str:
    """A wished suit or rank by name, e.g. ``♥ Herz`` or ``Dame``."""
    from ..core.cards import Suit

    if isinstance(wish, Suit):
        return f"{wish.symbol} {suit_name(wish, lang)}"
    return rank_name(wish, lang)


def rule_summary(rule: Rule, lang: str | None = None, formal: bool = False, call: str | None = None) -> str:
    """A built-in rule as a plain sentence in the language ("A 7 makes the next player draw 2 ...");
    ``formal=True``: the one-liner with ``next(X)`` and the rule ids, for teachers.  A rule of
    one's own speaks its docstring.  ``call``: the announcement word of the rule's variant
    (``Variant.call``), said in place of the rule's own: Makaó's MK-9 asks for "Makaó", as its
    button does, where the same rule in Mau-Mau asks for "Mau" (C-8)."""
    text = _summary(rule, lang or language(), formal)
    own = getattr(rule, "call", None)
    if call and own and call != own:
        text = re.sub(rf"\b{re.escape(own)}\b", call, text)
    return text


def _summary(rule: Rule, lang: str, formal: bool) -> str:
    from .locale.plain import PLAIN

    cls = type(rule)
    if not cls.__module__.startswith("maumau.core.rules"):
        return rule.summary
    if not formal and cls.__name__ in PLAIN.get(lang, {}):
        return PLAIN[lang][cls.__name__]
    return RULE_TEXT.get(lang, {}).get(cls.__name__, rule.summary)


def fired_rule(variant: Variant | None, name: str, lang: str | None = None) -> tuple[str, str]:
    """A rule that acted in a simulation, as the explorer and ``Simulation.plot`` name it: its RULES.md
    id with its plain sentence as the tooltip; the core's reshuffle (C-6) and blocked hand (C-7) in
    words; a rule not in ``variant`` (a learner's own) by its own name."""
    rule = next((r for r in variant.rules if r.name == name), None) if variant is not None else None
    call = variant.call if variant is not None else None
    if rule is not None and rule.rule_id:
        return rule.rule_id, rule_summary(rule, lang, call=call)
    if name in ("reshuffle", "blocked"):
        word = t("ui.fired." + name, lang)
        return word, word
    return name, rule_summary(rule, lang, call=call) if rule is not None else name


def name_seats(sentence: str, names: dict[int, str], lang: str | None = None) -> str:
    """``sentence`` (of ``narrate``) with the players' ``names`` in place of their seat numbers."""
    def swap(found: re.Match[str]) -> str:
        return names.get(int(found.group(1)), found.group(0))
    return seat_regex(lang).sub(swap, sentence)


def seat_regex(lang: str | None = None) -> re.Pattern[str]:
    """Finds the seats in the sentences of ``narrate`` (group 1 is the seat number), so a view
    can put the players' names in their place."""
    label = CATALOGUE.get(lang or language(), EN).get("seat.label", EN["seat.label"])
    before, _, after = label.partition("{seat}")
    return re.compile(r"\b" * bool(before[:1].isalpha()) + re.escape(before) + r"(\d+)" + re.escape(after),
                      re.IGNORECASE)


# --- numbers in each language ---------------------------------------------------------------------

#: (decimal mark, thousands separator, what stands between a number and %): 42.3% · 42,3 % · 42,3 %.
NUMBER_FORMAT: dict[str, tuple[str, str, str]] = {"en": (".", ",", ""), "de": (",", ".", "\u00a0"),
                                                  "hu": (",", "\u00a0", "\u00a0")}


def number(value: float, digits: int = 0, lang: str | None = None) -> str:
    """``value`` with ``digits`` decimals as the language writes it: 1,234.5 · 1.234,5 · 1 234,5."""
    point, thousands, _ = NUMBER_FORMAT.get(lang or language(), NUMBER_FORMAT["en"])
    text = f"{value:,.{digits}f}"
    return text.replace(",", "\0").replace(".", point).replace("\0", thousands)


def percent(share: float, digits: int = 0, lang: str | None = None) -> str:
    """A share (0.423) as a percentage in the language: 42% · 42 % · 42 % (``digits`` decimals)."""
    space = NUMBER_FORMAT.get(lang or language(), NUMBER_FORMAT["en"])[2]
    return number(100 * share, digits, lang) + space + "%"


# --- card letters in each language ----------------------------------------------------------------

#: The letters German and Hungarian players call the court cards and the Ace: B/D/K/A (Bube, Dame,
#: König, Ass) and B/D/K/Á (bubi, dáma, király, ász); English J/Q/K/A.
RANK_LETTERS: dict[str, dict[str, str]] = {"en": {}, "de": {"J": "B", "Q": "D"}, "hu": {"J": "B", "Q": "D", "A": "Á"}}
#: What a typed letter means, in any language (B, D and Á are no English rank, so both spellings work).
_READ_RANK = {"B": "J", "D": "Q", "Á": "A"}


def rank_letter(rank: Rank, lang: str | None = None) -> str:
    """``Q`` in English, ``D`` in German and Hungarian; number ranks stay numbers."""
    return RANK_LETTERS.get(lang or language(), {}).get(rank.value, rank.value)


def card_symbol(card: Card, lang: str | None = None) -> str:
    """A card as the language writes it: ``Q♥``, ``D♥``; the Joker as ``JOKER``."""
    if card.rank is None or card.suit is None:
        return "JOKER"
    return rank_letter(card.rank, lang) + card.suit.symbol


def read_card(token: str) -> str:
    """A typed card in the engine's spelling: ``DH``/``dh`` → ``QH``, ``BC`` → ``JC``, ``ÁS`` → ``AS``;
    anything else unchanged (the engine then says what is wrong with it)."""
    head = token[:1].upper()
    return _READ_RANK[head] + token[1:] if head in _READ_RANK and len(token) > 1 else token
