"""mm.simulate: determinism across executors, statistics, tables, plots, bad arguments."""

from __future__ import annotations

import io
import json
import os
import re
import warnings
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import maumau as mm
from maumau.cli import main
from maumau.players import Random
from maumau.simulation.run import SimulationError, wilson

PLAYERS = ["random", "heuristic"]


def run(games=40, seed=3, executor="serial", **kw):
    return mm.simulate("makao", players=PLAYERS, games=games, seed=seed, executor=executor, progress=False, **kw)


class IllegalPlayer:
    """Always plays the first card in its hand, legal or not (it sees only its View)."""

    def choose(self, view):
        return mm.Play(view.hand[0])


class CrashingPlayer:
    def choose(self, state):
        raise KeyError("my bug")


class ExitingPlayer:
    """Kills its worker process: the pool breaks."""

    def choose(self, state):
        os._exit(3)


class RefusingExecutor(Executor):
    def submit(self, fn, /, *args, **kwargs):
        raise RuntimeError("no workers today")


# --- determinism ---------------------------------------------------------------------------------

def test_serial_and_parallel_runs_give_the_same_result():
    serial = run(games=60)
    with ProcessPoolExecutor(2) as pool:
        parallel = run(games=60, executor=pool)
    with ThreadPoolExecutor(3) as pool:
        threads = run(games=60, executor=pool)
    default = mm.simulate("makao", players=PLAYERS, games=120, seed=3, progress=False)  # the default pool
    assert parallel.hands == serial.hands == threads.hands
    assert default.hands[:60] == serial.hands
    assert run(games=60, seed=4).hands != serial.hands


def test_search_players_are_reproducible_across_workers():
    players = [mm.players.Search(samples=3), "heuristic"]
    serial = mm.simulate("mau_mau_runde", players=players, games=6, seed=1, executor="serial", progress=False)
    with ProcessPoolExecutor(2) as pool:
        parallel = mm.simulate("mau_mau_runde", players=players, games=6, seed=1, executor=pool, progress=False)
    assert serial.hands == parallel.hands


# --- what it reports -------------------------------------------------------------------------------

def test_win_rates_per_player_and_seat_with_intervals():
    r = run(games=80)
    players = r.by_player()
    assert [p["player"] for p in players] == ["Random()", "Heuristic()"]
    assert all(p["games"] == 80 for p in players)
    assert players[1]["win_rate"] > 0.8 and players[1]["ci_low"] < players[1]["win_rate"] <= players[1]["ci_high"]
    seats = r.by_seat()
    assert [s["seat"] for s in seats] == [0, 1]
    assert sum(s["wins"] for s in seats) == 80 - r.no_winner
    assert {h.seats for h in r.hands} == {(0, 1), (1, 0)}  # seats rotate


def test_fixed_seats_and_same_players():
    r = mm.simulate("mau_mau_runde", players=["heuristic", "heuristic", "random"], games=30, seed=2,
                    rotate=False, executor="serial", progress=False)
    assert {h.seats for h in r.hands} == {(0, 1, 2)}
    rows = r.by_player()
    assert [row["player"] for row in rows] == ["Heuristic() #1", "Heuristic() #2", "Random()"]
    assert [row["games"] for row in rows] == [30, 30, 30]
    assert [row["wins"] for row in rows] == [row["wins"] for row in r.by_seat()]  # fixed seats: player i sits at i
    assert r.players == ["Heuristic()", "Heuristic()", "Random()"] and r.names == [row["player"] for row in rows]
    assert {row["seat0"] for row in r.rows()} == {"Heuristic() #1"}


def test_three_identical_players_each_get_their_own_bar():
    pytest.importorskip("matplotlib")
    r = mm.simulate("makao", players=["heuristic"] * 3, games=30, seed=2, executor="serial", progress=False)
    assert sum(row["wins"] for row in r.by_player()) == 30 - r.no_winner
    fig = r.plot().figure()
    who = fig.axes[0]
    labels = [t.get_text() for t in who.get_yticklabels()]
    assert sorted(labels) == ["Heuristic() #1", "Heuristic() #2", "Heuristic() #3", "Seat 0", "Seat 1", "Seat 2"]
    assert len(who.patches) == 6
    assert "3 × Heuristic()" in fig._suptitle.get_text()


def test_wilson_interval():
    low, high = wilson(60, 100)
    assert round(low, 3) == 0.502 and round(high, 3) == 0.691
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_lengths_rules_and_rows():
    r = run(games=50)
    stats = r.length_stats()
    assert stats["min"] <= stats["p5"] <= stats["median"] <= stats["p95"] <= stats["max"]
    fired = r.rules_fired()
    assert {"seven_draws_two", "skip_on_eight", "reverse_on_nine", "jack_wishes_suit", "ace_extra_play"} <= set(fired)
    rows = r.rows()
    assert len(rows) == 50 and rows[0]["hand"] == 0
    assert {"seat0", "seat1", "winner", "winner_seat", "moves", "cards_left0", "rule:seven_draws_two"} <= set(rows[0])
    assert sum(row["rule:seven_draws_two"] for row in rows) == pytest.approx(fired["seven_draws_two"] * 50)
    no_nines = mm.simulate(mm.variant("makao").without("reverse_on_nine"), players=PLAYERS, games=20,
                           executor="serial", progress=False)
    assert "reverse_on_nine" not in no_nines.rules_fired()


