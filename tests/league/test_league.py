"""The class league (maumau.league): entering, duplicate deals, schedules, ratings, standings,
replays, lessons and the command line.  Hostile bots: tests/league/test_league_hostile.py."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau import league
from maumau.cli import main
from maumau.league.schedule import tables
from maumau.league.standings import wilson
from maumau.league.wire import Receiver, view_from_message, view_message
from maumau.sandbox import jail

_JAIL, _WHY = jail.find_jail([])
needs_bwrap = pytest.mark.skipif(_JAIL is None, reason=f"no bubblewrap sandbox on this machine: {_WHY}")
EXERCISE_13 = Path(__file__).resolve().parents[2] / "exercises" / "13_strategy.ipynb"


def shipped(name: str) -> str:
    return f"from maumau.players import {name}\nPLAYER = {name}\n"


FAST = league.Limits(move_seconds=0.5, game_seconds=10)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A small league of maumau's own players, two deals played."""
    db = tmp_path_factory.mktemp("played") / "league.sqlite"
    lg = league.League("makao", players=2, db=db, seed=4)
    for name in ("Random", "Heuristic"):
        lg.enter(name.lower(), shipped(name))
    lg.play(deals=3)
    return lg


# --- entering ------------------------------------------------------------------------------------------

NOT_BOTS = {
    "class P(:\n": "not Python",
    "x = 1\n": "no player class",
    "class A:\n    def choose(self, v): return v.legal_moves[0]\n"
    "class B:\n    def choose(self, v): return v.legal_moves[0]\n": "several player classes",
    "import no_such_module_here\n": "ModuleNotFoundError",
    "class P:\n    def choose(self, view):\n        raise ValueError('oops')\n": "ValueError: oops",
    "class P:\n    def choose(self, view):\n        return 'draw'\n": "not a move",
    "class P:\n    def choose(self, view):\n        return mm.Play(['ZZ'])\n": "NameError",
    "import maumau as mm\nclass P:\n    def choose(self, view):\n"
    "        return mm.Play([c for c in view.unseen()][:1])\n": "illegal move",
}


@pytest.mark.parametrize("source", sorted(NOT_BOTS))
def test_a_source_that_is_not_a_working_bot_is_refused_and_nothing_is_stored(source, tmp_path):
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=1, limits=FAST)
    with pytest.raises(league.LeagueError, match=NOT_BOTS[source]) as err:
        lg.enter("bad", source)
    assert "'bad' is not a working bot" in str(err.value) or "not Python" in str(err.value)
    assert lg.bots() == []
    assert sqlite3.connect(tmp_path / "l.sqlite").execute("SELECT COUNT(*) FROM bots").fetchone() == (0,)


@pytest.mark.parametrize("name", ["", " anna", "a" * 41, "x\n", "<script>", None])
def test_a_bad_name_is_refused(name, tmp_path):
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=1)
    with pytest.raises(league.LeagueError, match="name"):
        lg.enter(name, shipped("Random"))
    assert lg.bots() == []


def test_a_missing_file_and_a_broken_notebook_are_refused(tmp_path):
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=1)
    with pytest.raises(league.LeagueError, match="no file"):
        lg.enter("x", tmp_path / "missing.py")
    (tmp_path / "broken.ipynb").write_text("{not json")
    with pytest.raises(league.LeagueError, match="notebook"):
        lg.enter("x", tmp_path / "broken.ipynb")
    assert lg.bots() == []


def test_the_exercise_13_notebook_enters_as_a_bot(tmp_path):
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=1)
    bot = lg.enter("learner", EXERCISE_13)
    assert bot.player == "MyPlayer" and "check_wins" in bot.source and "scenario(" not in bot.source.split(
        "class MyPlayer")[1]


def test_a_later_entry_replaces_the_bot_and_its_old_games_stay(tmp_path):
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=2)
    lg.enter("anna", shipped("Random"))
    lg.enter("ben", shipped("Heuristic"))
    lg.play(deals=1)
    again = lg.enter("anna", shipped("Heuristic"))
    assert again.version == 2 and [b.name for b in lg.bots()] == ["anna", "ben"]
    assert len(lg.store.games()) == 2 and lg.games("anna") == []
    row = next(r for r in lg.standings() if r.name == "anna")
    assert row.games == 0 and row.version == 2
    lg.play(deals=1)
    assert len(lg.store.games()) == 4 and len(lg.games("anna")) == 2


