"""What the package prints in a German or Hungarian course is German or Hungarian (issue 36): a
state as text, the errors of a card typed wrongly, the widgets' text form, the state graph's
lines, and the rule sentences of a match. English stays as it was."""

from __future__ import annotations

import re

import pytest

import maumau as mm
from maumau.text.i18n import RANK_LETTERS, use_language

WORDS = {"de": ("Platz", "oben", "Nachziehstapel", "Hände"), "hu": ("játékos", "felső lap", "talon", "lapjai")}


def english_letters(text: str, lang: str) -> list[str]:
    """Cards written with an English letter where the language has its own (Q♥, J♦; A♠ in Hungarian)."""
    return re.findall(rf"(?<!\w)[{''.join(RANK_LETTERS[lang])}][♥♦♣♠]", text)


# --- 1. a state as text (print, repr, Jupyter's text/plain) ----------------------------------------

def _state() -> mm.GameState:
    return mm.position("makao", hands=["QH JD AS 7C", "QS KD 2H"], top="9H", stock="8C 5D")


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_a_state_prints_in_the_words_and_card_letters_of_the_language(lang):
    with use_language(lang):
        text = repr(_state())
    assert all(word in text for word in WORDS[lang]), text
    assert not re.search(r"\b(seat|top|stock|hands)\b", text), text
    assert not english_letters(text, lang) and "D♥" in text, text
    assert "QH" not in text and "9H" not in text, text  # cards as the table shows them, not the code's letters


def test_a_state_prints_as_before_in_english():
    with use_language("en"):
        assert repr(_state()) == "<GameState makao: seat 0 to move; top 9H; stock 2; hands 7C JD QH AS | KD 2H QS>"


# --- 2. a card typed wrongly ------------------------------------------------------------------------

BAD = [lambda: mm.Card.parse("1H"), lambda: mm.cards("7H 1X"), lambda: mm.Play("JD", wish="X"),
       lambda: mm.Suit.parse("X"), lambda: mm.Rank.parse("1"), lambda: mm.Play([]),
       lambda: mm.position("makao", hands=["1H", "2C"], top="9H")]


@pytest.mark.parametrize("lang, names", [("de", ("Bube", "Dame", "König", "Ass")),
                                         ("hu", ("bubi", "dáma", "király", "ász"))])
def test_a_card_typed_wrongly_is_explained_in_the_language_with_the_codes_letters(lang, names):
    said = []
    for bad in BAD:
        with use_language(lang), pytest.raises(mm.CardError) as error:
            bad()
        said.append(str(error.value))
    english = [s for s in said if re.search(r"\b(unknown|write|name a|needs|like|or)\b", s)]
    assert not english, english
    first = said[0]
    assert "'1H'" in first and all(name in first for name in names), first
    assert all(code in first for code in ("J", "Q", "K", "A", "T", "C", "D", "H", "S", "JOKER")), first
    assert "englisch" in first or "angol" in first  # the code keeps the English letters, and says so


def test_a_card_typed_wrongly_is_explained_as_before_in_english():
    with use_language("en"), pytest.raises(mm.CardError) as error:
        mm.Card.parse("1H")
    assert str(error.value) == ("unknown card '1H': write a rank (2-10, J, Q, K, A; T for 10) and a suit "
                                "(C, D, H, S or ♣ ♦ ♥ ♠), like 7H, 10D or QS, or JOKER")


# --- 3. the widgets as text ---------------------------------------------------------------------------

@pytest.mark.parametrize("lang, words", [("de", ("Kartentisch", "4 Spieler", "Wiederholung", "1 Spiel>")),
                                         ("hu", ("kártyaasztal", "4 játékos", "visszajátszás", "1 kör>"))])
def test_the_widgets_text_form_speaks_the_language(lang, words):
    from maumau.widgets import ReplayView, RulesExplorer, TableView

    table = TableView("makao", 3, seed=1, lang=lang, delay=0)
    texts = [table._repr_mimebundle_()["text/plain"], repr(ReplayView(table, lang=lang)),
             repr(RulesExplorer("makao", lang=lang, games=5))]
    joined = " ".join(texts)
    assert all(word in joined for word in words), texts
    assert not re.search(r"\b(table|players|replay|hand|explorer|rules|cards)\b", joined), texts


