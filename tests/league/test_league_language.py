"""The class league in a German or Hungarian notebook (issue 36 items 3 and 5): the standings,
a refused bot and a lesson's line speak the course's language; English stays as it was."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import maumau as mm
from maumau import league
from maumau.league.lessons import Lesson
from maumau.league.widget import standings_html
from maumau.league.words import WORDS, say
from maumau.text.i18n import set_language

PEEKER = "class Peeker:\n    def choose(self, view):\n        return view.hands[1][0]\n"
ENGLISH = re.compile(r"\b(is not a working bot|a player sees only|hands are hidden|is your hand|game|move|held|"
                     r"played|value|search player|would play|lost)\b")


@pytest.fixture
def course() -> Iterator[None]:
    yield
    set_language("en")


def _lesson() -> Lesson:
    state = mm.deal("makao", players=2, seed=3)
    moves = state.legal_moves()
    return Lesson("greedy", 30, 2, state.to_move, state, moves[0], moves[-1], 0.33, 0.65)


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_a_refused_bot_is_told_in_the_courses_language(tmp_path: Path, course: None, lang: str) -> None:
    set_language(lang)
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=1,
                       limits=league.Limits(move_seconds=0.5, game_seconds=10))
    with pytest.raises(league.LeagueError) as err:
        lg.enter("peeker", PEEKER)
    told = str(err.value)
    assert told.startswith(say("not_working", lang, name="'peeker'", problem="")), told
    assert "'peeker'" in told and "AttributeError" in told and "view.hand_sizes" in told
    assert not ENGLISH.search(told.replace("'View' object has no attribute 'hands'", "")), told


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_a_lesson_reads_in_the_courses_language(course: None, lang: str) -> None:
    set_language(lang)
    line = str(_lesson())
    assert line.startswith({"de": "Spiel 30, Zug 2: greedy", "hu": "30. játszma, 2. lépés: greedy"}[lang]), line
    assert "+0,33" in line and "+0,65" in line and "0,32" in line
    assert not ENGLISH.search(re.sub(r"(Play|Draw|Pass)\([^)]*\)", "", line)), line


def test_a_lesson_in_english_stays_as_it_was() -> None:
    line = str(_lesson())
    assert re.fullmatch(r"game 30, move 2: greedy held .+ on \S+ and played .+ \(value \+0\.33\); the search "
                        r"player would play .+ \(value \+0\.65\): 0\.32 lost", line), line


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_standings_default_to_the_courses_language(course: None, lang: str) -> None:
    set_language(lang)
    assert standings_html([], 0) == f"<p>{WORDS['no_bots'][lang]}</p>"
    set_language("en")
    assert standings_html([], 0) == "<p>No bots have entered yet.</p>"


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_a_bot_entered_on_the_class_server_is_refused_in_the_learners_language(tmp_path: Path, lang: str) -> None:
    pytest.importorskip("websockets")
    from maumau import classroom

    with classroom.Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0) as server:
        code = server.leagues.create("makao", players=2, seed=3)
        with pytest.raises(classroom.ClassroomError) as err:
            classroom.enter_league(server.url, code, PEEKER, name="Peeker", lang=lang)
    told = str(err.value)
    assert told.startswith(say("not_working", lang, name="'Peeker'", problem="")), told
    assert not ENGLISH.search(told.replace("'View' object has no attribute 'hands'", "")), told
