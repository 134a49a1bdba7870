"""The card table, the replay and the rules explorer, driven headless by clicks and traits."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("ipywidgets")

import ipywidgets as W  # noqa: E402

import maumau as mm  # noqa: E402
from maumau.text.i18n import rank_letter  # noqa: E402
from maumau.widgets import ReplayView, RulesExplorer, TableView  # noqa: E402


def learner_clicks(table: TableView, rng: random.Random) -> mm.Move:
    """One move of the learner made by clicks alone: a legal card (with its wish and Mau) or a button."""
    state = table.state
    moves = state.legal_moves()
    plays = [m for m in moves if isinstance(m, mm.Play) and len(m.cards) == 1 and not m.runde]
    if plays and rng.random() < 0.9:
        move = rng.choice(plays)
        table.mau_button.value = move.mau
        table.click(move.card)
        if move.wish is not None:
            assert table.wish.visible and table.state is state  # nothing happens before the wish
            table.wish.buttons[move.wish].click()
        return move
    button = table.draw_button if mm.Draw() in moves else table.pass_button
    button.click()
    return mm.Draw() if button is table.draw_button else mm.Pass()


def play_hand_by_clicks(table: TableView, rng: random.Random, limit: int = 3000) -> None:
    for _ in range(limit):
        if table.result is not None:
            return
        assert table.state.to_move == table.me
        before = len(table.game)
        move = learner_clicks(table, rng)
        assert len(table.game) > before, (move, table.message_text)
    raise AssertionError("the hand did not end")


def table(**options) -> TableView:
    options.setdefault("seed", 3)
    options.setdefault("delay", 0)
    return TableView(options.pop("game", "makao"), options.pop("opponents", 3), **options)


# --- playing ------------------------------------------------------------------------------------------------

def test_a_full_hand_of_makao_played_by_clicks_alone():
    t = table(lang="de", strength="medium")
    assert t.me == 0 and t.state.to_move == 0 and len(t.hand.buttons) == 7
    play_hand_by_clicks(t, random.Random(1))
    final = t.game.state
    assert final.is_over and t.result is not None and t.match.hands[-1].game is t.game
    assert sum(t.match.scores) == sum(t.result.points) > 0
    assert t.result_box.layout.display != "none" and t.next_hand_button.layout.display != "none"
    moves = len(t.game)
    assert len([kind for kind in t.moves_log.kinds if kind != "mm-note"]) == moves  # a sentence per move
    assert "Gesamt (Minuspunkte)" in t.result_html.value
    t.next_hand_button.click()
    assert t.result is None and len(t.match.hands) == 1 and len(t.game) == 0 or t.state.to_move == 0


@pytest.mark.parametrize(("name", "lang"), [("lite_macau", "hu"), ("mau_mau_runde", "de"), ("joker_mau_mau", "en")])
def test_every_variant_is_played_to_the_end_by_clicks(name, lang):
    t = table(game=name, opponents=2, lang=lang, seed=4)
    play_hand_by_clicks(t, random.Random(4))
    assert t.state.is_over and t.result is not None and "mm-result" in t.result_html.value
    assert t.controls.row.layout.display == "none"


def test_a_whole_short_match_and_a_new_one():
    t = table(game=mm.variant("makao", limit=25), opponents=2, seed=11)
    rng = random.Random(2)
    for _ in range(40):
        if t.match.is_over:
            break
        if t.result is None:
            if t.me is None:  # out of the match: the computers play on alone
                break
            play_hand_by_clicks(t, rng)
        else:
            t.next_hand_button.click()
    while not t.match.is_over and t.result is not None:
        t.next_hand_button.click()
    assert t.match.is_over
    assert t.new_match_button.layout.display != "none" and "mm-win" in t.result_html.value
    t.new_match_button.click()
    assert len(t.match.hands) == 0 and t.result is None and not t.match.is_over


def test_an_illegal_card_says_why_and_changes_nothing():
    start = mm.position("makao", hands=["5D JC 9S 4H", "7S 4D 2C", "5C 6C 9C"], top="3H", stock="2D 3D 4S 5S 6H")
    t = table(opponents=2, start=start, lang="de")
    buttons = t.hand.buttons
    t.click("5D")
    assert t.message_text == "5♦ passt weder zur Farbe ♥ noch zum Wert 3 (C-3)."
    assert t.state is start and len(t.game) == 0 and t.hand.buttons == buttons
    assert "mm-error" in t.message.value
    assert "mm-legal" in t.hand.button_for("4H")._dom_classes
    assert "mm-legal" not in t.hand.button_for("5D")._dom_classes
    assert t.pass_button.disabled and t.pass_button.tooltip.startswith("Du darfst jetzt nicht passen")
    t.pass_button.click()  # disabled in the browser; a click made in code still only says why
    assert t.message_text == "Du darfst jetzt nicht passen: ein Zug ist Legen oder Ziehen (C-4)."
    assert t.state is start


def test_draw_and_pass_are_enabled_only_while_they_are_legal():
    from maumau.widgets.style import CSS

    start = mm.position("joker_mau_mau", hands=["KD 9S", "7S 10D 8C", "10C QC 9C"], top="8H",
                        stock="QH JD AS KS 10H")
    t = table(game="joker_mau_mau", opponents=2, start=start, lang="en", step=True)
    assert t.state.legal_moves() == [mm.Draw()]
    assert not t.draw_button.disabled and t.draw_button.button_style == "primary" and t.draw_button.tooltip == ""
    assert t.pass_button.disabled and t.pass_button.button_style == ""
    assert t.pass_button.tooltip == "You may not pass now: a turn is a play or a draw (C-4)."
    t.draw_button.click()
    assert t.state.phase == "drawn" and t.state.to_move == 0  # the drawn Q♥ may be played, or pass
    assert not t.pass_button.disabled and t.pass_button.button_style == "primary"
    assert t.draw_button.disabled and t.draw_button.tooltip.startswith("After drawing")
    t.pass_button.click()
    assert t.state.to_move != 0 and len(t.game) == 2
    assert t.draw_button.disabled and t.pass_button.disabled  # a computer's turn: nothing to press
    assert t.draw_button.tooltip == t.pass_button.tooltip == ""
    assert ".mm-actions .jupyter-button:disabled" in CSS  # and it looks disabled on the green table


def test_a_wish_is_picked_before_the_jack_is_played():
    start = mm.position("makao", hands=["JC 5D 9S", "7S 4D 2C", "5C 6C 9C"], top="3H", stock="2D 3D 4S 5S 6H")
    t = table(opponents=2, start=start, lang="de")
    t.click("JC")
    assert t.wish.visible and t.state is start
    assert "Wunschfarbe wählen" in t.wish.label.value
    assert [b.description for b in t.wish.buttons.values()] == ["♣ Kreuz", "♦ Karo", "♥ Herz", "♠ Pik"]
    t.wish.cancel.click()
    assert not t.wish.visible and t.state is start
    t.click("JC")
    t.wish.buttons[mm.Suit.DIAMONDS].click()
    assert t.game.moves[0] == mm.Play("JC", wish="D")
    assert t.game.at(1).wish is mm.Suit.DIAMONDS
    assert "Du legst B♣ und wünschst dir ♦: Anna ist als Nächstes dran." in t.log  # B: Bube; "du": the learner
    assert "Ben zieht eine Karte: du bist als Nächstes dran." in t.log


def test_mau_must_be_pressed_before_the_second_to_last_card():
    start = mm.position("makao", hands=["5H 9S", "7S 4D 2C", "5C 6C 9C"], top="3H", stock="2D 3D 4S 5S 6H")
    t = table(opponents=2, start=start, lang="en", step=True)
    t.click("5H")  # forgot it: the move stands and costs 2 cards (MK-9)
    assert t.game.moves[0] == mm.Play("5H")
    assert len(t.game.at(1).hands[0]) == 3
    assert "You take 2♦ 3♦." in t.log and "without Makaó: 2 penalty cards" in t.log[-2]
    t2 = table(opponents=2, start=start, step=True)
    t2.mau_button.value = True
    assert t2.mau_button.description == "Makaó!"
    t2.click("5H")
    assert t2.game.moves[0] == mm.Play("5H", mau=True) and not t2.mau_button.value


def test_mau_pressed_too_early_is_explained():
    start = mm.position("makao", hands=["5H 9S 4H", "7S 4D 2C", "5C 6C 9C"], top="3H", stock="2D 3D 4S 5S 6H")
    t = table(opponents=2, start=start)
    t.mau_button.value = True
    t.click("5H")
    assert t.message_text == "Makaó is said only when the move leaves exactly one card (C-8)."
    assert t.state is start and not t.mau_button.value


def test_sets_are_chosen_card_by_card_in_lite_macau():
    start = mm.position("lite_macau", hands=["8S 8H 8D 5C", "7S 4D 2C"], top="8C", stock="5D 6D 7D 9S 9H")
    t = table(game="lite_macau", opponents=1, start=start, step=True)
    assert t.set_button.layout.display != "none"
    t.set_button.value = True
    t.click("8S")
    t.click("8D")
    assert "mm-selected" in t.hand.button_for("8S")._dom_classes and t.state is start
    assert t.play_set_button.description.endswith("(2)")
    t.play_set_button.click()
    assert t.game.moves[0] == mm.Play("8S 8D")
    assert t.game.at(1).top == mm.Card.parse("8D") and not t.set_button.value


def test_a_runde_is_opened_with_the_button():
    start = mm.position("mau_mau_runde", hands=["9S 9H KD", "7S 10D 8C"], top="9C", stock="QD QS AH AS 10H")
    t = table(game="mau_mau_runde", opponents=1, start=start, step=True, lang="hu")
    assert t.runde_button.layout.display != "none" and t.runde_button.description == "Runde nyitása"
    t.runde_button.value = True
    t.click("9S")
    assert t.game.moves[0] == mm.Play("9S", runde=True)
    assert "Runde (9, nyitotta: 0. játékos (te))" in t.board.status.value  # the Runde tells itself (MR-8)


def test_buttons_follow_a_pending_penalty():
    start = mm.position("makao", hands=["5D JC 9S", "7S 4D 2C", "5C 6C 9C"], top="7H", stock="2D 3D 4S 5S 6H",
                        pending_draw=2)
    t = table(opponents=2, start=start, lang="de")
    assert t.draw_button.description == "2 Karten nehmen" and t.draw_button.button_style == "primary"
    assert "eine Ziehstrafe von 2 für Platz 0 (du)" in t.board.status.value
    t.click("5D")
    assert "beantwortet eine Ziehstrafe von 2 nicht" in t.message_text and t.state is start
    t.draw_button.click()
    assert "Du nimmst 2♦ 3♦ auf." in t.log


# --- the computers, step mode, waiting, undo ------------------------------------------------------------------

def test_step_mode_moves_one_computer_per_click_and_the_learner_waits():
    t = table(step=True, lang="de", seed=5)
    learner_clicks(t, random.Random(0))
    assert len(t.game) == 1 and t.state.to_move != 0 and t.next_button.layout.display != "none"
    before = t.state
    t.click(t.state.hands[0][0])
    assert t.message_text.startswith("Warte: ") and t.message_text.endswith(" ist am Zug.") and t.state is before
    t.next_button.click()
    assert len(t.game) == 2
    while t.state.to_move != 0 and not t.state.is_over:
        t.next_button.click()
    assert t.next_button.disabled or t.state.is_over


def test_undo_takes_back_the_learners_move_and_the_computers_after_it():
    t = table(seed=8)
    learner_clicks(t, random.Random(3))
    assert len(t.game) >= 1 and t.state.to_move == 0
    assert t.undo_button.click() is None and len(t.game) == 0
    t.undo_button.click()
    assert t.message_text == "Nothing to take back."


def test_views_redraw_only_what_changed(monkeypatch):
    sent: list[W.Widget] = []
    monkeypatch.setattr(W.Widget, "_send", lambda self, msg, buffers=None: sent.append(self))
    t = table(step=True, seed=5)
    learner_clicks(t, random.Random(0))
    sent.clear()
    t.click(t.state.hands[0][0])  # not the learner's turn: only the message changes
    assert set(sent) == {t.message}
    sent.clear()
    t.next_button.click()  # one computer move: the learner's cards stay as they are
    assert not set(sent) & set(t.hand.buttons)
    assert t.board.stock not in sent or t.game.moves[-1] == mm.Draw()


# --- languages and display ---------------------------------------------------------------------------------------

def test_german_and_hungarian_labels():
    de = table(lang="de")
    assert de.draw_button.description == "Ziehen" and de.pass_button.description == "Passen"
    assert "Nachziehstapel" in de.board.stock.value and "Ablage" in de.board.discard.value
    assert "Deine Hand" in de.hand_label.value and de.rules.get_title(0) == "Spielregeln"
    assert "Du bist am Zug" in de.board.status.value and "Richtung" in de.board.status.value
    assert "Anna" in de.board.panels[0].value and "7 Karten" in de.board.panels[0].value
    assert "Spielverlauf" in de.moves_log.html.value and "Spiel 1:" in de.log[0]
    assert "Herz" in de.hand.button_for(de.state.hands[0][4]).tooltip or de.hand.buttons[0].tooltip
    hu = table(lang="hu")
    assert hu.draw_button.description == "Húzás" and "Talon" in hu.board.stock.value
    assert "A kezed" in hu.hand_label.value and hu.rules.get_title(0) == "Játékszabályok"
    assert "Bence" in " ".join(p.value for p in hu.board.panels)
    with pytest.raises(ValueError, match="unknown language"):
        table(lang="fr")


def test_cards_look_like_cards_and_the_table_has_a_short_text_form():
    t = table(seed=3)
    button = t.hand.buttons[0]
    card = t.state.hands[0][0]
    assert button.description == card.symbol and "mm-card" in button._dom_classes
    assert ("mm-red" if card.is_red else "mm-black") in button._dom_classes
    assert t._repr_mimebundle_()["text/plain"] == "<maumau table: makao, 4 players>"
    assert "application/vnd.jupyter.widget-view+json" in t._repr_mimebundle_()


def test_mm_play_and_mm_replay_are_exported():
    t = mm.play("lite_macau", opponents=1, seed=2, delay=0)
    assert isinstance(t, TableView) and t.match.players == 2
    assert isinstance(mm.replay(t), ReplayView)
    with pytest.raises(mm.VariantError):
        mm.play("makao", opponents=5)


# --- replay ----------------------------------------------------------------------------------------------------

def played_game(seed: int = 4, moves: int = 30) -> mm.Game:
    g = mm.Game(mm.deal("makao", players=3, seed=seed))
    bots = [mm.players.Random(i) for i in range(3)]
    for _ in range(moves):
        g.apply(bots[g.state.to_move].choose(g.state))
    return g


def test_replay_steps_back_and_forth_and_jumps():
    g = played_game()
    r = ReplayView(g, lang="de")
    assert r.index == 30 and r.slider.max == 30 and r.forward_button.disabled
    r.back_button.click()
    assert r.index == 29 and r.state is g.at(29) and r.slider.value == 29
    r.first_button.click()
    assert r.index == 0 and r.back_button.disabled and "Das Geben:" in r.explanation.value
    r.forward_button.click()
    assert r.index == 1 and r.sentence(1) in r.explanation.value.replace("&gt;", ">")
    r.slider.value = 17
    assert r.index == 17 and "Zug 17 von 30" in r.position.value
    assert all(f"{rank_letter(c.rank, 'de')}" in r.board.panels[0].value for c in g.at(17).hands[0])  # all open
    r.last_button.click()
    assert r.index == 30
    r.go(999)
    assert r.index == 30


def test_undo_in_replay_takes_back_the_games_last_move():
    g = played_game(moves=5)
    r = ReplayView(g)
    r.undo_button.click()
    assert len(g) == 4 and r.index == 4 and r.slider.max == 4
    r.go(2)
    assert r.state is g.at(2)


def test_replay_follows_a_running_table_and_its_match():
    t = table(step=True, seed=6)
    r = mm.replay(t, lang="en")
    assert r.index == 0
    learner_clicks(t, random.Random(1))
    assert r.index == len(t.game) == 1  # at the end, it follows
    r.go(0)
    t.next_button.click()
    assert r.index == 0 and r.slider.max == 2
    assert "Seat 0 (you)" in r.sentence(1) or "Ann" in r.sentence(1)


def test_replay_of_a_match_picks_a_hand():
    m = mm.Match("lite_macau", players=2, seed=3)
    bots = [mm.players.Random(1), mm.players.Random(2)]
    m.play_hand(bots)
    m.play_hand(bots)
    r = ReplayView(m)
    assert [label for label, _ in r.pick.options] == ["Hand 1", "Hand 2"] and r.hand_index == 1
    r.pick.value = 0
    assert r.game is m.hands[0].game and r.index == len(m.hands[0].game)
    with pytest.raises(TypeError, match="replay shows"):
        ReplayView("nonsense")


# --- rules explorer ---------------------------------------------------------------------------------------------

def test_rules_explorer_switches_rules_and_plays_or_simulates():
    class NoReverse(mm.Rule):
        """9 does nothing special (a house rule)."""

        name = "quiet_nine"

    ex = RulesExplorer("makao", lang="de", extra_rules=[NoReverse()], games=5)
    assert ex.variant is mm.variant("makao") and "die Regeln wie geschrieben" in ex.summary.value
    ex.set_rule("reverse_on_nine", False)
    ex.set_rule("+quiet_nine", True)
    v = ex.variant
    assert "reverse_on_nine" not in v and "quiet_nine" in v
    assert "ohne MK-6" in ex.summary.value and "mit quiet_nine" in ex.summary.value  # ids, the learner's own name
    stats = ex.simulate(4)
    assert stats["games"] == 4 and stats["finished"] + stats["no_winner"] == 4
    assert "Züge pro beendetem Spiel" in ex.stage.children[0].value
    table_view = ex.play()
    assert table_view.variant == v and ex.stage.children == (table_view.widget,)
    ex.pick.value = "lite_macau"
    assert ex.variant is mm.variant("lite_macau") and ex.players.max == 4
    with pytest.raises(KeyError):
        ex.set_rule("no_such_rule", False)


@pytest.mark.parametrize("lang, label", [("en", "You (seat 0)"), ("de", "Du (Platz 0)"), ("hu", "Te (0. játékos)")])
def test_the_learners_row_says_you_as_the_terminal_and_the_class_page_do(lang, label):
    """Issue 24 item 5: where the learner is listed among the players (the hand's result table),
    they are "You (seat 0)" in every language, the catalogue's seat_label that the terminal and
    the class page use too; a learner with a name keeps it, "you" beside it.  Sentences about the
    learner keep their own second person ("Du bist am Zug")."""
    from maumau.text.locale.seats import seat_label

    for name, expected in ((None, label), ("Cleo", seat_label(0, True, lang, name="Cleo"))):
        t = table(lang=lang, name=name) if name else table(lang=lang)
        assert t.seating.label(0) == expected and t.seating.label(1) == t.seating.name(1)
        play_hand_by_clicks(t, random.Random(5))
        rows = re.findall(r"<tr[^>]*><td>([^<]*)", t.result_html.value)
        assert rows.count(expected) == 1, rows