def test_house_rule_changes_are_counted_in_every_variant():
    for name, rule in [("lite_macau", "two_three_draw"), ("mau_mau_runde", "runde"),
                       ("joker_mau_mau", "joker_draws_four")]:
        r = mm.simulate(name, players=["heuristic", "heuristic"], games=20, seed=1, executor="serial",
                        progress=False)
        assert rule in r.rules_fired(), name


def test_summary_text_and_reprs():
    r = run(games=30)
    text = str(r)
    assert text.startswith("makao: 30 hands, 2 players (seats rotate after each hand), seed 3")
    assert "Heuristic()" in text and "seat 0 (moves first)" in text and "95% CI" in text
    assert "hand length (decisions)" in text and "seven_draws_two" in text
    assert repr(r) == "<Simulation makao: 30 hands, Random() vs Heuristic()>"
    assert r._repr_html_().startswith("<pre>")


def test_to_dataframe():
    pytest.importorskip("pandas")
    r = run(games=20)
    df = r.to_dataframe()
    assert len(df) == 20 and "winner" in df.columns
    summary = r.to_dataframe(summary=True)
    assert list(summary["who"]) == ["Random()", "Heuristic()", "seat 0", "seat 1"]


def test_plot_draws_three_panels_quietly():
    pytest.importorskip("matplotlib")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = run(games=30).plot().figure()
        fig.canvas.draw()
    assert len(fig.axes) == 3
    assert [ax.get_title() for ax in fig.axes] == ["Who wins", "How long a hand lasts", "Rules acting"]
    assert fig.canvas.get_default_filetype() == "png"  # its own Agg canvas: never in pyplot, nothing to close


def test_progress_bar_can_be_shown_and_hidden(capsys):
    mm.simulate("makao", players=PLAYERS, games=5, executor="serial", progress=True)
    assert "simulate makao" in capsys.readouterr().err
    mm.simulate("makao", players=PLAYERS, games=5, executor="serial", progress=False)
    assert capsys.readouterr().err == ""


# --- bad arguments ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("games", [0, -5, 2.5, True, "10"])
def test_games_must_be_a_positive_whole_number(games):
    with pytest.raises(ValueError, match="games must be a whole number of at least 1"):
        mm.simulate("makao", players=PLAYERS, games=games)


def test_unknown_strength_and_wrong_players():
    with pytest.raises(ValueError, match="unknown strength 'expert'"):
        mm.simulate("makao", players=["expert", "random"], games=5)
    with pytest.raises(mm.VariantError, match="2 to 5 players, not 1"):
        mm.simulate("makao", players=["random"], games=5)
    with pytest.raises(TypeError, match="one player per seat"):
        mm.simulate("makao", players="random", games=5)
    with pytest.raises(TypeError, match="choose"):
        mm.simulate("makao", players=[object(), "random"], games=5)
    with pytest.raises(mm.VariantError, match="unknown variant"):
        mm.simulate("skat", games=5)
    with pytest.raises(TypeError, match="executor"):
        mm.simulate("makao", games=5, executor="threads")


def test_a_cheating_or_crashing_player_is_named():
    with pytest.raises(SimulationError, match=r"IllegalPlayer.*illegal move"):
        mm.simulate("makao", players=[IllegalPlayer(), Random()], games=3, executor="serial", progress=False)
    with pytest.raises(SimulationError, match="hand 0 .*KeyError: 'my bug'"):
        mm.simulate("makao", players=[CrashingPlayer(), Random()], games=3, executor="serial", progress=False)
    with ProcessPoolExecutor(2) as pool, pytest.raises(SimulationError, match="KeyError: 'my bug'"):
        mm.simulate("makao", players=[CrashingPlayer(), Random()], games=3, executor=pool, progress=False)


def test_executor_errors_surface_clearly():
    with pytest.raises(SimulationError, match="the executor refused the work: RuntimeError: no workers today"):
        run(games=5, executor=RefusingExecutor())
    with ProcessPoolExecutor(1) as pool, pytest.raises(SimulationError, match="the executor failed: BrokenProcessPool"):
        mm.simulate("makao", players=[ExitingPlayer(), Random()], games=3, executor=pool, progress=False)

    class LocalPlayer(Random):
        pass

    with ProcessPoolExecutor(1) as pool, pytest.raises(SimulationError, match="cannot be sent to other processes"):
        mm.simulate("makao", players=[LocalPlayer(), Random()], games=3, executor=pool, progress=False)


# --- the command line ------------------------------------------------------------------------------------

