"""The fixed action list of a variant: action index <-> Move, the same whatever the state.

A learning agent chooses a number from ``0`` to ``len(actions) - 1``; the list names every move
that a player of the variant could ever make, so index 7 means the same move in every state, at
every table size.  Which of them are legal now is the *action mask*, made from ``legal_moves()``.

The order is fixed and readable: ``Draw()``, ``Pass()``, then each card of the deck in card order
with each wish it may name, first without and then with the Mau announcement (C-8), then the
moves that rules add (a Runde opening, MR-8; sets of one rank, LM-5).  ``legal_moves()`` lists a
move with Mau where the announcement is due, so both forms are in the list and the mask marks
the one the rules list.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import numpy as np

from ..core.cards import Card, Suit
from ..core.moves import Draw, Move, Pass, Play
from ..core.rules.base import Role, Rule
from ..core.state import GameState
from ..core.variants import Variant, VariantError
from ..text.i18n import card_symbol, check_language, t, wish_name
from .words import say

__all__ = ["Actions", "actions_for", "action_label"]


class Actions:
    """The action list of one variant: ``actions[i]`` is a Move, ``actions.index(move)`` its
    number, ``actions.mask(state)`` the legal ones as an int8 array of 0 and 1."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        moves = list(dict.fromkeys([Draw(), Pass(), *_single_plays(variant), *_rule_plays(variant)]))
        self.moves: tuple[Move, ...] = tuple(moves)
        self._index = {move: i for i, move in enumerate(moves)}

    def __len__(self) -> int:
        return len(self.moves)

    def __getitem__(self, index: int) -> Move:
        return self.moves[self.check(index)]

    def __iter__(self) -> Iterator[Move]:
        return iter(self.moves)

    def __repr__(self) -> str:
        return f"<Actions of {self.variant.name}: {len(self.moves)} moves>"

    def check(self, index: object) -> int:
        """``index`` as an int, or a ValueError saying why it is no action."""
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise ValueError(f"an action is a whole number from 0 to {len(self.moves) - 1}, not {index!r}")
        if not 0 <= index < len(self.moves):
            raise ValueError(f"action {index} is outside the action list of {self.variant.name}: "
                             f"choose a number from 0 to {len(self.moves) - 1}")
        return int(index)

    def label(self, index: int, lang: str | None = None) -> str:
        """Action ``index`` as people read it, in ``lang`` (None: the course's language): in English
        ``str(move)`` ("play JS wish C"), in German and Hungarian the cards as the language writes
        them and the words of the table ("lege B♠, Wunsch ♣")."""
        return action_label(self[index], lang, self.variant.call)

    def labels(self, lang: str | None = None) -> list[str]:
        """Every action's ``label``, in the order of the list."""
        return [action_label(move, lang, self.variant.call) for move in self.moves]

    def index(self, move: Move) -> int:
        """The number of ``move``; a ValueError for a move the variant never makes."""
        found = self._index.get(move)
        if found is None:
            raise ValueError(f"{move!r} is not in the action list of {self.variant.name}")
        return found

    def legal(self, state: GameState) -> list[int]:
        """The numbers of the legal moves of ``state``, in the order ``legal_moves()`` lists them."""
        return list(self.legal_key(state))

    def legal_key(self, state: GameState) -> tuple[int, ...]:
        """``legal(state)`` as a tuple: the key of its mask, and cheap to look an action up in."""
        index = self._index
        try:
            return tuple([index[move] for move in state.legal_moves()])
        except KeyError as missing:  # only a house rule of a learner's can make such a move
            raise VariantError(f"the legal move {missing.args[0]!r} is not in the action list of "
                               f"{self.variant.name}: a rule makes moves the list does not know") from None

    def mask(self, state: GameState) -> np.ndarray:
        """1 for each legal action of the player to move, 0 for the rest (all 0 once the hand is over)."""
        return self.mask_of(self.legal_key(state))

    def mask_of(self, legal: tuple[int, ...]) -> np.ndarray:
        """The mask of the legal actions ``legal`` (a new array; its few 1s set one by one, which is
        quicker than numpy's fancy indexing for a handful of them)."""
        mask = np.zeros(len(self.moves), dtype=np.int8)
        for index in legal:
            mask[index] = 1
        return mask


def action_label(move: Move, lang: str | None = None, call: str = "Mau") -> str:
    """``move`` as people read it in ``lang`` (None: the course's language); English is
    ``str(move)``, the identifier code and tests use; ``call``: the variant's announcement."""
    lang = check_language(lang)
    if lang == "en":
        return str(move)
    if isinstance(move, Draw):
        return say("draw", lang)
    if isinstance(move, Pass):
        return t("graph.pass", lang)
    assert isinstance(move, Play)
    text = say("play", lang, cards=" ".join(card_symbol(c, lang) for c in move.cards))
    if move.wish is not None:
        wish = move.wish
        text += say("play_wish", lang, wish=wish.symbol if isinstance(wish, Suit) else wish_name(wish, lang))
    if move.runde:
        text += say("play_runde", lang)
    if move.mau:
        text += say("play_mau", lang, call=call)
    return text


def _single_plays(variant: Variant) -> Iterator[Play]:
    """Every card alone, with each wish it names, without and then with Mau (as the engine lists them)."""
    for card in variant.distinct_cards:
        yield from variant._plays[0][card]
        yield from variant._plays[1][card]


def _rule_plays(variant: Variant) -> Iterator[Play]:
    """The moves of the rules that add plays (``extra_plays``): those the action list knows."""
    for rule in variant._extenders:
        if Role.RUNDE in rule.roles:
            yield from _runde_openings(variant, rule)
        elif Role.SETS in rule.roles:
            yield from _sets(variant, rule)
        else:
            raise VariantError(
                f"the rule {rule.name!r} adds plays (extra_plays) that the fixed action list of a learning "
                f"environment cannot know in advance; the environments know Runde openings and sets")


def _runde_openings(variant: Variant, rule: Rule) -> Iterator[Play]:
    for card in variant.distinct_cards:
        if rule.affects(card):
            yield Play(card, runde=True)
            yield Play(card, runde=True, mau=True)


def _sets(variant: Variant, rule: Rule) -> Iterator[Play]:
    """Every set the rule could ever allow (LM-5): a first card, then any choice of the other cards
    of its rank in the deck, the last one on top; as the rule lists them from a hand holding them all."""
    special = getattr(rule, "is_special", lambda card: False)
    for first in variant.distinct_cards:
        if special(first) or first.rank is None:
            continue
        mates = [c for c in variant.deck if c.rank is first.rank and not special(c)]
        mates.remove(first)
        for size in range(1, len(mates) + 1):
            for chosen in sorted(set(combinations(mates, size)), key=_card_numbers):
                for i, last in enumerate(chosen):
                    if last in chosen[:i]:
                        continue
                    middle = chosen[:i] + chosen[i + 1:]
                    yield Play((first, *middle, last))
                    yield Play((first, *middle, last), mau=True)


def _card_numbers(cards: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(c.index for c in cards)


_CACHE: dict[Variant, Actions] = {}


def actions_for(variant: Variant) -> Actions:
    """The action list of ``variant`` (made once per variant)."""
    found = _CACHE.get(variant)
    if found is None:
        found = _CACHE[variant] = Actions(variant)
    return found
