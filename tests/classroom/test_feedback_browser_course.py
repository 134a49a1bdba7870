"""The browser course's notebook reads its learner's feedback (issue 38 item 2): Pyodide from the built
site (``make site``: SITE, default site/) in a web worker of headless Chromium, as JupyterLite's
kernel runs, this worktree's maumau on top of the site's wheel, a real class server on another
origin.  ``classroom.feedback(url, code, exercise)`` returns as in JupyterLab: a sentence before the
release, the learner's own feedback after it; a wrong code is refused with a sentence in the
learner's language.  Skipped where no site has been built."""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import socket
import threading
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("playwright.sync_api")

from test_live_browser_course import CHROMIUM, PYODIDE, REPO, SITE, Files, pytestmark, serve_pyodide, this_maumau  # noqa: E402, F401

from maumau import classroom  # noqa: E402
from maumau.classroom import Course  # noqa: E402
from maumau.grading.feedback_release import FeedbackRelease  # noqa: E402
from maumau.grading.gradebook import Gradebook, Row  # noqa: E402
from maumau.grading.gradebook import TestResult as Result  # noqa: E402

EX = "01_matching"

PAGE = b"""<!doctype html><html><head><meta charset="utf-8"></head><body><script>
const worker = new Worker('feedback-worker.js', {type: 'module'}), waiting = {};
let next = 0, broken = null;
worker.onmessage = (event) => { waiting[event.data.id](event.data); delete waiting[event.data.id]; };
worker.onerror = (event) => {  // a worker that cannot start answers every cell with its error
  broken = String(event.message || 'the worker did not start');
  for (const id in waiting) { waiting[id]({error: broken}); delete waiting[id]; }
};
window.run = (code) => new Promise((resolve) => {
  if (broken) return resolve({error: broken});
  waiting[next] = resolve; worker.postMessage({id: next++, code});
});
</script></body></html>"""

#: Pyodide in a (module) web worker, as JupyterLite's kernel: a cell is a message, its value the answer.
WORKER = b"""import { loadPyodide } from './pyodide.mjs';
const ready = (async () => {
  const py = await loadPyodide({indexURL: self.location.href.replace(/[^/]*$/, '')});
  await py.loadPackage(['maumau']);
  const code = await (await fetch('maumau.zip')).arrayBuffer();
  py.unpackArchive(code, 'zip', {extractDir: py.runPython('import site; site.getsitepackages()[0]')});
  return py;
})();
onmessage = async (event) => {
  try { postMessage({id: event.data.id, value: String((await ready).runPython(event.data.code))}); }
  catch (err) { postMessage({id: event.data.id, error: String(err)}); }
};"""


@pytest.fixture
def site():
    yield from serve_pyodide({"/feedback.html": PAGE, "/feedback-worker.js": WORKER, "/maumau.zip": this_maumau()})


