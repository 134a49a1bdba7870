"""Playing in the terminal: the Console, the human's menu, and hands and matches
against computer players (used by ``maumau play``)."""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TextIO, cast

from . import players
from .cards import CardError, Rank, Suit, cards, parse_wish
from .engine import DRAWN, EXTRA
from .events import PenaltyDrawn
from .explain import narrate
from .i18n import describe_pending, rank_name
from .match import Match
from .moves import Draw, Move, Pass, Play
from .state import GameState, IllegalMove
from .variants import Variant

__all__ = ["Console", "Quit", "TerminalPlayer", "run_hand", "report_hand", "group_moves", "play_match",
           "computers_for", "STRENGTHS"]

#: Which class of ``maumau.players`` plays each strength, best first; looked up when a
#: game starts, so stronger players added later are picked up.  Random is the fallback.
STRENGTHS = {"easy": ("Random",), "medium": ("Heuristic", "Greedy"), "hard": ("Search", "MCTS", "Heuristic")}

_ASCII = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "🃏": "JOKER", "─": "-", "·": "|", "—": "-"})
_RED = re.compile(r"(?:10|[2-9JQKA])[♥♦]")
_SEAT = re.compile(r"\b([Ss]eat) (\d+)\b")
_SUIT_NAMES = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}


class Quit(Exception):
    """The player left the game (q), or the input ended."""


class Console:
    """Where the command line reads and writes; colour and card symbols as the terminal allows."""

    def __init__(self, input_fn: Callable[[str], str] | None = None, out: TextIO | None = None,
                 err: TextIO | None = None) -> None:
        self.input_fn = input_fn or input
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.color = (not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
                      and hasattr(self.out, "isatty") and self.out.isatty())
        try:
            "♥♠🃏─·—".encode(getattr(self.out, "encoding", None) or "utf-8")
            self.unicode = True
        except (UnicodeEncodeError, LookupError):
            self.unicode = False

    def paint(self, text: str) -> str:
        if not self.unicode:
            return text.translate(_ASCII)
        return _RED.sub(lambda m: f"\033[31;1m{m.group(0)}\033[0m", text) if self.color else text

    def bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.color else text

    def say(self, text: str = "") -> None:
        self.out.write(self.paint(text) + "\n")

    def error(self, message: str) -> None:
        self.err.write(f"maumau: error: {message}\n")

    def ask(self, prompt: str) -> str:
        """One line of input; Quit when the input has ended (Ctrl-D)."""
        self.out.flush()
        try:
            return self.input_fn(self.paint(prompt)).strip()
        except EOFError:
            raise Quit("Input ended") from None


# --- maumau play: the human's choices ----------------------------------------------------------------

class Choice:
    """One numbered line of the menu: the legal moves that differ only in the wish (and Mau)."""

    def __init__(self, state: GameState, first: Move) -> None:
        self.moves: list[Move] = [first]
        self.first = first
        self.label = _label(state, first)

    @property
    def wishes(self) -> list[Suit | Rank]:
        return list(dict.fromkeys(m.wish for m in self.moves if isinstance(m, Play) and m.wish is not None))

    @property
    def mau_due(self) -> bool:
        return any(isinstance(m, Play) and m.mau for m in self.moves)

    def move(self, wish: Suit | Rank | None = None, mau: bool = True) -> Move:
        found = next(m for m in self.moves if not isinstance(m, Play) or m.wish == wish)
        return found.replace(mau=False) if isinstance(found, Play) and found.mau and not mau else found


def _key(move: Move) -> tuple:
    return (tuple(move.cards), move.runde) if isinstance(move, Play) else (type(move),)


def group_moves(state: GameState) -> list[Choice]:
    """The legal moves as menu lines: plays by their first card, then draw or pass."""
    found: dict[tuple, Choice] = {}
    for move in state.legal_moves():
        if _key(move) in found:
            found[_key(move)].moves.append(move)
        else:
            found[_key(move)] = Choice(state, move)
    return sorted(found.values(), key=lambda c: (0, c.first.card.index, len(c.first.cards), c.first.runde)
                  if isinstance(c.first, Play) else (1, 0, 0, False))


