"""The benchmark scripts run (their numbers live in docs/explanation/performance.md, not in tests)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_engine_benchmark_prints_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("engine")
    assert bench.main(["--variant", "makao", "--seconds", "0.05", "--repeat", "2", "--peers"]) == 0
    out = capsys.readouterr().out
    assert "decisions/s" in out and "bytes per GameState" in out and "Game.undo()" in out
    rows = [line.split()[0] for line in out.splitlines()[-3:]]
    assert rows == ["maumau", "OpenSpiel", "RLCard"]  # measured, or "not installed"


def test_peer_rounds_keep_each_engines_best_round() -> None:
    bench = _load("engine")
    assert bench.best_of([None, None]) is None
    assert bench.best_of([(1, 100, 2.0), (1, 300, 2.0), None]) == (1, 300, 2.0)


def test_classroom_benchmark_plays_and_finds_no_lost_move() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "classroom.py"), "--learners", "5",
                           "--tables", "2", "--seconds", "3", "--think", "0.05"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "moves acknowledged" in done.stdout and "p95" in done.stdout
    assert "no move lost or made twice" in done.stdout


def test_live_class_benchmark_prints_the_pages_and_the_tables_latencies() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "live_class.py"), "--learners", "4",
                           "--players", "3", "--seconds", "2", "--every", "0.2"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "report -> the teacher's page: " in done.stdout and "p95" in done.stdout
    assert "the tables' moves, alone: " in done.stdout and "the tables' moves, with reports: " in done.stdout


def test_league_benchmark_prints_games_per_second_and_the_sandbox_cost(capsys: pytest.CaptureFixture[str]) -> None:
    from maumau.sandbox import jail

    bench = _load("league")
    unsandboxed = ["--unsandboxed"] if jail.find_jail([])[0] is None else []
    assert bench.main(["--bots", "3", "--players", "2", "--deals", "1", "--moves", "20", *unsandboxed]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "per move" in out and "3 bots entered" in out


def test_env_benchmark_prints_the_env_against_the_raw_engine(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("env")
    assert bench.main(["--variant", "makao", "--variant", "lite_macau", "--players", "2", "3", "--seconds", "0.05",
                       "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in out.splitlines()
            if line.startswith(("makao", "lite_macau"))}
    assert set(rows) == {(name, seats) for name in ("makao", "lite_macau") for seats in ("2", "3")}
    # raw, AEC, Gym steps, Gym decisions, the AEC floor (PettingZoo's loop around the raw engine), three ratios
    assert all(len(cells) == 8 for cells in rows.values()), rows


def test_simulate_benchmark_compares_the_executors_on_the_same_hands(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("simulate")
    assert bench.main(["--games", "300"]) == 0
    out = capsys.readouterr().out
    assert "serial (plain loop)" in out and "default (None)" in out
    assert out.count("same hands") == 2 and "DIFFERENT" not in out


def test_similarity_benchmark_times_the_stage_and_finds_the_planted_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("similarity")
    assert bench.main(["--learners", "6"]) == 0
    out = capsys.readouterr().out
    assert "6 learners × 14 exercises = 84 notebooks" in out and "ms per notebook" in out
    flagged = [line.split(":")[1].strip() for line in out.splitlines() if line.startswith("flagged:")]
    assert flagged == ["learner00 and learner01", "learner02 and learner03"]


def test_graph_benchmark_splits_a_states_bytes_into_states_and_networkx() -> None:
    bench = _load("graph")
    import maumau as mm

    state = mm.position("makao", **bench.POSITIONS["makao"])
    nodes, whole, states = bench.memory_per_node(state, 2_000)
    floor = bench.networkx_floor(state, 2_000)
    assert nodes == 2_000
    # the states are part of the whole, and so is what networkx's own tables cost for the same shape
    assert 0 < states < whole and 0 < floor < whole
    assert states + floor > 0.8 * whole  # the two parts are most of it: our attribute dicts are the rest