def test_cli_prints_the_same_summary():
    out, err = io.StringIO(), io.StringIO()
    code = main(["simulate", "makao", "--games", "30", "--players", "random", "heuristic", "--seed", "3",
                 "--serial", "--no-progress"], out=out, err=err)
    assert code == 0, err.getvalue()
    assert out.getvalue().strip() == str(run(games=30)).strip()


def test_cli_reports_bad_arguments():
    out, err = io.StringIO(), io.StringIO()
    assert main(["simulate", "makao", "--games", "0"], out=out, err=err) == 2
    assert "games must be a whole number" in err.getvalue()
    err = io.StringIO()
    assert main(["simulate", "makao", "--players", "random", "wizard"], out=io.StringIO(), err=err) == 2
    assert "unknown strength 'wizard'" in err.getvalue()


# --- a dask cluster (runs where distributed is installed: pip install .[test] has it) ---------------

def test_a_dask_cluster_gives_the_same_result():
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dask's own start-up chatter
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
    try:
        result = run(games=30, executor=client.get_executor())
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client.close()
            cluster.close()
    assert result.hands == run(games=30).hands


# --- numbers a learner reads ------------------------------------------------------------------------

LONG_FLOAT = re.compile(r"\d\.\d{4,}")


def assert_tidy(text: str) -> None:
    """No float with more than three decimals, no long number without thousands separators
    (seeds aside), percentiles of a hand's length as whole numbers."""
    assert not LONG_FLOAT.search(text), LONG_FLOAT.search(text).group()
    bare = [m.group() for m in re.finditer(r"(?<![\d,.])\d{4,}(?![\d,])", text)
            if not text[:m.start()].endswith("seed ")]
    assert not bare, f"numbers without thousands separators: {bare}"
    for low, high in re.findall(r"5-95% (\S+)-(\S+),", text):
        assert re.fullmatch(r"[\d,]+", low) and re.fullmatch(r"[\d,]+", high), (low, high)


def assert_short_numbers(values) -> None:
    for value in values:
        if isinstance(value, float):
            assert round(value, 3) == value, value


def test_printed_numbers_are_rounded_and_formatted():
    from maumau import graph as gr
    from maumau.text.rules_table import rules_table

    duel = mm.simulate("makao", players=[mm.players.Heuristic(), Random(seed=1)], games=120, seed=1,
                       executor="serial", progress=False)
    three = mm.simulate("mau_mau_runde", players=["heuristic"] * 3, games=90, seed=2, executor="serial",
                        progress=False)
    for result in (duel, three):
        text = str(result)
        assert_tidy(text)
        assert "5-95%" in text and "median" in text
        assert_short_numbers(result.length_stats().values())
        assert_short_numbers(result.rules_fired().values())
        assert all(rate > 0 for rate in result.rules_fired().values())
    P = gr.phase_graph("joker_mau_mau", games=30, seed=1)
    table = gr.phase_statistics(P)
    assert_tidy(str(table))
    assert "%" in str(table)
    assert_short_numbers(r["branching"] for r in table.rows)
    assert_short_numbers([P.graph["mean_length"]])
    assert_tidy(str(gr.compare_phases(P, gr.phase_graph("makao", games=10, seed=1))))
    assert_tidy(str(rules_table()))


def test_tidy_catches_raw_numbers():
    for raw in ("tens acting per hand: 2.4266666666666667", "5-95% 12.95-166,", "normal turn    15766   54.1%"):
        with pytest.raises(AssertionError):
            assert_tidy(raw)


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_plot_speaks_the_course_language(lang):
    """Issue 24: every word of the simulation's picture in the chosen language, numbers in its
    format, the rules that acted by their RULES.md id (the plain sentence as the tooltip), never a
    class's code name ("skip_on_eight")."""
    pytest.importorskip("matplotlib")
    from maumau.simulation.pictures import numbers, plot
    from maumau.text.i18n import rule_summary, t, use_language

    result = run(games=40)
    makao = mm.variant("makao")
    with use_language(lang):
        found = numbers(result)
        spec = plot(result, (12, 4)).spec
        fig = plot(result, (12, 4)).figure()
        summaries = {r.rule_id: rule_summary(r) for r in makao.rules}
    titles = [ax.get_title() for ax in fig.axes]
    with use_language(lang):
        assert titles == [t("sim.who_wins"), t("sim.lengths"), t("sim.rules")]
        assert found.title.startswith(makao.title + ": 40 ")
        assert [w["who"] for w in found.wins][-2:] == [t("seat.label", seat=0), t("seat.label", seat=1)]
    assert found.rules, "40 makao hands without a rule acting"
    for label, _, tip in found.rules:
        assert label not in {r.name for r in makao.rules}, f"a code name on the axis: {label}"
        assert label in summaries and tip == summaries[label] or label == tip, (label, tip)
    words = json.dumps(spec, ensure_ascii=False)
    if lang != "en":
        for english in ("Who wins", "hands won", "fair share", "decisions per hand", "times per hand", "mean "):
            assert english not in words, f"{english!r} left in the {lang} picture"
