"""The class table's own web pages in headless Debian Chromium, driven by Playwright for Python.

No JupyterLab: a ``maumau.classroom.Server`` runs in this process (a temporary database, a free
port).  A mau_mau_runde table with two seats, one of them a computer: Anna sits down at
``/t/CODE`` and plays the hand to its end by clicking legal cards (or Draw / Pass) until the
result banner shows.  Meanwhile the projector (``?watch=1``) must show no hand and receive none;
the teacher's projector shows every hand; a name with HTML in it stays text; a phone-sized seat
page and the lobby (list and create tables) are shown too.  Every request goes to the server,
the console has no error.  Screenshots in $MM_OUT/classroom (default .tmp-home/browser/classroom).

    .venv/bin/python tests/browser/drive_classroom.py      (or tests/browser/run.sh classroom)
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from a11y import assert_no_violations
from classroom_why import illegal_card_is_explained
from jsonschema import Draft202012Validator
from keyboard_page import play_by_keys
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "classroom"))

from test_frame_schema import fields_not_in_schema  # noqa: E402

from maumau import classroom  # noqa: E402
from maumau.classroom.messages import frame_schema  # noqa: E402

OUT = Path(os.environ.get("MM_OUT") or ROOT / ".tmp-home" / "browser") / "classroom"
CHROMIUM = os.environ.get("MM_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
EVIL = '<img src=x onerror=pwned=1><b>Eve</b>'  # 37 characters: names are cut at 40
BEGAN = time.perf_counter()


def step(text: str) -> None:
    print(f"[{time.perf_counter() - BEGAN:5.1f}s] {text}", flush=True)


class Watch:
    """What the pages of one browser context did: requests, websocket frames, console errors."""

    def __init__(self, base: str) -> None:
        self.base, self.ws_base = base, "ws" + base[4:]
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.urls: list[str] = []
        self.frames: dict[str, list[str]] = {}

    def page(self, page: Page, name: str) -> Page:
        self.frames[name] = []
        page.on("console", lambda m: self.errors.append(f"{name}: console {m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"{name}: page error: {e}"))
        page.on("request", lambda r: self.urls.append(r.url) if r.url.startswith((self.base + "/", "data:"))
                else self.foreign.append(r.url))
        page.on("websocket", lambda ws: self._socket(ws, name))
        return page

    def _socket(self, ws: Any, name: str) -> None:
        if not ws.url.startswith(self.ws_base + "/"):
            self.foreign.append(ws.url)
        ws.on("framereceived", lambda payload: self.frames[name].append(
            payload if isinstance(payload, str) else payload.decode()))


def shown_n(page: Page) -> int:
    return int(page.get_attribute("#game", "data-n") or -1)


def play_hand(page: Page, out: Path) -> dict[str, int]:
    """Click legal cards (or Draw / Pass) until the result banner shows; count what was done.
    Screenshots: the seat with a playable card after a few moves, the first chooser."""
    shots: set[str] = set()
    done = {"plays": 0, "draws": 0, "passes": 0, "choices": 0, "maus": 0, "stale": 0, "pending": 0, "why_buttons": 0}
    deadline = time.monotonic() + 90
    ready = """() => { const b = document.getElementById('banner');
        return (b && !b.hidden) || document.querySelector('.hand-card.playable')
            || !document.getElementById('draw').disabled || !document.getElementById('pass').disabled; }"""
    while time.monotonic() < deadline:
        page.wait_for_function(ready, timeout=30_000)
        if page.locator("#banner").is_visible():
            return done
        before = shown_n(page)
        pending = page.locator(".fact.pending")
        if pending.count():  # a penalty Anna must answer is hers: "for you", never "for Anna"
            text = pending.inner_text()
            assert "Anna" not in text, text
            done["pending"] += "(for you)" in text
        for button in ("#draw", "#pass"):  # a greyed button on the learner's turn says why (the engine's sentence)
            if page.locator(button).is_visible() and page.locator(button).is_disabled():
                assert page.get_attribute(button, "title"), f"{button} is greyed without a reason"
                done["why_buttons"] += 1
        cards = page.locator(".hand-card.playable")
        if cards.count() and sum(done.values()) >= 2 and "mid" not in shots:
            shots.add("mid")
            page.screenshot(path=str(out / "seat-mid-hand.png"), full_page=True)
        if cards.count():
            label = cards.first.get_attribute("aria-label") or ""
            assert re.fullmatch(r"(Joker|\w+ of \w+), playable(, just drawn)?", label), label
            if page.locator(".hand-card").count() == 2 and page.locator("#mau").is_enabled():
                page.click("#mau")
                assert page.get_attribute("#mau", "aria-pressed") == "true"
                done["maus"] += 1
            cards.first.click()
            if page.locator("#chooser").is_visible():
                if "chooser" not in shots:
                    shots.add("chooser")
                    page.screenshot(path=str(out / "seat-chooser.png"))
                options = page.locator("#chooser .option:not(.cancel)")
                assert options.count() >= 2, "a chooser with one option"
                options.first.click()
                done["choices"] += 1
            done["plays"] += 1
        elif page.locator("#draw").is_enabled():
            page.click("#draw")
            done["draws"] += 1
        else:
            page.click("#pass")
            done["passes"] += 1
        page.wait_for_function(
            """(n) => Number(document.getElementById('game').dataset.n) !== n
                      || document.getElementById('status').classList.contains('error')""",
            arg=before, timeout=20_000)
        if "error" in (page.get_attribute("#status", "class") or ""):
            text = page.inner_text("#status")
            assert "changed" in text, f"the server refused a move: {text}"
            done["stale"] += 1
    raise AssertionError(f"the hand did not end in 90 s: {done}")


def course_page(laptop: Any, watch: Watch, server: classroom.Server) -> None:
    """The teacher's course page (issue 26): a learner hands in twice, the logged-in teacher reads the
    page in three languages, axe-core finds nothing; a page without the login is refused."""
    assert server.roster is not None
    ada = next(line.code for line in server.roster.lines() if line.learner == "ada")
    anna = classroom.join(server.url, server.create_table("makao", seats=3, computers=2), name="Ada", personal=ada)
    try:
        for _ in range(2):
            classroom.hand_in(server.url, anna.code, ROOT / "exercises" / "01_matching.ipynb", token=anna.token)
    finally:
        anna.leave()
    _flag_a_pair(server)
    page = watch.page(laptop.new_page(), "course")
    for lang in ("en", "de", "hu"):
        page.goto(f"{server.url}/course?lang={lang}")
        page.wait_for_selector("main table")
        assert page.locator("tbody tr").count() >= 2, page.inner_text("main")
        # issue 38: the similar pair's code side by side, the shared lines marked, nothing run
        assert page.locator("section.similar figure").count() == 2 and page.locator("section.similar mark").count()
        assert page.evaluate("() => window.__similar_ran === undefined")
        found = assert_no_violations(page, "body", f"the course page ({lang})")
        step(f"axe-core: {found} violations on the teacher's course page ({lang})")
        page.screenshot(path=str(OUT / f"course-{lang}.png"), full_page=True)
    assert _status(f"{server.url}/course") == 403
    step("the course page without the teacher's login: 403")


def _flag_a_pair(server: classroom.Server) -> None:
    """A graded pair in the server's gradebook, flagged as ``maumau grade`` keeps it (``similarity``):
    their code (a script tag in it, to be shown, never run) and their shared wrong answers."""
    from maumau.grading.gradebook import Gradebook, Row
    from maumau.grading.similarity import CodeEvidence, Flag, save_flags

    code = "def outcomes(graph):\n    # <script>window.__similar_ran = 1</script>\n    return Counter(graph)\n"
    answer = {"exercise": "02_skip_on_eight", "scenario": "3 players", "what": "who moves next", "expected": "2",
              "got": "0", "others": 0}
    evidence = CodeEvidence("14_state_graph", 12, 13, (code, code.replace("graph", "g")), ((1, 3), (1, 3)))
    assert server.course is not None
    Gradebook(server.course.db).record([(Row(who, "14_state_graph", 4, 6), "a", "b", False) for who in ("ada", "bo")],
                                       forced=False)
    save_flags(server.course.db, [Flag(("ada", "bo"), 0.92, (evidence,), (answer, dict(answer, scenario="2 players")))])


def _status(url: str) -> int:
    """The HTTP status of a plain GET without any cookie."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def frames_match_the_schema(watch: Watch, base: str) -> int:
    """Every table frame the pages' websockets received is valid against the frame's JSON Schema
    (made from the wire's types), and the page's script, as the server served it to the browser,
    reads no field of a frame, a view or a model that the schema lacks; how many frames were checked."""
    import urllib.request

    schema = frame_schema()
    validator = Draft202012Validator(schema)
    received = [json.loads(f) for frames in watch.frames.values() for f in frames]
    table_frames = [m for m in received if m.get("type") == "table"]
    wrong = [f"{'/'.join(map(str, e.path))}: {e.message}" for m in table_frames for e in validator.iter_errors(m)]
    assert table_frames and not wrong, wrong[:5]
    assert any(m["model"] for m in table_frames) and any(m["view"] and "hands" in m["view"] for m in table_frames)
    with urllib.request.urlopen(base + "/table.js", timeout=10) as response:
        script = response.read().decode("utf-8")
    missing = fields_not_in_schema(script, schema)
    assert not missing, f"table.js reads fields the frame's schema does not have: {missing}"
    return len(table_frames)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        roster = Path(tmp) / "roster.csv"
        roster.write_text("learner,name,id\nada,Ada Lovelace,1815\n", encoding="utf-8")
        server = classroom.Server(db=Path(tmp) / "class.sqlite", port=0, computer_delay=0.05, pause=0.5,
                                  course=classroom.Course(ROOT / "exercises"), roster=roster).start()
        try:
            return drive(server)
        finally:
            server.stop()


