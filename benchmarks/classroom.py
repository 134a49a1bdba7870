"""A class at the class tables: learners playing through the real protocol on loopback.

    python benchmarks/classroom.py                        # 30 learners at 8 tables, 120 s
    python benchmarks/classroom.py --learners 300 --tables 100 --seconds 120   # a school's worth
    python benchmarks/classroom.py --seconds 20 --think 0.1

The server runs in a process of its own (``maumau serve``, as in class); the learners are
websocket clients in this process, each playing its first legal move after a think time drawn
from ``--think`` (seconds, uniformly from half to one and a half of it).  For each move the
benchmark measures the time from sending it to the moment *every* seat of the table has the
table that includes it, and prints throughput and latency percentiles.  At the end it checks
that no move was lost or made twice: the moves the server acknowledged, per table, are exactly
the moves in its database.  The clients record their own event loop's lag (a 10 ms tick's
lateness), so that a slow client is not mistaken for a slow server.  Joins refused as too many
at once from one address (the server's rate limit, as for a class behind one router) are
tried again after a moment.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TOKEN = "benchmark-teacher-token"


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process has used so far (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "maumau", "serve", "--db", str(db), "--port", "0",
                             "--computer-delay", "0", "--pause", "0.5"],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env=dict(os.environ, MAUMAU_TEACHER_TOKEN=TOKEN))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("Serving"):
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.split()[4].replace("http://", "ws://") + "/ws"


class Learner:
    def __init__(self, url: str, code: str, name: str, think: float, stats: Stats, rng: random.Random) -> None:
        self.url, self.code, self.name, self.think, self.stats, self.rng = url, code, name, think, stats, rng
        self.n = -1
        self.table: dict[str, Any] | None = None
        self.ids = 0

    async def run(self, until: float, seated: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        async with connect(self.url, max_size=4 * 1024 * 1024) as ws:
            await ws.send(json.dumps({"type": "join", "code": self.code, "name": self.name, "id": 0}))
            thinking: asyncio.Task[None] | None = None
            async for raw in ws:
                message = json.loads(raw)
                now = time.perf_counter()
                if message.get("id") == 0 and message.get("code") == "rate_limited":
                    await asyncio.sleep(0.3)  # too many joins from this address at once: again shortly
                    await ws.send(json.dumps({"type": "join", "code": self.code, "name": self.name, "id": 0}))
                    continue
                if message.get("type") == "table":
                    self.table = message
                    self.stats.heard(self.code, self.name, message["n"], now)
                    seated.set()
                elif message.get("type") == "ok" and message.get("id", 0) > 0:
                    self.stats.acked(self.code, message["n"])
                    thinking = None
                elif message.get("type") == "error" and message.get("id", 0) > 0:
                    self.stats.errors += 1
                    thinking = None
                # after a table or an answer: the same seat may move again (an Ace's extra play),
                # and the new table comes before the answer to the move that led to it
                table = self.table
                if table is not None and table["n"] > self.n and self.my_turn() and now < until and thinking is None:
                    self.n = table["n"]
                    thinking = asyncio.create_task(self.move_later(ws))
                if now >= until and thinking is None:  # nothing in flight: every move sent is answered
                    break

    def my_turn(self) -> bool:
        table = self.table
        if table is None or table["view"] is None or "hand" not in table["view"]:
            return False
        view = table["view"]
        return not view["over"] and table["hand_seats"][view["to_move"]] == table["you"] and bool(view["legal"])

    async def move_later(self, ws: Any) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        assert self.table is not None
        self.ids += 1
        self.stats.sent(self.code, self.table["n"] + 1, time.perf_counter(), len(self.table["seats"]))
        await ws.send(json.dumps({"type": "move", "move": self.table["view"]["legal"][0],
                                  "seq": self.table["n"], "id": self.ids}))


class Stats:
    def __init__(self) -> None:
        self.pending: dict[tuple[str, int], tuple[float, int, set[str]]] = {}
        self.latencies: list[float] = []
        self.acks: dict[str, list[int]] = {}
        self.errors = 0
        self.lags: list[float] = []

    def sent(self, code: str, n: int, at: float, seats: int) -> None:
        self.pending[(code, n)] = (at, seats, set())

    def heard(self, code: str, who: str, n: int, at: float) -> None:
        for key in [k for k in self.pending if k[0] == code and k[1] <= n]:
            start, seats, heard = self.pending[key]
            heard.add(who)
            if len(heard) == seats:
                self.latencies.append(at - start)
                del self.pending[key]

    def acked(self, code: str, n: int) -> None:
        self.acks.setdefault(code, []).append(n)


async def lag_monitor(lags: list[float], tick: float = 0.01) -> None:
    """How late this process's event loop wakes a 10 ms sleep: the client's own lag."""
    while True:
        began = time.perf_counter()
        await asyncio.sleep(tick)
        lags.append(time.perf_counter() - began - tick)


async def lesson(url: str, codes: list[tuple[str, int]], seconds: float, think: float) -> Stats:
    stats, rng = Stats(), random.Random(1)
    monitor = asyncio.create_task(lag_monitor(stats.lags))
    until = time.perf_counter() + seconds
    tasks = []
    for code, seats in codes:
        for _ in range(seats):
            seated = asyncio.Event()
            learner = Learner(url, code, f"L{len(tasks) + 1}", think, stats, random.Random(rng.random()))
            tasks.append(asyncio.create_task(learner.run(until, seated)))
            await seated.wait()
    # a learner whose turn does not come again stops waiting shortly after the lesson
    done, late = await asyncio.wait(tasks, timeout=max(0.0, until - time.perf_counter()) + 3)
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    for task in done:
        task.result()
    monitor.cancel()
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds a learner thinks (default 0.5)")
    args = parser.parse_args()
    from websockets.sync.client import connect

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "class.sqlite"
        proc, url = start_server(db)
        try:
            sizes = [args.learners // args.tables + (i < args.learners % args.tables) for i in range(args.tables)]
            codes = []
            with connect(url) as ws:
                for i, seats in enumerate(sizes):
                    ws.send(json.dumps({"type": "create", "teacher": TOKEN, "id": i + 1, "table": {
                        "variant": "makao", "seats": seats, "seed": i, "options": {"limit": 10_000}}}))
                    while (answer := json.loads(ws.recv())).get("id") != i + 1:
                        pass
                    codes.append((answer["code"], seats))
            cpu_before = server_cpu(proc.pid)
            started = time.perf_counter()
            stats = asyncio.run(lesson(url, codes, args.seconds, args.think))
            took = time.perf_counter() - started
            cpu = server_cpu(proc.pid) - cpu_before
        finally:
            proc.terminate()
            proc.wait(10)
        with sqlite3.connect(db) as con:
            stored = dict(con.execute("SELECT code, COUNT(*) FROM actions WHERE kind = 'move' GROUP BY code"))
    moves = sum(len(v) for v in stats.acks.values())
    lat = sorted(stats.latencies)
    pct = {p: 1000 * lat[min(len(lat) - 1, int(p / 100 * len(lat)))] for p in (50, 95, 99)} if lat else {}
    print(f"{args.learners} learners at {args.tables} tables, {took:.0f} s, think {args.think} s: "
          f"{moves} moves acknowledged, {moves / took:.1f} moves/s, {stats.errors} refused")
    if lat:
        print(f"move -> every seat's update: p50 {pct[50]:.1f} ms, p95 {pct[95]:.1f} ms, p99 {pct[99]:.1f} ms, "
              f"max {1000 * lat[-1]:.1f} ms, mean {1000 * statistics.mean(lat):.1f} ms ({len(lat)} moves)")
    print(f"the server's own CPU: {cpu:.1f} s in {took:.0f} s ({100 * cpu / took:.0f}% of one core), "
          f"{1000 * cpu / max(moves, 1):.2f} ms per move (load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores: other work on the machine shows in the latencies, not here)")
    lags = sorted(stats.lags)
    if lags:
        print(f"the clients' own event loop lag: p50 {1000 * lags[len(lags) // 2]:.1f} ms, "
              f"p95 {1000 * lags[int(0.95 * len(lags))]:.1f} ms, max {1000 * lags[-1]:.1f} ms")
    duplicated = [code for code, acks in stats.acks.items() if len(set(acks)) != len(acks)]
    mismatched = {code: (len(stats.acks.get(code, [])), stored.get(code, 0)) for code, _ in codes
                  if len(stats.acks.get(code, [])) != stored.get(code, 0)}
    if duplicated or mismatched:
        print(f"LOST OR DUPLICATED: tables {duplicated}; acknowledged vs stored {mismatched}")
        raise SystemExit(1)
    print("no move lost or made twice: every acknowledged move is in the database once, and nothing else")


if __name__ == "__main__":
    main()