def _label(state: GameState, move: Move) -> str:
    if isinstance(move, Play):
        text = "play " + " ".join(c.symbol for c in move.cards)
        kind = state.variant.wish_kind(move.card)
        if kind is not None:
            text += f" (then wish a {kind.__name__.lower()})"
        if len(move.cards) > 1:
            text += f" (set: {move.last.symbol} ends on top)"
        if move.runde:
            text += f" and open a Runde of rank {rank_name(cast(Rank, move.card.rank))}"  # a Runde card has a rank
        return text
    if state.pending is not None:
        return f"take {state.pending_draw} cards" if isinstance(move, Draw) else "sit out (accept the skip)"
    if isinstance(move, Pass):
        return "pass (end your turn)"
    if not state.stock and len(state.discard) < 2:
        return "draw (nothing left to draw: you pass)"
    return "draw a card (ends your turn)" if state.phase == EXTRA else "draw a card"


HELP = """How to move:
  1, 2, ...        the numbered move (Enter alone when there is only one)
  7H  or  play 7H  a card by its notation: 10H or TH, QS, JOKER (♥ ♦ ♣ ♠ work too)
  QS QD            several cards at once, where the variant allows sets
  JC H             a wish card and its wish (or: JC wish H)
  d / draw         draw a card, or take a pending penalty
  p / pass         pass, where the rules allow it
  t / table        show the table again      r / rules   the rules of this variant
  ? / help         this help                 q / quit    leave the game"""


