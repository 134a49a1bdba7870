"""The live view at class scale: learners reporting their checks while others play at the tables.

    python benchmarks/live_class.py                      # 30 reporters every 0.5 s, 9 players at 3 tables, 30 s
    python benchmarks/live_class.py --every 0.2 --seconds 60
    python benchmarks/live_class.py --every 20 --seconds 120   # as in class: a Run All every 20 s

The server runs in a process of its own (``maumau serve --exercises --roster``, as in class).
Time is compressed: a learner runs their checks every ``--every`` seconds (in class about every
20 s), so the server takes 20 / every times the reports of a real class.  The benchmark runs the
tables twice, the same moves each time (``benchmarks/classroom.py``'s learners, first legal move
after ``--think``): alone, then with the reporters and the teacher's page watching, and prints

* the page's update latency: from a report's sending to the teacher's page (a websocket with the
  teacher's session) holding it, percentiles over every report;
* the tables' move latency (a move's sending to every seat's update) without and with the reports:
  the live view must not change it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from classroom import TOKEN, lesson, server_cpu  # noqa: E402  (benchmarks/classroom.py)

EXERCISE = "02_skip_on_eight"
CHECKS = ("3 players, seat 0 plays 8♥", "3 players, seat 0 plays 5♣ (no effect)", "2 players, seat 0 plays 8♥")


def start_server(folder: Path, learners: int) -> tuple[subprocess.Popen[str], str]:
    """``maumau serve`` with one exercise and a roster of ``learners``; its page address."""
    source = folder / "exercises"
    source.mkdir()
    shutil.copy(ROOT / "exercises" / f"{EXERCISE}.ipynb", source)
    roster = folder / "roster.csv"
    roster.write_text("learner,name,id,sis_user_id,email\n" + "".join(
        f"l{i:02d},Learner {i:02d},{i},S-{i},l{i}@s.example\n" for i in range(learners)))
    proc = subprocess.Popen([sys.executable, "-m", "maumau", "serve", "--db", str(folder / "class.sqlite"),
                             "--port", "0", "--computer-delay", "0", "--pause", "0.5", "--exercises", str(source),
                             "--roster", str(roster)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env=dict(os.environ, MAUMAU_TEACHER_TOKEN=TOKEN))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("Serving"):
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.split()[4]


def ask(url: str, request: dict[str, Any]) -> dict[str, Any]:
    """One teacher request over the tables' socket, its answer."""
    from websockets.sync.client import connect

    with connect(url.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({**request, "teacher": TOKEN, "id": 1}))
        while (answer := json.loads(ws.recv(10))).get("id") != 1:
            pass
    return answer


class Watch:
    """The reports sent, and when the teacher's page first held each."""

    def __init__(self) -> None:
        self.sent: dict[str, list[tuple[float, int]]] = {}
        self.latencies: list[float] = []
        self.unseen = 0
        self.frames = 0

    def send(self, name: str, state: int, at: float) -> None:
        mine = self.sent.setdefault(name, [])
        if mine:
            self.unseen += 1  # the one before was never shown on its own: a later frame had this one already
        mine[:] = [(at, state)]

    def frame(self, frame: dict[str, Any], at: float) -> None:
        self.frames += 1
        for row in frame["rows"]:
            mine = self.sent.get(row["name"])
            cell = row["cells"].get(EXERCISE)
            if mine and cell is not None and len(cell["failed"]) == mine[0][1]:
                self.latencies.append(at - mine[0][0])
                mine.clear()


async def page(url: str, cookie: str, watch: Watch, ready: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    async with connect(url.replace("http", "ws") + "/live/ws", additional_headers={"Cookie": cookie},
                       max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"type": "watch", "projector": False, "idle": 5, "lang": "en"}))
        async for raw in ws:
            watch.frame(json.loads(raw), time.perf_counter())
            ready.set()


