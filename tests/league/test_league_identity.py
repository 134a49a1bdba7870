"""One identity per learner in the class league too (issue 34 item 1): on a server with a roster a
bot is entered with the learner's personal code and is that roster learner's, whatever name they
type; real servers, real websockets, real sandboxes."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from maumau import classroom  # noqa: E402
from maumau.league import entries  # noqa: E402
from maumau.sandbox import jail  # noqa: E402

_JAIL, _WHY = jail.find_jail([])
needs_bwrap = pytest.mark.skipif(_JAIL is None, reason=f"no bubblewrap sandbox on this machine: {_WHY}")
RANDOM = "from maumau.players import Random\nPLAYER = Random\n"
HEURISTIC = "from maumau.players import Heuristic\nPLAYER = Heuristic\n"
ROSTER = "learner,name,id\nanna,Anna Smith,11\nbob,Bob Builder,12\n"


def get(url: str) -> tuple[int, str, dict[str, str]]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read().decode(), dict(answer.headers)


@pytest.fixture
def server(tmp_path: Path):
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    with classroom.Server(db=tmp_path / "class.sqlite", port=0, teacher_token="t-secret", computer_delay=0,
                         pause=0, roster=tmp_path / "roster.csv") as srv:
        yield srv


def _codes(server: classroom.Server) -> dict[str, str]:
    from websockets.sync.client import connect

    with connect(server.ws_url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "codes", "teacher": "t-secret", "id": 1}))
        while (answer := json.loads(ws.recv(10))).get("id") != 1:
            pass
    assert answer["type"] == "ok", answer
    return {line["learner"]: line["code"] for line in answer["codes"]}


def _bots(server: classroom.Server, code: str) -> list[tuple[str, int, str]]:
    lg = server.leagues.open(code)
    try:
        return [(b.name, b.version, b.player) for b in lg.bots()]
    finally:
        lg.store.close()


@needs_bwrap
def test_two_entries_under_two_names_with_one_personal_code_keep_one_bot(server):
    code = server.leagues.create("makao", players=2, seed=1)
    codes = _codes(server)
    first = classroom.enter_league(server.url, code, RANDOM, name="Ace", personal=codes["anna"])
    assert (first["name"], first["version"], first["token"]) == ("Ace", 1, None)  # the code is the token
    second = classroom.enter_league(server.url, code, HEURISTIC, name="Queen", personal=codes["anna"].lower())
    assert second["name"] == "Queen"
    assert _bots(server, code) == [("Queen", 1, "Heuristic")]  # Ace is withdrawn: one bot per roster learner
    lg = server.leagues.open(code)
    assert [row.name for row in lg.standings()] == ["Queen"]
    lg.store.close()
    # a name is its first learner's: Bob cannot take Ace (nor a look-alike), Anna may take it back
    with pytest.raises(classroom.ClassroomError, match="name of another learner's bot"):
        classroom.enter_league(server.url, code, RANDOM, name="\uff21ce", personal=codes["bob"])
    back = classroom.enter_league(server.url, code, RANDOM, name="Ace", personal=codes["anna"])
    assert (back["name"], back["version"]) == ("Ace", 2)
    assert _bots(server, code) == [("Ace", 2, "Random")]


def test_on_a_server_with_a_roster_an_entry_without_a_personal_code_is_refused(server):
    code = server.leagues.create("makao", players=2, seed=1)
    with pytest.raises(classroom.ClassroomError, match="personal code"):
        classroom.enter_league(server.url, code, RANDOM, name="Mallory")
    with pytest.raises(classroom.ClassroomError, match="personal code"):  # nor with a token made up
        classroom.enter_league(server.url, code, RANDOM, name="Mallory", token="x" * 43)
    assert _bots(server, code) == []


def test_guessing_another_learners_personal_code_costs_tries_of_the_wrong_bucket(server):
    code = server.leagues.create("makao", players=2, seed=1)
    codes = _codes(server)
    table = server.create_table("makao", seats=3)
    burst = int(server.limits.limits["wrong"][0])
    for n in range(burst):
        with pytest.raises(classroom.ClassroomError, match="no learner of this course has that personal code"):
            classroom.enter_league(server.url, code, RANDOM, name="Guess", personal=f"AAAA-BBBB-CCCC-{n:04d}")
    # while guessing is barred every try is, the right code too, at a table as in the league
    with pytest.raises(classroom.ClassroomError, match="too many wrong codes"):
        classroom.enter_league(server.url, code, RANDOM, name="Ace", personal=codes["anna"])
    from websockets.sync.client import connect

    with connect(server.ws_url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "code": table, "personal": codes["anna"], "id": 1}))
        while (answer := json.loads(ws.recv(10))).get("id") != 1:
            pass
    assert answer["type"] == "error" and answer["code"] == "rate_limited", answer
    assert _bots(server, code) == []


@needs_bwrap
def test_a_bots_name_follows_the_tables_name_rules(server):
    code = server.leagues.create("makao", players=2, seed=1)
    codes = _codes(server)
    for name in ("Bob Builder", "B\u043eb Builder", "\uff42\uff4f\uff42"):  # Bob's, with Cyrillic o, full-width
        with pytest.raises(classroom.ClassroomError, match="another learner of this course"):
            classroom.enter_league(server.url, code, RANDOM, name=name, personal=codes["anna"])
    for name in ("Computer", "C\u043emputer 2", "Teacher", "Seat 1"):
        with pytest.raises(classroom.ClassroomError, match="how the table names"):
            classroom.enter_league(server.url, code, RANDOM, name=name, personal=codes["anna"])
    own = classroom.enter_league(server.url, code, RANDOM, name="Anna Smith", personal=codes["anna"])
    assert own["name"] == "Anna Smith"
    classroom.enter_league(server.url, code, RANDOM, name="Lucky", personal=codes["bob"])
    with pytest.raises(classroom.ClassroomError, match="name of another learner's bot"):
        classroom.enter_league(server.url, code, RANDOM, name="LUCK\u0423", personal=codes["anna"])
    assert _bots(server, code) == [("Anna Smith", 1, "Random"), ("Lucky", 1, "Random")]


@needs_bwrap
def test_the_per_learner_limit_counts_the_roster_learner_whatever_name_they_type(server):
    code = server.leagues.create("makao", players=2, seed=1)
    codes = _codes(server)
    for n in range(entries.PER_LEARNER.burst):
        classroom.enter_league(server.url, code, RANDOM, name=f"Try {n}", personal=codes["anna"])
    with pytest.raises(classroom.ClassroomError, match="'anna' has entered a bot 3 times in a row"):
        classroom.enter_league(server.url, code, RANDOM, name="Fresh", personal=codes["anna"])
    assert _bots(server, code) == [(f"Try {entries.PER_LEARNER.burst - 1}", 1, "Random")]
    classroom.enter_league(server.url, code, RANDOM, name="Bobs", personal=codes["bob"])  # Bob has his own bucket


def test_without_a_roster_a_personal_code_is_refused_and_the_page_asks_for_a_token(tmp_path):
    with classroom.Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0) as server:
        code = server.leagues.create("makao", players=2, seed=1)
        with pytest.raises(classroom.ClassroomError, match="no roster"):
            classroom.enter_league(server.url, code, RANDOM, name="Ace", personal="AAAA-BBBB-CCCC-DDDD")
        _, page, _ = get(f"{server.url}/league/{code}")
        assert 'id="bot-token"' in page and 'id="bot-personal"' not in page


def test_the_league_page_of_a_roster_server_asks_for_the_personal_code(server):
    code = server.leagues.create("makao", players=2, seed=1)
    _, page, _ = get(f"{server.url}/league/{code}")
    assert 'id="bot-personal"' in page and 'id="bot-token"' not in page and 'id="bot-name"' in page
    assert "personal code" in page
