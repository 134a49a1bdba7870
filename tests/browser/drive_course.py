"""The whole course in a real JupyterLab, in headless Debian Chromium driven by Playwright.

run.sh starts JupyterLab (galata's configuration) and calls this with MM_URL, MM_TOKEN, MM_ROOT
(the server's root folder) and MM_OUT.  It copies ``notebooks/`` and ``exercises/`` into
MM_ROOT/course (notebook 08 reads ``../exercises``) without their outputs, so the committed
notebooks are never touched, and then, one notebook after the other:

* opens it, runs every cell (*Run All*) and waits until the run is over, the kernel is idle and
  every code cell has an execution count;
* fails on an error output, on any stderr output, on a code cell that did not run, on a widget
  output that does not render (no widget view in its output, or "Loading widget..." /
  "Error displaying widget"), on a plot image that does not load, on a JupyterLab dialog (an
  error message) and on a dead kernel;
* saves screenshots of the whole notebook, scrolled page by page, as
  MM_OUT/course/NN_name-K.png, and the executed copy stays in MM_ROOT/course/notebooks;
* shuts the kernel down and closes the notebook.

COURSE_NOTEBOOKS=01,03 runs only the notebooks whose names start with these prefixes;
COURSE_TIMEOUT (seconds, default 600) bounds one notebook's run.  Every request that leaves
the local server is aborted and counted; the count must be 0.  A table of cells, errors,
stderr outputs, widgets, plots and seconds per notebook is printed and written to
MM_OUT/course/report.md.  Exit code 0 when every notebook passed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

from playwright.sync_api import Page, Route, sync_playwright

REPO = Path(__file__).resolve().parents[2]
URL, TOKEN = os.environ["MM_URL"], os.environ["MM_TOKEN"]
ROOT, OUT = Path(os.environ["MM_ROOT"]), Path(os.environ["MM_OUT"]) / "course"
CHROMIUM = os.environ.get("MM_CHROMIUM", "/usr/bin/chromium")
TIMEOUT = float(os.environ.get("COURSE_TIMEOUT", "600"))
SOURCE = Path(os.environ.get("COURSE_DIR", REPO / "notebooks"))  # another folder only to test this test
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1280, "height": 1400}

# Open the notebook's session, make it the current widget, hide the side bars and start Run All
# without waiting for it: the Python side polls, with a timeout.
START = """async () => {
  const app = window.galata.app;
  const nb = app.shell.currentWidget;
  await nb.context.ready;
  await nb.sessionContext.ready;
  app.shell.activateById(nb.id);
  app.shell.collapseLeft();
  app.shell.collapseRight();
  window.mmRun = {done: false, result: null, failure: null};
  app.commands.execute('notebook:run-all-cells').then(
    (r) => { window.mmRun.done = true; window.mmRun.result = r; },
    (e) => { window.mmRun.done = true; window.mmRun.failure = String(e); });
}"""

# Where the run stands: the kernel's status, the code cells still without an execution count,
# whether an error output appeared (Run All stops there) and whether a dialog is open.
PROGRESS = """() => {
  const nb = window.galata.app.shell.currentWidget;
  const kernel = nb.sessionContext.session && nb.sessionContext.session.kernel;
  const shown = nb.sessionContext.kernelDisplayStatus;
  let waiting = 0, failed = false;
  for (const cell of nb.content.widgets) {
    if (cell.model.type !== 'code') continue;
    if (cell.model.executionCount === null) waiting += 1;
    const outputs = cell.model.outputs;
    for (let j = 0; j < outputs.length; j++) if (outputs.get(j).type === 'error') failed = true;
  }
  const dialog = document.querySelector('.jp-Dialog');
  return {kernel: kernel ? kernel.status : 'none', shown, done: window.mmRun.done, waiting, failed,
          dialog: dialog ? dialog.innerText : null};
}"""

# Every cell and output of the notebook, with what its view shows.
SURVEY = """() => {
  const nb = window.galata.app.shell.currentWidget;
  const WIDGET = 'application/vnd.jupyter.widget-view+json';
  const cells = [];
  nb.content.widgets.forEach((cell, index) => {
    const entry = {index, type: cell.model.type, count: null, outputs: [], headings: []};
    if (cell.model.type === 'markdown') {
      entry.rendered = cell.rendered;
      entry.headings = Array.from(cell.node.querySelectorAll('.jp-RenderedMarkdown h1, .jp-RenderedMarkdown h2, '
                                                             + '.jp-RenderedMarkdown h3'))
                            .map((h) => h.innerText.replace(/\\u00b6$/, '').trim());
    }
    if (cell.model.type === 'code') {
      entry.count = cell.model.executionCount;
      entry.source = cell.model.sharedModel.getSource().split('\\n')[0].slice(0, 80);
      const area = cell.outputArea;
      for (let j = 0; j < area.model.length; j++) {
        const json = area.model.get(j).toJSON();
        const view = area.widgets[j] ? area.widgets[j].node : null;
        const out = {type: json.output_type, name: json.name || null};
        if (json.output_type === 'stream') out.text = String(json.text).slice(0, 2000);
        if (json.output_type === 'error') {
          out.text = json.ename + ': ' + json.evalue;
          out.traceback = (json.traceback || []).join('\\n').replace(/\\x1b\\[[0-9;]*m/g, '').slice(-3000);
        }
        const data = json.data || {};
        out.mimes = Object.keys(data);
        if (WIDGET in data) {
          const text = view ? view.innerText : '';
          out.widget = {
            view: !!(view && view.querySelector('.jupyter-widgets')),
            loading: text.includes('Loading widget'),
            error: text.includes('Error displaying widget'),
            text: text.slice(0, 200),
          };
        }
        if ('image/png' in data || 'image/svg+xml' in data) {
          const img = view ? view.querySelector('img, svg') : null;
          out.image = !!img && (img.tagName.toLowerCase() === 'svg' || (img.complete && img.naturalWidth > 0));
        }
        entry.outputs.push(out);
      }
    }
    cells.push(entry);
  });
  return cells;
}"""

# The notebook's scrolling element: its height, the visible height, and a scroll to a position.
# (JupyterLab 4 scrolls the notebook's .jp-WindowedPanel-outer, inside the notebook's node).
FIND_SCROLLER = """() => { const n = window.galata.app.shell.currentWidget.content.node;
                           return n.querySelector('.jp-WindowedPanel-outer') || n; }"""
# The height of the cells (not of the empty space JupyterLab adds after the last one).
SCROLLER = f"""() => {{
  const n = ({FIND_SCROLLER})();
  const cells = window.galata.app.shell.currentWidget.content.widgets;
  const last = cells[cells.length - 1].node.getBoundingClientRect().bottom;
  const end = last - n.getBoundingClientRect().top + n.scrollTop + 16;
  return [Math.min(n.scrollHeight, Math.ceil(end)), n.clientHeight];
}}"""
SCROLL_TO = f"""(y) => {{ const n = ({FIND_SCROLLER})(); n.scrollTop = y; return n.scrollTop; }}"""

CLOSE = """async () => {
  const nb = window.galata.app.shell.currentWidget;
  await nb.context.save();
  await nb.sessionContext.shutdown();
  nb.dispose();
}"""


def prepare() -> list[Path]:
    """Copies of the course notebooks (without outputs) and of the exercises beside them."""
    course = ROOT / "course"
    shutil.rmtree(course, ignore_errors=True)
    (course / "notebooks").mkdir(parents=True)
    shutil.copytree(REPO / "exercises", course / "exercises")
    wanted = [p.strip() for p in os.environ.get("COURSE_NOTEBOOKS", "").split(",") if p.strip()]
    copies = []
    for source in sorted(SOURCE.glob("*.ipynb")):
        if wanted and not any(source.name.startswith(prefix) for prefix in wanted):
            continue
        nb = json.loads(source.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
        copy = course / "notebooks" / source.name
        copy.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        copies.append(copy)
    if not copies:
        sys.exit(f"COURSE_NOTEBOOKS={os.environ.get('COURSE_NOTEBOOKS')!r} names no notebook in {SOURCE}")
    return copies


def wait_for_run(page: Page, problems: list[str]) -> None:
    """Polls until Run All is over, no code cell waits and the kernel has been idle for three polls (1.5 s)."""
    deadline, idle = time.monotonic() + TIMEOUT, 0
    while True:
        state = page.evaluate(PROGRESS)
        if state["dialog"]:
            problems.append(f"JupyterLab dialog: {state['dialog'][:300]!r}")
            return
        if state["kernel"] == "dead":
            problems.append(f"the kernel is {state['kernel']}")
            return
        finished = state["done"] and (state["waiting"] == 0 or state["failed"])
        idle = idle + 1 if finished and state["kernel"] == state["shown"] == "idle" else 0
        if idle >= 3:
            return
        if time.monotonic() > deadline:
            problems.append(f"not finished after {TIMEOUT:.0f} s: {state}")
            return
        time.sleep(0.5)


def check(cells: list[dict], problems: list[str]) -> dict[str, int]:
    """The failures among the surveyed cells; returns the counts for the report."""
    counts = {"cells": len(cells), "code": 0, "markdown": 0, "errors": 0, "stderr": 0, "widgets": 0,
              "widgets_ok": 0, "images": 0}
    for cell in cells:
        where = f"cell {cell['index'] + 1}"
        counts[cell["type"]] = counts.get(cell["type"], 0) + 1
        if cell["type"] == "markdown" and not cell.get("rendered"):
            problems.append(f"{where}: Markdown not rendered")
        if cell["type"] != "code":
            continue
        if cell["count"] is None:
            problems.append(f"{where} did not run or did not finish ({cell['source']!r})")
        for out in cell["outputs"]:
            if out["type"] == "error":
                counts["errors"] += 1
                problems.append(f"{where} ({cell['source']!r}) raised {out['text']}\n{out['traceback']}")
            elif out["type"] == "stream" and out["name"] == "stderr":
                counts["stderr"] += 1
                problems.append(f"{where} ({cell['source']!r}) wrote to stderr: {out['text']!r}")
            if "widget" in out:
                counts["widgets"] += 1
                w = out["widget"]
                if w["view"] and not w["loading"] and not w["error"]:
                    counts["widgets_ok"] += 1
            if "image" in out:
                counts["images"] += 1
                if not out["image"]:
                    problems.append(f"{where} ({cell['source']!r}): a plot image did not load")
    return counts


def widgets_settled(page: Page, timeout: float = 60) -> list[dict]:
    """The survey once every widget output shows its view (or after the timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        cells = page.evaluate(SURVEY)
        widgets = [o["widget"] for c in cells for o in c["outputs"] if "widget" in o]
        if all(w["view"] and not w["loading"] for w in widgets) or time.monotonic() > deadline:
            return cells
        time.sleep(0.5)


def screenshots(page: Page, stem: str) -> list[Path]:
    """The notebook from top to bottom, one viewport at a time (a little overlap between shots)."""
    height, visible = page.evaluate(SCROLLER)
    step = max(visible - 80, 200)
    paths, y = [], 0
    while True:
        page.evaluate(SCROLL_TO, y)
        time.sleep(0.3)
        path = OUT / f"{stem}-{len(paths) + 1}.png"
        page.screenshot(path=str(path))
        paths.append(path)
        if y + visible >= height or len(paths) >= 40:
            return paths
        y += step


def open_lab(page: Page) -> None:
    page.goto(f"{URL}/lab/workspaces/mm-course?token={TOKEN}", wait_until="domcontentloaded")  # not the table's tabs
    page.wait_for_function("() => window.galata && window.galata.app && window.galata.app.shell"
                           " && window.galata.app.commands.hasCommand('docmanager:open')", timeout=90_000)
    page.evaluate("async () => { await window.galata.app.restored; }")


def run_notebook(page: Page, copy: Path) -> dict:
    problems: list[str] = []
    began = time.perf_counter()
    path = copy.relative_to(ROOT).as_posix()
    page.evaluate("async (path) => { await window.galata.app.commands.execute('docmanager:open', {path}); }", path)
    page.wait_for_function("(path) => { const w = window.galata.app.shell.currentWidget;"
                           " return w && w.sessionContext && w.context && w.context.path === path; }",
                           arg=path, timeout=90_000)
    page.evaluate(START)
    started = time.perf_counter()
    wait_for_run(page, problems)
    ran = time.perf_counter() - started
    cells = widgets_settled(page)
    counts = check(cells, problems)
    if counts["widgets_ok"] < counts["widgets"]:
        for cell in cells:
            for out in cell["outputs"]:
                w = out.get("widget")
                if w and not (w["view"] and not w["loading"] and not w["error"]):
                    problems.append(f"cell {cell['index'] + 1} ({cell['source']!r}): the widget did not render:"
                                    f" {w['text']!r}")
    shots = screenshots(page, copy.stem)
    if page.locator(".jp-Dialog").count():
        problems.append(f"JupyterLab dialog: {page.locator('.jp-Dialog').first.inner_text()[:300]!r}")
        page.keyboard.press("Escape")
    page.evaluate(CLOSE)
    # Not failures, but worth a look: a sentence rendered as a heading (a Markdown line that starts with '# ').
    headings = [(c["index"], h) for c in cells for h in c["headings"]][1:]  # not the title
    warnings = [f"cell {i + 1}: a sentence as a heading? {h!r}" for i, h in headings if h.endswith(":") or len(h) > 60]
    return {"name": copy.name, **counts, "run_s": round(ran, 1), "total_s": round(time.perf_counter() - began, 1),
            "problems": problems, "warnings": warnings, "screenshots": [p.name for p in shots]}


def report(results: list[dict], outside: list[str], page_errors: list[str]) -> str:
    lines = ["| notebook | cells (code/md) | errors | stderr | widgets rendered | plots | run s | total s | result |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['name']} | {r['cells']} ({r['code']}/{r['markdown']}) | {r['errors']} | {r['stderr']} "
                     f"| {r['widgets_ok']}/{r['widgets']} | {r['images']} | {r['run_s']} | {r['total_s']} "
                     f"| {'ok' if not r['problems'] else 'FAILED'} |")
    for r in results:
        if r["problems"]:
            lines += ["", f"## {r['name']}", ""] + [f"- {p}" for p in r["problems"]]
    warnings = [f"- {r['name']} {w}" for r in results for w in r.get("warnings", [])]
    if warnings:
        lines += ["", "## Warnings (not failures)", ""] + warnings
    if outside:
        lines += ["", f"## {len(outside)} requests outside the local server (aborted)", ""]
        lines += [f"- {u}" for u in sorted(set(outside))]
    if page_errors:
        lines += ["", "## JavaScript errors on the page", ""] + [f"- {e}" for e in page_errors]
    return "\n".join(lines) + "\n"


def main() -> int:
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    copies = prepare()
    outside: list[str] = []
    page_errors: list[str] = []
    results = []

    def route(r: Route) -> None:
        if r.request.url.startswith(URL):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    began = time.perf_counter()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport=VIEWPORT)
        context.route("**/*", route)
        page = context.new_page()
        page.on("pageerror", lambda e: page_errors.append(str(e)))
        open_lab(page)
        print(f"[{time.perf_counter() - began:6.1f}s] JupyterLab is up", flush=True)
        for copy in copies:
            began_notebook = time.perf_counter()
            try:
                result = run_notebook(page, copy)
            except Exception as e:  # a timeout or a broken page: the notebook fails, the next one gets a new page
                result = {"name": copy.name, "cells": 0, "code": 0, "markdown": 0, "errors": 0, "stderr": 0,
                          "widgets": 0, "widgets_ok": 0, "images": 0, "run_s": 0,
                          "total_s": round(time.perf_counter() - began_notebook, 1), "screenshots": [],
                          "problems": [f"the test broke off: {type(e).__name__}: {e}"]}
                page.screenshot(path=str(OUT / f"{copy.stem}-broken.png"))
                page.close()
                page = context.new_page()
                page.on("pageerror", lambda e: page_errors.append(str(e)))
                open_lab(page)
            results.append(result)
            print(f"[{time.perf_counter() - began:6.1f}s] {copy.name}: {result['cells']} cells, "
                  f"{result['errors']} errors, {result['stderr']} stderr, widgets {result['widgets_ok']}/"
                  f"{result['widgets']}, {result['images']} plots, run {result['run_s']} s, "
                  f"{len(result['screenshots'])} screenshots{'' if not result['problems'] else ', FAILED'}",
                  flush=True)
        browser.close()
    text = report(results, outside, page_errors)
    (OUT / "report.md").write_text(text, encoding="utf-8")
    (OUT / "report.json").write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    print(text)
    # JavaScript errors fail the pass only when they come from the widgets or maumau (as drive_table.py).
    widget_errors = [e for e in page_errors if re.search(r"widget|maumau", e, re.I)]
    failed = [r["name"] for r in results if r["problems"]]
    if failed or outside or widget_errors:
        print(f"course pass FAILED: {', '.join(failed) or 'requests outside / widget errors'}; see {OUT}/report.md",
              file=sys.stderr)
        return 1
    print(f"course pass: {len(results)} notebooks passed in {time.perf_counter() - began:.0f} s; screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