class TerminalPlayer:
    """The human at the terminal: a Player whose ``choose`` shows the table and asks."""

    name = "human"
    #: maumau's own code (``maumau.players.ask``): it shows the human only the human's seat.
    sees_state = True

    def __init__(self, con: Console, names: Sequence[str] | None = None) -> None:
        self.con = con
        self.names = list(names) if names is not None else None

    def name_of(self, seat: int) -> str:
        return self.names[seat] if self.names is not None else f"Seat {seat}"

    def choose(self, state: GameState) -> Move:
        choices = group_moves(state)
        self.show_table(state, choices)
        while True:
            span = "1 or Enter" if len(choices) == 1 else f"1-{len(choices)}"
            answer = self.con.ask(f"Your move [{span}, or a card like 7H; ? for help]: ")
            move = self.interpret(answer, state, choices)
            if move is not None:
                return move

    # --- showing ------------------------------------------------------------------------------------
    def show_table(self, state: GameState, choices: list[Choice]) -> None:
        con, me = self.con, state.to_move
        con.say("")
        con.say(con.bold(f"── {state.variant.title} · {self.name_of(me)} (you) to move ".ljust(64, "─")))
        wish = state.wish.symbol if isinstance(state.wish, Suit) else state.wish.value if state.wish else "none"
        way = "clockwise" if state.direction > 0 else "counter-clockwise"
        con.say(f"  Top: {con.bold(state.top.symbol)}   Wish: {wish}   Stock: {len(state.stock)}   "
                f"Direction: {way} (next: {self.name_of(state.next_seat(me))})")
        if state.pending is not None:
            con.say(f"  You face {describe_pending(state.pending)}: answer it or take it.")
        if state.runde is not None:
            rank, opener = state.runde
            con.say(f"  Runde of rank {rank_name(rank)} (opened by {self.name_of(opener)}): only that rank may "
                    "be played.")
        if state.phase == EXTRA:
            con.say("  Your Ace lets you play once more: one more card on it, or end the turn.")
        elif state.phase == DRAWN and state.drawn is not None:
            what = "it" if state.variant.after_draw == "drawn" else "a card"
            con.say(f"  You drew {state.drawn.symbol}: play {what} or pass.")
        if me in state.locked:
            moves = " or ".join(repr(m) for m in state.legal_moves())
            con.say(f"  Your last card is locked (you did not say {state.variant.call}) until you receive a "
                    f"card: your only move is {moves} (JM-9).")
        others = []
        for seat, hand in enumerate(state.hands):
            if seat != me and state.active[seat]:
                note = f" ({state.variant.call}!)" if len(hand) == 1 else ""
                others.append(f"{self.name_of(seat)}: {len(hand)} card{'s' * (len(hand) != 1)}{note}")
        con.say("  " + "   ".join(others))
        con.say(f"  Your hand: {' '.join(c.symbol for c in state.hands[me])}")
        for i, choice in enumerate(choices, 1):
            con.say(f"   {i:>2}) {choice.label}")

    # --- reading -------------------------------------------------------------------------------------
    def interpret(self, text: str, state: GameState, choices: list[Choice]) -> Move | None:
        """The move the answer means, after asking for a wish and Mau; None to ask again."""
        con, low = self.con, text.lower()
        if low in ("q", "quit", "exit"):
            if self.con.ask("Leave the game? [y/N] ").lower() in ("y", "yes"):
                raise Quit("You left the game")
            return None
        if low in ("?", "h", "help"):
            con.say(HELP)
            return None
        if low in ("t", "table"):
            self.show_table(state, choices)
            return None
        if low in ("r", "rules"):
            con.say(state.variant.describe())
            return None
        if low == "":
            if len(choices) == 1:
                return self.complete(choices[0], state)
            con.say(f"  Type a number from 1 to {len(choices)} (? for help).")
            return None
        if low.isdigit():
            if 1 <= int(low) <= len(choices):
                return self.complete(choices[int(low) - 1], state)
            con.say(f"  There is no move {low}: choose 1 to {len(choices)}.")
            return None
        if low in ("d", "draw", "p", "pass"):
            wanted: Move = Draw() if low.startswith("d") else Pass()
            for choice in choices:
                if choice.first is wanted:
                    return choice.move()
            con.say(f"  {state.why_illegal(wanted)}")
            return None
        return self.typed_play(text, state, choices)

    def typed_play(self, text: str, state: GameState, choices: list[Choice]) -> Move | None:
        tokens = text.replace(",", " ").split()
        if tokens and tokens[0].lower() == "play":
            tokens = tokens[1:]
        held: list[str] = []
        wish: Suit | Rank | None = None
        mau = runde = False
        while tokens:
            token = tokens.pop(0)
            low = token.lower()
            if low in ("mau", "macau", "makao", "makaó"):
                mau = True
            elif low == "runde":
                runde = True
            elif low == "wish" or (held and not tokens and not re.fullmatch(r"(10|[2-9tjqka])\S+", low)):
                word = tokens.pop(0) if low == "wish" and tokens else token
                try:
                    wish = _parse_wish(word)
                except CardError:
                    self.con.say(f"  {word!r} is not a wish: name a suit (C, D, H, S) or a rank (2-10, J, Q, K, A).")
                    return None
            else:
                held.append(token)
        try:
            played = cards(held)
        except CardError:
            self.con.say(f"  {text!r} is neither a move number nor a card: write cards like 7H, 10D, QS "
                         "or JOKER (? for help).")
            return None
        if not played:
            self.con.say("  Which card? For example: play 7H (? for help).")
            return None
        move = Play(played, runde=runde)
        for choice in choices:
            if _key(choice.first) == _key(move):
                if wish is not None and wish not in choice.wishes:
                    self.con.say(f"  {played[0].symbol} names no wish: type just {' '.join(c.text for c in played)}."
                                 if not choice.wishes else f"  {played[0].symbol} cannot wish {wish}; choose from "
                                 f"{', '.join(str(w) for w in choice.wishes)}.")
                    return None
                return self.complete(choice, state, wish, mau or None)
        reason = state.why_illegal(Play(played, wish=wish, mau=mau, runde=runde))
        self.con.say(f"  {reason or 'That move is not possible here.'}")
        return None

    def complete(self, choice: Choice, state: GameState, wish: Suit | Rank | None = None,
                 mau: bool | None = None) -> Move | None:
        """Ask for the wish (when several are possible) and for Mau (when it is due)."""
        wishes = choice.wishes
        if wishes and wish is None:
            wish = self.ask_wish(wishes)
            if wish is None:
                return None
        if choice.mau_due and mau is None:
            while True:
                call = state.variant.call
                answer = self.con.ask(f"Say {call}? [Y/n] ").lower()
                if answer in ("", "y", "yes", call.lower(), "mau", "n", "no"):
                    mau = not answer.startswith("n")
                    break
                self.con.say("  Answer y or n.")
        return choice.move(wish, mau is not False)

    def ask_wish(self, wishes: list[Suit | Rank]) -> Suit | Rank | None:
        if isinstance(wishes[0], Suit):
            prompt = "Wish which suit? (" + "/".join(str(w) for w in wishes) + ") "
        else:
            prompt = "Wish which rank? (" + " ".join(str(w) for w in wishes) + ") "
        while True:
            answer = self.con.ask(prompt)
            if answer.lower() in ("b", "back"):
                return None
            try:
                wish = _parse_wish(answer)
            except CardError:
                wish = None
            if wish in wishes:
                return wish
            self.con.say(f"  Please answer one of {' '.join(str(w) for w in wishes)} (b to go back).")