def test_a_database_that_is_not_this_league_is_refused_unchanged(tmp_path):
    text = tmp_path / "notes.sqlite"
    text.write_text("not a database at all, but notes")
    with pytest.raises(league.LeagueError, match="not a league database"):
        league.League("makao", players=2, db=text)
    assert text.read_text() == "not a database at all, but notes"
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE things (x)")
    with pytest.raises(league.LeagueError, match="not a league's"):
        league.League("makao", players=2, db=other)
    league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=1)
    with pytest.raises(league.LeagueError, match="League.open"):
        league.League("makao", players=3, db=tmp_path / "l.sqlite", seed=1)
    assert league.League.open(tmp_path / "l.sqlite").players == 2
    with pytest.raises(league.LeagueError, match="players"):
        league.League("makao", players=9, db=tmp_path / "x.sqlite")


# --- duplicate deals, reproducibility --------------------------------------------------------------------

def test_the_same_bot_in_every_seat_scores_the_same_sum_whatever_the_seat_order(tmp_path):
    lg = league.League("makao", players=3, db=tmp_path / "l.sqlite", seed=5)
    for name in ("a", "b", "c"):
        lg.enter(name, shipped("Heuristic"))
    lg.play(deals=2)
    games = lg.games()
    assert len(games) == 6
    for deal in (0, 1):
        rotation = [g for g in games if g.deal == deal]
        starts = [lg.game(g.id).start for g in rotation]
        # duplicate: each seat gets the same cards in every rotation, and every bot sits in every seat
        assert all(s.hands == starts[0].hands and s.discard == starts[0].discard for s in starts)
        assert {g.names for g in rotation} == {("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")}
        sums = Counter()
        for g in rotation:
            for name, points in zip(g.names, g.points, strict=True):
                sums[name] += points
        assert len(set(sums.values())) == 1, sums
    rows = lg.standings()
    assert len({r.points for r in rows}) == 1 and {r.games for r in rows} == {6}


def test_a_league_played_again_from_its_seed_plays_the_same_games(tmp_path):
    def run(folder: Path, seed: int) -> list:
        lg = league.League("makao", players=2, db=folder / "l.sqlite", seed=seed)
        lg.enter("r", shipped("Random"))
        lg.enter("h", shipped("Heuristic"))
        lg.play(deals=1, workers=1)
        return [(g.names, g.points, lg.store.record(g.id)) for g in lg.games()]

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    assert run(tmp_path / "a", 8) == run(tmp_path / "b", 8)
    assert run(tmp_path / "c", 9) != run(tmp_path / "a", 8)


# --- schedules ---------------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 80), players=st.integers(2, 4), deal=st.integers(0, 50), seed=st.integers(0, 2**32),
       pairing=st.sampled_from(["auto", "random", "swiss"]))
def test_every_bot_plays_every_deal_at_full_tables_in_every_rotation(n, players, deal, seed, pairing):
    names = [f"bot{i:02d}" for i in range(n)]
    if n < players:
        with pytest.raises(league.LeagueError, match="needs"):
            tables(names, players, deal, seed, pairing)
        return
    games = tables(names, players, deal, seed, pairing, order=list(reversed(names)))
    assert games == tables(names, players, deal, seed, pairing, order=list(reversed(names)))  # reproducible
    assert {name for g in games for name in g.seats} == set(names)
    assert all(len(g.seats) == players == len(set(g.seats)) and g.deal == deal for g in games)
    assert len(games) % players == 0
    for start in range(0, len(games), players):  # a table's rotations: each bot in each seat once
        group = games[start:start + players]
        assert [g.rotation for g in group] == list(range(players))
        for seat in range(players):
            assert {g.seats[seat] for g in group} == set(group[0].seats)


def test_a_few_bots_play_round_robin_and_a_class_of_60_random_tables():
    few = tables(["a", "b", "c", "d"], 2, 0, 1)
    assert {frozenset(g.seats) for g in few} == {frozenset(p) for p in
                                                   [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"),
                                                    ("c", "d")]}
    class_ = [f"learner{i}" for i in range(60)]
    games = tables(class_, 3, 0, 1)
    assert len(games) == 60  # 20 tables, 3 rotations each
    assert Counter(name for g in games for name in g.seats) == {name: 3 for name in class_}
    assert tables(class_, 3, 1, 1) != games  # another deal, other tables
    swiss = tables(class_, 3, 0, 1, "swiss", order=class_)
    assert {frozenset(g.seats) for g in swiss} == {frozenset(class_[i:i + 3]) for i in range(0, 60, 3)}
    with pytest.raises(league.LeagueError, match="pairing"):
        tables(class_, 3, 0, 1, "knockout")


