"""Messages in one catalogue: every sentence the engine, the card table and the terminal say, by key.

English is here; German and Hungarian live in ``maumau/locale/`` and hold every key
(a missing key would fall back to English).  ``t(key, **values)`` formats a message in the
current language (``set_language``, or ``use_language`` for a while), ``t(key, lang="de")``
in a given one.  Card, suit and rank names, the rule summaries of the built-in rules and
the seat words come in each language too (``card_name``, ``wish_name``, ``rule_summary``,
``seat_regex``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from . import locale

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card, Rank, Suit
    from .rules.base import Pending, Rule

__all__ = ["t", "set_language", "language", "use_language", "LANGUAGES", "CATALOGUE", "describe_pending",
           "card_name", "suit_name", "rank_name", "wish_name", "rule_summary", "seat_regex"]

LANGUAGES = ("en", "de", "hu")

EN: dict[str, str] = {
    # why a move is illegal
    "illegal.match": "{card} matches neither the suit {suit} nor the rank {rank} (C-3).",
    "illegal.wish_suit": "{card} does not follow the wished suit {suit} (C-3).",
    "illegal.wish_rank": "{card} is not the wished rank {rank} (LM-4).",
    "illegal.generic": "{card} may not be played here.",
    "illegal.pending": "{card} does not answer {pending}: play an answer or take it ({rule}, C-5).",
    "illegal.no_overwrite_rank": "{card} may not overwrite the rank wish {rank}: "
                                 "suit and rank wishes cannot overwrite each other (LM-4).",
    "illegal.no_overwrite_suit": "{card} may not overwrite the suit wish {suit}: "
                                 "only the Jack of that suit may (LM-4).",
    "illegal.runde": "During the Runde only cards of rank {rank} may be played (MR-9).",
    "illegal.over": "The hand is over; no more moves (C-9).",
    "illegal.not_held": "{card} is not in your hand ({hand}).",
    "illegal.not_a_move": "{move!r} is not a move: use Play(...), Draw() or Pass().",
    "illegal.locked": "Your last card is locked because you did not say {call}: your only move is {moves} (JM-9).",
    "illegal.drawn_only": "After drawing you may play only the drawn card {card}, or Pass() ({rule}).",
    "illegal.wish_missing": "{card} names a wish: say which, e.g. Play(\"{text}\", wish=\"{example}\").",
    "illegal.wish_unexpected": "{card} names no wish; play it without wish=.",
    "illegal.set_variant": "This variant plays one card at a time: sets belong to lite_macau.",
    "illegal.set_rank": "All cards of a set must have the same rank (LM-5).",
    "illegal.set_special": "No card in a set may be special (A, J, 2, 3, 4, K♥, K♠, Q♥) (LM-5).",
    "illegal.set_pending": "A set may only be played in a normal turn (LM-5).",
    "illegal.mau_early": "{call} is said only when the move leaves exactly one card (C-8).",
    "illegal.runde_variant": "This variant has no Runde: runde=True belongs to mau_mau_runde.",
    "illegal.runde_when": "A Runde may only be opened in a normal turn, with no 7 pending "
                          "and no Runde running (MR-8).",
    "illegal.runde_rank": "A Runde is opened only with a 9, 10, Q, K or A (MR-8).",
    "illegal.runde_second": "To open a Runde you must hold another card of rank {rank} (MR-8).",
    "illegal.draw_forced": "You have a legal play, so you must play ({rule}).",
    "illegal.draw_now": "You may not draw now: {hint}",
    "illegal.pass": "You may not pass now: a turn is a play or a draw (C-4).",
    "illegal.pending_draw": "You face {pending}: answer it or Draw() to take it (C-5).",
    "illegal.pending_skip": "You face {pending}: answer it or Pass() to sit out (C-5).",
    "illegal.extra": "After the Ace, play one more card on it or end the turn with {closer} ({rule}).",
    "illegal.drawn_phase": "After drawing, play a legal card or Pass() ({rule}).",
    # pending effects
    "illegal.not_in_deck": "There is no {card} in the {variant} deck.",
    "word.or": " or ",
    "word.and": " and ",
    "word.nothing": "no cards",
    "illegal.wish_wrong_suit": "{card} names a suit (C, D, H or S), not {wish!r}.",
    "illegal.wish_wrong_rank": "{card} names a rank (2-10, J, Q, K or A), not {wish!r}.",
    "do.accept_draw_short": "Seat {seat} takes what is left to draw ({got} of {amount} cards), and the rest lapses "
                            "(C-7)",
    "do.accept_skip_n": "Seat {seat} takes the skip of {amount} ({rule}), so seats {seats} sit out in turn",
    "then.skipped_n": "seat {seat} and the players after them are skipped ({n} in all)",
    "then.penalty_card": "1 penalty card",
    "then.no_penalty": "no penalty",
    "pending.draw": "a draw penalty of {amount}",
    "pending.skip": "a skip",
    "pending.skip_n": "a skip of {amount} players",
    # what a move does
    "do.play": "Seat {seat} plays {cards}",
    "do.wish": "and wishes {wish}",
    "do.mau": "and says {call}",
    "do.runde": "and opens a Runde of rank {rank} (MR-8)",
    "do.out": "and goes out, which ends the hand (C-9)",
    "do.draw": "Seat {seat} draws a card",
    "do.draw_none": "Seat {seat} has nothing to draw and passes (C-7)",
    "do.accept_draw": "Seat {seat} takes {amount} cards",
    "do.accept_skip": "Seat {seat} sits out",
    "do.pass": "Seat {seat} passes",
    "then.pending_draw": "seat {target} must draw {amount} or answer",
    "then.pending_skip": "seat {target} is skipped unless they answer",
    "then.next": "seat {seat} moves next",
    "then.again": "seat {seat} plays again",
    "then.drawn": "seat {seat} may play a card or pass",
    "then.no_mau": "without {call}: {penalty}",
    "then.penalty_cards": "{n} penalty cards",
    "then.locked": "the last card is locked (JM-9)",
    "then.reverse": "the direction reverses (MK-6)",
    "then.skipped": "seat {seat} is skipped",
    "then.blocked": "nobody has played a card for a whole round with nothing left to draw: the hand is blocked and "
                    "void (C-7)",
    "then.runde_end": "the Runde ends (MR-12)",
    "then.reshuffle": "the pile is reshuffled into the stock (C-6)",
    "then.cancel": "the penalty is cancelled ({rule})",
    "then.joker": "seat {seat} draws {n} (JM-4)",
    "then.draws": "seat {seat} draws {n}",
    "then.last_seven": "seat {seat} still draws {n} (MK-10)",
    "leave.variant": "Players may not leave a {variant} hand; only makao allows it (MK-14).",
    "leave.seat": "Seat {seat} is not at the table.",
    # cards, suits and ranks by name; the seat word as the sentences above write it
    "seat.label": "Seat {seat}",
    "card.name": "{rank} of {suit}",
    "card.joker": "Joker",
    "suit.C": "Clubs", "suit.D": "Diamonds", "suit.H": "Hearts", "suit.S": "Spades",
    "rank.J": "Jack", "rank.Q": "Queen", "rank.K": "King", "rank.A": "Ace",
    # the card table (maumau.widgets)
    "ui.names": "Ann,Ben,Cleo,Dan",
    "ui.you": "you",
    "ui.me": "{name} (you)",
    "ui.stock": "Stock",
    "ui.discard": "Discard pile",
    "ui.your_hand": "Your hand",
    "ui.rules": "Rules",
    "ui.deck": "{cards} cards, {hand} each, {lo} to {hi} players",
    "ui.cards_n": "{n} cards",
    "ui.cards_1": "1 card",
    "ui.to_move": "{name} to move",
    "ui.your_turn": "Your turn",
    "ui.direction": "Direction",
    "ui.clockwise": "clockwise",
    "ui.counter": "counter-clockwise",
    "ui.wish": "Wish",
    "ui.none": "none",
    "ui.pending": "Pending",
    "ui.pending_for": "{what} for {name}",
    "ui.runde": "Runde",
    "ui.runde_of": "{rank} only, opened by {name}",
    "ui.phase_extra": "{name} plays one more card on the Ace, or draws.",
    "ui.phase_extra_pass": "{name} may play one more card on the Ace, or pass.",
    "ui.phase_drawn": "{name} may play a card now, or pass.",
    "ui.draw": "Draw",
    "ui.take": "Take {n} cards",
    "ui.sit_out": "Sit out",
    "ui.pass": "Pass",
    "ui.announce": "{word}!",
    "ui.announce_tip": "Press it before you play your second-to-last card",
    "ui.runde_open": "Open a Runde",
    "ui.set_mode": "Several cards",
    "ui.play_set": "Play the chosen cards",
    "ui.set_hint": "Click the cards of the set in order: the first must fit, the last ends on top.",
    "ui.next": "Next move",
    "ui.undo": "Take back",
    "ui.undo_none": "Nothing to take back.",
    "ui.wish_suit": "Choose a suit",
    "ui.wish_rank": "Choose a rank",
    "ui.cancel": "Cancel",
    "ui.log": "Moves",
    "ui.wait": "Wait: {name} is to move.",
    "ui.not_you": "It is not your turn: {name} is to move.",
    "ui.over": "The hand is over.",
    "ui.you_drew": "You drew {cards}.",
    "ui.you_got": "You take {cards}.",
    "ui.upcard": "Hand {n}: {name} deals, the up-card is {card}.",
    "ui.won_you": "You went out: you win the hand!",
    "ui.won_other": "{name} went out and wins the hand.",
    "ui.blocked": "Blocked: nobody played a card for a whole round with nothing left to draw. The hand is void and is "
                  "dealt again.",
    "ui.player": "Player",
    "ui.cards_left": "Cards left",
    "ui.hand_points": "This hand",
    "ui.total": "Total",
    "ui.out": "out",
    "ui.next_hand": "Next hand",
    "ui.new_match": "New match",
    "ui.hand_n": "Hand {n}",
    "ui.match_won": "The match is over: {names} wins.",
    "ui.match_shared": "The match is over: {names} share the win.",
    "ui.you_are_out": "You are out of the match; the others play on.",
    "ui.score.card_points": "penalty points",
    "ui.score.joker_card_points": "penalty points",
    "ui.score.victory_points": "victory points",
    "ui.score.hands_won": "hands won",
    "ui.goal.limit": "A total of {limit} penalty points puts a player out; the last one left wins.",
    "ui.goal.threshold": "Once a total reaches {threshold}, the lowest total wins.",
    "ui.goal.points": "The first to {target} victory points wins the match.",
    "ui.goal.hands": "The first to win {target} hands wins the match.",
    "ui.strength.easy": "easy",
    "ui.strength.medium": "medium",
    "ui.strength.hard": "hard",
    "ui.deal": "deals",
    "ui.teacher": "Teacher view: every hand is open.",
    # the replay
    "ui.replay": "Replay",
    "ui.move_of": "Move {i} of {n}",
    "ui.start": "The deal: {name} deals, the up-card is {card}.",
    "ui.first": "To the start",
    "ui.back": "One move back",
    "ui.forward": "One move forward",
    "ui.last": "To the end",
    "ui.undo_last": "Take back the last move",
    "ui.hand_pick": "Hand",
    "ui.running": "running",
    # the rules explorer
    "ui.explorer": "Rules explorer",
    "ui.variant": "Variant",
    "ui.players": "Players",
    "ui.play": "Play",
    "ui.simulate": "Simulate",
    "ui.games": "Games",
    "ui.house_rules": "House rules",
    "ui.no_changes": "the rules as written",
    "ui.without": "without {rule}",
    "ui.with": "with {rule}",
    "ui.stats_title": "{games} hands, {players} players ({strength}), in {seconds} s",
    "ui.stats_finished": "Hands with a winner",
    "ui.stats_no_winner": "Hands without a winner (blocked, or cut off after {cap} moves)",
    "ui.stats_rules": "Rules acting per hand",
    "ui.strength": "Opponents",
    "ui.stats_moves": "Moves per hand (average)",
    "ui.stats_range": "Shortest / longest hand",
    "ui.stats_wins": "Wins by seat",
    # the terminal (maumau play: maumau/terminal*.py); the prompts end in a space, the player types after it
    "term.title": "{title} ({name}): {n} players, seed {seed}",
    "term.you_are": "You are {name}; the others are computer players: {who}.",
    "term.intro": "Type the number of a move or a card like 7H; ? for help, q to quit.",
    "term.deal": "{name} deals; the up-card is {card}.",
    "term.goodbye": "{reason}: goodbye.",
    "term.input_ended": "Input ended",
    "term.left_game": "You left the game",
    "term.left_match": "You left the match",
    "term.yes": "y,yes",
    "term.no": "n,no",
    "term.help": """How to move:
  1, 2, ...        the numbered move (Enter alone when there is only one)
  7H  or  play 7H  a card by its notation: 10H or TH, QS, JOKER (♥ ♦ ♣ ♠ work too)
  QS QD            several cards at once, where the variant allows sets
  JC H             a wish card and its wish (or: JC wish H)
  d / draw         draw a card, or take a pending penalty
  p / pass         pass, where the rules allow it
  t / table        show the table again      r / rules   the rules of this variant
  ? / help         this help                 q / quit    leave the game""",
    "term.deck": "{cards} cards, {hand} each, {lo}-{hi} players",
    # the table and the numbered moves
    "term.status": "Top: {top}   Wish: {wish}   Stock: {stock}   Direction: {way} (next: {next})",
    "term.facing": "You face {pending}: answer it or take it.",
    "term.runde": "Runde of rank {rank} (opened by {name}): only that rank may be played.",
    "term.extra": "Your Ace lets you play once more: one more card on it, or end the turn.",
    "term.drawn_it": "You drew {card}: play it or pass.",
    "term.drawn_any": "You drew {card}: play a card or pass.",
    "term.locked": "Your last card is locked (you did not say {call}) until you receive a card: your only move is "
                   "{moves} (JM-9).",
    "term.play": "play {cards}",
    "term.then_suit": "(then wish a suit)",
    "term.then_rank": "(then wish a rank)",
    "term.set_top": "(set: {card} ends on top)",
    "term.open_runde": "and open a Runde of rank {rank}",
    "term.take": "take {n} cards",
    "term.sit_out": "sit out (accept the skip)",
    "term.pass": "pass (end your turn)",
    "term.draw_none": "draw (nothing left to draw: you pass)",
    "term.draw_ends": "draw a card (ends your turn)",
    "term.draw": "draw a card",
    # reading the answers
    "term.prompt": "Your move [{span}, or a card like 7H; ? for help]: ",
    "term.one_or_enter": "1 or Enter",
    "term.leave": "Leave the game? [y/N] ",
    "term.type_number": "Type a number from 1 to {n} (? for help).",
    "term.no_such_move": "There is no move {answer}: choose 1 to {n}.",
    "term.not_a_wish": "{word!r} is not a wish: name a suit (C, D, H, S) or a rank (2-10, J, Q, K, A).",
    "term.not_a_card": "{text!r} is neither a move number nor a card: write cards like 7H, 10D, QS or JOKER "
                       "(? for help).",
    "term.which_card": "Which card? For example: play 7H (? for help).",
    "term.no_wish": "{card} names no wish: type just {cards}.",
    "term.wrong_wish": "{card} cannot wish {wish}; choose from {wishes}.",
    "term.not_possible": "That move is not possible here.",
    "term.say_call": "Say {call}? [Y/n] ",
    "term.answer_yn": "Answer y or n.",
    "term.ask_suit": "Wish which suit? ({wishes}) ",
    "term.ask_rank": "Wish which rank? ({wishes}) ",
    "term.answer_wish": "Please answer one of {wishes} (b to go back).",
    # telling the hand and the match
    "term.you_get": "You get {cards}.",
    "term.dealer_wishes": "The dealer wishes {wish} for the up-card {card}.",
    "term.upcard_draws": "The up-card {card} makes {name} draw {n} cards at the deal ({rule}).",
    "term.upcard_draws_1": "The up-card {card} makes {name} draw 1 card at the deal ({rule}).",
    "term.upcard_pending": "The up-card {card} leaves {name} facing {pending}.",
    "term.blocked": "The hand is blocked: nobody can play or draw. It is void: no winner, no points.",
    "term.still_held": "{name} still held: {cards}",
    "term.hand_scores": "Hand scores ({score}): {scores}",
    "term.points": "points",
    "term.match_goal": "A match of {name}: {goal}.",
    "term.goal.limit": "a total of {limit} or more puts a player out; the last one left wins",
    "term.goal.threshold": "once a total reaches {threshold}, the lowest total wins",
    "term.goal.hands": "the first to win {target} hands wins the match",
    "term.goal.hands_1": "the first to win 1 hand wins the match",
    "term.goal.points": "the first to {target} {score} wins the match",
    "term.hand_start": "Hand {n}: {name} deals; the up-card is {card}",
    "term.dealt_again": "The hand is dealt again.",
    "term.standings": "Standings after hand {n} ({score}):",
    "term.next_hand": "Press Enter for the next hand (q to quit): ",
    "term.match_won": "The match is over {after}: {names} wins.",
    "term.match_shared": "The match is over {after}: {names} share the win.",
    "term.after_n": "after {n} hands",
    "term.after_1": "after 1 hand",
}

CATALOGUE: dict[str, dict[str, str]] = {"en": EN, "de": locale.de.MESSAGES, "hu": locale.hu.MESSAGES}

#: Summaries of the built-in rules by class name, where the language is not English
#: (English is the rule's own docstring).
RULE_TEXT: dict[str, dict[str, str]] = {"en": {}, "de": locale.de.RULES, "hu": locale.hu.RULES}

_current = ["en"]


def set_language(lang: str) -> None:
    """Choose the language of all messages: "en", "de" or "hu"."""
    if lang not in CATALOGUE:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    _current[0] = lang


def language() -> str:
    return _current[0]


@contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Temporarily speak another language: ``with use_language("de"): ...``."""
    before = _current[0]
    set_language(lang)
    try:
        yield
    finally:
        _current[0] = before


