"""The card table in a real JupyterLab, in headless Debian Chromium driven by Playwright.

run.sh starts JupyterLab (galata's configuration) and calls this with MM_URL, MM_TOKEN and
MM_OUT.  It opens tests/browser/table.ipynb, runs every cell, checks that the widgets render
from the installed ipywidgets (no CDN), clicks a legal card and then the draw button, asserts
that the table changed each time, and saves screenshots into MM_OUT.  Then axe-core checks every
table (WCAG 2.1 A/AA: 0 violations) and the last table (four colours) is played to the end of a hand
with the keyboard alone (keyboard.py).  Exit code 0 on success.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

from a11y import assert_no_violations
from keyboard import play_hand_by_keys
from playwright.sync_api import Page, sync_playwright

URL, TOKEN, OUT = os.environ["MM_URL"], os.environ["MM_TOKEN"], Path(os.environ["MM_OUT"])
CHROMIUM = os.environ.get("MM_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]

RUN_ALL = """async () => {
  const app = window.galata.app;
  const nb = app.shell.currentWidget;
  await nb.context.ready;
  await nb.sessionContext.ready;
  app.shell.activateById(nb.id);
  await app.commands.execute('notebook:run-all-cells');
}"""


def step(text: str) -> None:
    print(f"[{time.perf_counter() - BEGAN:5.1f}s] {text}", flush=True)


def table_text(page: Page) -> dict[str, str]:
    """What the first table shows, as text: the log, the hand, the stock, the status."""
    table = page.locator(".mm-table").first
    return {
        "log": table.locator(".mm-log").inner_text(),
        "hand": " ".join(table.locator(".mm-hand .mm-card").all_inner_texts()),
        "stock": table.locator(".mm-stockpile").inner_text(),
        "status": table.locator(".mm-status").inner_text(),
    }


def wait_for_my_turn(page: Page, timeout: float = 30) -> None:
    """The computers move one by one after a short delay; wait until the learner is to move."""
    page.wait_for_function(
        """() => { const s = document.querySelector('.mm-table .mm-status');
                   return s && s.innerText.includes('Du bist am Zug'); }""", timeout=timeout * 1000)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1500})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}")
                if not r.url.startswith(URL) else None)
        page.goto(f"{URL}/lab/tree/table.ipynb?token={TOKEN}", wait_until="domcontentloaded")
        page.wait_for_function("() => window.galata && window.galata.app && window.galata.app.shell.currentWidget"
                               " && window.galata.app.shell.currentWidget.sessionContext", timeout=90_000)
        step("JupyterLab is up, the notebook is open")
        page.evaluate(RUN_ALL)
        page.wait_for_selector(".mm-table .mm-hand .mm-card", timeout=90_000)
        wait_for_my_turn(page)
        page.wait_for_function("() => document.querySelectorAll('.mm-result .mm-win').length >= 2",
                               timeout=90_000)  # the explorer's simulation and the finished hand are shown
        step("the table, the replay, the explorer and a finished hand are shown")
        body = page.locator("body").inner_text()
        assert "Error displaying widget" not in body and "Loading widget" not in body, body[:400]

        before = table_text(page)
        assert "nachziehstapel" in before["stock"].lower() and "Du bist am Zug" in before["status"], before
        page.locator(".mm-table").first.screenshot(path=str(OUT / "table-de-start.png"))

        card = page.locator(".mm-table .mm-hand .mm-card.mm-legal").first
        played = card.inner_text().strip()
        card.click()
        if page.locator(".mm-wishes .mm-suitbtn").first.is_visible():  # a Jack asks for the wish first
            page.locator(".mm-wishes .mm-suitbtn").first.click()
        page.wait_for_function("""(card) => { const l = document.querySelector('.mm-table .mm-log');
                                  return l && l.innerText.includes('Du legst ' + card); }""",
                               arg=played, timeout=20_000)
        after_play = table_text(page)
        assert after_play["hand"] != before["hand"] and after_play["log"] != before["log"]
        step(f"clicked {played}: the table changed")
        wait_for_my_turn(page)

        hand_size = len(table_text(page)["hand"].split())
        draw = page.locator(".mm-table .mm-actions button", has_text=re.compile(r"^(Ziehen|\d+ Karten nehmen)$"))
        draw.first.click()
        drawn = r"/Du (ziehst eine Karte|nimmst .* Karten|kannst nichts ziehen)/"
        page.wait_for_function("""() => { const l = document.querySelector('.mm-table .mm-log');
                                  return l && """ + drawn + """.test(l.innerText); }""", timeout=20_000)
        after_draw = table_text(page)
        assert len(after_draw["hand"].split()) > hand_size or "Mau" in after_draw["log"], after_draw
        assert after_draw["stock"] != after_play["stock"]
        step("clicked the draw button: the learner's hand grew and the stock shrank")
        wait_for_my_turn(page)
        time.sleep(0.5)

        tables = page.locator(".mm-table")
        tables.nth(0).screenshot(path=str(OUT / "table-de.png"))
        tables.nth(1).scroll_into_view_if_needed()
        tables.nth(1).screenshot(path=str(OUT / "replay-de.png"))
        tables.nth(2).scroll_into_view_if_needed()
        tables.nth(2).screenshot(path=str(OUT / "explorer-hu.png"))
        tables.nth(3).scroll_into_view_if_needed()
        tables.nth(3).screenshot(path=str(OUT / "table-hu-end.png"))
        page.screenshot(path=str(OUT / "page.png"))
        step(f"screenshots saved in {OUT}")

        tables.nth(5).scroll_into_view_if_needed()
        tables.nth(5).screenshot(path=str(OUT / "table-high-de.png"))
        count = assert_no_violations(page, ".mm-table", "the tables (de, replay four colours, explorer high contrast)")
        step(f"axe-core: {count} WCAG 2.1 A/AA violations in {tables.count()} tables")
        keys = tables.nth(4)
        keys.scroll_into_view_if_needed()

        def at_end() -> None:
            keys.screenshot(path=str(OUT / "table-four-end.png"))
            found = assert_no_violations(page, ".mm-table", "the tables, a hand played by keys")
            step(f"axe-core after the keyboard hand: {found} violations")

        play_hand_by_keys(page, keys, step, shot=str(OUT / "table-four.png"), at_end=at_end)
        step("the next hand was dealt by Enter on 'Next hand'")
        browser.close()
    widget_errors = [e for e in errors if "widget" in e.lower() or "maumau" in e.lower()]
    assert not widget_errors, widget_errors
    return 0


if __name__ == "__main__":
    BEGAN = time.perf_counter()
    sys.exit(main())