# --- ratings and standings -----------------------------------------------------------------------------

@needs_bwrap
def test_ratings_order_shipped_players_of_clearly_different_strength(tmp_path):
    """Random (easy) and Heuristic (medium) are clearly apart; Search (hard) wins about 55% against
    Heuristic (docs/reference/players-and-simulation.md): the standings put it above Heuristic or say they
    cannot be told apart yet."""
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=2)
    for name in ("Random", "Heuristic", "Search"):
        lg.enter(name.lower(), shipped(name))
    lg.play(deals=4)
    rows = {r.name: r for r in lg.standings()}
    order = [r.name for r in lg.standings()]
    assert order[-1] == "random"
    assert rows["random"].tied_with == ()
    assert rows["heuristic"].ordinal > rows["random"].ordinal + 10
    assert rows["search"].ordinal > rows["random"].ordinal + 10
    assert order[0] == "search" or "heuristic" in rows["search"].tied_with


DRAWER = """
import maumau as mm

class Drawer:
    \"\"\"A learner's first try: draws or passes whenever it may (it plays only when it must).\"\"\"

    def choose(self, view):
        for move in (mm.Draw(), mm.Pass()):
            if move in view.legal_moves:
                return move
        return view.legal_moves[0]
"""


@needs_bwrap
def test_ratings_order_three_bots_of_clearly_different_strength_and_tell_them_apart(tmp_path):
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=3)
    lg.enter("heuristic", shipped("Heuristic"))
    lg.enter("random", shipped("Random"))
    lg.enter("drawer", DRAWER)
    lg.play(deals=3)
    rows = lg.standings()
    assert [r.name for r in rows] == ["heuristic", "random", "drawer"]
    assert rows[0].wins > rows[1].wins > rows[2].wins
    assert rows[0].ordinal > rows[1].ordinal > rows[2].ordinal


@settings(max_examples=200, deadline=None)
@given(games=st.integers(0, 500), data=st.data())
def test_the_wilson_interval_holds_the_win_rate_and_narrows_with_games(games, data):
    wins = data.draw(st.integers(0, games))
    low, high = wilson(wins, games)
    assert 0 <= low <= high <= 1
    if games:
        assert low <= wins / games <= high
        low4, high4 = wilson(4 * wins, 4 * games)
        assert high4 - low4 < high - low


def test_wilson_matches_the_textbook_value():
    low, high = wilson(7, 10)  # the standard worked example: 0.397 to 0.892
    assert round(low, 3) == 0.397 and round(high, 3) == 0.892


def test_standings_rows_count_what_was_played(played):
    rows = played.standings()
    assert [r.name for r in rows] == ["heuristic", "random"]
    games = played.games()
    for r in rows:
        mine = [g for g in games if r.name in g.names]
        assert r.games == len(mine) == 6
        assert r.wins == sum(1 for g in mine if g.names[g.winner] == r.name)
        assert r.points == sum(g.points[g.names.index(r.name)] for g in mine)
        assert r.ordinal == pytest.approx(r.mu - 3 * r.sigma)
        assert r.win_low <= r.win_rate <= r.win_high
        assert sum(1 for g in mine if g.result["winner"] == r.name) == r.wins
        assert sum(g.result["points"][r.name] for g in mine) == r.points
    assert rows[0].tied_with == ("random",) or rows[0].tied_with == ()
    assert (rows[0].tied_with == ()) == (rows[1].tied_with == ())


def test_the_standings_widget_is_an_accessible_table(played):
    view = played.widget(lang="de")
    html = view.table.value
    assert "<caption>" in html and 'scope="col"' in html and 'scope="row"' in html
    assert "Tabelle nach 6 Spielen" in html and "heuristic" in html and "Wertung" in html
    view.refresh()
    assert view.table.value == html


# --- replays and lessons ---------------------------------------------------------------------------------