def drive(server: classroom.Server) -> int:
    base, teacher = server.url, server.teacher_token
    code = server.create_table("mau_mau_runde", seats=2, computers=1, strength="easy", seed=7)
    step(f"server at {base}, table {code}")
    watch = Watch(base)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # bypass_csp: axe-core is injected as a script tag; the pages' own policy forbids inline scripts (and a
        # name with HTML in it must stay text without the policy's help)
        laptop = browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True)

        # --- the projector first, so that it sees the whole hand --------------------------------------
        projector = watch.page(laptop.new_page(), "projector")
        projector.goto(f"{base}/t/{code}?watch=1")
        projector.wait_for_selector("#game:not([hidden]) .seat")
        assert "Waiting for players" in projector.inner_text("#waiting")

        # --- Anna sits down and plays --------------------------------------------------------------------
        seat = watch.page(laptop.new_page(), "seat")
        seat.goto(f"{base}/t/{code}")
        seat.wait_for_selector("#join:not([hidden])")
        seat.fill("#join-name", "Anna")
        seat.click("#join-button")
        seat.wait_for_selector(".hand-card")
        # the server answers a join after the table frame it caused: the hand may be drawn a moment
        # before the answer with the token arrives (on a busy machine, before this line runs)
        seat.wait_for_function(f"localStorage.getItem('maumau.token.{code}') !== null", timeout=10_000)
        assert seat.evaluate(f"localStorage.getItem('maumau.token.{code}')"), "no token kept"
        labels = [seat.locator(".hand-card").nth(i).get_attribute("aria-label")
                  for i in range(seat.locator(".hand-card").count())]
        assert all(re.fullmatch(r"(Joker|\w+ of \w+), (not )?playable(, just drawn)?", x or "") for x in labels), labels
        assert seat.locator(".seat.me .name").inner_text() == "Anna"
        step(f"Anna sat down: {', '.join(x.split(',')[0] for x in labels)}")

        seat.reload()  # a reload takes the seat back with the token, no form
        seat.wait_for_selector(".hand-card")
        assert seat.locator("#join").is_hidden()
        step("a reload took the seat back (token in localStorage)")

        done = play_hand(seat, OUT)
        step(f"the hand is over: {done}")
        assert done["pending"], "seed 7 puts a 7 on Anna: the banner should have said it was for her"
        banner = seat.inner_text("#banner")
        assert re.search(r"(Hand|Match) over", banner) and "Anna" in banner and "Seat 1" in banner, banner
        log = seat.inner_text("#log")
        assert "plays" in log and log.count("\n") >= done["plays"], log
        assert seat.locator("#log[role=log][aria-live=polite]").count() == 1
        seat.screenshot(path=str(OUT / "seat-hand-over.png"), full_page=True)
        found = assert_no_violations(seat, "body", "the seat page at the end of the hand")
        step(f"axe-core: {found} WCAG 2.1 A/AA violations on the seat page")

        # --- the projector showed no hand and was sent none ---------------------------------------------------
        projector.wait_for_selector("#banner:not([hidden])")
        assert projector.locator(".hand-card").count() == 0 and projector.locator("#mine").is_hidden()
        assert projector.locator(".open-hand").count() == 0
        views = [json.loads(f)["view"] for f in watch.frames["projector"] if f.startswith('{"type": "table"')]
        views = [v for v in views if v]
        assert views and all("hand" not in v and "hands" not in v and "legal" not in v for v in views), views[:1]
        assert "Anna" in projector.inner_text("#seats")
        projector.screenshot(path=str(OUT / "projector.png"))
        step(f"the projector got {len(views)} views, none with a hand")

        # --- an illegal card: the engine's sentence, in three languages, gone after the next move --------------
        for lang in ("en", "de", "hu"):
            sentence = illegal_card_is_explained(laptop, server, OUT, lang)
            step(f"{lang}: an illegal card says {sentence!r}; the next legal move clears it")

        # --- the teacher logs in; the projector with open hands; a name with HTML in it -------------------------
        login = watch.page(laptop.new_page(), "login")
        login.goto(f"{base}/")
        login.click("#teacher summary")
        login.fill("#token", teacher)
        login.click("#token-button")
        login.wait_for_selector("#teacher-tools:not([hidden])")
        cookie = next(c for c in laptop.cookies() if c["name"] == "maumau_teacher")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and teacher not in cookie["value"], cookie
        readable = login.evaluate("document.cookie")
        assert "maumau_teacher" not in readable and cookie["value"] not in readable, "a script reads the session"
        assert readable.startswith("maumau_csrf="), readable  # the session's CSRF token, for POST /logout
        step("the teacher logged in: an HttpOnly, SameSite=Strict session cookie, a CSRF token for the page")
        code2 = server.create_table("makao", seats=3, computers=2, strength="easy", seed=3)
        eve = classroom.join(server.url, code2, name=EVIL)
        try:
            open_view = watch.page(laptop.new_page(), "teacher-projector")
            open_view.set_viewport_size({"width": 1920, "height": 1080})
            open_view.goto(f"{base}/t/{code2}?watch=1&open=1")
            open_view.wait_for_selector(".open-hand .card")
            names = open_view.locator(".seat .name").all_inner_texts()
            assert EVIL in names, names
            assert open_view.locator(".seats img, .seats b, #log img").count() == 0
            assert open_view.evaluate("window.pwned === undefined")
            time.sleep(1.0)  # a few computer moves in the log
            open_view.screenshot(path=str(OUT / "teacher-projector.png"))
            step("the teacher's projector shows every hand; a name with HTML in it stayed text")
        finally:
            eve.close()

        # --- keyboard only, four colours, high contrast ---------------------------------------------------------
        code4 = server.create_table("makao", seats=2, computers=1, strength="easy", seed=11)
        keys = watch.page(laptop.new_page(), "keys")
        keys.goto(f"{base}/t/{code4}?colours=four&contrast=high")
        keys.wait_for_selector("#join:not([hidden])")
        keys.keyboard.press("Control+A")  # the name field has the focus (and the name from the last time)
        keys.keyboard.type("Kim")
        keys.keyboard.press("Enter")
        keys.wait_for_selector(".hand-card")
        assert keys.evaluate("document.body.classList.contains('four') && document.body.classList.contains('high')")
        assert keys.get_attribute("#colours-toggle", "aria-pressed") == "true"
        assert "D draw" in keys.inner_text("#keys")
        found = assert_no_violations(keys, "body", "the seat page, four colours and high contrast")
        keys.screenshot(path=str(OUT / "seat-four-high.png"), full_page=True)
        played = play_by_keys(keys)
        found += assert_no_violations(keys, "body", "the seat page after a hand played by keys")
        step(f"keyboard only (four colours, high contrast): the hand ended, {played}; axe-core: {found} violations")
        keys.keyboard.press("Tab")

        # --- a phone ------------------------------------------------------------------------------------------------
        code3 = server.create_table("makao", seats=3, computers=2, strength="easy", seed=5)
        phone_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                            device_scale_factor=2)
        phone = watch.page(phone_context.new_page(), "phone")
        phone.goto(f"{base}/t/{code3}?lang=hu")  # in Hungarian: the page's words and the cards' names
        phone.fill("#join-name", "Bori")
        phone.click("#join-button")
        phone.wait_for_selector(".hand-card")
        names = [phone.locator(".hand-card").nth(i).get_attribute("aria-label") or ""
                 for i in range(phone.locator(".hand-card").count())]
        hungarian = r"\w+ (\d+|bubi|dáma|király|ász), (nem játszható ki|kijátszható)"
        assert all(re.fullmatch(hungarian, x) for x in names), names
        assert phone.inner_text("#draw") == "Húzás" and "D húzás" in phone.inner_text("#keys")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the phone page scrolls sideways: {width}px"
        phone.screenshot(path=str(OUT / "phone.png"), full_page=True)
        step("a phone-sized seat page fits the screen")

        # --- the lobby: the teacher lists and creates tables; a learner goes to a table ---------------------------
        lobby = watch.page(laptop.new_page(), "lobby")
        lobby.goto(f"{base}/")  # logged in already: the session cookie
        lobby.wait_for_selector(".table-item")
        assert lobby.locator(".table-item").count() == 7  # three played, one by keys, three in three languages
        lobby.select_option("#variant", "lite_macau")
        lobby.fill("#seats", "3")
        lobby.fill("#computers", "1")
        lobby.select_option("#strength", "hard")
        lobby.fill("#without", "")
        lobby.click("#create-button")
        lobby.wait_for_function("() => document.querySelectorAll('.table-item').length === 8")
        created = re.search(r"Table (\w+) is open", lobby.inner_text("#teacher-message"))
        assert created and created.group(1) in server.tables.by_code, lobby.inner_text("#teacher-message")
        lobby.fill("#without", "no_such_rule")
        lobby.click("#create-button")
        lobby.wait_for_selector("#teacher-message.error")
        lobby.fill("#without", "")
        lobby.wait_for_selector("#codes-box:not([hidden])")  # the roster's personal codes, in a closed box
        lobby.click("#codes-title")
        assert "Ada Lovelace" in lobby.inner_text("#codes") and lobby.locator("#codes td.code").count() == 1
        step("the teacher's lobby lists the roster's personal codes")
        personal = lobby.inner_text("#codes td.code").strip()
        mine = watch.page(laptop.new_page(), "personal")
        mine.goto(f"{base}/t/{server.create_table('makao', seats=3, computers=1)}")
        mine.wait_for_selector("#join:not([hidden])")
        mine.fill("#join-name", "")
        mine.fill("#join-personal", personal.lower())  # as a learner may type it
        mine.click("#join-button")
        mine.wait_for_selector("#game:not([hidden]) .seat")
        assert "Ada Lovelace" in mine.inner_text("#game"), mine.inner_text("#game")
        step("a learner sits down with the personal code alone: the roster's name is on the seat")
        mine.close()
        lobby.screenshot(path=str(OUT / "lobby.png"), full_page=True)
        step(f"axe-core: {assert_no_violations(lobby, 'body', 'the lobby')} violations in the lobby")
        course_page(laptop, watch, server)
        step(f"the lobby listed the tables and created {created.group(1)}")
        lobby.click("#logout")  # a POST with the session's CSRF token (a GET would change nothing)
        lobby.wait_for_selector("#teacher-tools", state="hidden")
        left = {c["name"] for c in laptop.cookies()}
        assert not left & {"maumau_teacher", "maumau_csrf"}, left
        step("the lobby's log-out button ended the session (POST /logout with the CSRF token)")

        stranger = watch.page(browser.new_context(viewport={"width": 1024, "height": 700}).new_page(), "stranger")
        stranger.goto(base + "/")
        stranger.fill("#code", code.lower())
        stranger.click("#join-button")
        stranger.wait_for_url(f"**/t/{code}")
        stranger.wait_for_selector("#join:not([hidden])")
        step("a learner's code in the lobby leads to the table's join form")
        browser.close()

    assert not watch.foreign, f"requests to other hosts: {watch.foreign}"
    assert not [u for u in watch.urls if teacher in u], "the teacher token was in a URL"
    assert not watch.errors, watch.errors
    step(f"no request left {base}, no console error; screenshots in {OUT}")
    checked = frames_match_the_schema(watch, base)
    step(f"the {checked} table frames the pages got match the frame's schema; table.js reads only its fields")
    return 0


if __name__ == "__main__":
    sys.exit(main())