def _parse_wish(text: str) -> Suit | Rank:
    return parse_wish(_SUIT_NAMES.get(text.strip().lower(), text))


# --- maumau play: hands and matches ------------------------------------------------------------------

def run_hand(state: GameState, controllers: Sequence[Any], con: Console, names: Sequence[str],
             me: int | None = None, verbose: bool = True, max_moves: int = 20_000) -> GameState:
    """Play a hand to its end, telling each move (``narrate``); ``me`` is the human's hand seat."""
    def rename(found: re.Match) -> str:  # hand seats -> the names at the table (match seats)
        seat = int(found.group(2))
        name = names[seat] if seat < len(names) else found.group(0)
        name = name[0].lower() + name[1:] if found.group(1)[0] == "s" else name
        return name + (" (you)" if seat == me else "")

    for _ in range(max_moves):
        if state.is_over:
            return state
        seat = state.to_move
        move = players.ask(controllers[seat], state)  # a View of the seat, unless a maumau player
        try:
            after = state.apply(move)
        except IllegalMove as exc:
            con.say(f"  {exc.reason}")
            if seat == me:
                continue
            raise
        if verbose:
            con.say("  " + _SEAT.sub(rename, narrate(state, move, after)))
            if me is not None:
                got = Counter(after.hands[me]) - Counter(state.hands[me])
                if got:
                    verb = "drew" if seat == me and isinstance(move, Draw) and not state.pending else "get"
                    con.say(f"    You {verb} {' '.join(c.symbol for c in sorted(got.elements()))}.")
        state = after
    raise RuntimeError(f"the hand did not end within {max_moves} moves")


def upcard_lines(state: GameState, names: Sequence[str]) -> list[str]:
    """What the up-card did at the deal (LM-2, JM-2): a wish, a penalty drawn or pending, a skip;
    so a player who starts with 9 cards reads why."""
    lines = []
    if state.wish is not None:
        wish = state.wish.symbol if isinstance(state.wish, Suit) else rank_name(state.wish)
        lines.append(f"  The dealer wishes {wish} for the up-card {state.top.symbol}.")
    for event in state.events:
        if type(event) is PenaltyDrawn and event.got:
            lines.append(f"  The up-card {state.top.symbol} makes {names[event.seat]} draw {event.got} "
                         f"card{'s' * (event.got != 1)} at the deal ({state.variant.upcard_rule.rule_id}).")
    if state.pending is not None:
        lines.append(f"  The up-card {state.top.symbol} leaves {names[state.pending.target]} facing "
                     f"{describe_pending(state.pending)}.")
    return lines


def _score_word(v: Variant) -> str:
    return {"card_points": "penalty points", "joker_card_points": "penalty points",
            "victory_points": "victory points", "hands_won": "hands won"}.get(v.scoring.name, "points")


