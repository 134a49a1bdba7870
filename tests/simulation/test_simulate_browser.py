"""mm.simulate in the browser edition (Pyodide): no thread, no process, no warning, the same numbers.

Pyodide is played here: ``sys.platform`` is ``"emscripten"``, ``os.cpu_count()`` is 1, starting a
thread raises as it does there ("can't start new thread"), and so does making a process pool.
"""

from __future__ import annotations

import concurrent.futures
import os
import sys
import threading
import warnings

import pytest
import tqdm.auto

import maumau as mm
from maumau.simulation import SimulationError
from maumau.simulation.run import can_start_workers


@pytest.fixture
def pyodide(monkeypatch):
    """This Python as Pyodide's: every thread or process pool started fails loudly."""
    started = []

    def no_thread(self):
        started.append(self)
        raise RuntimeError("can't start new thread")

    def no_pool(*args, **kwargs):
        raise RuntimeError("no process pool in Pyodide")

    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_pool)
    # a fresh tqdm, as in a new kernel: no monitor thread yet (one from an earlier test would be reused)
    monkeypatch.setattr(tqdm.auto.tqdm, "monitor", None)
    monkeypatch.setattr(tqdm.auto.tqdm, "monitor_interval", tqdm.auto.tqdm.monitor_interval)
    return started


def _native(games: int, seed: int):
    return mm.simulate("makao", players=["random", "heuristic"], games=games, seed=seed, executor="serial",
                       progress=False)


def test_a_native_python_can_start_workers():
    assert can_start_workers()


def test_simulate_in_pyodide_runs_serially_quietly_and_gives_the_same_numbers(pyodide):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # 200 hands: over POOL_FROM, where a native Python starts a process pool
        browser = mm.simulate("makao", players=["random", "heuristic"], games=200, seed=5, progress=True)
    assert not pyodide, "a thread was started"
    assert not can_start_workers()
    assert browser.hands == _native(200, 5).hands


def test_the_progress_bar_works_without_its_monitor_thread(pyodide, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mm.simulate("makao", players=["random", "heuristic"], games=5, seed=1, progress=True)
        mm.simulate("makao", players=["random", "heuristic"], games=5, seed=1, progress=False)
    assert "simulate makao" in capsys.readouterr().err
    assert not pyodide and tqdm.auto.tqdm.monitor_interval == 0


def test_a_process_pool_asked_for_in_pyodide_is_a_clear_error(pyodide):
    with pytest.raises(SimulationError, match="executor='process' needs worker processes.*emscripten"):
        mm.simulate("makao", games=5, executor="process", progress=False)


FIRST_STEPS = """
import threading
def no_thread(self):
    raise RuntimeError("can't start new thread: " + self.name)
threading.Thread.start = no_thread

import maumau as mm
from maumau import graph as gr

mm.Game(mm.deal("makao", players=3, seed=2)).play([mm.players.Heuristic(seed=i) for i in range(3)])
table = mm.play("makao", opponents=2, seed=3)
G = mm.state_graph(gr.fixed_stock(mm.position("makao", hands=["8S QD", "3H 3S"], top="10S", stock="8D")))
gr.draw(G).spec
print("no thread")
"""


def test_import_and_first_steps_start_no_thread():
    """What the browser edition does first (import maumau, play a hand, show a table, draw a graph),
    in a Python where starting a thread raises, as in Pyodide."""
    import subprocess

    done = subprocess.run([sys.executable, "-W", "error", "-c", FIRST_STEPS], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout == "no thread\n", done.stderr[-2000:]