def t(key: str, lang: str | None = None, **values: Any) -> str:
    """The message ``key`` in the current (or given) language, filled with ``values``."""
    table = CATALOGUE.get(lang or _current[0], EN)
    return table.get(key, EN[key]).format(**values)


def describe_pending(pending: Pending) -> str:
    if pending.kind == "draw":
        return t("pending.draw", amount=pending.amount)
    if pending.amount == 1:
        return t("pending.skip")
    return t("pending.skip_n", amount=pending.amount)


# --- names in each language -----------------------------------------------------------------------

def suit_name(suit: Suit, lang: str | None = None) -> str:
    """``Hearts``, ``Herz``, ``kőr``."""
    return t("suit." + suit.value, lang)


def rank_name(rank: Rank, lang: str | None = None) -> str:
    """``Queen``, ``Dame``, ``dáma``; number ranks stay numbers."""
    key = "rank." + rank.value
    return t(key, lang) if key in EN else rank.value


def card_name(card: Card, lang: str | None = None) -> str:
    """``Queen of Hearts``, ``Herz Dame``, ``kőr dáma``, ``Joker``."""
    if card.rank is None or card.suit is None:
        return t("card.joker", lang)
    return t("card.name", lang, rank=rank_name(card.rank, lang), suit=suit_name(card.suit, lang))


def wish_name(wish: Suit | Rank, lang: str | None = None) -> str:
    """A wished suit or rank by name, e.g. ``♥ Herz`` or ``Dame``."""
    from .cards import Suit

    if isinstance(wish, Suit):
        return f"{wish.symbol} {suit_name(wish, lang)}"
    return rank_name(wish, lang)


def rule_summary(rule: Rule, lang: str | None = None) -> str:
    """A rule in one line in the language; a rule of one's own speaks its docstring."""
    cls = type(rule)
    texts = RULE_TEXT.get(lang or _current[0], {})
    if cls.__module__.startswith("maumau.rules") and cls.__name__ in texts:
        return texts[cls.__name__]
    return rule.summary


def seat_regex(lang: str | None = None) -> re.Pattern[str]:
    """Finds the seats in the sentences of ``narrate`` (group 1 is the seat number), so a view
    can put the players' names in their place."""
    label = CATALOGUE.get(lang or _current[0], EN).get("seat.label", EN["seat.label"])
    before, _, after = label.partition("{seat}")
    return re.compile(r"\b" * bool(before[:1].isalpha()) + re.escape(before) + r"(\d+)" + re.escape(after),
                      re.IGNORECASE)