async def reporter(url: str, code: str, name: str, every: float, until: float, watch: Watch,
                   rng: random.Random) -> int:
    """A learner's notebook: a hello, then a Run All every ``every`` seconds (one check failing, then none)."""
    from websockets.asyncio.client import connect

    sent = 0
    async with connect(url.replace("http", "ws") + "/live/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "code": code}))
        assert json.loads(await ws.recv())["type"] == "welcome"
        await asyncio.sleep(rng.uniform(0, every))
        while time.perf_counter() < until:
            state = sent % 2  # checks failing: 1, 0, 1, ...
            checks = [{"scenario": c, "ok": not (state and i == 0)} for i, c in enumerate(CHECKS)]
            watch.send(name, state, time.perf_counter())
            await ws.send(json.dumps({"type": "checks", "exercise": EXERCISE, "checks": checks}))
            answer = json.loads(await ws.recv())
            if answer["type"] != "stored":
                raise SystemExit(f"a report was refused: {answer}")
            sent += 1
            await asyncio.sleep(every * rng.uniform(0.8, 1.2))
    return sent


async def reports(url: str, cookie: str, codes: list[tuple[str, str]], seconds: float, every: float
                  ) -> tuple[Watch, int]:
    """The teacher's page and the reporting learners for ``seconds``."""
    watch, ready = Watch(), asyncio.Event()
    viewer = asyncio.create_task(page(url, cookie, watch, ready))
    await ready.wait()
    until = time.perf_counter() + seconds
    rng = random.Random(2)
    sent = sum(await asyncio.gather(*(reporter(url, code, name, every, until, watch, random.Random(rng.random()))
                                      for code, name in codes)))
    await asyncio.sleep(0.5)
    viewer.cancel()
    await asyncio.gather(viewer, return_exceptions=True)
    return watch, sent


def reports_process(url: str, cookie: str, codes: list[tuple[str, str]], seconds: float, every: float,
                    out: Any) -> None:
    """The reporters in a process of their own: the players' client measures the tables undisturbed."""
    watch, sent = asyncio.run(reports(url, cookie, codes, seconds, every))
    out.put((watch.latencies, watch.frames, watch.unseen, sent))


def percentiles(values: list[float]) -> str:
    if not values:
        return "none measured"
    s = sorted(values)
    at = {p: 1000 * s[min(len(s) - 1, int(p / 100 * len(s)))] for p in (50, 95, 99)}
    return (f"p50 {at[50]:.1f} ms, p95 {at[95]:.1f} ms, p99 {at[99]:.1f} ms, max {1000 * s[-1]:.1f} ms, "
            f"mean {1000 * statistics.mean(s):.1f} ms ({len(s)})")


def tables_for(url: str, players: int, per_table: int) -> list[tuple[str, int]]:
    made = []
    for i in range(players // per_table):
        answer = ask(url, {"type": "create", "table": {"variant": "makao", "seats": per_table, "seed": i,
                                                        "options": {"limit": 10_000}}})
        made.append((answer["code"], per_table))
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--learners", type=int, default=30, help="learners reporting their checks (default 30)")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between a learner's reports (default 0.5)")
    parser.add_argument("--players", type=int, default=9, help="learners playing at the tables (default 9)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of each run (default 30)")
    parser.add_argument("--think", type=float, default=0.2, help="mean seconds a player thinks (default 0.2)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp), args.learners)
        try:
            codes = [(line["code"], line["name"]) for line in ask(url, {"type": "codes"})["codes"]]
            login = urllib.request.Request(url + "/login", headers={"Authorization": f"Teacher {TOKEN}"},
                                           method="POST")
            cookie = urllib.request.urlopen(login).headers["Set-Cookie"].split(";")[0]
            play = url.replace("http", "ws") + "/ws"
            alone = asyncio.run(lesson(play, tables_for(url, args.players, 3), args.seconds, args.think))
            out: multiprocessing.Queue[Any] = multiprocessing.Queue()
            reporting = multiprocessing.Process(target=reports_process,
                                                args=(url, cookie, codes, args.seconds + 1, args.every, out))
            cpu_before, began = server_cpu(proc.pid), time.perf_counter()
            reporting.start()
            time.sleep(1)  # the page watches and every learner said hello
            stats = asyncio.run(lesson(play, tables_for(url, args.players, 3), args.seconds, args.think))
            latencies, frames, unseen, sent = out.get(timeout=args.seconds + 60)
            reporting.join(10)
            cpu, took = server_cpu(proc.pid) - cpu_before, time.perf_counter() - began
            after = asyncio.run(lesson(play, tables_for(url, args.players, 3), args.seconds, args.think))
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"{args.learners} learners reporting every {args.every} s (a class reporting every 20 s, "
          f"{20 / args.every:.0f} times over), {args.players} playing at {args.players // 3} tables, "
          f"{args.seconds:.0f} s per run")
    print(f"reports: {sent} stored ({sent / took:.1f}/s), {frames} page frames, "
          f"{unseen} reports overtaken by the next before a frame showed them")
    print(f"report -> the teacher's page:     {percentiles(latencies)}")
    print(f"the tables' moves, alone:         {percentiles(alone.latencies)}")
    print(f"the tables' moves, with reports:  {percentiles(stats.latencies)}")
    print(f"the tables' moves, alone again:   {percentiles(after.latencies)}")
    print(f"the server's own CPU with reports: {cpu:.1f} s in {took:.0f} s ({100 * cpu / took:.0f}% of one core; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    slow = sorted(latencies)[int(0.95 * len(latencies))] if latencies else float("inf")
    if slow >= 1.0:
        print("SLOW: the page's p95 update took a second or more")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