def test_a_league_game_replays_with_the_bots_names_and_every_hand(played):
    g = played.games()[1]
    view = played.replay(g.id)
    assert isinstance(view, mm.widgets.ReplayView)
    assert list(view.seating.names) == list(g.names)
    game = played.game(g.id)
    assert game.state.is_over and game.start.players == 2
    with pytest.raises(league.LeagueError, match="no game"):
        played.replay(999)


def test_lessons_show_where_a_bot_lost_most_against_the_search_player(played):
    found = played.lessons("random", n=3, recent=25)
    assert 1 <= len(found) <= 3
    assert [lesson.loss for lesson in found] == sorted((lesson.loss for lesson in found), reverse=True)
    for lesson in found:
        assert lesson.value_better > lesson.value_chosen
        assert lesson.chosen != lesson.better
        assert lesson.chosen in lesson.state.legal_moves() and lesson.better in lesson.state.legal_moves()
        game = played.game(lesson.game_id)
        state, move = game.history[lesson.move - 1]
        assert state == lesson.state and move == lesson.chosen and state.to_move == lesson.seat
        assert "would play" in str(lesson)
    explorer = found[0].explore()
    assert found[0].state in explorer.graph and explorer.node == found[0].state
    assert found[0].replay(played).slider.value == found[0].move - 1
    with pytest.raises(league.LeagueError, match="no bot"):
        played.lessons("nobody")


# --- the wire ----------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), game=st.sampled_from(
    ["makao", "mau_mau_runde", "lite_macau", "joker_mau_mau"]), players=st.integers(2, 4))
def test_a_bot_sees_exactly_its_view(seed, steps, game, players):
    state = mm.deal(game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    if state.is_over:
        return
    seat = state.to_move
    message = json.loads(json.dumps(view_message(state, seat, 1)))
    seen = view_from_message(message)
    assert seen == mm.players.View(state, seat)
    assert seen.legal_moves == mm.players.View(state, seat).legal_moves
    # later requests refer to the variant of the first: smaller, the same View
    receiver = Receiver()
    receiver.view(view_message(mm.deal(game, players=players, seed=seed), 0, 0))
    later = view_message(state, seat, 2, first=False)
    assert len(later["view"]) < len(message["view"]) and receiver.view(later) == seen


# --- the command line --------------------------------------------------------------------------------------

def test_the_command_line_enters_plays_shows_and_replays(tmp_path, capsys):
    db = str(tmp_path / "l.sqlite")
    (tmp_path / "r.py").write_text(shipped("Random"))
    (tmp_path / "h.py").write_text(shipped("Heuristic"))
    assert main(["league", "enter", "rand", str(tmp_path / "r.py"), "--db", db, "-n", "2", "-s", "3"]) == 0
    assert main(["league", "enter", "heur", str(tmp_path / "h.py"), "--db", db]) == 0
    assert main(["league", "play", "--db", db, "--deals", "1"]) == 0
    assert main(["league", "standings", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "played 2 games" in out and "heur" in out and "cannot be told apart" in out
    assert main(["league", "replay", "1", "--db", db, "--out", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    assert "was dealt" in out and "points:" in out
    assert mm.Game.from_json((tmp_path / "g.json").read_text()).state.is_over
    assert main(["league", "enter", "bad", str(tmp_path / "nothing.py"), "--db", db]) == 1
    assert "no file" in capsys.readouterr().err
    assert main(["league", "standings", "--db", str(tmp_path / "none.sqlite")]) == 1


# --- a dask cluster ----------------------------------------------------------------------------------------

def test_a_dask_cluster_plays_the_same_games(tmp_path):
    import warnings

    distributed = pytest.importorskip("distributed")

    def league_in(folder: Path) -> league.League:
        folder.mkdir()
        lg = league.League("makao", players=2, db=folder / "l.sqlite", seed=6)
        lg.enter("r", shipped("Random"))
        lg.enter("h", shipped("Heuristic"))
        return lg

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dask's own start-up chatter
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
    try:
        spread = league_in(tmp_path / "dask")
        spread.play(deals=1, executor=client)                  # the client itself,
        spread.play(deals=1, executor=client.get_executor())   # or its executor
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client.close()
            cluster.close()
    here = league_in(tmp_path / "here")
    here.play(deals=2)
    assert [(g.names, g.points, here.store.record(g.id)) for g in here.games()] == \
        [(g.names, g.points, spread.store.record(g.id)) for g in spread.games()]
