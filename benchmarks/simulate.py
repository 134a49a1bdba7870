"""Simulation benchmark: hands/s of ``mm.simulate`` by executor, in one run.

    python benchmarks/simulate.py                       # 2 Heuristic makao players, 20,000 hands
    python benchmarks/simulate.py --games 100000 --dask # also on a dask LocalCluster

Prints hands/s for the plain loop (``executor="serial"``), the default (None: this process and
worker processes over the machine's cores), and, with ``--dask``, a dask ``LocalCluster`` (one
worker process per core) through ``client.get_executor()``; each result is checked to be the
same hands as the serial run's.  The issue's goal: 100,000 hands in at most 10 s on 2 cores,
and the default never slower than the plain loop.
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
    parser.add_argument("--dask", action="store_true", help="also on a dask LocalCluster")
    args = parser.parse_args(argv)
    print(f"makao, 2 Heuristic players, {args.games:,} hands, {os.cpu_count()} cores, "
          f"{'compiled' if mm.compiled else 'pure Python'} engine")
    serial_s, serial_cpu, serial = timed(args.games, "serial")
    rows = [("serial (plain loop)", serial_s, serial_cpu, serial)]
    rows.append(("default (None)", *timed(args.games, None)))
    if args.dask:
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=logging.CRITICAL) as cluster, Client(cluster) as client:
            client.run(lambda: __import__("maumau"))  # the workers import maumau before the clock starts
            rows.append(("dask LocalCluster", *timed(args.games, client.get_executor())))  # workers' CPU not counted
    for name, seconds, used, result in rows:
        same = "same hands" if result.hands == serial.hands else "DIFFERENT HANDS"
        print(f"{name:<22}{seconds:>8.2f} s {args.games / seconds:>10,.0f} hands/s {serial_s / seconds:>6.2f}× "
              f"serial  {same}   {used:>6.1f} CPU s, {args.games / max(used, 1e-9):,.0f} hands per CPU s")
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores (above the core count, other work shared them). "
          f"On {os.cpu_count()} free cores the serial loop's CPU time gives "
          f"{args.games / serial_cpu:,.0f} hands/s serial and at most "
          f"{args.games / serial_cpu * (os.cpu_count() or 1):,.0f} with every core")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
