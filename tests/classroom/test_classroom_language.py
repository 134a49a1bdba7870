"""A seat in a German or Hungarian notebook (issue 36 items 3 and 5): ``classroom.join`` and
``Server.create_table`` default to the course's language, so the seat names, what happened at
the table, the server's refusals and a View's hidden attributes all speak it; English stays as
it was."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("websockets")

import maumau as mm  # noqa: E402
from maumau import classroom  # noqa: E402
from maumau.classroom.words import REFUSALS, refusal_words  # noqa: E402
from maumau.text.i18n import set_language  # noqa: E402

ENGLISH = re.compile(r"\b(Seat|You|you|play|plays|skipped|moves next|deals|sits down|turn|seat|sees only)\b")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[classroom.Server]:
    with classroom.Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0, hold=0.3) as srv:
        yield srv


@pytest.fixture
def course() -> Iterator[None]:
    yield
    set_language("en")


def _not_to_move(anna: classroom.Seat, ben: classroom.Seat) -> classroom.Seat:
    """The one of the two learners who is not to move, once one of them is (and both saw it)."""
    end = time.monotonic() + 30
    while not ((anna.my_turn or ben.my_turn) and anna.table["n"] == ben.table["n"]):
        assert time.monotonic() < end, "nobody's turn"
        time.sleep(0.01)
    return ben if anna.my_turn else anna


def _play_a_hand(anna: classroom.Seat, ben: classroom.Seat) -> None:
    players = {anna: mm.players.Heuristic(seed=1), ben: mm.players.Heuristic(seed=2)}
    end = time.monotonic() + 60
    while not anna.hand_over:
        assert time.monotonic() < end, "the table stopped moving"
        for seat, player in players.items():
            if seat.my_turn and seat.view is not None:
                try:
                    seat.move(player.choose(seat.view))
                except classroom.ClassroomError as err:
                    assert err.code in ("stale", "not_your_turn"), err
        time.sleep(0.005)
    time.sleep(0.2)


@pytest.mark.parametrize("lang, seat_word", [("de", "Platz 2"), ("hu", "2. játékos")])
def test_a_seat_in_a_notebook_speaks_the_courses_language(server, course, lang, seat_word):
    set_language(lang)
    code = server.create_table("mau_mau_runde", seats=3, computers=1, strength="medium", seed=4)
    assert server.table(code).spec.lang == lang
    anna = classroom.join(server.url, code, name="Anna")
    heard: list[str] = []
    anna.on_change(lambda seat: heard.extend(line["text"] for line in seat.table["said"]))
    ben = classroom.join(server.url, code, name="Ben")
    assert anna.lang == lang and ben.lang == lang
    assert [s["name"] for s in ben.table["seats"]] == ["Anna", "Ben", seat_word]
    view = anna.wait(until=lambda seat: seat.view is not None)
    assert view is not None
    with pytest.raises(AttributeError) as hidden:
        view.hands  # noqa: B018
    assert "'hands'" in str(hidden.value) and not ENGLISH.search(str(hidden.value).split(":", 1)[1]), hidden.value
    waiting = _not_to_move(anna, ben)
    with pytest.raises(classroom.ClassroomError) as refused:
        waiting.move(mm.Draw())
    assert refused.value.code == "not_your_turn"
    assert str(refused.value) == REFUSALS["it is not this seat's turn"][lang]
    _play_a_hand(anna, ben)
    assert heard
    for line in heard:
        assert not ENGLISH.search(line), line


def test_english_stays_as_it_was(server, course):
    code = server.create_table("mau_mau_runde", seats=3, computers=1, seed=4)
    anna = classroom.join(server.url, code, name="Anna")
    assert anna.table["seats"][2]["name"] == "Seat 2"
    ben = classroom.join(server.url, code, name="Ben")
    anna.wait(until=lambda seat: seat.view is not None)
    waiting = _not_to_move(anna, ben)
    with pytest.raises(classroom.ClassroomError, match="it is not this seat's turn"):
        waiting.move(mm.Draw())


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_every_refusal_has_its_sentence(lang):
    for english, said in REFUSALS.items():
        names = re.findall(r"{(\w+)}", english)
        values = {name: "7" for name in names}
        message = english.format(**values)
        told = refusal_words(message, lang, values or None)
        assert told == said[lang].format(**values) and told != message, english
    assert refusal_words("it is not this seat's turn", lang) != "it is not this seat's turn"
    assert refusal_words("something new", lang) == "something new"
    assert refusal_words("it is not this seat's turn", "en") == "it is not this seat's turn"


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_a_refusal_before_sitting_down_is_in_the_joins_language(server, lang):
    with pytest.raises(classroom.ClassroomError) as refused:
        classroom.join(server.url, "NOSUCH", name="Anna", lang=lang)
    assert refused.value.code == "unknown_table"
    assert "there is no open table" not in str(refused.value) and "'NOSUCH'" in str(refused.value)
