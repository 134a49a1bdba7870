"""Why a move is illegal: one sentence naming the rule that forbids it, in the current language
(C-9).  Part of the core: ``GameState.apply`` refuses an illegal move with this reason."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..text.i18n import describe_pending, rank_name, t
from . import engine
from .cards import Suit
from .moves import Draw, Move, Pass, Play
from .rules.base import Role
from .rules.turns import RUNDE_RANKS, SameRankSets
from .state import DRAWN, EXTRA, TURN, lend

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["why_illegal"]


def why_illegal(state: GameState, move: Move) -> str | None:
    """None if ``move`` is legal in ``state``, else one sentence naming the rule."""
    if not isinstance(move, Move):
        return t("illegal.not_a_move", move=move)
    if state.is_over:
        return t("illegal.over")
    if state.is_legal(move) or (type(move) is Play and not move.mau
                                and state.is_legal(move.replace(mau=True))):
        return None
    if state.to_move in state.locked:  # JM-9: name exactly what is left to do
        return t("illegal.locked", call=state.variant.call, moves=_alternatives(state))
    if isinstance(move, Draw):
        return _why_not_draw(state)
    if isinstance(move, Pass):
        return _why_not_pass(state)
    assert isinstance(move, Play)
    return _why_not_play(state, move)


def _alternatives(state: GameState) -> str:
    """The legal moves as code, joined by "or" in the current language."""
    return t("word.or").join(repr(m) for m in state.legal_moves())


def _rule_id(state: GameState, role: Role, default: str = "") -> str:
    """The id the variant cites for its rule of ``role`` (MK-8 or JM-8, ...)."""
    return next((r.rule_id for r in state.variant.having(role)), default)


def _why_not_draw(state: GameState) -> str:
    pending = state.pending
    if pending is not None:
        return t("illegal.pending_skip", pending=describe_pending(pending))
    if state.phase == EXTRA:
        return _why_not_close(state)
    if state.phase == DRAWN:
        return t("illegal.drawn_phase", rule=_after_draw_id(state))
    return t("illegal.draw_forced", rule=_forcing_id(state))


def _forcing_id(state: GameState) -> str:
    """The rule that makes the player play: a running Runde (the opener MR-11, the others MR-10)
    before plain forced play (MR-4)."""
    forcers = [r for r in state.variant._forcers if r.forces_play(state)]
    if state.runde is not None and any(Role.RUNDE in r.roles for r in forcers):
        return "MR-11" if state.runde[1] == state.to_move else "MR-10"
    return forcers[0].rule_id if forcers else "C-4"


def _after_draw_id(state: GameState) -> str:
    return next((r.rule_id for r in state.variant.rules if r.after_draw in ("drawn", "any")), "C-4")


def _why_not_close(state: GameState) -> str:
    """At an Ace's extra play: play on it, or close the turn the variant's way (MK-8, JM-8)."""
    return t("illegal.extra", closer=repr(state.variant.extra_closer),
             rule=_rule_id(state, Role.EXTRA_PLAY, "MK-8"))


def _why_not_pass(state: GameState) -> str:
    pending = state.pending
    if pending is not None:
        return t("illegal.pending_draw", pending=describe_pending(pending))
    if state.phase == EXTRA:
        return _why_not_close(state)
    return t("illegal.pass")


def _why_not_play(state: GameState, move: Play) -> str:
    variant = state.variant
    hand = state.hands[state.to_move]
    card = move.card
    missing = Counter(move.cards) - Counter(hand)
    if missing:
        absent = next(iter(missing))
        if absent not in variant.deck:
            return t("illegal.not_in_deck", card=absent.symbol, variant=variant.name)
        return t("illegal.not_held", card=absent.symbol,
                 hand=" ".join(c.symbol for c in hand) or t("word.nothing"))
    table = engine.table_of(state)
    if len(move.cards) > 1:
        reason = _why_not_set(state, move)
        if reason:
            return reason
    if state.phase == DRAWN and variant.after_draw == "drawn" and card is not state.drawn:
        return t("illegal.drawn_only", card=state.drawn.symbol if state.drawn else "—",
                 rule=_after_draw_id(state))
    reason = engine.verdict(variant, card, table)
    if reason:
        return reason
    kind = variant.wish_kind(card)
    if kind is not None and move.wish is None:
        example = "H" if kind is Suit else "Q"
        return t("illegal.wish_missing", card=card.symbol, text=card.text, example=example)
    if kind is not None and not isinstance(move.wish, kind):
        return t("illegal.wish_wrong_suit" if kind is Suit else "illegal.wish_wrong_rank",
                 card=card.symbol, wish=str(move.wish))
    if kind is None and move.wish is not None:
        return t("illegal.wish_unexpected", card=card.symbol)
    if move.runde:
        reason = _why_not_runde(state, move)
        if reason:
            return reason
    if move.mau and len(hand) - len(move.cards) != 1:
        return t("illegal.mau_early", call=variant.call)
    return t("illegal.generic", card=card.symbol)


def _why_not_set(state: GameState, move: Play) -> str | None:
    sets = state.variant.having(Role.SETS)
    if not sets:
        return t("illegal.set_variant")
    if len({c.rank for c in move.cards}) > 1:
        return t("illegal.set_rank")
    if any(isinstance(rule, SameRankSets) and any(rule.is_special(c) for c in move.cards) for rule in sets):
        return t("illegal.set_special")  # LM-5's own cards
    if state.pending is not None or state.phase != TURN:
        return t("illegal.set_pending")
    return None


def _why_not_runde(state: GameState, move: Play) -> str | None:
    """Why ``move`` may not open a Runde (MR-8), or None if opening is not what is wrong."""
    if not state.variant.having(Role.RUNDE):
        return t("illegal.runde_variant")
    if state.pending is not None or state.runde is not None or state.phase != TURN:
        return t("illegal.runde_when")
    if move.card.rank not in RUNDE_RANKS or len(move.cards) > 1:
        return t("illegal.runde_rank")
    hand = state.hands[state.to_move]
    if sum(c.rank is move.card.rank for c in hand) < 2:
        return t("illegal.runde_second", rank=rank_name(move.card.rank))
    return None  # the opening is fine: something else is wrong (e.g. the announcement)


lend(why_illegal=why_illegal)