def report_hand(con: Console, final: GameState, names: Sequence[str], me: int | None) -> None:
    if final.blocked:
        con.say(con.bold("The hand is blocked: nobody can play or draw. It is void: no winner, no points."))
        return
    if final.winner == me:
        con.say(con.bold("You went out: you win the hand!"))
    else:
        con.say(con.bold(f"{names[final.winner]} went out and wins the hand."))
    for seat, hand in enumerate(final.hands):
        if seat != final.winner and final.active[seat] and hand:
            con.say(f"  {names[seat]}{' (you)' * (seat == me)} still held: {' '.join(c.symbol for c in hand)}")
    scores = final.variant.scoring.hand_scores(final)
    con.say(f"Hand scores ({_score_word(final.variant)}): "
            + ", ".join(f"{names[s]}{' (you)' * (s == me)} {p}" for s, p in enumerate(scores)))


def _goal(v: Variant) -> str:
    s = v.scoring
    if hasattr(s, "limit"):
        return f"a total of {s.limit} or more puts a player out; the last one left wins"
    if hasattr(s, "threshold"):
        return f"once a total reaches {s.threshold}, the lowest total wins"
    target = getattr(s, "target", 1)
    if s.name == "hands_won":
        return f"the first to win {target} hand{'s' * (target != 1)} wins the match"
    return f"the first to {target} {_score_word(v)} wins the match"


def computers_for(strength: str, seed: int, seats: range, me: int) -> tuple[dict[int, Any], str]:
    cls = next((getattr(players, n) for n in STRENGTHS[strength] if hasattr(players, n)), players.Random)
    made = {}
    for seat in seats:
        if seat != me:
            try:
                made[seat] = cls(seed=seed * 100 + seat)
            except TypeError:
                made[seat] = cls()
    note = "" if cls.__name__ in STRENGTHS[strength] else f" (no {strength} player yet)"
    return made, f"{cls.__name__}{note}"


def play_match(con: Console, v: Variant, n: int, seed: int, me: int, computers: dict[int, Any]) -> None:
    match = Match(v, players=n, seed=seed)
    con.say(f"A match of {v.name}: {_goal(v)}.")
    while not match.is_over:
        seats = match.seats_in_play
        playing = me in seats
        names = [f"Seat {s}" for s in seats]
        hand_me = seats.index(me) if playing else None
        human = TerminalPlayer(con, names)
        controllers = [human if s == me else computers[s] for s in seats]
        state = match.deal()
        con.say("")
        con.say(con.bold(f"=== Hand {len(match.hands) + 1}: Seat {match.dealer} deals; "
                         f"the up-card is {state.top.symbol} ==="))
        for line in upcard_lines(state, names):
            con.say(line)
        final = run_hand(state, controllers, con, names, hand_me, verbose=playing)
        report_hand(con, final, names, hand_me)
        result = match.record(final)
        if result.blocked:
            con.say("The hand is dealt again.")
        con.say(f"Standings after hand {result.number} ({_score_word(v)}):")
        for row in match.standings():
            out = "" if row["in_play"] else "   out"
            you = " (you)" if row["seat"] == me else ""
            con.say(f"  {'Seat ' + str(row['seat']) + you:<16}{row['score']:>5}{out}")
        if playing and not match.alive[me] and not match.is_over:
            con.say("You are out of the match; the others play on.")
        elif playing and not match.is_over:
            if con.ask("Press Enter for the next hand (q to quit): ").lower() in ("q", "quit"):
                raise Quit("You left the match")
    win = match.winner
    seats_won = win if isinstance(win, tuple) else (win,)
    winners = " and ".join(f"Seat {s}" + (" (you)" if s == me else "") for s in seats_won)
    played = len(match.hands)
    con.say(con.bold(f"The match is over after {played} hand{'s' * (played != 1)}: {winners} "
                     f"{'share the win' if len(seats_won) > 1 else 'wins'}."))
