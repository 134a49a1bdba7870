"""The teacher's live page in headless Chromium (Playwright, as tests/browser/ drives pages): the
logged-in teacher watches three learners' sockets and one learner's kernel (a process that shares
its checks with ``classroom.share_progress``) report against a real server and sees each state as it
changes; a name with markup stays text; the projector shows no name; axe-core finds no WCAG 2.1
A/AA violation.  LIVE_SHOTS=DIR keeps the screenshots (docs/images has the docs' ones)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("playwright.sync_api")

from websockets.sync.client import connect  # noqa: E402

from maumau import classroom  # noqa: E402
from maumau.classroom import Course  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
AXE = Path(os.environ.get("MM_AXE", REPO / ".venv/axe/node_modules/axe-core/axe.min.js"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
EXERCISES = ("02_skip_on_eight", "03_reverse_on_nine")

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}")


@pytest.fixture
def server(tmp_path):
    source = tmp_path / "source"
    (source / "de").mkdir(parents=True)
    for name in EXERCISES:
        shutil.copy(REPO / "exercises" / f"{name}.ipynb", source)
        shutil.copy(REPO / "exercises" / "de" / f"{name}.ipynb", source / "de")
    roster = tmp_path / "roster.csv"
    roster.write_text("learner,name,id,sis_user_id,email\nanna,Anna Aranyi,11,A-1,a@s.example\n"
                      "ben,<img src=x onerror=alert(1)>Ben,12,B-1,b@s.example\ncleo,Cleo Castro,13,C-1,c@s.example\n"
                      "dora,Dóra Dévai,14,D-1,d@s.example\n")
    server = classroom.Server(db=tmp_path / "class.sqlite", port=0, teacher_token="t-secret",
                              course=Course(source), roster=roster).start()
    try:
        yield server
    finally:
        server.stop()


class Learner:
    """A learner's notebook as the server sees it: its socket, its hello, its reports."""

    def __init__(self, server, learner: str) -> None:
        code = next(line.code for line in server.roster.lines() if line.learner == learner)
        self.ws = connect(server.url.replace("http", "ws") + "/live/ws", open_timeout=5, legacy=True)
        self.ws.send(json.dumps({"type": "hello", "code": code}))
        assert json.loads(self.ws.recv(5))["type"] == "welcome"

    def ran(self, exercise: str, **checks: bool) -> None:
        self.ws.send(json.dumps({"type": "checks", "exercise": exercise,
                                 "checks": [{"scenario": name, "ok": ok} for name, ok in checks.items()]}))
        assert json.loads(self.ws.recv(5))["type"] == "stored"


SKIP = {"a": "3 players, seat 0 plays 8♥", "b": "3 players, seat 0 plays 5♣ (no effect)",
        "c": "2 players, seat 0 plays 8♥"}
NINE = {"a": "3 players, seat 0 plays 9♥", "b": "then seat 2 draws: play goes on anticlockwise",
        "c": "2 players, seat 0 plays 9♥"}


#: A learner's kernel (a process of its own): shares its checks, runs two of them, waits for the answer.
KERNEL = """
import sys, time
from maumau import classroom
from maumau.grading import check, scenario
sharing = classroom.share_progress(sys.argv[1], sys.argv[2], exercise="02_skip_on_eight")
with scenario("3 players, seat 0 plays 8\u2665"):
    check("who moves next", 1, 2)
with scenario("2 players, seat 0 plays 8\u2665"):
    check("who moves next", 0, 0)
while sharing.last_answer is None:
    time.sleep(0.05)
print(sharing.last_answer["type"])
"""


def run(learner: Learner, exercise: str, names: dict[str, str], **ok: bool) -> None:
    learner.ran(exercise, **{names[k]: v for k, v in ok.items()})


