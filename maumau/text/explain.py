"""Words for the engine: what a legal move does and how a state looks (why a move is illegal is
the core's ``maumau.core.illegal``, said in words by ``maumau.text.refusals``).

Kept apart from the engine so the hot path never builds sentences.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ..core.cards import Card, Rank, Suit, card_html
from ..core.events import (
    Blocked,
    Cancelled,
    Drew,
    EffectPending,
    Event,
    NoMau,
    PenaltyDrawn,
    Reshuffled,
    Reversed,
    RundeEnded,
    Skipped,
)
from ..core.moves import Draw, Move, Play
from ..core.rules.base import Role
from ..core.state import DRAWN, EXTRA, TURN, leave
from .i18n import card_symbol, describe_pending, language, rank_letter, rank_name, t
from .locale.you import YOU
from .refusals import sentence

if TYPE_CHECKING:  # pragma: no cover
    from ..core.rules.base import Rule
    from ..core.rules.scoring import Scoring
    from ..core.state import GameState


def why_illegal(state: GameState, move: Move) -> str | None:
    """None if ``move`` is legal in ``state``, else one sentence naming the rule (C-9)."""
    return state.why_illegal(move)

__all__ = ["why_illegal", "explain", "narrate", "leave", "describe_state", "state_html", "goal_sentence",
           "memory_sentence"]


def _wish_text(wish: Suit | Rank | None) -> str:
    if wish is None:
        return "—"
    return wish.symbol if isinstance(wish, Suit) else rank_letter(wish)


# --- what a legal move does ---------------------------------------------------------------------

def explain(state: GameState, move: Move) -> str:
    """One sentence: what ``move`` does in ``state``, or why it is illegal."""
    reason = why_illegal(state, move)
    if reason is not None:
        return reason
    after = state.apply(move)
    return narrate(state, move, after)


def _say(key: str, who: int, you: int | None, **values: Any) -> str:
    """The message ``key`` about seat ``who``: in the second person when ``who`` is the learner's
    seat ``you`` ("You play 7♥", "du bist als Nächstes dran")."""
    if you is not None and who == you:
        found = YOU.get(language(), {}).get(key)
        if found is not None:
            return found.format(**values)
    return t(key, **values)


def narrate(before: GameState, move: Move, after: GameState, you: int | None = None) -> str:
    """One sentence telling what ``move`` did, from the states around it; ``you``: the learner's
    seat, told in the second person."""
    seat = before.to_move
    if isinstance(move, Play):
        parts = [_say("do.play", seat, you, seat=seat, cards=" ".join(card_symbol(c) for c in move.cards))]
        if move.wish is not None:
            parts.append(_say("do.wish", seat, you, wish=_wish_text(move.wish)))
        if move.runde:  # a Runde card has a rank
            parts.append(_say("do.runde", seat, you, rank=rank_name(cast(Rank, move.card.rank))))
        if move.mau:
            parts.append(_say("do.mau", seat, you, call=before.variant.call))
        if after.is_over and after.winner == seat:
            parts.append(_say("do.out", seat, you))
    elif before.pending is not None:
        parts = [_accepted(before, after, you)]
    elif isinstance(move, Draw):
        drew = any(type(e) is Drew and e.got for e in after.events)
        parts = [_say("do.draw" if drew else "do.draw_none", seat, you, seat=seat)]
    else:
        parts = [_say("do.pass", seat, you, seat=seat)]
    consequences = _consequences(before, move, after, you)
    text = " ".join(parts)
    if consequences:
        text += ": " + ", ".join(consequences)
    return text + "."


def _accepted(before: GameState, after: GameState, you: int | None = None) -> str:
    """The target takes a pending penalty (all of it, or what is left, C-7) or sits out (C-5)."""
    p = before.pending
    assert p is not None
    seat = before.to_move
    if p.kind == "draw":
        got = next((e.got for e in after.events if type(e) is PenaltyDrawn and e.seat == p.target), p.amount)
        if got < p.amount:
            return _say("do.accept_draw_short", seat, you, seat=seat, got=got, amount=p.amount)
        return _say("do.accept_draw", seat, you, seat=seat, amount=p.amount)
    if p.amount == 1:
        return _say("do.accept_skip", seat, you, seat=seat)
    seats, current = [p.target], p.target
    for _ in range(p.amount - 1):
        current = before.next_seat(current)
        seats.append(current)
    return _say("do.accept_skip_n", seat, you, seat=seat, amount=p.amount, seats=_and(seats), rule=p.rule.rule_id)


def _and(items: list[int]) -> str:
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + t("word.and") + words[-1]


def _consequences(before: GameState, move: Move, after: GameState, you: int | None = None) -> list[str]:
    said: list[str] = []
    events = list(after.events)
    call = before.variant.call
    for i, event in enumerate(events):
        if isinstance(event, EffectPending):
            key = "then.pending_draw" if event.kind == "draw" else "then.pending_skip"
            said.append(_say(key, event.target, you, target=event.target, amount=event.amount))
        elif isinstance(event, Reversed):
            said.append(t("then.reverse"))
        elif isinstance(event, Skipped) and isinstance(move, Play):
            said.append(_say("then.skipped", event.seat, you, seat=event.seat) if event.players == 1
                        else _say("then.skipped_n", event.seat, you, seat=event.seat, n=event.players))
        elif isinstance(event, NoMau):
            said.append(t("then.no_mau", call=call, penalty=_mau_penalty(events[i + 1:], event.seat, after)))
        elif isinstance(event, PenaltyDrawn) and isinstance(move, Play) and event.seat != before.to_move:
            # the rule that dealt the cards says how it is told (a Joker's 4, the last 7, ...)
            key = event.rule.penalty_words if event.rule is not None else "then.draws"
            said.append(_say(key, event.seat, you, seat=event.seat, n=event.got))
        elif isinstance(event, RundeEnded):
            said.append(t("then.runde_end"))
        elif isinstance(event, Reshuffled):
            said.append(t("then.reshuffle"))
        elif isinstance(event, Cancelled):
            said.append(t("then.cancel", rule=event.cancelled.response_id))
        elif isinstance(event, Blocked):
            said.append(t("then.blocked"))
    if after.is_over:
        return said
    if after.phase == EXTRA:
        said.append(_say("then.again", after.to_move, you, seat=after.to_move))
    elif after.phase == DRAWN:
        said.append(_say("then.drawn", after.to_move, you, seat=after.to_move))
    elif after.pending is None or not any(type(e) is EffectPending for e in events):
        said.append(_say("then.next", after.to_move, you, seat=after.to_move))
    return said


def _mau_penalty(later: list[Event], seat: int, after: GameState) -> str:
    """What a forgotten announcement cost: the penalty cards the seat drew (a reshuffle may come
    first, C-6), or the locked last card (JM-9)."""
    drawn = next((e for e in later if type(e) is PenaltyDrawn and e.seat == seat), None)
    if drawn is not None:
        return t("then.penalty_card" if drawn.got == 1 else "then.penalty_cards", n=drawn.got)
    if seat in after.locked:
        return t("then.locked")
    return t("then.no_penalty")


# --- how a state looks ------------------------------------------------------------------------------

def _status(state: GameState) -> str:
    """The state in a line, in the current language (``describe_state`` and the teacher's view)."""
    if state.is_over:
        if state.blocked:
            return t("state.blocked")
        return t("state.over", seat=state.winner)
    bits = [t("state.to_move", seat=state.to_move)]
    if state.phase != TURN:
        bits.append({EXTRA: t("state.extra"), DRAWN: t("state.drawn")}.get(state.phase, state.phase))
    if state.pending is not None:
        bits.append(t("state.pending", pending=describe_pending(state.pending), seat=state.pending.target))
    if state.wish is not None:
        bits.append(t("state.wish", wish=_wish_text(state.wish)))
    if state.runde is not None:
        rank = state.runde[0].value
        plural = {"J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}.get(rank, rank + "s")
        name = plural if language() == "en" else rank_name(state.runde[0])  # "Runde of aces", "Runde mit Ass"
        bits.append(t("state.runde", rank=name, seat=state.runde[1]))
    for rule, value in state.memory:  # what other rules remember, when it is not as dealt
        if not rule.roles & {Role.RUNDE, Role.LOCK} and value != rule.memory_at_deal:  # said apart
            bits.append(f"{rule.name}: {value!r}")
    if state.direction < 0:
        bits.append(t("state.counter"))
    return ", ".join(bits)


def describe_state(state: GameState) -> str:
    """The state in a line (``repr``, ``print``): in English with the card notation (``top 2H``), in
    German and Hungarian in their words and card letters (``oben D♥``, ``felső lap: Á♠``)."""
    def card(c: Card) -> str:
        return c.text if language() == "en" else card_symbol(c)

    hands = " | ".join(" ".join(card(c) for c in h) or "-" for h in state.hands)
    return t("state.repr", variant=state.variant.name, status=_status(state), top=card(state.top),
             stock=state.stock_size, hands=hands)


def state_html(state: GameState) -> str:
    """The whole table, all hands open (the teacher's view): each seat's cards as small playing
    cards, the top of the pile beside the sizes of the stock and the pile."""
    def count(n: int) -> str:
        return t("state.card") if n == 1 else t("state.cards", n=f"{n:,}")

    cell = "padding:0.15em 0.5em;vertical-align:middle;border:none"
    rows = []
    for seat, hand in enumerate(state.hands):
        marker = "▶ " if seat == state.to_move and not state.is_over else ""
        gone = "" if state.active[seat] else t("state.left")
        cards = "".join(_card(c) for c in hand) or f"<i>{t('state.no_cards')}</i>"
        rows.append(f"<tr style='background:transparent'><td style='{cell};text-align:left;white-space:nowrap'>"
                    f"<b>{marker}{t('state.seat', seat=seat)}</b>{gone}<br><small>{count(len(hand))}</small></td>"
                    f"<td style='{cell};text-align:left'>{cards}</td></tr>")
    return (
        f"<div class='mm-state'><div><b>{html.escape(state.variant.title)}</b> — "
        f"{html.escape(_status(state))}</div>"
        f"<div style='margin:0.3em 0'>{t('state.top')} {_card(state.top, size='1.4em')} &nbsp; "
        f"{t('state.stock')}: {count(state.stock_size)} &nbsp; {t('state.pile')}: {count(len(state.discard))}</div>"
        f"<table style='margin:0;border-collapse:collapse'>{''.join(rows)}</table></div>"
    )


def _card(card: Card, size: str = "1.1em") -> str:
    """A small card of the teacher's view, its rank in the letter of the language (D, Á)."""
    return card_html(card, size=size, letter=rank_letter(card.rank) if card.rank is not None else None)


def goal_sentence(scoring: Scoring) -> str:
    """How a match under ``scoring`` is won, in one sentence of the current language (the rule
    says it as data: its key and values; ``{score}`` is its own score word)."""
    found: Any = scoring.goal()
    if isinstance(found, str):  # a learner's scoring rule that words its goal itself
        return found
    key, values = found
    return t(key, **{"score": t(scoring.score_key), **values})


def memory_sentence(rule: Rule, value: Any, name_of: Callable[[int], str]) -> str | None:
    """What ``rule`` remembers, told at the table in the current language (its
    ``describe_memory``: a sentence of the catalogues as data, or a learner's own string)."""
    told = rule.describe_memory(value, name_of)
    return None if told is None else sentence(told)
