"""The browser edition's speed against native Python: random makao hands in Pyodide and here, in one run.

    make site && python benchmarks/browser.py            # 4 rounds of 3 s per engine
    python benchmarks/browser.py --rounds 6 --seconds 2

Serves ``site/`` (``make site``) on localhost, opens it in headless Debian Chromium (Playwright,
as ``tests/browser/drive_site.py`` does), and runs the same code, ``benchmarks/engine.py``'s
``random_games('makao', 2, seconds)``, in the browser's kernel (Pyodide, the pure-Python engine) and
in fresh native processes (pure Python, ``MAUMAU_PURE_PYTHON=1``, and compiled), round after round.
Prints each round's decisions/s and its ratio browser / native pure Python (issue 29's goal: >= 0.6 in
every run), since on a shared machine a single best-of figure hides the rounds that fall short.

The ratio is taken in CPU time on both sides: the native process counts its own (``time.process_time``),
the browser's is read from ``/proc`` for the thread of Chromium's that ran the kernel (Pyodide's web
worker: the thread that worked most in the round; all Chromium's processes together are printed too),
around the round (inside the page the
clocks tell wall time only: Pyodide's ``process_time`` is ``performance.now``).  In wall time the ratio
measured the machine's neighbours as much as the engines: the browser's round and the native one run
one after the other, and a load that comes between them moved the ratio from 0.45 to 3.0 (session 31).
Before the rounds the browser plays ``--warm`` seconds unmeasured: WebAssembly starts in V8's baseline
compiler (Liftoff) and the hot code moves to the optimising one (TurboFan) while it runs, so the first
seconds are slower and their compiling is CPU time of the browser's.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "browser"))

from engine import random_games  # noqa: E402  the figure `make bench` prints

#: Chromium lowers the priority of pages it thinks are in the background (a headless page may count):
#: on a busy machine that alone would make the browser look slow.
FOREGROUND = ["--disable-renderer-backgrounding", "--disable-background-timer-throttling",
              "--disable-backgrounding-occluded-windows"]


def descendants() -> list[int]:
    """The processes this one started, and theirs (Playwright's driver, Chromium and its helpers)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [os.getpid()]
    while frontier:
        pid = frontier.pop()
        children = [c for c, p in parents.items() if p == pid]
        found += children
        frontier += children
    return found


def same_priority() -> int:
    """Chromium runs some of its processes niced (5: a renderer it counts as background); on a busy machine
    that alone slows the browser's Python against the native one.  Put the browser's processes back at
    this process's priority, so that both sides compete alike; the number of processes reniced."""
    mine, done = os.getpriority(os.PRIO_PROCESS, 0), 0
    for pid in descendants():
        try:
            if os.getpriority(os.PRIO_PROCESS, pid) > mine:
                os.setpriority(os.PRIO_PROCESS, pid, mine)
                done += 1
        except OSError:  # gone, or not ours to change (not root): the run says so below
            continue
    return done


def chromium(pids: list[int]) -> list[int]:
    """Those of ``pids`` that are Chromium's processes (not Playwright's driver)."""
    found = []
    for pid in pids:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if b"chrom" in Path(command.decode(errors="replace")).name.encode():
            found.append(pid)
    return found


def thread_ticks(pids: list[int]) -> dict[tuple[int, int], int]:
    """The CPU ticks (user + system) each thread of ``pids`` has used so far, by (process, thread)."""
    ticks = {}
    for pid in pids:
        for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks[(pid, int(stat.parent.name))] = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks


def code(seconds: float, clock: str = "time.perf_counter", warm: float = 0.3) -> str:
    """The round: ``warm`` seconds to warm the caches, then ``seconds`` of ``clock``, decisions counted."""
    return "\n".join(["import json, random, time", "import maumau as mm", inspect.getsource(random_games),
                      f"random_games('makao', 2, {warm}, seed=99)" if warm else "",  # caches warm, as in a long run
                      f"games, decisions, seconds = random_games('makao', 2, {seconds}, clock={clock})",
                      "print(json.dumps({'decisions': decisions, 'seconds': seconds}))"])


class Native:
    """A native Python process kept running (pure or compiled engine) that plays a slice of random makao
    hands when asked: a round interleaves short slices of the browser and of the native engines, so that
    a load that comes and goes falls on both sides alike."""

    SERVE = ("import sys\n" + "\n".join(line for line in code(0.0, "time.process_time").splitlines()
                                           if not line.startswith(("games,", "print(")))
             + "\nfor line in sys.stdin:\n"
               "    games, decisions, seconds = random_games('makao', 2, float(line), clock=time.process_time)\n"
               "    print(json.dumps({'decisions': decisions, 'seconds': seconds}), flush=True)\n")

    def __init__(self, pure: bool) -> None:
        env = {**os.environ, **({"MAUMAU_PURE_PYTHON": "1"} if pure else {})}
        self.process = subprocess.Popen([sys.executable, "-c", self.SERVE], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env, cwd=HERE.parent)

    def play(self, seconds: float) -> tuple[int, float]:
        """(decisions, CPU seconds) of ``seconds`` of this process's CPU time."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{seconds}\n")
        self.process.stdin.flush()
        out = json.loads(self.process.stdout.readline())
        return int(out["decisions"]), float(out["seconds"])

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def native(seconds: float, pure: bool) -> float:
    """Decisions per CPU second of a fresh native process (its own CPU time)."""
    env = {**os.environ, **({"MAUMAU_PURE_PYTHON": "1"} if pure else {})}
    done = subprocess.run([sys.executable, "-c", code(seconds, "time.process_time")], capture_output=True,
                          text=True, check=True, env=env, cwd=HERE.parent)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return float(out["decisions"] / out["seconds"])


def browser_slice(page: Any, execute: str, seconds: float, warm: float = 0.0) -> tuple[int, float, float, float]:
    """One slice in the page: (decisions, CPU seconds of the kernel's thread, the thread of Chromium's
    that worked most: Pyodide's web worker; CPU seconds of all Chromium's processes; wall seconds)."""
    browser = chromium(descendants())
    before = thread_ticks(browser)
    out = page.evaluate(execute, code(seconds, warm=warm))
    after = thread_ticks(browser)
    if "ERROR" in out:
        raise SystemExit(f"the browser's kernel failed: {out}")
    used = [after[t] - before.get(t, 0) for t in after]
    tick = os.sysconf("SC_CLK_TCK")
    done = json.loads(out.strip().splitlines()[-1])
    return int(done["decisions"]), max(used, default=0) / tick, sum(used) / tick, float(done["seconds"])


def in_browser(page: Any, execute: str, seconds: float, warm: float = 0.0) -> tuple[float, float, float]:
    """One round in the page: decisions per CPU second of the kernel's thread, per CPU second of all
    Chromium's processes, per wall second."""
    decisions, kernel, everything, wall = browser_slice(page, execute, seconds, warm)
    return decisions / max(kernel, 1e-9), decisions / max(everything, 1e-9), decisions / max(wall, 1e-9)


def interleaved(page: Any, execute: str, seconds: float, natives: dict[str, Native],
                slices: int = 4) -> dict[str, float]:
    """One round: ``slices`` slices of ``seconds / slices`` in turn in the browser and in each native
    process; decisions per CPU second of each over the round (``browser``, ``browser, all Chromium``,
    ``browser, wall``, and the natives' names)."""
    sums: dict[str, list[float]] = {name: [0, 0.0] for name in ("browser", "browser, all Chromium",
                                                                   "browser, wall", *natives)}
    for _ in range(slices):
        decisions, kernel, everything, wall = browser_slice(page, execute, seconds / slices)
        for name, used in (("browser", kernel), ("browser, all Chromium", everything), ("browser, wall", wall)):
            sums[name][0] += decisions
            sums[name][1] += used
        for name, process in natives.items():
            decisions, used = process.play(seconds / slices)
            sums[name][0] += decisions
            sums[name][1] += used
    return {name: done / max(used, 1e-9) for name, (done, used) in sums.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--warm", type=float, default=6.0, help="seconds the browser plays before the rounds")
    args = parser.parse_args(argv)
    import drive_site as site  # tests/browser: the server, Chromium's flags, the kernel's EXECUTE
    from playwright.sync_api import sync_playwright

    if not (site.SITE / "jupyter-lite.json").exists():
        sys.exit(f"no site in {site.SITE}: run `make site` first")
    server, url = site.serve(site.SITE)
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=site.CHROMIUM, args=[*site.ARGS, *FOREGROUND])
        page = browser.new_context(viewport=site.VIEWPORT).new_page()
        began = time.perf_counter()
        page.goto(f"{url}/lab/index.html?path=01_start_here.ipynb", wait_until="domcontentloaded")
        page.wait_for_function(f"() => {site.APP} && {site.APP}.shell && {site.APP}.shell.currentWidget"
                               f" && {site.APP}.shell.currentWidget.sessionContext", timeout=120_000)
        page.evaluate(f"async () => {{ await {site.APP}.shell.currentWidget.sessionContext.ready; }}")
        reniced = same_priority()
        in_browser(page, site.EXECUTE, args.warm, warm=0.3)  # V8 optimises the hot WebAssembly meanwhile
        print(f"kernel ready in {time.perf_counter() - began:.1f} s; {reniced} niced browser processes put back at "
              f"the native processes' priority; {args.warm:g} s of warm-up in the browser; {args.rounds} rounds of "
              f"{args.seconds:g} s per engine, each in 4 slices taken in turn, random makao, 2 players (decisions per "
              "CPU second)")
        natives = {"native pure": Native(pure=True), "native compiled": Native(pure=False)}
        try:
            for process in natives.values():
                process.play(0.3)  # caches warm, as in a long run
            for r in range(args.rounds):
                speed = interleaved(page, site.EXECUTE, args.seconds, natives)
                inside, pure, compiled = speed["browser"], speed["native pure"], speed["native compiled"]
                rows.append((inside, pure, compiled))
                print(f"round {r + 1}: browser {inside:>9,.0f} (all Chromium {speed['browser, all Chromium']:>9,.0f}, "
                      f"per wall s {speed['browser, wall']:>9,.0f})   native pure {pure:>9,.0f}   "
                      f"native compiled {compiled:>9,.0f}   browser/pure {inside / pure:.2f}   "
                      f"browser/compiled {inside / compiled:.2f}")
        finally:
            for process in natives.values():
                process.close()
        browser.close()
    server.shutdown()
    ratios = [b / p for b, p, _ in rows]
    print(f"browser / native pure Python (CPU time): {min(ratios):.2f}-{max(ratios):.2f} over {len(rows)} rounds, "
          f"median {statistics.median(ratios):.2f}; load average {os.getloadavg()[0]:.1f} "
          f"(goal >= 0.6 in every run: {'met' if min(ratios) >= 0.6 else 'not met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
