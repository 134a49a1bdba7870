"""Telling the game in ``maumau play``: each move as the engine's sentence (``narrate``) with the
players' names in place of the hand seats, what the up-card did at the deal, how a hand ended
and scored, the standings of a match and how it is won.  Every sentence is the catalogue's
(``maumau.text.i18n``), in the language chosen for the game."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from .. import players
from ..core.cards import Suit
from ..core.events import PenaltyDrawn
from ..core.moves import Draw, Move
from ..core.state import GameState, IllegalMove
from ..core.variants import Variant
from ..play.match import Match
from ..text.explain import goal_sentence, narrate
from ..text.i18n import card_symbol, describe_pending, rank_name, seat_regex, t
from .console import Console
from .table import you_name

__all__ = ["run_hand", "upcard_lines", "report_hand", "report_standings", "match_goal", "match_over"]


def _in_sentence(name: str, seat: int | None, me: int | None) -> str:
    """The learner's name in a sentence about them in the third person ("Seat 0 (you) still held"):
    the seat, and who that is; a label of its own (a list, a row) says ``you_name``."""
    return t("ui.me", name=name) if seat == me else name


def _renamer(names: Sequence[str], me: int | None) -> Callable[[re.Match[str]], str]:
    """Hand seats -> the names at the table (match seats), in the sentences of ``narrate``."""
    def rename(found: re.Match[str]) -> str:
        seat = int(found.group(1))
        name = names[seat] if seat < len(names) else found.group(0)
        name = name[0].lower() + name[1:] if found.group(0)[:1].islower() else name  # "seat 1 moves next"
        return _in_sentence(name, seat, me)
    return rename


def run_hand(state: GameState, controllers: Sequence[Any], con: Console, names: Sequence[str],
             me: int | None = None, verbose: bool = True, max_moves: int = 20_000) -> GameState:
    """Play a hand to its end, telling each move (``narrate``); ``me`` is the human's hand seat."""
    seats, rename = seat_regex(), _renamer(names, me)
    for _ in range(max_moves):
        if state.is_over:
            return state
        seat = state.to_move
        move = players.ask(controllers[seat], state)  # a View of the seat, unless a maumau player
        try:
            after = state.apply(move)
        except IllegalMove as exc:
            con.note(exc.reason)
            if seat == me:
                continue
            raise
        if verbose:
            con.note(seats.sub(rename, narrate(state, move, after, you=me)))
            if me is not None:
                _tell_received(con, state, move, after, me)
        state = after
    raise RuntimeError(f"the hand did not end within {max_moves} moves")


def _tell_received(con: Console, before: GameState, move: Move, after: GameState, me: int) -> None:
    """The cards the human drew or got with this move, which the sentence of the move does not name."""
    got = Counter(after.hands[me]) - Counter(before.hands[me])
    if got:
        drew = before.to_move == me and isinstance(move, Draw) and not before.pending
        con.say("    " + t("ui.you_drew" if drew else "term.you_get",
                           cards=" ".join(card_symbol(c) for c in sorted(got.elements()))))


def upcard_lines(state: GameState, names: Sequence[str]) -> list[str]:
    """What the up-card did at the deal (LM-2, JM-2): a wish, a penalty drawn or pending, a skip;
    so a player who starts with 9 cards reads why."""
    lines = []
    card = card_symbol(state.top)
    if state.wish is not None:
        wish = state.wish.symbol if isinstance(state.wish, Suit) else rank_name(state.wish)
        lines.append("  " + t("term.dealer_wishes", wish=wish, card=card))
    for event in state.events:
        if type(event) is PenaltyDrawn and event.got:
            key = "term.upcard_draws_1" if event.got == 1 else "term.upcard_draws"
            lines.append("  " + t(key, card=card, name=names[event.seat], n=event.got,
                                  rule=state.variant.upcard_rule.rule_id if state.variant.upcard_rule else ""))
    if state.pending is not None:
        lines.append("  " + t("term.upcard_pending", card=card, name=names[state.pending.target],
                              pending=describe_pending(state.pending)))
    return lines


def _score_word(v: Variant) -> str:
    return t(v.scoring.score_key)


def report_hand(con: Console, final: GameState, names: Sequence[str], me: int | None) -> None:
    if final.blocked:
        con.say(con.bold(t("term.blocked")))
        return
    if final.winner == me:
        con.say(con.bold(t("ui.won_you")))
    else:
        con.say(con.bold(t("ui.won_other", name="?" if final.winner is None else names[final.winner])))
    for seat, hand in enumerate(final.hands):
        if seat != final.winner and final.active[seat] and hand:
            held = " ".join(card_symbol(c) for c in hand)
            con.note(t("term.still_held", name=_in_sentence(names[seat], seat, me), cards=held))
    scores = final.variant.scoring.hand_scores(final)
    listed = ", ".join(f"{you_name(names[s], s, me)} {p}" for s, p in enumerate(scores))
    con.say(t("term.hand_scores", score=_score_word(final.variant), scores=listed))


def match_goal(v: Variant) -> str:
    """The first line of a match: what it is and how it is won."""
    return t("term.match_goal", name=v.name, goal=goal_sentence(v.scoring))


def report_standings(con: Console, match: Match, number: int, me: int) -> None:
    """The totals after a hand, by match seat; a seat out of the match is marked."""
    con.say(t("term.standings", n=number, score=_score_word(match.variant)))
    for row in match.standings():
        out = "" if row["in_play"] else "   " + t("ui.out")
        name = you_name(t("seat.label", seat=row["seat"]), row["seat"], me)
        con.say(f"  {name:<16}{row['score']:>5}{out}")


def match_over(match: Match, me: int) -> str:
    """The last line of a match: after how many hands, and who won (or shares the win)."""
    win = match.winner
    seats_won = win if isinstance(win, tuple) else (win,)
    winners = t("word.and").join(_in_sentence(t("seat.label", seat=s), s, me) for s in seats_won)
    played = len(match.hands)
    after = t("term.after_1") if played == 1 else t("term.after_n", n=played)
    return t("term.match_shared" if len(seats_won) > 1 else "term.match_won", after=after, names=winners)
