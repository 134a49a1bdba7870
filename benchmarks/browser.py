"""The browser edition's speed against native Python: random makao hands in Pyodide and here, in one run.

    make site && python benchmarks/browser.py            # 4 rounds of 3 s per engine
    python benchmarks/browser.py --rounds 6 --seconds 2

Serves ``site/`` (``make site``) on localhost, opens it in headless Debian Chromium (Playwright,
as ``tests/browser/drive_site.py`` does), and runs the same code, ``benchmarks/engine.py``'s
``random_games('makao', 2, seconds)``, in the browser's kernel (Pyodide, the pure-Python engine) and
in fresh native processes (pure Python, ``MAUMAU_PURE_PYTHON=1``, and compiled), round after round.
Prints each round's hands/s and its ratio browser / native pure Python (issue 29's goal: >= 0.6 in
every run), since on a shared machine a single best-of figure hides the rounds that fall short.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import subprocess
import sys
import time
from pathlib import Path

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


def code(seconds: float) -> str:
    return "\n".join(["import json, random, time", "import maumau as mm", inspect.getsource(random_games),
                      "random_games('makao', 2, 0.3, seed=99)",  # caches warm, as in a long run
                      f"games, decisions, seconds = random_games('makao', 2, {seconds})",
                      "print(json.dumps({'hands_s': games / seconds, 'decisions_s': decisions / seconds}))"])


def native(text: str, pure: bool) -> float:
    env = {**os.environ, **({"MAUMAU_PURE_PYTHON": "1"} if pure else {})}
    done = subprocess.run([sys.executable, "-c", text], capture_output=True, text=True, check=True, env=env,
                          cwd=HERE.parent)
    return float(json.loads(done.stdout.strip().splitlines()[-1])["decisions_s"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    import drive_site as site  # tests/browser: the server, Chromium's flags, the kernel's EXECUTE
    from playwright.sync_api import sync_playwright

    if not (site.SITE / "jupyter-lite.json").exists():
        sys.exit(f"no site in {site.SITE}: run `make site` first")
    server, url = site.serve(site.SITE)
    text = code(args.seconds)
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
        print(f"kernel ready in {time.perf_counter() - began:.1f} s; {reniced} niced browser processes put back at "
              f"the native processes' priority; {args.rounds} rounds of {args.seconds:g} s "
              f"per engine, random makao, 2 players (decisions/s)")
        for r in range(args.rounds):
            out = page.evaluate(site.EXECUTE, text)
            if "ERROR" in out:
                raise SystemExit(f"the browser's kernel failed: {out}")
            inside = float(json.loads(out.strip().splitlines()[-1])["decisions_s"])
            pure, compiled = native(text, pure=True), native(text, pure=False)
            rows.append((inside, pure, compiled))
            print(f"round {r + 1}: browser {inside:>9,.0f}   native pure {pure:>9,.0f}   native compiled "
                  f"{compiled:>9,.0f}   browser/pure {inside / pure:.2f}   browser/compiled {inside / compiled:.2f}")
        browser.close()
    server.shutdown()
    ratios = [b / p for b, p, _ in rows]
    print(f"browser / native pure Python: {min(ratios):.2f}-{max(ratios):.2f} over {len(rows)} rounds "
          f"(goal >= 0.6 in every run: {'met' if min(ratios) >= 0.6 else 'not met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