@pytest.fixture
def server(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    shutil.copy(REPO / "exercises" / f"{EX}.ipynb", source)
    (tmp_path / "roster.csv").write_text("learner,name,id\nanna,Anna A,11\nben,Ben B,12\n")
    db = tmp_path / "class.sqlite"
    for learner in ("anna", "ben"):
        row = Row(learner, EX, 4, 6, message="hidden test 'the hidden one'", tests=[
            Result("v", f"visible of {learner}", 4, 4, True, False),
            Result("h", "the hidden one", 0, 2, False, True, "", f"{learner}'s own explanation")])
        Gradebook(db).record([(row, f"sha-{learner}", "src", False)], forced=False)
    server = classroom.Server(db=db, port=0, roster=tmp_path / "roster.csv", course=Course(source)).start()
    try:
        yield server, db
    finally:
        server.stop()


def _cell(page, code: str) -> str:
    """Run ``code`` in the worker's Pyodide; its last expression's value (str), or the test fails."""
    answer = page.evaluate("(code) => run(code)", code)
    assert "error" not in answer, answer.get("error")
    return str(answer["value"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_notebook_of_the_browser_course_reads_its_own_feedback_after_the_release(site, server):
    from playwright.sync_api import sync_playwright

    server, db = server
    codes = {line.learner: line.code for line in server.roster.lines()}
    ask = f"""
import js, sys
from maumau import classroom
def ask(code, lang=None):
    try:
        got = classroom.feedback({server.url!r}, code, {EX!r}, lang=lang)
    except classroom.ClassroomError as err:
        return "refused: " + err._render_traceback_()[0]
    return f"{{got.released}} | {{got.message}} | {{got.text}}"
f"{{sys.platform}} {{js.self.constructor.name}}"
"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(site + "/feedback.html")
        assert _cell(page, ask) == "emscripten DedicatedWorkerGlobalScope"  # where JupyterLite's kernel runs
        before = _cell(page, f"ask({codes['anna']!r}, 'de')")
        assert before.startswith("False | Deine Rückmeldung zu") and "explanation" not in before
        FeedbackRelease(db).release(EX, server.course.course.clock())
        anna = _cell(page, f"ask({codes['anna']!r})")
        assert anna.startswith("True | Your feedback on") and "anna's own explanation" in anna
        assert "4 of 6 points" in anna and "ben" not in anna
        shown = _cell(page, f"classroom.feedback({server.url!r}, {codes['anna']!r}, {EX!r})._repr_markdown_()")
        assert shown.startswith("*Your feedback on") and "anna's own explanation" in shown  # what the notebook shows
        ben = _cell(page, f"ask({codes['ben']!r}, 'hu')")
        assert "ben's own explanation" in ben and "anna" not in ben
        for code, lang, words in (("anna", "de", "Niemand in diesem Kurs hat diesen persönlichen Code"),
                                  ("AAAA-BBBB-CCCC-DDDD", "hu", "senkinek sincs ilyen személyes kódja"),
                                  ("a b\\n\u00e9", "en", "No learner of this course")):
            refused = _cell(page, f"ask({code!r}, {lang!r})")
            assert refused.startswith("refused: ") and words in refused and "explanation" not in refused, refused
        gone = _cell(page, f"""
try:
    classroom.feedback('http://127.0.0.1:{_free_port()}', {codes['anna']!r}, {EX!r}, timeout=5)
except classroom.ClassroomError as err:
    said = str(err)
said""")
        assert gone.startswith("cannot reach the class server at http://127.0.0.1:")
        browser.close()


# --- the same cell in the site's own JupyterLab ----------------------------------------------------

#: The cell's outputs as the kernel sends them: its value's Markdown, an error's lines as shown.
EXECUTE = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, store_history: false});
  const out = [];
  future.onIOPub = (msg) => {
    const c = msg.content;
    if (msg.header.msg_type === 'execute_result') out.push('markdown: ' + c.data['text/markdown']);
    if (msg.header.msg_type === 'error') out.push('error: ' + c.traceback.join('\\n'));
    if (msg.header.msg_type === 'stream') out.push(c.name + ': ' + c.text);
  };
  await future.done;
  return out.join('\\n');
}"""


class Lab(Files):
    """The whole site, as GitHub Pages serves it, but for JupyterLite exposing its app (a test setting)."""

    def do_GET(self) -> None:
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


def test_in_the_sites_jupyterlab_the_learners_cell_shows_the_feedback_or_one_sentence(server):
    """The site as built (its own maumau wheel: ``make site`` first), a notebook open in its JupyterLab."""
    from playwright.sync_api import sync_playwright

    server, db = server
    code = next(line.code for line in server.roster.lines() if line.learner == "anna")
    files = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Lab, directory=str(SITE)))
    threading.Thread(target=files.serve_forever, daemon=True).start()
    cell = f"from maumau import classroom\nclassroom.feedback({server.url!r}, {{code!r}}, {EX!r}, lang='de')"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{files.server_address[1]}/lab/index.html?path=exercises/{EX}.ipynb")
            page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                                   " && window.jupyterapp.shell.currentWidget.sessionContext", timeout=120_000)
            page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.ready; }")
            before = page.evaluate(EXECUTE, cell.format(code=code))
            assert before.startswith("markdown: *Deine Rückmeldung zu") and "explanation" not in before, before
            FeedbackRelease(db).release(EX, server.course.course.clock())
            after = page.evaluate(EXECUTE, cell.format(code=code))
            assert after.startswith("markdown: *Deine Rückmeldung zu") and "anna's own explanation" in after, after
            wrong = page.evaluate(EXECUTE, cell.format(code="ben"))
            assert wrong.startswith("error: ") and wrong.count("\n") == 0 and "Traceback" not in wrong, wrong
            assert "Niemand in diesem Kurs hat diesen persönlichen Code" in wrong
            browser.close()
    finally:
        files.shutdown()