def test_the_teacher_watches_the_class_change_live(server, tmp_path):
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("LIVE_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    learners = {who: Learner(server, who) for who in ("anna", "ben", "cleo")}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # bypass_csp: axe-core is injected as a script tag, which the page's own policy forbids
        context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        answer = context.request.post(server.url + "/login", headers={"Authorization": "Teacher t-secret"})
        assert answer.ok, answer.text()
        page = context.new_page()
        alerts: list[str] = []
        page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
        page.goto(server.url + "/live?idle=5")
        page.wait_for_selector("#conn[data-state=connected]")
        page.wait_for_selector("#rows tr")  # the roster: not connected yet
        assert "not connected yet" in page.inner_text("#rows")

        run(learners["anna"], EXERCISES[0], SKIP, a=False, b=True)
        began = time.monotonic()
        page.wait_for_function("() => document.querySelector('#rows').innerText.includes('1 of 3 passed')",
                               timeout=5000)
        assert time.monotonic() - began < 1.0, "the page took a second or more to show a report"
        run(learners["ben"], EXERCISES[0], SKIP, a=False, b=True, c=False)
        run(learners["cleo"], EXERCISES[0], SKIP, a=True, b=True, c=True)
        run(learners["cleo"], EXERCISES[1], NINE, a=True, b=False)
        page.wait_for_function("() => document.querySelector('#failing').innerText.includes('failed by 2 of 3')",
                               timeout=5000)
        failing = page.inner_text("#failing")
        assert "plays\xa08♥" in failing  # a card stays on the line of the word before it
        failing = failing.replace("\xa0", " ")
        assert failing.startswith("3 players, seat 0 plays 8♥: failed by 2 of 3\n02 Skip on 8 (MK-5)\n"), failing
        assert "MK-5: learners failing a check of it now: 2\nAn 8 makes the next player sit out; there is no " \
               "answer. With 2 players you move again." in page.inner_text("#rules")
        assert "02 Skip on 8 (MK-5): 1 of 3 pass every check" in page.inner_text("#counts")
        assert "02_skip_on_eight" not in page.inner_text("main")  # exercises by their titles, not their files
        rows = page.inner_text("#rows").replace("\xa0", " ")
        assert "<img src=x onerror=alert(1)>Ben" in rows and page.query_selector("#rows img") is None and not alerts
        assert "✓ all 3 passed" in rows and "✗ 3 players, seat 0 plays 8♥" in rows
        assert page.inner_text("#class thead").strip() == "Learner\t02 Skip on 8 (MK-5)\t03 Reverse on 9 (MK-6)"
        headers = page.eval_on_selector_all("#class th[scope]", "ths => ths.map(t => t.scope)")
        assert headers.count("col") == 3 and headers.count("row") == 4
        assert page.inner_text("#class caption") == "Each learner's latest checks, by exercise"
        dora = next(line.code for line in server.roster.lines() if line.learner == "dora")
        kernel = subprocess.run([sys.executable, "-c", KERNEL, server.url, dora], capture_output=True, text=True,
                                timeout=120)
        assert kernel.stdout.strip().endswith("stored"), kernel.stdout + kernel.stderr
        page.wait_for_function("() => [...document.querySelectorAll('#rows tr')].some((tr) => "
                               "tr.innerText.includes('Dóra') && tr.innerText.includes('1 of 3 passed'))", timeout=5000)
        run(learners["anna"], EXERCISES[0], SKIP, a=True)  # Anna fixes her rule: the page follows
        page.wait_for_function("() => document.querySelector('#failing').innerText.includes('failed by 2 of 4')",
                               timeout=5000)
        violations = _axe(page, "main")
        page.screenshot(path=str(shots / "live-teacher.png"), full_page=True)

        projector = context.new_page()
        projector.goto(server.url + "/live/projector?lang=de")
        projector.wait_for_function("() => document.querySelector('#counts').innerText.includes('02 Aussetzen')",
                                    timeout=5000)
        text = projector.inner_text("body").replace("\xa0", " ")
        for name in ("Anna", "Ben", "Cleo", "Dóra"):
            assert name not in text, f"the projector names {name}"
        assert "3 Spieler, Platz 0 legt 8♥" in text and projector.get_attribute("html", "lang") == "de"
        assert "02 Aussetzen bei der 8 (MK-5)" in text and "Eine 8 lässt den nächsten Spieler aussetzen" in text
        assert "02_skip_on_eight" not in text
        violations += _axe(projector, "main")
        projector.screenshot(path=str(shots / "live-projector-de.png"), full_page=True)

        lobby = context.new_page()  # where the teacher lands: the course page and the live view one click away
        lobby.goto(server.url + "/")
        lobby.wait_for_selector("#live-link", state="visible")
        assert lobby.get_attribute("#live-link", "href").endswith("/live") and lobby.is_visible("#course-link")
        other = browser.new_context()  # no login: the page and its socket are refused, the lobby shows no link
        refused = other.request.get(server.url + "/live")
        assert refused.status == 403
        learner = other.new_page()
        learner.goto(server.url + "/")
        learner.wait_for_selector("#conn[data-state=connected]")
        learner.wait_for_timeout(500)
        assert not learner.is_visible("#live-link") and not learner.is_visible("#course-link")
        browser.close()
    for learner in learners.values():
        learner.ws.close()
    assert violations == [], violations


def _axe(page, selector: str) -> list[str]:
    """axe-core's WCAG 2.1 A/AA findings in ``selector`` (none when axe-core is not installed here)."""
    if not AXE.exists():
        return []
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async (s) => (await axe.run(document.querySelectorAll(s), {runOnly: {type: 'tag', "
                          "values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})).violations"
                          ".map(v => v.id + ': ' + v.help)", selector)
    return list(found)
