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
        results = spread.run_shared(pool, lambda chunk: pool.submit(spread.timed, _play, chunk), local, chunks,
                                    workers=1, on_done=lambda part: None, failed=lambda err: err)
        release.set()
    assert [h for first in sorted(results) for h in results[first]] == [i * 10 for i in range(12)]
    assert sorted(played_here) == [0, 2, 4, 6, 8, 10]


def test_a_worker_failure_is_raised_as_told_and_the_rest_is_cancelled():
    def broken(chunk):
        raise KeyError("my bug")

    with ThreadPoolExecutor(1) as pool, pytest.raises(RuntimeError, match="told: KeyError"):
        spread.run_shared(pool, lambda chunk: pool.submit(spread.timed, broken, chunk), _play,
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


def test_the_pool_pays_when_its_hands_come_on_top_of_what_this_process_plays():
    # two free cores: each side played 100 hands with a CPU second
    assert spread.pool_pays(wall=1.0, here_hands=100, here_cpu=1.0, pool_hands=100, pool_cpu=1.0)
    # a busy machine that still gave the run 1.4 cores: the workers' time is extra
    assert spread.pool_pays(wall=1.0, here_hands=80, here_cpu=0.8, pool_hands=50, pool_cpu=0.6)
    # the run gets one share of the machine (autogroup) and workers pay 20% more CPU per hand: loop alone is faster
    assert not spread.pool_pays(wall=1.0, here_hands=30, here_cpu=0.3, pool_hands=25, pool_cpu=0.3)
    # less than one core for the run: even workers as good as this process only tie, and a tie goes to the loop
    assert not spread.pool_pays(wall=1.0, here_hands=50, here_cpu=0.5, pool_hands=50, pool_cpu=0.5)
    # a rate measured earlier does not enter: a load that came in mid-run and left the run 1.2 cores
    # keeps the pool, though both sides play slower than at the start
    assert spread.pool_pays(wall=1.0, here_hands=60, here_cpu=0.6, pool_hands=60, pool_cpu=0.6)
    assert spread.pool_pays(wall=1.0, here_hands=0, here_cpu=0.0, pool_hands=0, pool_cpu=0.0)  # nothing yet


class _Machine:
    """A simulated machine: wall and CPU clocks that move as hands are played, no real time (the tests
    judge the decisions, not a speed).

    This process pays ``here`` CPU seconds a hand, a worker ``worker`` (from ``slow_from`` hands on:
    ``slow``).  With ``cores=1`` the run shares one core (its workers' CPU time is taken from its own,
    as under Linux autogroup on a busy machine); with 2 the workers play beside it."""

    def __init__(self, cores, here=0.01, worker=0.01, slow=None, slow_from=0, shared_from=None):
        self.wall = self.cpu_here = 0.0
        self.cores, self.here, self.worker, self.slow, self.slow_from = cores, here, worker, slow, slow_from
        self.shared_from = shared_from  # from this many hands on, the run shares one core (a load came)
        self.played = self.by_pool = 0
        self.sent = []  # the wall time of each chunk sent to the pool

    def local(self, chunk):
        self.played += len(chunk)
        self.cpu_here += self.here * len(chunk)
        self.wall += self.here * len(chunk)
        return _play(chunk)

    def remote(self, chunk):
        from concurrent.futures import Future

        slow = self.slow is not None and self.played + self.by_pool >= self.slow_from
        used = (self.slow if slow else self.worker) * len(chunk)
        shared = self.shared_from is not None and self.played + self.by_pool >= self.shared_from
        if self.cores == 1 or shared:
            self.wall += used  # the worker's CPU came from this run's one core
        self.by_pool += len(chunk)
        self.sent.append(self.wall)
        future = Future()
        future.set_result((used, _play(chunk)))
        return future

    def run(self, hands=4000):
        chunks = spread.chunks_of([(i, i) for i in range(hands)], 2)
        with ThreadPoolExecutor(1) as pool:
            results = spread.run_shared(pool, self.remote, self.local, chunks, workers=1,
                                        on_done=lambda part: None, failed=lambda err: err,
                                        clock=lambda: self.wall, cpu=lambda: self.cpu_here)
        assert [h for first in sorted(results) for h in results[first]] == [i * 10 for i in range(hands)]
        return self.by_pool / hands


def test_workers_that_pay_more_per_hand_on_a_shared_core_get_no_more_chunks_but_a_rare_trial():
    machine = _Machine(cores=1, worker=0.03)  # workers three times as slow, from the start
    share = machine.run()
    assert share < 0.15  # the first window's chunks and a few trials: the rest played here
    later = [t for t in machine.sent if t > spread.WATCH_SECONDS * 1.5]  # after the first judgement
    assert 1 <= len(later) <= 4  # the trials: one chunk each,
    gaps = [b - a for a, b in zip(later, later[1:], strict=False)]
    assert gaps == sorted(gaps)  # ever rarer


def test_a_pool_on_free_cores_keeps_playing_and_one_on_a_shared_core_retreats():
    free = _Machine(cores=2)
    assert free.run() > 0.4  # about half the hands, in the workers
    # workers as fast as this process, on one shared core: sharing plays no more hands than the loop
    shared = _Machine(cores=1)
    assert shared.run() < 0.15


def test_a_load_that_comes_in_mid_run_takes_the_chunks_from_then_on():
    machine = _Machine(cores=2, shared_from=1500)  # two free cores, then one shared core from hand 1,500 on
    share = machine.run(hands=6000)
    assert 0.5 * 1500 / 6000 < share < 0.3  # about half of the first 1,500 hands in the pool, little after
    # workers that slow down in mid-run (a busy core) on a shared core: the same
    machine = _Machine(cores=1, slow=0.05, slow_from=1000)
    assert machine.run(hands=4000) < 0.1


def test_a_trial_is_judged_on_its_chunks_not_on_none():
    """A trial chunk slower than a window (a busy machine) keeps the window open: no verdict, no
    reset of the back-off, until the chunk is back; then it is judged on what it played."""
    clock = {"wall": 0.0, "cpu": 0.0}
    shared = spread._Shared(ThreadPoolExecutor(1), lambda chunk: None, _play, [], 1, lambda part: None,
                            lambda err: err, lambda: clock["wall"], lambda: clock["cpu"])
    shared.retreated, shared.trial, shared.retry_wait = False, True, 16.0
    shared.window.here_hands = 100
    clock["wall"] = 3 * spread.WATCH_SECONDS  # three windows' time, no chunk of the pool back yet
    clock["cpu"] = 0.7 * clock["wall"]  # one shared core: the worker took the rest
    shared.watch()
    assert shared.verdicts == [] and shared.trial and shared.retry_wait == 16.0
    shared.window.pool_hands, shared.window.pool_cpu = 30, 0.9  # the trial's chunk: dear hands on a shared core
    shared.watch()
    assert shared.verdicts == [False] and not shared.trial and shared.retreated
    assert shared.retry_wait == 32.0  # the back-off grows
