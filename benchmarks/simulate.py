"""Simulation benchmark: hands/s of ``mm.simulate`` by executor, in one run.

    python benchmarks/simulate.py                       # 2 Heuristic makao players, 20,000 hands
    python benchmarks/simulate.py --games 100000 --dask # also on a dask LocalCluster

Prints hands/s for the plain loop (``executor="serial"``), the default (None: this process and
worker processes over the machine's cores), and, with ``--dask``, a dask ``LocalCluster`` (one
worker process per core) through ``client.get_executor()``; each result is checked to be the
same hands as the serial run's.  The issue's goal: 100,000 hands in at most 10 s on 2 cores,
and the default never slower than the plain loop.  ``--rounds 3`` runs the two in turn three times (on
a shared machine the load changes between two runs; in turn, it falls on both alike) and prints how
the default's pool was judged each second (+ kept, - retreated: ``maumau.simulation.spread``).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import maumau as mm  # noqa: E402
from maumau.simulation import spread  # noqa: E402


def cpu() -> float:
    """CPU seconds of this process and of its children that have ended (a process pool's workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(games: int, executor, seed: int = 1) -> tuple[float, float, mm.simulation.Simulation]:
    start, used = time.perf_counter(), cpu()
    result = mm.simulate("makao", players=["heuristic", "heuristic"], games=games, seed=seed, executor=executor,
                         progress=False)
    return time.perf_counter() - start, cpu() - used, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=1, help="serial and default in turn, this many times")
    parser.add_argument("--dask", action="store_true", help="also on a dask LocalCluster")
    args = parser.parse_args(argv)
    print(f"makao, 2 Heuristic players, {args.games:,} hands, {os.cpu_count()} cores, "
          f"{'compiled' if mm.compiled else 'pure Python'} engine")
    rows, serial = [], None
    for r in range(args.rounds):
        load = os.getloadavg()[0]
        serial_s, serial_cpu, result = timed(args.games, "serial")
        serial = serial or result
        rows.append((f"{r + 1}: serial (plain loop)", serial_s, serial_cpu, result, load, ""))
        load = os.getloadavg()[0]
        default = timed(args.games, None)
        windows = "".join("+" if v else "-" for v in spread.last_verdicts)
        rows.append((f"{r + 1}: default (None)", *default, load, f"  pool judged by second: {windows or 'none'}"))
    if args.dask:
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=logging.CRITICAL) as cluster, Client(cluster) as client:
            client.run(lambda: __import__("maumau"))  # the workers import maumau before the clock starts
            rows.append(("dask LocalCluster", *timed(args.games, client.get_executor()), os.getloadavg()[0], ""))
    for name, seconds, used, result, load, note in rows:
        same = "same hands" if result.hands == serial.hands else "DIFFERENT HANDS"
        print(f"{name:<25}{seconds:>8.2f} s {args.games / seconds:>10,.0f} hands/s  {same}   {used:>6.1f} CPU s, "
              f"{args.games / max(used, 1e-9):,.0f} hands per CPU s, load {load:.1f}{note}")
    loop = sum(s for name, s, *_ in rows if "serial" in name)
    pool = sum(s for name, s, *_ in rows if "default" in name)
    print(f"default / plain loop over {args.rounds} round(s) taken in turn: {loop / pool:.2f}x "
          f"(wall seconds {loop:.1f} / {pool:.1f}); load average now {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
