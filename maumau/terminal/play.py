"""Playing in the terminal (``maumau play``): a hand or a match of the human against computer
players.

The parts, one job each: ``terminal_console`` (the Console: reading and writing lines),
``terminal_table`` (what the human sees at their turn: the table and the numbered moves),
``terminal_input`` (the TerminalPlayer: what is typed becomes a move) and ``terminal_report``
(telling the moves, the hands and the match).  This module deals the hands, seats the
computer players and keeps the public names.  Every sentence is the catalogue's
(``maumau.text.i18n``) in the current language: ``maumau play --lang de`` speaks German.
"""

from __future__ import annotations

from typing import Any

from ..core.dealing import deal
from ..core.variants import Variant
from ..play.match import Match
from ..players.strength import STRENGTHS, for_strength, player_class
from ..text.i18n import card_symbol, language, t
from ..text.locale.seats import seat_words
from .console import Console, Quit
from .input import TerminalPlayer
from .report import match_goal, match_over, report_hand, report_standings, run_hand, upcard_lines
from .table import MenuLine, group_moves

__all__ = ["Console", "Quit", "TerminalPlayer", "MenuLine", "run_hand", "report_hand", "upcard_lines", "group_moves",
           "play", "play_hand", "play_match", "computers_for", "STRENGTHS"]

def computers_for(strength: str, seed: int, seats: range, me: int) -> tuple[dict[int, Any], str]:
    """The computer players of the other seats (``maumau.players.STRENGTHS``), and what to call
    them (their strength, in the language)."""
    made = {seat: for_strength(strength, seed=seed * 100 + seat) for seat in seats if seat != me}
    return made, t("ui.strength." + strength) if strength in STRENGTHS else player_class(strength).__name__


def play(con: Console, v: Variant, n: int, seed: int, me: int, strength: str, match: bool = False) -> None:
    """``maumau play``: say who plays, then a hand (or a match) until it ends or the human leaves."""
    computers, who = computers_for(strength, seed, range(n), me)
    con.say(con.bold(t("term.title", title=v.title, name=v.name, n=n, seed=seed)))
    con.say(t("term.you_are", name=seat_words(me, language()), who=who))
    con.say(t("term.intro"))
    try:
        if match:
            play_match(con, v, n, seed, me, computers)
        else:
            play_hand(con, v, n, seed, me, computers)
    except Quit as stop:
        con.say("\n" + t("term.goodbye", reason=stop))


def play_hand(con: Console, v: Variant, n: int, seed: int, me: int, computers: dict[int, Any]) -> None:
    """One hand: the human in seat ``me``, the computers in the others."""
    state = deal(v, players=n, seed=seed)
    names = [t("seat.label", seat=s) for s in range(n)]
    con.say(t("term.deal", name=names[state.dealer], card=card_symbol(state.top)))
    controllers = [TerminalPlayer(con, names) if s == me else computers[s] for s in range(n)]
    report_hand(con, run_hand(state, controllers, con, names, me), names, me)


def play_match(con: Console, v: Variant, n: int, seed: int, me: int, computers: dict[int, Any]) -> None:
    """Hands until the match is over (the variant's scoring); the standings after each."""
    match = Match(v, players=n, seed=seed)
    con.say(match_goal(v))
    while not match.is_over:
        seats = match.seats_in_play
        playing = me in seats
        names = [t("seat.label", seat=s) for s in seats]
        hand_me = seats.index(me) if playing else None
        human = TerminalPlayer(con, names)
        controllers = [human if s == me else computers[s] for s in seats]
        state = match.deal()
        con.say("")
        head = t("term.hand_start", n=len(match.hands) + 1, name=t("seat.label", seat=match.dealer),
                 card=card_symbol(state.top))
        con.say(con.bold(f"=== {head} ==="))
        for line in upcard_lines(state, names):
            con.say(line)
        final = run_hand(state, controllers, con, names, hand_me, verbose=playing)
        report_hand(con, final, names, hand_me)
        result = match.record(final)
        if result.blocked:
            con.say(t("term.dealt_again"))
        report_standings(con, match, result.number, me)
        if playing and not match.alive[me] and not match.is_over:
            con.say(t("ui.you_are_out"))
        elif playing and not match.is_over:
            if con.ask(t("term.next_hand")).lower() in ("q", "quit"):
                raise Quit(t("term.left_match"))
    con.say(con.bold(match_over(match, me)))
