"""Why a move is illegal (C-9), as a ``Refusal``: the core's own checks, and the variant's rules
asked in the variant's order.

The core knows what every game of the family shares: a move is a move, the hand may be over,
the cards must be held and fit the table (C-3, C-5), a wish card names a wish, the announcement
comes with the second-to-last card (C-8).  What a rule adds (a locked last card, sets, a Runde,
drawing or closing an extra play) the rule refuses itself, in its ``why_not`` hook, with its own
id.  This module names no rule, rule id or rank set.  Words are made from the Refusal above the
core (``maumau.text.refusals``); ``GameState.why_illegal`` returns them.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .cards import Suit
from .moves import Draw, Move, Pass, Play
from .playable import card_refusal
from .refusal import Held, Refusal, refuse
from .rules.base import Role

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["refusal"]


def refusal(state: GameState, move: object) -> Refusal | None:
    """None if ``move`` is legal in ``state``, else why not."""
    if not isinstance(move, Move):
        return refuse("illegal.not_a_move", move=move)
    if state.is_over:
        return refuse("illegal.over")
    if state.is_legal(move) or (type(move) is Play and not move.mau
                                and state.is_legal(move.replace(mau=True))):
        return None
    if isinstance(move, Play):
        missing = _not_held(state, move)
        if missing is not None:
            return missing
    for rule in state.variant._hooks["why_not"]:  # the variant's own rules, in its order
        said = rule.why_not(state, move)
        if said is not None:
            return said
    if isinstance(move, Draw):
        return _why_not_draw(state)
    if isinstance(move, Pass):
        return _why_not_pass(state)
    assert isinstance(move, Play)
    return _why_not_play(state, move)


def _not_held(state: GameState, move: Play) -> Refusal | None:
    """A card that is not in the deck, or not in the player's hand."""
    hand = state.hands[state.to_move]
    missing = Counter(move.cards) - Counter(hand)
    if not missing:
        return None
    absent = next(iter(missing))
    if absent not in state.variant.deck:
        return refuse("illegal.not_in_deck", card=absent, variant=state.variant.name)
    return refuse("illegal.not_held", card=absent, hand=Held(hand))


def _why_not_draw(state: GameState) -> Refusal:
    if state.pending is not None:
        return refuse("illegal.pending_skip", pending=state.pending)  # C-5: a skip is sat out
    return refuse("illegal.draw")


def _why_not_pass(state: GameState) -> Refusal:
    if state.pending is not None:
        return refuse("illegal.pending_draw", pending=state.pending)  # C-5: a draw is taken
    return refuse("illegal.pass")


def _why_not_play(state: GameState, move: Play) -> Refusal:
    variant = state.variant
    card = move.card
    if len(move.cards) > 1 and not variant.having(Role.SETS):  # no rule of the variant plays sets
        return refuse("illegal.set_variant")
    said = card_refusal(variant, card, state.table)
    if said is not None:
        return said if isinstance(said, Refusal) else refuse("illegal.said", text=said)
    kind = variant.wish_kind(card)
    if kind is not None and move.wish is None:
        example = "H" if kind is Suit else "Q"
        return refuse("illegal.wish_missing", card=card, text=card.text, example=example)
    if kind is not None and not isinstance(move.wish, kind):
        return refuse("illegal.wish_wrong_suit" if kind is Suit else "illegal.wish_wrong_rank",
                      card=card, wish=str(move.wish))
    if kind is None and move.wish is not None:
        return refuse("illegal.wish_unexpected", card=card)
    if move.runde and not variant.having(Role.RUNDE):  # no rule of the variant opens a Runde
        return refuse("illegal.runde_variant")
    if move.mau and len(state.hands[state.to_move]) - len(move.cards) != 1:
        return refuse("illegal.mau_early", call=variant.call)
    return refuse("illegal.generic", card=card)
