"""The browser course's notebook shares its checks through the browser's WebSocket (issue 38, item 1):
Pyodide from the built site (``make site``: SITE, default site/) in headless Chromium, this
worktree's maumau on top of the site's wheel, a real class server.  A learner's check in Pyodide
reaches the server, a wrong code is refused there, and no check waits for the socket.  Skipped
where no site has been built."""

from __future__ import annotations

import functools
import http.server
import io
import os
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("playwright.sync_api")

from maumau import classroom  # noqa: E402
from maumau.classroom import Course  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("SITE", REPO / "site")).resolve()
PYODIDE = SITE / "static" / "pyodide"
CHROMIUM = "/usr/bin/chromium"
EX = "02_skip_on_eight"

pytestmark = pytest.mark.skipif(not (PYODIDE / "pyodide.js").exists() or not os.path.exists(CHROMIUM),
                                reason=f"no built site with Pyodide at {PYODIDE} (make site), or no Chromium")

PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><script src="pyodide.js"></script></head>
<body><script>window.ready = (async () => {
  window.py = await loadPyodide({indexURL: location.href.replace(/[^/]*$/, '')});
  await py.loadPackage(['maumau']);
  const code = await (await fetch('maumau.zip')).arrayBuffer();
  py.unpackArchive(code, 'zip', {extractDir: py.runPython('import site; site.getsitepackages()[0]')});
  return true;
})();</script></body></html>"""


def this_maumau() -> bytes:
    """This worktree's package (its Python files and pages), to lay over the site's wheel."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in (REPO / "maumau").rglob("*"):
            wanted = path.suffix in (".py", ".json", ".html", ".js", ".css") and "_built" not in path.parts
            if path.is_file() and wanted:
                archive.write(path, path.relative_to(REPO).as_posix())
    return buffer.getvalue()


class Files(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript", ".whl": "application/octet-stream",
                      ".zip": "application/zip"}
    extra: dict[str, bytes] = {}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:
        body = self.extra.get(self.path.split("?")[0])
        if body is None:
            return super().do_GET()
        self.send_response(200)
        # a worker's script must say it is one
        self.send_header("Content-Type", self.guess_type(self.path.split("?")[0]))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve_pyodide(extra: dict[str, bytes]) -> Iterator[str]:
    """Pyodide's files from the built site on a free port, with ``extra`` pages beside them."""
    handler = type("Site", (Files,), {"extra": extra})
    files = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(PYODIDE)))
    threading.Thread(target=files.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{files.server_address[1]}"
    finally:
        files.shutdown()


@pytest.fixture
def site():
    yield from serve_pyodide({"/live.html": PAGE, "/maumau.zip": this_maumau()})


def test_a_check_in_pyodide_reaches_the_class_server(site, tmp_path):
    from playwright.sync_api import sync_playwright

    source = tmp_path / "source"
    source.mkdir()
    (source / f"{EX}.ipynb").write_bytes((REPO / "exercises" / f"{EX}.ipynb").read_bytes())
    (tmp_path / "roster.csv").write_text("learner,name,id,sis_user_id,email\nanna,Anna A,1,A,a@s.example\n")
    server = classroom.Server(db=tmp_path / "class.sqlite", port=0, course=Course(source),
                              roster=tmp_path / "roster.csv").start()
    code = server.roster.lines()[0].code
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(site + "/live.html")
            assert page.evaluate("() => window.ready") is True
            ran = page.evaluate("""([url, code]) => py.runPython(`
import sys, time
from maumau.classroom import share_progress
from maumau.grading import checks
sharing = share_progress('${url}', '${code}')  # the server knows the exercise by its checks
began = time.perf_counter()
with checks.scenario('3 players, seat 0 plays 8\u2665'):
    checks.check('who moves next', 2, 2)
with checks.scenario('2 players, seat 0 plays 8\u2665'):
    checks.check('who moves next', 1, 0)
took = time.perf_counter() - began
f"{sys.platform} {type(sharing.sender).__name__} {took:.4f}"
`)""", [server.url, code])
            platform, sender, took = ran.split()
            assert (platform, sender) == ("emscripten", "BrowserSender") and float(took) < 0.2
            for _ in range(100):  # the browser sends once its socket is open
                if "anna" in server.live.progress.latest:
                    break
                time.sleep(0.05)
            latest = server.live.progress.latest["anna"][EX]
            assert latest.checks == {"skip_on_eight_test1#0": True, "skip_on_eight_test2#0": False}
            answer = page.evaluate("() => py.runPython('str(sharing.last_answer)')")
            assert "stored" in answer
            refused = page.evaluate("""([url]) => py.runPython(`
from maumau.classroom import share_progress
wrong = share_progress('${url}', 'ZZZZ-ZZZZ-ZZZZ', exercise='02_skip_on_eight')
`)""", [server.url])
            assert refused is None
            page.wait_for_function("() => py.runPython('wrong.last_answer is not None')", timeout=10_000)
            assert "no learner of this course" in page.evaluate("() => py.runPython('str(wrong.last_answer)')")
            browser.close()
    finally:
        server.stop()
