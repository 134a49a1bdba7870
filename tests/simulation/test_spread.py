"""How mm.simulate spreads hands over processes (maumau.simulation.spread, issue 29): sized by time,
this process playing too, chunks taken back from workers that do not start them; the same hands
whoever plays them."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import maumau as mm
from maumau.players import Random
from maumau.simulation import spread


def _play(chunk):
    return [game * 10 for game, _ in chunk]


def test_chunks_are_sized_by_time_and_leave_every_process_several():
    assert spread.chunk_size(per_hand=0.001, hands=100_000, processes=2) == 200  # 0.2 s of play
    assert spread.chunk_size(per_hand=0.001, hands=400, processes=2) == 50       # four chunks per process
    assert spread.chunk_size(per_hand=5.0, hands=10, processes=2) == 1           # a slow player: one hand each
    assert spread.chunks_of([(i, i) for i in range(5)], 2) == [[(0, 0), (1, 1)], [(2, 2), (3, 3)], [(4, 4)]]


def test_no_pool_for_little_work_and_a_worker_per_other_core(monkeypatch):
    monkeypatch.setattr(spread, "cores", lambda: 2)
    assert spread.plan(per_hand=0.0005, left=100) == (0, 0)  # 0.05 s of work: not worth a pool
    workers, size = spread.plan(per_hand=0.0005, left=100_000)
    assert workers == 1 and size == 400
    monkeypatch.setattr(spread, "cores", lambda: 1)
    assert spread.plan(per_hand=1.0, left=1000) == (0, 0)  # one core: this process alone


def test_the_probe_times_at_least_one_hand():
    done, per_hand = spread.probe(_play, [(1, 0), (2, 0), (3, 0)], seconds=0)
    assert done == [10] and per_hand >= 0
    done, _ = spread.probe(_play, [(1, 0), (2, 0), (3, 0)], seconds=10)
    assert done == [10, 20, 30]


def test_chunks_a_stalled_pool_never_started_are_played_here():
    """A pool whose only worker is stuck (a busy machine at its worst): this process plays every chunk."""
    release = threading.Event()
    played_here = []

    def local(chunk):
        played_here.append(chunk[0][0])
        return _play(chunk)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(release.wait, 30)  # the worker is busy until released
        chunks = spread.chunks_of([(i, i) for i in range(12)], 2)
        results = spread.run_shared(pool, lambda chunk: pool.submit(_play, chunk), local, chunks, workers=1,
                                    on_done=lambda part: None, failed=lambda err: err)
        release.set()
    assert [h for first in sorted(results) for h in results[first]] == [i * 10 for i in range(12)]
    assert sorted(played_here) == [0, 2, 4, 6, 8, 10]


def test_a_worker_failure_is_raised_as_told_and_the_rest_is_cancelled():
    def broken(chunk):
        raise KeyError("my bug")

    with ThreadPoolExecutor(1) as pool, pytest.raises(RuntimeError, match="told: KeyError"):
        spread.run_shared(pool, lambda chunk: pool.submit(broken, chunk), _play,
                          spread.chunks_of([(i, i) for i in range(40)], 1), workers=1, on_done=lambda part: None,
                          failed=lambda err: RuntimeError(f"told: {type(err).__name__}"))


def test_the_default_with_a_pool_plays_the_same_hands_as_the_plain_loop(monkeypatch):
    monkeypatch.setattr(spread, "POOL_SECONDS", 0.0)  # a pool even for a few hands
    monkeypatch.setattr(spread, "cores", lambda: 2)
    players = ["random", "heuristic"]
    serial = mm.simulate("makao", players=players, games=150, seed=4, executor="serial", progress=False)
    default = mm.simulate("makao", players=players, games=150, seed=4, progress=False)
    assert default.hands == serial.hands


def test_players_that_cannot_travel_play_here_by_default(monkeypatch):
    monkeypatch.setattr(spread, "POOL_SECONDS", 0.0)

    class LocalPlayer(Random):  # defined in a function: pickle cannot send it to a worker
        pass

    result = mm.simulate("makao", players=[LocalPlayer(), "random"], games=120, seed=1, progress=False)
    assert result.games == 120


def test_the_pool_gets_no_more_chunks_when_sharing_is_slower_than_playing_alone(monkeypatch):
    monkeypatch.setattr(spread, "WATCH_SECONDS", 0.0)
    sent = []

    def remote(chunk):
        sent.append(chunk[0][0])
        return pool.submit(_play, chunk)

    with ThreadPoolExecutor(1) as pool:
        chunks = spread.chunks_of([(i, i) for i in range(40)], 2)
        results = spread.run_shared(pool, remote, _play, chunks, workers=1, on_done=lambda part: None,
                                    failed=lambda err: err, alone=1e12)  # "alone" was impossibly fast
    assert [h for first in sorted(results) for h in results[first]] == [i * 10 for i in range(40)]
    assert len(sent) == 2  # the first two chunks, sent before the first look; none after it
