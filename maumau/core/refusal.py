"""Why a move is refused, as data: the key of a sentence, the id of the rule that refuses, and
the values the sentence names.

The core never writes words.  A rule's ``why_not`` and ``forbids`` hooks, and the core's own
checks (``maumau.core.illegal``), return a ``Refusal``; the words are made from it above the core,
in the language of the moment, by ``maumau.text.refusals`` from the catalogues of
``maumau/text/locale`` (``GameState.why_illegal`` asks it).  So a learner's rule refuses in en,
de and hu exactly like a shipped one: it names a key the catalogues know, or a key of its own
added to them, and its own rule id.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Refusal", "refuse", "Either", "Held", "Ranks"]


class Refusal(NamedTuple):
    """A refused move: ``key`` names the sentence (``"illegal.runde_rank"``), ``rule`` is the id
    of the rule that refuses (MR-8; "" for the core's own checks), ``values`` the words the
    sentence names, as (name, value) pairs."""

    key: str
    rule: str = ""
    values: tuple[tuple[str, Any], ...] = ()

    def value(self, name: str) -> Any:
        """One of the values the sentence names (None if it names no such value)."""
        return dict(self.values).get(name)


def refuse(key: str, rule: str = "", **values: Any) -> Refusal:
    """A Refusal of sentence ``key``, cited as ``rule``, naming ``values``.

    A value is said as it is, except: a ``Rank`` by its name in the language, a ``Pending`` as
    the penalty or skip it is, ``Either(moves)`` as the moves joined by "or", ``Held(cards)``
    as a hand, ``Ranks(ranks)`` as a list of ranks."""
    return Refusal(key, rule, tuple(values.items()))


class Either(tuple):  # type: ignore[type-arg]
    """Moves of which the player may make one: said joined by "or"."""


class Held(tuple):  # type: ignore[type-arg]
    """The cards of a hand: said by their symbols, or as "nothing"."""


class Ranks(tuple):  # type: ignore[type-arg]
    """Ranks, lowest first: said as a list ending in "or" ("9, 10, Q, K or A")."""