def test_the_widgets_text_form_is_as_before_in_english():
    from maumau.widgets import ReplayView, TableView

    table = TableView("makao", 3, seed=1, lang="en", delay=0)
    assert repr(table) == "<maumau table: makao, 4 players>"
    assert repr(ReplayView(table, lang="en")) == "<maumau replay: 1 hand(s)>"


# --- 6. the rule sentences of a match ---------------------------------------------------------------

def test_the_german_rule_sentences_say_partie_as_the_table_does():
    from maumau.text.locale.plain import DE

    assert not any("Match" in text for text in DE.values())
    assert "Partie" in DE["VictoryPoints"] and "Partie" in DE["HandsWon"]


def test_the_class_page_says_partie_and_jatszma():
    from maumau.text.locale.page import PAGE

    assert not any("Match" in text for text in PAGE["de"].values())
    assert not any("meccs" in text for text in PAGE["hu"].values())


# --- 4. the state graph's lines ---------------------------------------------------------------------

def _graph():
    from maumau import graph as gr

    start = gr.fixed_stock(mm.position("makao", hands=["8S QD", "3H 3S"], top="10S", stock="8D"))
    G = mm.state_graph(start)
    return gr, start, G, gr.solve(G)


GRAPH_ENGLISH = r"\b(states|moves|seat|wins|nobody|root|natural move|best play|draw|play|mau|normal turn|of)\b"


@pytest.mark.parametrize("lang, words", [("de", ("Zuständen", "Platz 0 gewinnt", "naheliegender Zug", "ziehen",
                                                 "normaler Zug", "Platz 1 gewinnt", "niemand gewinnt")),
                                         ("hu", ("állapot", "0. játékos nyer", "kézenfekvő lépés", "húz",
                                                 "normál lépés", "1. játékos nyer", "senki sem nyer"))])
def test_the_state_graphs_lines_speak_the_language(lang, words):
    gr, start, G, sol = _graph()
    with use_language(lang):
        # gr.describe(G) speaks the language too (branch s44-screens, tests/text/test_report_words.py)
        lines = [sol.value(start), str(sol), repr(gr.view(G, sol, picture=False)),
                 G.nodes[start]["phase_text"], G.edges[start, start.apply(mm.Draw())]["label"]]
        lines += [str(trap) for trap in gr.natural_traps(sol)[:1]]
    text = "\n".join(lines)
    assert all(word in text for word in words), text
    assert not re.search(GRAPH_ENGLISH, text.replace("GameState makao", "").replace("GraphView", "")), text
    assert not english_letters(text, lang), text


def test_the_graphs_data_stays_the_same_in_every_language():
    """What code compares stays put: a node's phase and solved value, a trap's outcomes, the counts."""
    gr, start, G, sol = _graph()
    for lang in ("de", "hu"):
        with use_language(lang):
            assert G.nodes[start]["phase"] == "normal turn" and G.nodes[start]["value"] == "seat 0 wins"
            assert sol.outcome(start) == "seat 0 wins" and set(sol.counts()) <= {"seat 0 wins", "seat 1 wins",
                                                                                  "nobody wins"}
            trap = gr.natural_traps(sol)[0]
            assert (trap.natural_value, trap.value) == ("seat 1 wins", "seat 0 wins")


def test_the_state_graphs_lines_are_as_before_in_english():
    gr, start, G, sol = _graph()
    with use_language("en"):
        assert gr.describe(G) == "30 states, 31 moves, 7 levels, 12 ends of the hand; complete"
        assert sol.value(start) == "seat 0 wins"
        assert repr(gr.view(G, sol, picture=False)) == "<GraphView of 30 states>"
        assert str(gr.natural_traps(sol)[0]).splitlines()[1:] == ["  natural move: play 8S mau → seat 1 wins",
                                                                  "  best play: draw → seat 0 wins"]
        assert G.edges[start, start.apply(mm.Draw())]["label"] == "draw"


# --- 5. a move prints as its notation ---------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_a_move_prints_as_the_notation_the_terminal_and_the_grader_read(lang):
    """``str(move)`` is notation, like a card code: the terminal reads it back ("play 7H", "JC wish H"), and
    the grader compares the legal moves by it (``check_moves``), so a hand-in scores the same in every
    language."""
    from maumau.grading import move_names

    with use_language(lang):
        assert [str(m) for m in (mm.Play("7H"), mm.Play("JD", wish="C"), mm.Draw(), mm.Pass())] == [
            "play 7H", "play JD wish C", "draw", "pass"]
        assert move_names([mm.Draw(), mm.Play("7H")]) == ["draw", "play 7H"]
