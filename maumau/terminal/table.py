"""What the human sees when it is their turn in ``maumau play``: the table (top card, wish,
stock, direction, what is pending, the other hands, their own hand) and the legal moves as
numbered lines (``group_moves``); and the rules of the variant at the prompt (``rules_text``).
Every sentence is the catalogue's (``maumau.text.i18n``, keys ``term.*`` and ``ui.*``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from ..core.cards import Rank, Suit
from ..core.moves import Draw, Move, Pass, Play
from ..core.state import DRAWN, EXTRA, GameState
from ..core.variants import Variant
from ..text.explain import memory_sentence
from ..text.i18n import card_symbol, describe_pending, language, rank_letter, rank_name, rule_summary, seat_regex, t
from ..text.locale.seats import seat_label, seat_words
from .console import Console

__all__ = ["MenuLine", "group_moves", "move_key", "show_table", "rules_text"]


class MenuLine:
    """One numbered line of the menu: the legal moves that differ only in the wish (and Mau)."""

    def __init__(self, state: GameState, first: Move) -> None:
        self.moves: list[Move] = [first]
        self.first = first
        self.label = menu_label(state, first)

    @property
    def wishes(self) -> list[Suit | Rank]:
        return list(dict.fromkeys(m.wish for m in self.moves if isinstance(m, Play) and m.wish is not None))

    @property
    def mau_due(self) -> bool:
        return any(isinstance(m, Play) and m.mau for m in self.moves)

    def move(self, wish: Suit | Rank | None = None, mau: bool = True) -> Move:
        found = next(m for m in self.moves if not isinstance(m, Play) or m.wish == wish)
        return found.replace(mau=False) if isinstance(found, Play) and found.mau and not mau else found


def move_key(move: Move) -> tuple[object, ...]:
    """What one menu line stands for: the cards played (and a Runde), or the kind of move."""
    return (tuple(move.cards), move.runde) if isinstance(move, Play) else (type(move),)


def group_moves(state: GameState) -> list[MenuLine]:
    """The legal moves as menu lines: plays by their first card, then draw or pass."""
    found: dict[tuple[object, ...], MenuLine] = {}
    for move in state.legal_moves():
        if move_key(move) in found:
            found[move_key(move)].moves.append(move)
        else:
            found[move_key(move)] = MenuLine(state, move)
    return sorted(found.values(), key=lambda c: (0, c.first.card.index, len(c.first.cards), c.first.runde)
                  if isinstance(c.first, Play) else (1, 0, 0, False))


def menu_label(state: GameState, move: Move) -> str:
    """The words of a menu line, e.g. ``play J♣ (then wish a suit)`` or ``take 2 cards``."""
    if isinstance(move, Play):
        parts = [t("term.play", cards=" ".join(card_symbol(c) for c in move.cards))]
        kind = state.variant.wish_kind(move.card)
        if kind is not None:
            parts.append(t("term.then_suit" if kind is Suit else "term.then_rank"))
        if len(move.cards) > 1:
            parts.append(t("term.set_top", card=card_symbol(move.last)))
        if move.runde:  # a Runde card has a rank
            parts.append(t("term.open_runde", rank=rank_name(cast(Rank, move.card.rank))))
        return " ".join(parts)
    if state.pending is not None:
        return t("term.take", n=state.pending_draw) if isinstance(move, Draw) else t("term.sit_out")
    if isinstance(move, Pass):
        return t("term.pass")
    if not state.stock and len(state.discard) < 2:
        return t("term.draw_none")
    return t("term.draw_ends") if state.phase == EXTRA else t("term.draw")


def _count(n: int) -> str:
    return t("ui.cards_1") if n == 1 else t("ui.cards_n", n=n)


def _turn_notes(state: GameState, name_of: Callable[[int], str]) -> list[str]:
    """The lines under the status line: what the human faces in this turn."""
    me, notes = state.to_move, []
    if state.pending is not None:
        notes.append(t("term.facing", pending=describe_pending(state.pending)))
    for rule, value in state.memory:  # what the rules that remember hold: a Runde (MR-8)
        text = memory_sentence(rule, value, name_of)
        if text is not None:
            notes.append(text)
    if state.phase == EXTRA:
        notes.append(t("term.extra"))
    elif state.phase == DRAWN and state.drawn is not None:
        key = "term.drawn_it" if state.variant.after_draw == "drawn" else "term.drawn_any"
        notes.append(t(key, card=card_symbol(state.drawn)))
    if me in state.locked:
        moves = t("word.or").join(repr(m) for m in state.legal_moves())
        notes.append(t("term.locked", call=state.variant.call, moves=moves))
    return notes


def you_name(name: str, seat: int | None, me: int | None, start: bool = True) -> str:
    """A player's name as a label (a list, a row of standings); the learner's says "you" first, as
    every screen does (``seat_label``: "You (seat 0)", "Du (Platz 0)", "Te (0. játékos)")."""
    if seat is None or seat != me:
        return name
    found = seat_regex().fullmatch(name)  # a seat's own label ("Seat 2"): its number is the match seat's
    return seat_label(int(found.group(1)) if found else seat, True, language(), name, start=start)



def _own_seat(name: str) -> str:
    found = seat_regex().fullmatch(name)  # a seat's own label: its number is the match seat's
    return seat_words(int(found.group(1)), language()) if found else name


def show_table(con: Console, state: GameState, choices: list[MenuLine], name_of: Callable[[int], str]) -> None:
    """The table as the player to move sees it, and the numbered moves."""
    me = state.to_move
    con.say("")
    head = f"{t('ui.your_turn')} ({_own_seat(name_of(me))})"
    con.say(con.bold(f"── {state.variant.title} · {head} ".ljust(64, "─")))
    wish = (state.wish.symbol if isinstance(state.wish, Suit) else rank_letter(state.wish) if state.wish
            else t("ui.none"))
    way = t("ui.clockwise") if state.direction > 0 else t("ui.counter")
    con.note(t("term.status", top=con.bold(card_symbol(state.top)), wish=wish, stock=state.stock_size, way=way,
               next=name_of(state.next_seat(me))))
    for line in _turn_notes(state, name_of):
        con.note(line)
    others = []
    for seat, hand in enumerate(state.hands):
        if seat != me and state.active[seat]:
            call = f" ({t('ui.announce', word=state.variant.call)})" if len(hand) == 1 else ""
            others.append(f"{name_of(seat)}: {_count(len(hand))}{call}")
    con.note("   ".join(others))
    con.note(f"{t('ui.your_hand')}: {' '.join(card_symbol(c) for c in state.hands[me])}")
    for i, choice in enumerate(choices, 1):
        con.say(f"   {i:>2}) {choice.label}")


def rules_text(v: Variant) -> str:
    """The variant's rules, one line each in the language (``Variant.describe`` in English)."""
    lo, hi = v.players
    lines = [f"{v.title} ({v.name})", t("term.deck", cards=len(v.deck), hand=v.hand_size, lo=lo, hi=hi), ""]
    lines += [f"- {r.name}: {rule_summary(r, call=v.call)}" for r in v.rules]
    if v.changes:
        lines += ["", f"{t('ui.house_rules')}: {v.house_rules()}"]
    return "\n".join(lines)
