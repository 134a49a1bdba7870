"""The command line: ``maumau rules`` and ``maumau play`` with scripted input."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import maumau as mm
from maumau.cli import Console, TerminalPlayer, group_moves, main, run_hand
from maumau.core.events import PenaltyDrawn

ROOT = Path(__file__).resolve().parents[1]


def run(argv, answers=None):
    """main() with captured output; ``answers`` is a function prompt -> reply (or a list)."""
    out, err, prompts = io.StringIO(), io.StringIO(), []
    if isinstance(answers, list):
        replies = iter(answers)
        answers = lambda prompt: next(replies)  # noqa: E731

    def input_fn(prompt):
        prompts.append(prompt)
        if len(prompts) > 20_000:
            raise AssertionError("the game does not end")
        if answers is None:
            raise EOFError
        reply = answers(prompt)
        out.write(f"{prompt}{reply}\n")  # a transcript, as in a terminal
        return reply

    code = main(argv, input_fn=input_fn, out=out, err=err)
    return code, out.getvalue(), err.getvalue(), prompts


def first_move(prompt):
    """Always move 1; a suit wish H, a rank wish Q; say Mau; Enter for the next hand."""
    if "Wish which suit" in prompt:
        return "H"
    if "Wish which rank" in prompt:
        return "Q"
    if prompt.startswith("Say "):
        return "y"
    if "next hand" in prompt:
        return ""
    return "1"


def table_io(answers):
    """A Console reading ``answers`` (a list, or a function prompt -> reply), and its transcript."""
    replies = iter(answers) if isinstance(answers, list) else None
    out = io.StringIO()
    prompts = []

    def input_fn(prompt):
        prompts.append(prompt)
        reply = next(replies) if replies is not None else answers(prompt)
        out.write(f"{prompt}{reply}\n")
        return reply

    return Console(input_fn, out), out, prompts


# --- help and rules -------------------------------------------------------------------------------

def test_help_lists_the_commands():
    code, out, err, _ = run(["--help"])
    assert code == 0 and not err
    assert "play" in out and "rules" in out
    assert "list the variants" in out


def test_no_command_prints_help_and_returns_2():
    code, out, _, _ = run([])
    assert code == 2
    assert "usage: maumau" in out and "play" in out


def test_rules_of_makao():
    code, out, err, _ = run(["rules", "makao"])
    assert code == 0 and not err
    assert "A 9 turns the direction of play around" in out and "(MK-6)" in out  # plain words first
    assert "Makaó" in out and "104 cards" in out and "next(X)" not in out
    code, out, _, _ = run(["rules", "makao", "--formal", "--lang", "de"])
    assert "reverse_on_nine: 9: the direction" not in out and "reverse_on_nine: 9: die Spielrichtung" in out
    assert "Eine 9 dreht die Spielrichtung um" in out and "104 Karten" in out


def test_rules_lists_every_variant():
    code, out, _, _ = run(["rules"])
    assert code == 0
    for name in mm.variant_names():
        assert name in out
    assert "104 cards, 7 each, 2-5 players" in out


def test_rules_with_an_option():
    code, out, _, _ = run(["rules", "joker_mau_mau", "-o", "jokers=0"])
    assert code == 0 and "32 cards" in out


@pytest.mark.parametrize("argv", [["rules", "skat"], ["play", "skat"]])
def test_unknown_variant_is_a_one_line_error(argv):
    code, out, err, _ = run(argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "unknown variant 'skat'" in err
    for name in mm.variant_names():
        assert name in err


def test_unknown_option_is_a_clear_error():
    code, _, err, _ = run(["rules", "makao", "-o", "colour=blue"])
    assert code == 2 and "makao has no such option" in err


@pytest.mark.parametrize("argv, words", [
    (["play", "makao", "--players", "9"], "2 to 5 players, not 9"),
    (["play", "lite_macau", "--players", "1"], "2 to 4 players, not 1"),
    (["play", "makao", "--players", "3", "--seat", "3"], "--seat must be a seat from 0 to 2"),
])
def test_bad_table_is_a_clear_error(argv, words):
    code, out, err, _ = run(argv)
    assert code == 2 and not out and words in err


def test_python_dash_m_maumau():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "maumau", "rules", "lite_macau"], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert done.returncode == 0, done.stderr
    assert "LITE Games Macau" in done.stdout and "(LM-5)" in done.stdout


# --- playing --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", mm.variant_names())
def test_a_scripted_hand_of_each_variant_ends(name):
    code, out, err, prompts = run(["play", name, "--players", "3", "--seed", "1"], first_move)
    assert code == 0 and not err
    assert "Hand scores" in out
    assert "went out" in out or "blocked" in out
    assert "Top: " in out and "Your hand: " in out and " 1) " in out
    assert any(p.startswith("Your move") for p in prompts)


@pytest.mark.parametrize("name", mm.variant_names())
def test_run_hand_reaches_the_end(name):
    con, out, _ = table_io(first_move)
    state = mm.deal(name, players=2, seed=5)
    final = run_hand(state, [TerminalPlayer(con), mm.players.Random(3)], con, ["Seat 0", "Seat 1"], me=0)
    assert final.is_over
    assert "Your turn (seat 0)" in out.getvalue()


def test_the_same_seed_and_answers_give_the_same_game():
    one = run(["play", "makao", "--players", "3", "--seed", "7"], first_move)[1]
    two = run(["play", "makao", "--players", "3", "--seed", "7"], first_move)[1]
    assert one == two and "deal no. 7" in one


@pytest.mark.parametrize("name", ["makao", "lite_macau", "mau_mau_runde", "joker_mau_mau"])
def test_a_scripted_match_ends(name):
    code, out, err, _ = run(["play", name, "--players", "3", "--seed", "7", "--match"], first_move)
    assert code == 0 and not err
    assert "Standings after hand 1" in out and "The match is over" in out


def test_the_table_shows_top_wish_pending_and_counts():
    s = mm.position("makao", hands=["7S 3C 9D", "7C 4D 5D 6D", "5C 6C"], top="7H", stock="2C 3D 4H 5S 6H",
                    to_move=0, pending_draw=2)
    con, out, _ = table_io(["1"])
    TerminalPlayer(con).choose(s)
    text = out.getvalue()
    assert "Top: 7♥" in text and "Wish: none" in text and "Stock: 5" in text
    assert "a draw penalty of 2" in text
    assert "Seat 1: 4 cards" in text and "Seat 2: 2 cards" in text
    assert "Direction: clockwise" in text
    assert "1) play 7♠" in text and "take 2 cards" in text


def test_a_wish_card_is_listed_once_and_the_wish_asked():
    s = mm.deal("lite_macau", players=3, seed=1)  # seat 0 holds J♦: 13 rank wishes
    choices = group_moves(s)
    assert sum("J♦" in c.label for c in choices) == 1
    number = next(i for i, c in enumerate(choices, 1) if "J♦" in c.label)
    con, out, prompts = table_io([str(number), "Z", "Q"])
    move = TerminalPlayer(con).choose(s)
    assert move == mm.Play("JD", wish="Q")
    assert prompts[1].startswith("Wish which rank?") and prompts[2] == prompts[1]  # asked again after Z
    assert "Please answer one of" in out.getvalue()


def test_a_suit_wish_typed_with_the_card():
    s = mm.position("makao", hands=["JC 7H 3S", "5C 6C"], top="9H", stock="2C 3D 4H 5S 6H")
    con, _, prompts = table_io(["play JC wish S"])
    assert TerminalPlayer(con).choose(s) == mm.Play("JC", wish="S")
    con, _, prompts = table_io(["jc h"])
    assert TerminalPlayer(con).choose(s) == mm.Play("JC", wish="H")
    con, _, prompts = table_io(["1", "D"])
    assert TerminalPlayer(con).choose(s) == mm.Play("JC", wish="D")
    assert prompts[1] == "Wish which suit? (C/D/H/S) "


def test_say_mau_or_forget_it():
    s = mm.position("makao", hands=["7H 3C", "7S 4D 5D", "5C 6C"], top="9H", stock="2C 3D 4H 5S 6H")
    con, _, prompts = table_io(["7H", ""])
    assert TerminalPlayer(con).choose(s) == mm.Play("7H", mau=True)
    assert prompts[1] == "Say Makaó? [Y/n] "  # the variant's own call word
    con, _, _ = table_io(["1", "maybe", "n"])
    forgot = TerminalPlayer(con).choose(s)
    assert forgot == mm.Play("7H") and not forgot.mau
    after = s.apply(forgot)
    assert len(after.hands[0]) == 3  # MK-9: two penalty cards


def test_an_illegal_typed_card_is_explained_and_asked_again():
    s = mm.position("makao", hands=["7H 3C 9D", "7S 4D 5D", "5C 6C"], top="9H", stock="2C 3D 4H 5S 6H")
    con, out, prompts = table_io(["KS", "3C", "XY", "7", "d"])
    assert TerminalPlayer(con).choose(s) is mm.Draw()
    text = out.getvalue()
    assert "K♠ is not in your hand (" in text
    assert "3♣ matches neither the suit ♥ nor the rank 9 (C-3)." in text
    assert "'XY' is neither a move number nor a card" in text
    assert "There is no move 7" in text
    assert len(prompts) == 5


def test_draw_when_play_is_forced_is_explained():
    s = mm.position("mau_mau_runde", hands=["7H 8C", "9S 10S"], top="9H", stock="QC KC")
    con, out, _ = table_io(["d", "p", "1", "y"])
    assert TerminalPlayer(con).choose(s) == mm.Play("7H", mau=True)
    text = out.getvalue()
    assert "You have a legal play, so you must play" in text and "You may not pass now" in text


def test_help_table_and_rules_at_the_prompt():
    s = mm.deal("makao", players=2, seed=1)
    con, out, _ = table_io(["?", "t", "r", "q", "n", "1"])
    TerminalPlayer(con).choose(s)
    text = out.getvalue()
    assert "How to move:" in text and text.count("Your hand:") == 2 and "reverse_on_nine" in text


def test_end_of_input_exits_cleanly():
    code, out, err, _ = run(["play", "makao", "--players", "3", "--seed", "7"])
    assert code == 0 and not err
    assert "Input ended" in out and "Traceback" not in out


def test_quit_asks_and_leaves():
    code, out, _, prompts = run(["play", "joker_mau_mau", "--seed", "2"], ["q", "y"])
    assert code == 0 and "You left the game" in out
    assert prompts[1] == "Leave the game? [y/N] "


def test_strengths_use_the_players_found_at_call_time(monkeypatch):
    from maumau.terminal.play import computers_for

    code, out, _, _ = run(["play", "makao", "--seed", "1", "--strength", "hard"])
    assert code == 0 and "computer players (hard)." in out  # the strength in words, not a class name
    code, out, _, _ = run(["play", "makao", "--seed", "1", "--strength", "hard", "--lang", "de"])
    assert "Computerspieler (schwer)." in out and "Search" not in out and "Mischung Nr. 1" in out

    class Heuristic(mm.players.Random):
        pass

    monkeypatch.setattr(mm.players, "Heuristic", Heuristic, raising=False)
    made, _ = computers_for("medium", 1, range(3), 0)
    assert all(type(p) is Heuristic for p in made.values())
    code, out, _, _ = run(["play", "makao", "--seed", "1", "--strength", "medium"])
    assert code == 0 and "computer players (medium)." in out


def test_seats_are_renamed_to_match_seats():
    con, out, _ = table_io([])
    s = mm.deal("makao", players=2, seed=3)
    run_hand(s, [mm.players.Random(1), mm.players.Random(2)], con, ["Seat 0", "Seat 3"], me=1)
    text = out.getvalue()
    assert "Seat 0 plays" in text and "Seat 1" not in text and "you move next" in text  # the learner: "you"
    assert "Seat 3 (you)" not in text and "(seat 3)" not in text


def test_without_unicode_cards_are_written_in_notation():
    raw = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    con = Console(lambda prompt: "1", raw)
    con.say("Top: 7♥ and ★, 🃏")
    raw.flush()
    assert raw.buffer.getvalue().decode() == "Top: 7H and JOKER, JOKER\n"


def test_ctrl_c_exits_with_130():
    def interrupt(prompt):
        raise KeyboardInterrupt

    code, out, _, _ = run(["play", "makao", "--seed", "1"], interrupt)
    assert code == 130 and "Interrupted." in out


def test_the_terminal_says_the_variants_call_word_and_why_a_hand_starts_with_nine():
    from maumau.terminal import upcard_lines

    s = mm.position("makao", hands=["5H 6H", "9C 10C 2D"], top="5C", stock="2S 3S 4S")
    out = io.StringIO()
    player = TerminalPlayer(Console(lambda prompt: (out.write(prompt), "y")[1], out), ["Seat 0", "Seat 1"])
    assert player.interpret("5H", s, group_moves(s)) == mm.Play("5H", mau=True)
    assert "Say Makaó? [Y/n]" in out.getvalue() and "Say Mau?" not in out.getvalue()
    seed = next(n for n in range(500) if mm.deal("joker_mau_mau", players=3, seed=n).top.is_joker)
    dealt = mm.deal("joker_mau_mau", players=3, seed=seed)
    victim = next(e.seat for e in dealt.events if isinstance(e, PenaltyDrawn))
    assert len(dealt.hands[victim]) == 9
    lines = upcard_lines(dealt, ["Seat 0", "Seat 1", "Seat 2"])
    assert f"makes Seat {victim} draw 4 cards at the deal (JM-2)" in " ".join(lines)


# --- the language (maumau play --lang) --------------------------------------------------------------

def any_language_move(prompt):
    """Move 1 in any language: the first wish offered, yes to Mau, Enter for the next hand."""
    offered = re.search(r"\(([^()]*)\) $", prompt)
    if offered:
        return offered.group(1).replace("/", " ").split()[0]
    if re.search(r"\[[YJI]/n\] $", prompt):
        return ""
    return "1" if "7H" in prompt else ""


@pytest.mark.parametrize("lang, yes, words", [
    ("de", "j", ["Du bist Platz 0", "── Makaó · Du bist am Zug (Platz 0)", "Oben: ", "Deine Hand: ",
                 "So gibst du", "Das Spiel verlassen? [j/N] ", "Du hast das Spiel verlassen. Tschüss!"]),
    ("hu", "i", ["Te vagy: 0. játékos", "── Makaó · Te következel (0. játékos)", "Felső lap: ", "A kezed: ",
                 "Így lépsz", "Kilépsz a játékból? [i/N] ", "Kiléptél a játékból. Viszlát!"]),
])
def test_play_speaks_the_chosen_language(lang, yes, words):
    code, out, err, _ = run(["play", "makao", "--seed", "1", "--lang", lang], ["?", "q", "n", "q", yes])
    assert code == 0 and not err
    for text in words:
        assert text in out, text
    for english in ("You are Seat", "Top: ", "Your hand", "How to move", "Leave the game", "goodbye"):
        assert english not in out, english
    from maumau.text.i18n import language

    assert language() == "en"  # the language is the game's, not left behind


@pytest.mark.parametrize("name", mm.variant_names())
def test_a_german_match_is_told_in_german(name):
    code, out, err, _ = run(["play", name, "--players", "3", "--seed", "7", "--match", "--lang", "de"],
                            any_language_move)
    assert code == 0 and not err
    assert "Eine Partie " in out and "Stand nach Spiel 1" in out and "Die Partie ist nach " in out
    assert "Punkte in diesem Spiel" in out and "Platz 0 (du)" in out
    for english in ("Seat ", "(you)", "Your ", "You ", "Top: ", "Hand scores", "Standings", "went out", "The match",
                    " cards", "draw a card", "play "):
        assert english not in out, english


def test_an_unknown_language_is_a_usage_error():
    code, out, err, _ = run(["play", "makao", "--lang", "fr"])
    assert code == 2 and not out and "invalid choice: 'fr'" in err
