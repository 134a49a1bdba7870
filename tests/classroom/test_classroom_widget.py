"""The class table in Jupyter (``maumau.classroom.widget``), driven headless by clicks: a real
server on loopback, a learner's table widget bound to a seat and redrawn by the seat's receiving
thread.  What the widget shows is checked against the server's own state, and never names a
card of another hand."""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")
pytest.importorskip("ipywidgets")

import ipywidgets as W  # noqa: E402

import maumau as mm  # noqa: E402
from maumau import classroom  # noqa: E402
from maumau.classroom.widget import RemoteTable, join  # noqa: E402
from maumau.core.cards import Card  # noqa: E402
from maumau.text.i18n import card_name  # noqa: E402


@pytest.fixture
def server(tmp_path: Path) -> Iterator[classroom.Server]:
    with classroom.Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0) as srv:
        yield srv


def wait_until(ready: Callable[[], bool], timeout: float = 5.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while not ready():
        assert time.monotonic() < end, f"not within {timeout} s: {what}"
        time.sleep(0.005)


def texts(widget: Any) -> list[str]:
    """Everything a widget tree shows: HTML values, descriptions and tooltips."""
    found = []
    for name in ("value", "description", "tooltip"):
        value = getattr(widget, name, None)
        if isinstance(value, str) and value:
            found.append(value)
    for child in getattr(widget, "children", ()):
        found.extend(texts(child))
    return found


def my_state_hand(server: classroom.Server, code: str, remote: RemoteTable) -> tuple[Card, ...]:
    table = server.table(code)
    assert table.state is not None
    return table.state.hands[table.hand_seats.index(remote.seat.number)]


def shown_hand(remote: RemoteTable) -> list[Card]:
    return [b.card for b in remote.hand.buttons]


def settled(server: classroom.Server, code: str, remote: RemoteTable) -> bool:
    """The widget shows the server's table as it is now (and the server waits for nobody but us)."""
    table = server.table(code)
    view = remote.view
    if table.state is None or view is None or remote.seat.table["n"] != table.n:
        return False
    if table.state.is_over:
        return True
    return table.to_move() == remote.seat.number and shown_hand(remote) == list(my_state_hand(server, code, remote))


def check_no_hidden_card(server: classroom.Server, code: str, remote: RemoteTable) -> int:
    """No card of another hand is named anywhere in the widget (the log may name a card once it
    was played in the open); returns how many cards were checked."""
    table = server.table(code)
    assert table.state is not None
    played: set[Card] = set(table.state.discard)
    for _, kind, data in server.store.actions(code):
        if kind == "move" and "play" in data["move"]:
            played.update(Card.parse(c) for c in data["move"]["play"])
    log_text = remote.screen.moves_log.html.value
    board_text = "\n".join(t for t in texts(remote.widget) if t != log_text)
    mine = remote.seat.number
    checked = 0
    for hand_seat, hand in enumerate(table.state.hands):
        if table.hand_seats[hand_seat] == mine:
            continue
        for card in hand:
            names = (card.symbol, card_name(card, "en"))
            assert not any(n in board_text for n in names), f"{card} of hand seat {hand_seat} is shown"
            assert card in played or not any(n in log_text for n in names), f"the log names {card}"
            checked += 1
    assert all(b.card in my_state_hand(server, code, remote) for b in remote.hand.buttons)
    return checked


def click_a_legal_move(remote: RemoteTable, rng: random.Random) -> mm.Move:
    """One move by clicks alone: a legal card (with its wish and Mau), or Draw / Pass."""
    view = remote.view
    assert view is not None
    moves = list(view.legal_moves)
    plays = [m for m in moves if isinstance(m, mm.Play) and len(m.cards) == 1 and not m.runde]
    if plays and (rng.random() < 0.8 or not {mm.Draw(), mm.Pass()} & set(moves)):
        move = rng.choice(plays)
        remote.mau_button.value = move.mau
        remote.click(move.card)
        if move.wish is not None:
            assert remote.wish.visible
            remote.wish.buttons[move.wish].click()
        return move
    button = remote.draw_button if mm.Draw() in moves else remote.pass_button
    assert not button.disabled
    button.click()
    return mm.Draw() if button is remote.draw_button else mm.Pass()


def click_an_illegal_card(server: classroom.Server, code: str, remote: RemoteTable) -> bool:
    """Click a card that may not be played, if there is one: the engine's sentence, nothing changes."""
    table, view = server.table(code), remote.view
    assert view is not None and table.state is not None
    playable = {m.card for m in view.legal_moves if isinstance(m, mm.Play)}
    stuck = [c for c in view.hand if c not in playable and mm.variant("mau_mau_runde").wish_kind(c) is None]
    if not stuck:
        return False
    n, hand, log = table.n, shown_hand(remote), list(remote.log)
    reason = table.state.why_illegal(mm.Play(stuck[0]))
    remote.click(stuck[0])
    assert remote.message_text == reason and reason
    assert "mm-error" in remote.screen.message.value
    assert table.n == n and shown_hand(remote) == hand and remote.log == log
    return True


# --- a hand played by clicks -----------------------------------------------------------------------------
def test_a_hand_played_by_clicks_follows_the_server_and_shows_no_hidden_card(server):
    code = server.create_table("mau_mau_runde", seats=2, computers=1, seed=5)
    remote = join(server.url, code, name="Anna")
    seat = remote.seat
    assert isinstance(remote.widget, W.VBox) and remote.seat is seat
    results: list[str] = []  # what the widget said when the hand ended (the next deal follows at once)
    seat.on_change(lambda s: results.append(remote.result_text) if s.table["hand_over"] else None)
    wait_until(lambda: settled(server, code, remote), what="the first table")
    assert seat.view is not None
    assert shown_hand(remote) == list(seat.view.hand) == list(my_state_hand(server, code, remote))
    assert [b.description for b in remote.hand.buttons] == [c.symbol for c in seat.view.hand]
    assert "Your turn" in remote.board.status.value and "Seat 1" in remote.board.panels[0].value
    assert any(line.startswith("Hand 1:") for line in remote.log)  # the server tells the deal

    rng, table = random.Random(2), server.table(code)
    illegal_tried, checked, moves = False, 0, 0
    while not table.hand_over:
        wait_until(lambda: settled(server, code, remote), what="the learner's turn")
        if table.hand_over:
            break
        checked += check_no_hidden_card(server, code, remote)
        view = remote.view
        assert view is not None and view.to_move == view.seat
        if not illegal_tried:
            illegal_tried = click_an_illegal_card(server, code, remote)
        n = table.n
        move = click_a_legal_move(remote, rng)
        moves += 1
        assert table.n > n, (move, remote.message_text)  # the server took it ...
        assert remote.message_text == ""
        # ... and the widget follows: the log says it, the hand shows what the server holds
        wait_until(lambda: settled(server, code, remote) or remote.seat.table["n"] >= table.n, what="the update")
        assert moves < 200
    assert illegal_tried and checked > 0

    wait_until(lambda: bool(results), what="the hand-over message")
    finished = server.table(code).match.hands[0]
    winner_name = "Anna" if finished.winner == 0 else "Seat 1"
    expected = ("Hand 1: You went out: you win the hand!" if winner_name == "Anna"
                else "Hand 1: Seat 1 went out and wins the hand.")
    lines = results[0].splitlines()
    assert lines[0] == expected and lines[1].startswith("Total: Anna (you) ")
    assert expected in remote.log
    # one won hand wins the match of mau_mau_runde: the widget says so and waits for nothing more
    champion = "Anna (you)" if winner_name == "Anna" else winner_name
    assert lines[2] == f"The match is over: {champion} wins." and "Waiting" not in results[0]
    wait_until(lambda: remote.result_text == results[0], what="the final table")
    assert remote.controls.row.layout.display == "none" and remote.hand.box.layout.display is None
    check_no_hidden_card(server, code, remote)
    other = server.table(code).state.hands[1 - server.table(code).hand_seat(0)]
    if other:  # the check would see a leak
        remote.board.panels[0].value += other[0].symbol
        with pytest.raises(AssertionError, match="is shown"):
            check_no_hidden_card(server, code, remote)
    assert remote.errors == []
    remote.close()


def test_while_the_next_hand_waits_the_widget_says_so_and_buttons_are_gone(tmp_path):
    with classroom.Server(db=tmp_path / "c.sqlite", port=0, computer_delay=0, pause=60) as server:
        code = server.create_table("mau_mau_runde", seats=2, computers=1, seed=8, hands_to_win=3)
        remote = join(server.url, code, name="Anna")
        table, rng = server.table(code), random.Random(4)
        while not table.hand_over:
            wait_until(lambda: settled(server, code, remote), what="the learner's turn")
            if not table.hand_over:
                click_a_legal_move(remote, rng)
        wait_until(lambda: "Waiting for the next hand" in remote.result_text, what="the waiting line")
        lines = remote.result_text.splitlines()
        assert lines[0].startswith("Hand 1: ") and lines[1].startswith("Total: Anna (you) ")
        assert remote.screen.result_box.layout.display is None
        assert remote.controls.row.layout.display == "none"
        n = table.n
        remote.draw_button.click()  # in code, a click on a hidden button: said, nothing sent
        assert remote.message_text == "The hand is over." and table.n == n
        check_no_hidden_card(server, code, remote)
        assert remote.errors == []
        remote.close()


# --- people come ------------------------------------------------------------------------------------------
def test_the_widget_waits_for_players_and_is_redrawn_by_the_seats_thread_when_one_comes(server):
    code = server.create_table("mau_mau_runde", seats=2, seed=3)
    remote = join(server.url, code, name="Anna")
    assert remote.view is None and remote.hand.buttons == []
    assert remote.result_text == "Waiting for players: 1 seat(s) still open."
    assert remote.board.center.layout.display == "none"
    assert "open seat" in remote.board.panels[0].value
    redrawn_on = []
    remote.seat.on_change(lambda s: redrawn_on.append(threading.current_thread().name))
    ben = classroom.join(server.url, code, name="Ben")
    wait_until(lambda: remote.view is not None and len(remote.hand.buttons) == 5, what="the deal")
    assert shown_hand(remote) == list(my_state_hand(server, code, remote))
    assert redrawn_on and all(name.startswith("maumau-seat-") for name in redrawn_on)
    assert re.search(r'<div class="mm-name">Ben</div>', remote.board.panels[0].value)
    assert remote.result_text == "" and remote.screen.result_box.layout.display == "none"
    # Ben leaves the connection: his seat is marked offline on Anna's table
    ben.close()
    wait_until(lambda: "offline" in remote.board.panels[0].value, what="the offline marker")
    check_no_hidden_card(server, code, remote)
    assert remote.errors == []
    remote.close()


def test_in_a_kernel_the_redraw_is_handed_to_its_event_loop(server):
    """Created inside a running event loop (a Jupyter cell), the widget is redrawn on that loop's
    thread, never on the seat's receiving thread (JupyterLab loses clicks otherwise)."""
    import asyncio

    code = server.create_table("mau_mau_runde", seats=2, seed=3)
    drawn_on: list[str] = []

    async def cell() -> RemoteTable:
        remote = join(server.url, code, name="Anna")
        redraw = remote._redraw
        remote._redraw = lambda: (drawn_on.append(threading.current_thread().name), redraw())[1]  # type: ignore[method-assign]
        classroom.join(server.url, code, name="Ben")
        end = time.monotonic() + 5
        while remote.view is None or len(remote.hand.buttons) != 5:
            assert time.monotonic() < end, "the deal was not drawn"
            await asyncio.sleep(0.01)
        return remote

    loop_thread = threading.current_thread().name
    remote = asyncio.run(cell())
    assert drawn_on and set(drawn_on) == {loop_thread}
    assert shown_hand(remote) == list(my_state_hand(server, code, remote)) and remote.errors == []
    remote.close()
    other = join(server.url, code, token=remote.seat.token)  # outside a loop: drawn where the seat hears
    assert other._loop is None
    other.close()


def test_a_notebook_shows_the_table_and_german_words(server):
    code = server.create_table("makao", seats=2, computers=1, seed=1)
    remote = join(server.url, code, name="Anna", lang="de")
    bundle = remote._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"] == f"<maumau class table {code}: seat 0, makao>"
    wait_until(lambda: remote.view is not None, what="the deal")
    assert f"Tisch {code}" in remote.header.value and "Spiel 1" in remote.header.value
    assert remote.draw_button.description in ("Ziehen", "Nehmen") or "Karten" in remote.draw_button.description
    assert remote.screen.hand_label.value.count("Deine Hand") == 1
    assert remote.errors == []
    remote.close()


def test_a_seat_in_four_colours_and_high_contrast_played_by_keys(server):
    """mm.join's options and keys (issue 16): the colours on the widget, the cards' names with their
    playability in the table's language, D draws through the server, a key that does nothing says so."""
    code = server.create_table("makao", seats=2, computers=1, seed=3)
    with pytest.raises(ValueError, match="colours"):
        join(server.url, code, name="Anna", colours="rainbow")
    remote = join(server.url, code, name="Anna", lang="de", colours="four", contrast="high")
    assert {"mm-four", "mm-high"} <= set(remote.widget._dom_classes)
    wait_until(lambda: settled(server, code, remote), what="the first table")
    view = remote.view
    assert view is not None and view.to_move == view.seat
    legal = {m.card for m in view.legal_moves if isinstance(m, mm.Play)}
    for button in remote.hand.buttons:
        word = "spielbar" if button.card in legal else "nicht spielbar"
        assert button.tooltip == f"{card_name(button.card, 'de')}, {word}"
    model = remote.model  # Draw and Pass as the seat model says them, as at the notebook's table
    assert model is not None and remote.draw_button.disabled == (model.draw is None)
    assert remote.pass_button.disabled and remote.pass_button.tooltip == model.pass_why
    assert remote.pass_button.tooltip.startswith("Du darfst jetzt nicht passen")  # the server's sentence, in German
    n = server.table(code).n
    assert not remote.press("n") and remote.message_text == "Das geht gerade nicht."  # no "next" at a class table
    assert "D ziehen" in remote.screen.keys_line.value and "N " not in remote.screen.keys_line.value
    assert "D ziehen" in remote.screen.rules.children[0].value
    assert remote.press("d"), remote.message_text
    wait_until(lambda: server.table(code).n > n, what="the draw")
    assert any(line.startswith("Du ziehst") for line in remote.log), remote.log[-3:]  # the learner is "du"
    assert remote.errors == []
    remote.close()
