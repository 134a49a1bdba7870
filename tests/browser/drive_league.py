"""The class league's page in headless Debian Chromium, driven by Playwright for Python.

A ``maumau.classroom.Server`` runs in this process (a temporary folder, a free port) with a
league of makao for two: Random and Heuristic are entered from Python, then a learner enters
a bot through the page's form (the text area, then Enter): the page says it is checked and
entered, with its token.  The teacher plays two deals; the page shows the standings (in
English, German and Hungarian), the latest games, and a game's replay steps back and forth
with every hand open.  On a second server, with a roster, a learner enters through the form
with their personal code, twice under two names: the league keeps their one bot.  axe-core
finds no WCAG 2.1 A/AA violation; the console has no error.
Screenshots in $MM_OUT/league (default .tmp-home/browser/league).

    .venv/bin/python tests/browser/drive_league.py      (or tests/browser/run.sh league)
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from a11y import assert_no_violations
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from maumau import classroom  # noqa: E402

OUT = Path(os.environ.get("MM_OUT") or ROOT / ".tmp-home" / "browser") / "league"
CHROMIUM = os.environ.get("MM_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
LEARNER = """import maumau as mm

class Greedy:
    def choose(self, view):
        plays = [m for m in view.legal_moves if isinstance(m, mm.Play)]
        return max(plays, key=lambda m: len(m.cards)) if plays else view.legal_moves[0]
"""
BEGAN = time.perf_counter()


def step(text: str) -> None:
    print(f"[{time.perf_counter() - BEGAN:5.1f}s] {text}", flush=True)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp())
    with classroom.Server(db=folder / "class.sqlite", port=0, computer_delay=0, pause=0) as server:
        code = server.leagues.create("makao", players=2, seed=7)
        classroom.enter_league(server.url, code, "from maumau.players import Random\nPLAYER = Random\n", name="Random")
        classroom.enter_league(server.url, code, "from maumau.players import Heuristic\nPLAYER = Heuristic\n",
                               name="Heuristic")
        step(f"league {code} with two bots at {server.url}/league/{code}")
        errors: list[str] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 900}, bypass_csp=True)  # for axe-core
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{server.url}/league/{code}")
            page.fill("#bot-name", "Greta")
            page.fill("#bot-source", LEARNER)
            page.click("#enter button[type=submit]")
            page.wait_for_selector("#enter-status:has-text('Entered Greta')", timeout=60_000)
            status = page.inner_text("#enter-status")
            assert "version 1" in status and "token" in status, status
            step(f"entered through the form: {status[:60]}...")
            server.leagues.open(code).play(deals=2)
            page.goto(f"{server.url}/league/{code}")
            text = page.inner_text("main")
            assert "Greta" in text and "Standings after 12 games" in text and "Latest games" in text, text[:500]
            assert_no_violations(page, "main", "the league page")
            page.screenshot(path=str(OUT / "league.png"), full_page=True)
            for lang, word in (("de", "Tabelle nach 12 Spielen"), ("hu", "Állás 12 játszma után")):
                page.goto(f"{server.url}/league/{code}?lang={lang}")
                assert word in page.inner_text("main"), lang
                assert_no_violations(page, "main", f"the league page ({lang})")
            page.screenshot(path=str(OUT / "league-hu.png"), full_page=True)
            page.goto(f"{server.url}/league/{code}")
            page.click("text=Replay 1")
            page.wait_for_selector("#board li")
            last = page.inner_text("#step")
            page.click("#prev")
            before = page.inner_text("#step")
            assert before != last and "Move" in before, (before, last)
            for _ in range(200):
                if page.is_disabled("#prev"):
                    break
                page.click("#prev")
            assert page.inner_text("#step") == "The deal" and len(page.query_selector_all("#board li")) == 2
            page.click("#next")
            page.click("#next")
            assert "Move 2 of" in page.inner_text("#step")
            assert_no_violations(page, "main", "the replay page")
            page.screenshot(path=str(OUT / "league-replay.png"), full_page=True)
            roster_form(browser, folder)
            browser.close()
        assert not errors, errors
    step(f"done: screenshots in {OUT}")


def roster_form(browser: Any, folder: Path) -> None:
    """A server with a roster: the form asks for the personal code, and two entries of one
    learner under two names leave one bot, theirs."""
    (folder / "roster.csv").write_text("learner,name,id\nanna,Anna Smith,11\n", encoding="utf-8")
    with classroom.Server(db=folder / "roster-class.sqlite", port=0, computer_delay=0, pause=0,
                          roster=folder / "roster.csv") as server:
        code = server.leagues.create("makao", players=2, seed=7)
        assert server.roster is not None
        (personal,) = [line.code for line in server.roster.lines()]
        page = browser.new_page(viewport={"width": 1200, "height": 900}, bypass_csp=True)
        page.goto(f"{server.url}/league/{code}")
        assert page.query_selector("#bot-token") is None
        for name in ("Greta", "Gustav"):
            page.fill("#bot-name", name)
            page.fill("#bot-personal", str(personal).lower())
            page.fill("#bot-source", LEARNER)
            page.click("#enter button[type=submit]")
            page.wait_for_selector(f"#enter-status:has-text('Entered {name}')", timeout=60_000)
            assert "your one bot" in page.inner_text("#enter-status"), page.inner_text("#enter-status")
        assert_no_violations(page, "main", "the league page with a roster")
        page.screenshot(path=str(OUT / "league-roster.png"), full_page=True)
        lg = server.leagues.open(code)
        assert [b.name for b in lg.bots()] == ["Gustav"], lg.bots()
        lg.store.close()
        page.close()
    step("with a roster: two entries through the form with one personal code, one bot")


if __name__ == "__main__":
    main()
