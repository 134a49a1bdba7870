"""The class table's pages on a real JupyterHub in headless Debian Chromium (issue 23).

The hub of tests/classroom/test_hub.py (configurable-http-proxy, DummyAuthenticator) starts
``maumau serve --hub``.  Alice logs in at the hub and opens a table's page: the hub's OAuth
login happens on the way, and she sits down under her hub name without a form; Bob joins from
Python with his hub token, and the hand is dealt.  Tina, a member of the hub group ``teachers``,
opens the lobby: her tables are listed without any token, and her projector shows every hand.
Screenshots in $MM_OUT/hub (default .tmp-home/browser/hub).

    .venv/bin/python tests/browser/drive_hub.py      (or tests/browser/run.sh hub)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # processes.py: Hub.stop ends the hub's whole tree
sys.path.insert(0, str(ROOT / "tests" / "classroom"))

from test_hub import Hub, teacher_creates_a_table  # noqa: E402

from maumau import classroom  # noqa: E402

OUT = Path(os.environ.get("MM_OUT") or ROOT / ".tmp-home" / "browser") / "hub"
CHROMIUM = os.environ.get("MM_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
BEGAN = time.perf_counter()


def step(text: str) -> None:
    print(f"[{time.perf_counter() - BEGAN:5.1f}s] {text}", flush=True)


def hub_login(page: Page, hub: Hub, user: str) -> None:
    page.goto(f"{hub.url}/hub/login?next=%2Fhub%2Fhome")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", "any")
    page.click("input[type=submit], button[type=submit]")
    page.wait_for_url("**/hub/home**")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(Path(tmp))
        try:
            hub.wait()
            return drive(hub)
        finally:
            hub.stop()


def drive(hub: Hub) -> int:
    code = teacher_creates_a_table(hub)
    step(f"hub at {hub.url}, table {code}")
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        alice = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        alice.on("pageerror", lambda e: errors.append(f"alice: {e}"))
        hub_login(alice, hub, "alice")
        alice.goto(f"{hub.service}/t/{code}")  # the hub's OAuth login on the way, then the page
        alice.wait_for_selector("#game:not([hidden]) .seat.me")
        assert alice.locator(".seat.me .name").inner_text() == "alice", alice.locator(".seat.me .name").inner_text()
        assert alice.locator("#join").is_hidden()
        step("alice opened the table's page: logged in through the hub, seated under her hub name")
        bob = classroom.join(hub.service, code, hub_token=hub.token("bob"))
        alice.wait_for_selector(".hand-card")
        alice.screenshot(path=str(OUT / "hub-seat.png"))
        step("bob joined from Python: the hand is dealt, alice sees her cards")

        tina = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        tina.on("pageerror", lambda e: errors.append(f"tina: {e}"))
        hub_login(tina, hub, "tina")
        tina.goto(f"{hub.service}/")
        tina.wait_for_selector(".table-item")
        assert tina.locator("#token-form").is_hidden()
        tina.wait_for_function("() => document.getElementById('logout').hidden")  # one logs out of the hub
        tina.screenshot(path=str(OUT / "hub-lobby.png"), full_page=True)
        tina.goto(f"{hub.service}/t/{code}?watch=1&open=1")
        tina.wait_for_selector(".open-hand .card")
        tina.screenshot(path=str(OUT / "hub-teacher-projector.png"))
        step("tina (group teachers) lists the tables and sees every hand: no token anywhere")
        bob.close()
        browser.close()
    assert not errors, errors
    step(f"screenshots in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
