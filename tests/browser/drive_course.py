"""The whole course in a real JupyterLab, in headless Debian Chromium driven by Playwright.

run.sh starts JupyterLab (galata's configuration) and calls this with MM_URL, MM_TOKEN, MM_ROOT
(the server's root folder) and MM_OUT.  It copies ``notebooks/`` and ``exercises/`` into
MM_ROOT/course (notebook 08 reads ``../exercises``), the German and Hungarian courses
(``notebooks/de``, ``notebooks/hu``, their exercises in ``exercises/de``, ...) with them
(COURSE_LANGS=en,de,hu, the default, or fewer), without their outputs, so the committed
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
import shutil
import sys
import time
from pathlib import Path

from notebook_page import (
    CLOSE,
    START,
    check,
    described,
    fails_the_test,
    js,
    report,
    screenshots,
    wait_for_run,
    widgets_settled,
)
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
APP = "window.galata.app"

#: The course's languages to run (COURSE_LANGS=de for the German course alone): English is
#: notebooks/, each translation notebooks/<lang>/ (docs/howto/languages.md).
LANGS = [p.strip() for p in os.environ.get("COURSE_LANGS", "en,de,hu").split(",") if p.strip()]


def sources() -> list[tuple[str, Path]]:
    """(the folder of the copy under course/notebooks, the notebook) of each notebook to run."""
    if "COURSE_DIR" in os.environ:
        return [("", p) for p in sorted(SOURCE.glob("*.ipynb"))]
    return [("" if lang == "en" else lang, p) for lang in LANGS
            for p in sorted((SOURCE if lang == "en" else SOURCE / lang).glob("*.ipynb"))]


def prepare() -> list[Path]:
    """Copies of the course notebooks (without outputs) and of the exercises beside them, every
    language's where its own exercises are (notebooks/de/08 reads ../../exercises/de)."""
    course = ROOT / "course"
    shutil.rmtree(course, ignore_errors=True)
    (course / "notebooks").mkdir(parents=True)
    shutil.copytree(REPO / "exercises", course / "exercises")
    wanted = [p.strip() for p in os.environ.get("COURSE_NOTEBOOKS", "").split(",") if p.strip()]
    copies = []
    for folder, source in sources():
        if wanted and not any(source.name.startswith(prefix) for prefix in wanted):
            continue
        nb = json.loads(source.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
        copy = course / "notebooks" / folder / source.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        copies.append(copy)
    if not copies:
        sys.exit(f"COURSE_NOTEBOOKS={os.environ.get('COURSE_NOTEBOOKS')!r} names no notebook in {SOURCE}")
    return copies


def label(copy: Path) -> str:
    """A copy's name in the report and its screenshots: de/01_start_here.ipynb, de-01_start_here-K.png."""
    return copy.relative_to(ROOT / "course" / "notebooks").as_posix()


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
    page.evaluate(js(START, APP))
    started = time.perf_counter()
    wait_for_run(page, APP, problems, TIMEOUT)
    ran = time.perf_counter() - started
    cells = widgets_settled(page, APP)
    counts = check(cells, problems)
    shots = screenshots(page, APP, OUT, label(copy).removesuffix(".ipynb").replace("/", "-"))
    if page.locator(".jp-Dialog").count():
        problems.append(f"JupyterLab dialog: {page.locator('.jp-Dialog').first.inner_text()[:300]!r}")
        page.keyboard.press("Escape")
    page.evaluate(js(CLOSE, APP))
    # Not failures, but worth a look: a sentence rendered as a heading (a Markdown line that starts with '# ').
    headings = [(c["index"], h) for c in cells for h in c["headings"]][1:]  # not the title
    warnings = [f"cell {i + 1}: a sentence as a heading? {h!r}" for i, h in headings if h.endswith(":") or len(h) > 60]
    return {"name": label(copy), **counts, "run_s": round(ran, 1), "total_s": round(time.perf_counter() - began, 1),
            "problems": problems, "warnings": warnings, "screenshots": [p.name for p in shots]}


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
        page.on("pageerror", lambda e: page_errors.append(described(e, "")))
        open_lab(page)
        print(f"[{time.perf_counter() - began:6.1f}s] JupyterLab is up", flush=True)
        for copy in copies:
            began_notebook = time.perf_counter()
            try:
                result = run_notebook(page, copy)
            except Exception as e:  # a timeout or a broken page: the notebook fails, the next one gets a new page
                result = {"name": label(copy), "cells": 0, "code": 0, "markdown": 0, "errors": 0, "stderr": 0,
                          "widgets": 0, "widgets_ok": 0, "images": 0, "run_s": 0,
                          "total_s": round(time.perf_counter() - began_notebook, 1), "screenshots": [],
                          "problems": [f"the test broke off: {type(e).__name__}: {e}"]}
                page.screenshot(path=str(OUT / f"{label(copy).removesuffix('.ipynb').replace('/', '-')}-broken.png"))
                page.close()
                page = context.new_page()
                page.on("pageerror", lambda e: page_errors.append(described(e, "")))
                open_lab(page)
            results.append(result)
            print(f"[{time.perf_counter() - began:6.1f}s] {label(copy)}: {result['cells']} cells, "
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
    widget_errors = [e for e in page_errors if fails_the_test(e)]
    failed = [r["name"] for r in results if r["problems"]]
    if failed or outside or widget_errors:
        print(f"course pass FAILED: {', '.join(failed) or 'requests outside / widget errors'}; see {OUT}/report.md",
              file=sys.stderr)
        return 1
    print(f"course pass: {len(results)} notebooks passed in {time.perf_counter() - began:.0f} s; screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
