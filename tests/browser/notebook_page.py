"""A notebook in a JupyterLab page (real JupyterLab or JupyterLite), driven by Playwright:
Run All, wait until it is over, survey every cell and output, check them, take screenshots.

The course pass of real JupyterLab (drive_course.py) and of the JupyterLite site (drive_site.py)
share it; ``APP`` is the page's JupyterLab application object (``window.galata.app`` under galata's
configuration, ``window.jupyterapp`` in JupyterLite).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Error, Page

# Open the notebook's session, make it the current widget, hide the side bars and start Run All
# without waiting for it: the Python side polls, with a timeout.
START = """async () => {
  const app = APP;
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
  const nb = APP.shell.currentWidget;
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
  const nb = APP.shell.currentWidget;
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
FIND_SCROLLER = """() => { const n = APP.shell.currentWidget.content.node;
                           return n.querySelector('.jp-WindowedPanel-outer') || n; }"""
# The height of the cells (not of the empty space JupyterLab adds after the last one).
SCROLLER = f"""() => {{
  const n = ({FIND_SCROLLER})();
  const cells = APP.shell.currentWidget.content.widgets;
  const last = cells[cells.length - 1].node.getBoundingClientRect().bottom;
  const end = last - n.getBoundingClientRect().top + n.scrollTop + 16;
  return [Math.min(n.scrollHeight, Math.ceil(end)), n.clientHeight];
}}"""
SCROLL_TO = f"""(y) => {{ const n = ({FIND_SCROLLER})(); n.scrollTop = y; return n.scrollTop; }}"""

# Closes the current notebook once JupyterLab has put all its cells on the page: the notebook adds
# them on idle time (windowing modes "defer", "contentVisibility"), and an idle callback still pending
# when the notebook is disposed fails inside JupyterLab ("Cannot read properties of null (reading
# 'insertWidget')": the disposed notebook has no layout). The kernel is shut down after the notebook
# is gone, not before: the widgets' manager answers a change of the notebook's kernel by registering
# again, and with the session already shut down it read a session that was gone ("Cannot read
# properties of null (reading 'kernel')"); a kernel still starting is waited for (up to 3 min).
CLOSE = """async () => {
  const nb = APP.shell.currentWidget;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
  const rendered = () => nb.content.widgets.every((cell) => !cell.isPlaceholder()) && !nb.content._idleCallBack;
  for (let waited = 0; waited < 30000 && !rendered(); waited += 100) await pause();
  // sessionContext.ready comes before the kernel connects: wait for an idle kernel instead
  const idle = () => nb.sessionContext.session && nb.sessionContext.kernelDisplayStatus === 'idle';
  for (let waited = 0; waited < 180000 && !idle(); waited += 100) await pause();
  const session = nb.sessionContext.session;
  await nb.context.save();
  nb.dispose();
  await pause();
  if (session) await APP.serviceManager.sessions.shutdown(session.id);
}"""


def js(code: str, app: str) -> str:
    """A script of this module for the page whose JupyterLab application is ``app``."""
    return code.replace("APP", app)


def wait_for_run(page: Page, app: str, problems: list[str], timeout: float) -> None:
    """Polls until Run All is over, no code cell waits and the kernel has been idle for three polls (1.5 s)."""
    deadline, idle = time.monotonic() + timeout, 0
    while True:
        state = page.evaluate(js(PROGRESS, app))
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
            problems.append(f"not finished after {timeout:.0f} s: {state}")
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
                else:
                    problems.append(f"{where} ({cell['source']!r}): the widget did not render: {w['text']!r}")
            if "image" in out:
                counts["images"] += 1
                if not out["image"]:
                    problems.append(f"{where} ({cell['source']!r}): a plot image did not load")
    return counts


def widgets_settled(page: Page, app: str, timeout: float = 60) -> list[dict]:
    """The survey once every widget output shows its view (or after the timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        cells = page.evaluate(js(SURVEY, app))
        widgets = [o["widget"] for c in cells for o in c["outputs"] if "widget" in o]
        if all(w["view"] and not w["loading"] for w in widgets) or time.monotonic() > deadline:
            return cells
        time.sleep(0.5)


def screenshots(page: Page, app: str, out: Path, stem: str) -> list[Path]:
    """The notebook from top to bottom, one viewport at a time (a little overlap between shots)."""
    height, visible = page.evaluate(js(SCROLLER, app))
    step = max(visible - 80, 200)
    paths, y = [], 0
    while True:
        page.evaluate(js(SCROLL_TO, app), y)
        time.sleep(0.3)
        path = out / f"{stem}-{len(paths) + 1}.png"
        page.screenshot(path=str(path))
        paths.append(path)
        if y + visible >= height or len(paths) >= 40:
            return paths
        y += step


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


def described(error: Error, after: str) -> str:
    """A JavaScript error as a report lists it: its message, where it was thrown, the step before it."""
    frames = [line.strip() for line in (error.stack or "").splitlines()[1:3]]
    return f"{error.message} {frames}" + (f" (after: {after})" if after else "")


def fails_the_test(error: str) -> bool:
    """An error of the widgets or of maumau's own scripts fails a browser test: one whose message or
    frames name them, unless every frame is in JupyterLab's own core bundle (JupyterLab's errors, such
    as a disposed notebook's cell observers, are reported but are not the course's)."""
    message, _, rest = error.partition(" [")
    frames = re.findall(r"at [^']*", rest.split("] (after: ")[0])
    if frames and all("/build/jlab_core." in frame for frame in frames):
        return False
    return bool(re.search(r"widget|maumau", message + " ".join(frames), re.I))
