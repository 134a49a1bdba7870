"""Reading the human at the terminal: ``TerminalPlayer`` shows the table (``terminal_table``)
and turns what is typed (a move number, a card like ``7H``, ``d``, ``p``, ``?``, ``q``) into a
move, asking for the wish and for Mau/Macau/Makaó where they are due.  An answer that is no
move is explained and asked again, in the catalogue's language (``maumau.text.i18n``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..core.cards import CardError, Rank, Suit, cards, parse_wish
from ..core.moves import Draw, Move, Pass, Play
from ..core.state import GameState
from ..text.i18n import card_symbol, read_card, t
from .console import Console, Quit
from .table import MenuLine, group_moves, move_key, rules_text, show_table

__all__ = ["TerminalPlayer"]

_SUIT_NAMES = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
_CALLS = ("mau", "macau", "makao", "makaó")  # typed after the cards: say it with this play


def _words(key: str) -> set[str]:
    """The answer words of ``term.yes``/``term.no``: the language's and the English ones."""
    return set(t(key, "en").split(",")) | set(t(key).split(","))


def _parse_wish(text: str) -> Suit | Rank:
    return parse_wish(_SUIT_NAMES.get(text.strip().lower(), text))


def _join(wishes: Sequence[Suit | Rank], sep: str) -> str:
    return sep.join(str(w) for w in wishes)


class TerminalPlayer:
    """The human at the terminal: a Player whose ``choose`` shows the table and asks."""

    name = "human"
    #: maumau's own code (``maumau.players.ask``): it shows the human only the human's seat.
    sees_state = True

    def __init__(self, con: Console, names: Sequence[str] | None = None) -> None:
        self.con = con
        self.names = list(names) if names is not None else None

    def name_of(self, seat: int) -> str:
        return self.names[seat] if self.names is not None else t("seat.label", seat=seat)

    def choose(self, state: GameState) -> Move:
        choices = group_moves(state)
        self.show_table(state, choices)
        while True:
            span = t("term.one_or_enter") if len(choices) == 1 else f"1-{len(choices)}"
            answer = self.con.ask(t("term.prompt", span=span))
            move = self.interpret(answer, state, choices)
            if move is not None:
                return move

    def show_table(self, state: GameState, choices: list[MenuLine]) -> None:
        show_table(self.con, state, choices, self.name_of)

    # --- reading -------------------------------------------------------------------------------------
    def interpret(self, text: str, state: GameState, choices: list[MenuLine]) -> Move | None:
        """The move the answer means, after asking for a wish and Mau; None to ask again."""
        con, low = self.con, text.lower()
        if low in ("q", "quit", "exit"):
            if self.con.ask(t("term.leave")).lower() in _words("term.yes"):
                raise Quit(t("term.left_game"))
            return None
        if low in ("?", "h", "help"):
            con.say(t("term.help"))
            return None
        if low in ("t", "table"):
            self.show_table(state, choices)
            return None
        if low in ("r", "rules"):
            con.say(rules_text(state.variant))
            return None
        if low == "":
            if len(choices) == 1:
                return self.complete(choices[0], state)
            con.note(t("term.type_number", n=len(choices)))
            return None
        if low.isdigit():
            if 1 <= int(low) <= len(choices):
                return self.complete(choices[int(low) - 1], state)
            con.note(t("term.no_such_move", answer=low, n=len(choices)))
            return None
        if low in ("d", "draw", "p", "pass"):
            wanted: Move = Draw() if low.startswith("d") else Pass()
            for choice in choices:
                if choice.first is wanted:
                    return choice.move()
            con.note(f"{state.why_illegal(wanted)}")
            return None
        return self.typed_play(text, state, choices)

    def read_tokens(self, text: str) -> tuple[list[str], Suit | Rank | None, bool, bool] | None:
        """A typed play as its cards, the wish, Mau said and a Runde opened; None (said why) if
        the wish is no wish."""
        tokens = text.replace(",", " ").split()
        if tokens and tokens[0].lower() == "play":
            tokens = tokens[1:]
        held: list[str] = []
        wish: Suit | Rank | None = None
        mau = runde = False
        while tokens:
            token = tokens.pop(0)
            low = token.lower()
            if low in _CALLS:
                mau = True
            elif low == "runde":
                runde = True
            elif low == "wish" or (held and not tokens and not re.fullmatch(r"(10|[2-9tjqkabdá])\S+", low)):
                word = tokens.pop(0) if low == "wish" and tokens else token
                try:
                    wish = _parse_wish(word)
                except CardError:
                    self.con.note(t("term.not_a_wish", word=word))
                    return None
            else:
                held.append(token)
        return held, wish, mau, runde

    def typed_play(self, text: str, state: GameState, choices: list[MenuLine]) -> Move | None:
        read = self.read_tokens(text)
        if read is None:
            return None
        held, wish, mau, runde = read
        try:
            played = cards([read_card(token) for token in held])  # D♥ or Q♥, B♣ or J♣: both spellings
        except CardError:
            self.con.note(t("term.not_a_card", text=text))
            return None
        if not played:
            self.con.note(t("term.which_card"))
            return None
        move = Play(played, runde=runde)
        for choice in choices:
            if move_key(choice.first) == move_key(move):
                if wish is not None and wish not in choice.wishes:
                    self.con.note(t("term.no_wish", card=card_symbol(played[0]), cards=" ".join(c.text for c in played))
                                  if not choice.wishes else t("term.wrong_wish", card=card_symbol(played[0]), wish=wish,
                                                              wishes=_join(choice.wishes, ", ")))
                    return None
                return self.complete(choice, state, wish, mau or None)
        reason = state.why_illegal(Play(played, wish=wish, mau=mau, runde=runde))
        self.con.note(reason or t("term.not_possible"))
        return None

    def complete(self, choice: MenuLine, state: GameState, wish: Suit | Rank | None = None,
                 mau: bool | None = None) -> Move | None:
        """Ask for the wish (when several are possible) and for Mau (when it is due)."""
        wishes = choice.wishes
        if wishes and wish is None:
            wish = self.ask_wish(wishes)
            if wish is None:
                return None
        if choice.mau_due and mau is None:
            mau = self.ask_call(state.variant.call)
        return choice.move(wish, mau is not False)

    def ask_call(self, call: str) -> bool:
        """Say Mau (Macau, Makaó)? Enter, yes or the word itself say it; no does not."""
        no = _words("term.no")
        said = {"", call.lower(), "mau"} | _words("term.yes")
        while True:
            answer = self.con.ask(t("term.say_call", call=call)).lower()
            if answer in said | no:
                return answer not in no
            self.con.note(t("term.answer_yn"))

    def ask_wish(self, wishes: list[Suit | Rank]) -> Suit | Rank | None:
        if isinstance(wishes[0], Suit):
            prompt = t("term.ask_suit", wishes=_join(wishes, "/"))
        else:
            prompt = t("term.ask_rank", wishes=_join(wishes, " "))
        while True:
            answer = self.con.ask(prompt)
            if answer.lower() in ("b", "back"):
                return None
            try:
                wish: Suit | Rank | None = _parse_wish(answer)
            except CardError:
                wish = None
            if wish in wishes:
                return wish
            self.con.note(t("term.answer_wish", wishes=_join(wishes, " ")))
