"""The class league on the class server: the league page (/league/CODE) in en/de/hu, a game's
replay page, and learners entering bots with classroom.enter_league through real websockets."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from maumau import classroom, league  # noqa: E402
from maumau.league import entries  # noqa: E402
from maumau.sandbox import jail  # noqa: E402

_JAIL, _WHY = jail.find_jail([])
needs_bwrap = pytest.mark.skipif(_JAIL is None, reason=f"no bubblewrap sandbox on this machine: {_WHY}")
RANDOM = "from maumau.players import Random\nPLAYER = Random\n"
HEURISTIC = "from maumau.players import Heuristic\nPLAYER = Heuristic\n"
EXERCISE_13 = Path(__file__).resolve().parents[2] / "exercises" / "13_strategy.ipynb"


def get(url: str) -> tuple[int, str, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode(), dict(err.headers)


@pytest.fixture
def server(tmp_path: Path):
    with classroom.Server(db=tmp_path / "class.sqlite", port=0, computer_delay=0, pause=0) as srv:
        yield srv


@needs_bwrap
def test_learners_enter_bots_and_the_league_page_shows_standings_games_and_replays(server, tmp_path):
    code = server.leagues.create("makao", players=2, seed=3)
    assert server.leagues.codes() == [code] and (tmp_path / f"league-{code}.sqlite").exists()
    first = classroom.enter_league(server.url, code, RANDOM, name="Anna")
    assert first["name"] == "Anna" and first["version"] == 1 and first["player"] == "Random" and first["token"]
    ben = classroom.enter_league(server.url, code, EXERCISE_13, name="Ben")
    assert ben["player"] == "MyPlayer"
    # a name is its first enterer's: without its token nobody replaces Anna's bot
    with pytest.raises(classroom.ClassroomError, match="taken"):
        classroom.enter_league(server.url, code, HEURISTIC, name="Anna")
    with pytest.raises(classroom.ClassroomError, match="taken"):
        classroom.enter_league(server.url, code, HEURISTIC, name="Anna", token=ben["token"])
    again = classroom.enter_league(server.url, code, HEURISTIC, name="Anna", token=first["token"])
    assert again["version"] == 2 and again["token"] == first["token"]
    with pytest.raises(classroom.ClassroomError, match="not a working bot"):
        classroom.enter_league(server.url, code, "x = 1\n", name="Cleo")
    with pytest.raises(classroom.ClassroomError, match="no league"):
        classroom.enter_league(server.url, "ZZZZZZ", RANDOM, name="Cleo")
    with pytest.raises(classroom.ClassroomError, match="at most"):
        classroom.enter_league(server.url, code, RANDOM + "#" * 70_000 + "\n", name="Dora")
    lg = server.leagues.open(code)
    assert [b.name for b in lg.bots()] == ["Anna", "Ben"]
    lg.play(deals=1)

    status, page, headers = get(f"{server.url}/league/{code}")
    assert status == 200 and '<html lang="en">' in page and "default-src 'self'" in headers["Content-Security-Policy"]
    assert "<caption>" in page and 'scope="col"' in page and "Anna" in page and "Ben" in page
    assert "Cannot be told apart yet from" in page and f"/league/{code}/game/1?lang=en" in page
    assert 'role="status"' in page and "<textarea" in page
    status, german, _ = get(f"{server.url}/league/{code}?lang=de")
    assert '<html lang="de">' in german and "Tabelle" in german and "Letzte Spiele" in german
    status, hungarian, _ = get(f"{server.url}/league/{code}?lang=hu")
    assert '<html lang="hu">' in hungarian and "Állás" in hungarian

    status, replay, _ = get(f"{server.url}/league/{code}/game/1")
    assert status == 200
    data = json.loads(replay.split('id="replay-data">', 1)[1].split("</script>", 1)[0])
    game = lg.game(1)
    assert len(data["steps"]) == len(game) + 1
    assert data["steps"][0]["hands"] == [" ".join(c.text for c in h) for h in game.start.hands]  # every hand open
    assert data["names"] == list(lg.store.game(1).names)
    for path in ("/league/ZZZZZZ", f"/league/{code}/game/999", "/league/../class.sqlite", "/league/x"):
        assert get(server.url + path)[0] == 404
    assert get(server.url + "/league.js")[0] == 200 and get(server.url + "/league.css")[0] == 200
    # the class tables are still served as before
    assert get(server.url + "/")[0] == 200


def test_the_league_socket_refuses_what_is_not_a_request(server):
    from websockets.sync.client import connect

    code = server.leagues.create("makao", players=2, seed=1)
    with connect(server.url.replace("http", "ws") + "/league/ws") as ws:
        for bad in ("not json", "[]", json.dumps({"type": "join"}), json.dumps({"type": "enter", "code": code})):
            ws.send(bad)
            answer = json.loads(ws.recv(timeout=10))
            assert answer["type"] == "error" and answer["message"], answer
    assert server.leagues.open(code).bots() == []


@needs_bwrap
def test_one_client_cannot_enter_fifty_bots(server):
    """50 entries under 50 names from one address, as fast as it can: the address's burst is
    entered, the rest refused with a sentence saying when to try again, and nothing else stored."""
    code = server.leagues.create("makao", players=2, seed=1)
    entered, refused = [], []
    clock = time.monotonic()
    for n in range(50):
        try:
            entered.append(classroom.enter_league(server.url, code, RANDOM, name=f"Bot {n}")["name"])
        except classroom.ClassroomError as err:
            refused.append(str(err))
    seconds = time.monotonic() - clock
    rate = entries.PER_ADDRESS
    assert rate.burst <= len(entered) <= rate.burst + seconds / rate.seconds + 1, (len(entered), seconds)
    assert len(refused) == 50 - len(entered)
    assert all(re.search(r"from your address in a row: one more every 6 seconds; try again in \d+ seconds?", r)
               for r in refused), refused[:3]
    assert sorted(b.name for b in server.leagues.open(code).bots()) == sorted(entered)


@needs_bwrap
def test_one_bot_per_learner_and_a_learner_enters_it_again_only_so_often(server):
    code = server.leagues.create("makao", players=2, seed=1)
    anna = classroom.enter_league(server.url, code, RANDOM, name="Anna")
    # a learner's token is their one bot's: another name is refused, nothing entered
    with pytest.raises(classroom.ClassroomError, match="one bot per learner: your token is that of 'Anna'"):
        classroom.enter_league(server.url, code, HEURISTIC, name="Anna 2", token=anna["token"])
    # a new entry replaces it, a few in a row, then the learner waits
    for version in range(2, entries.PER_LEARNER.burst + 1):
        again = classroom.enter_league(server.url, code, HEURISTIC, name="Anna", token=anna["token"])
        assert again["version"] == version
    with pytest.raises(classroom.ClassroomError, match=r"'Anna' has entered a bot 3 times in a row: one bot per "
                                                       r"learner, entered again at most every 20 seconds; "
                                                       r"try again in \d+ seconds?"):
        classroom.enter_league(server.url, code, RANDOM, name="Anna", token=anna["token"])
    bots = server.leagues.open(code).bots()
    assert [(b.name, b.version, b.player) for b in bots] == [("Anna", entries.PER_LEARNER.burst, "Heuristic")]


@needs_bwrap
def test_on_the_hub_the_learner_stands_for_the_address(tmp_path):
    """On JupyterHub every entry comes through the hub's proxy (one address): a class enters
    more bots than an address's burst, each learner within their own limit."""
    from maumau.classroom.league_page import Leagues

    leagues = Leagues(tmp_path / "class.sqlite", hub=True)
    code = leagues.create("makao", players=2, seed=1)
    learners = [f"learner{n}" for n in range(entries.PER_ADDRESS.burst + 2)]
    for learner in learners:
        answer = leagues.enter({"type": "enter", "code": code, "source": RANDOM}, learner, "127.0.0.1")
        assert (answer["type"], answer["name"]) == ("entered", learner)
    for _ in range(entries.PER_LEARNER.burst - 1):
        leagues.enter({"type": "enter", "code": code, "source": RANDOM}, "learner0", "127.0.0.1")
    with pytest.raises(league.LeagueError, match="'learner0' has entered a bot 3 times in a row"):
        leagues.enter({"type": "enter", "code": code, "source": RANDOM}, "learner0", "127.0.0.1")
    assert sorted(b.name for b in leagues.open(code).bots()) == sorted(learners)
