"""Notebooks as a projector shows them (issue 24): JupyterLab in headless Chromium at 1280×720, each
notebook opened with its committed outputs (not run again) and photographed screen by screen.

    python tests/browser/projector_shots.py OUT_DIR notebooks/06_game_state_graphs.ipynb [...]

Starts its own JupyterLab (galata's configuration, tests/browser/jupyter_server_config.py) on a free
localhost port with a token, in a home of its own under OUT_DIR, and stops it at the end.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from notebook_page import screenshots
from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[2]
VIEWPORT = {"width": 1280, "height": 720}
CHROMIUM = os.environ.get("MM_CHROMIUM", "/usr/bin/chromium")
APP = "window.galata.app"


def start_lab(out: Path) -> tuple[subprocess.Popen[bytes], str, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    token, home = secrets.token_hex(16), out / "home"
    settings = home / ".jupyter" / "lab" / "user-settings" / "@jupyterlab"
    (settings / "apputils-extension").mkdir(parents=True, exist_ok=True)
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    (settings / "notebook-extension").mkdir(parents=True, exist_ok=True)  # every cell rendered (no windowing)
    (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    env = {**os.environ, "MM_PORT": str(port), "MM_TOKEN": token, "MM_ROOT": str(out / "root"), "HOME": str(home),
           "JUPYTER_CONFIG_DIR": str(home / ".jupyter"), "JUPYTER_PLATFORM_DIRS": "1",
           "JUPYTER_DATA_DIR": str(home / "data"), "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    log = open(out / "lab.log", "wb")  # noqa: SIM115 (open while the server runs)
    server = subprocess.Popen([sys.executable, "-m", "jupyter", "lab",
                               f"--config={REPO / 'tests' / 'browser' / 'jupyter_server_config.py'}"],
                              env=env, stdout=log, stderr=log, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    for _ in range(240):
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2).read()
            return server, url, token
        except OSError:
            time.sleep(0.25)
    server.kill()
    sys.exit("JupyterLab did not start; see lab.log")


def main(out: Path, notebooks: list[Path]) -> None:
    (out / "root").mkdir(parents=True, exist_ok=True)
    for notebook in notebooks:
        shutil.copy(notebook, out / "root" / notebook.name)
    server, url, token = start_lab(out)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(f"{url}/lab/workspaces/mm-projector?token={token}", wait_until="domcontentloaded")
            page.wait_for_function("() => window.galata && window.galata.app && window.galata.app.shell"
                                   " && window.galata.app.commands.hasCommand('docmanager:open')", timeout=90_000)
            page.evaluate("async () => { await window.galata.app.restored; }")
            page.evaluate("async () => { await window.galata.app.commands.execute('application:toggle-left-area'); }")
            for notebook in notebooks:
                page.evaluate("async (path) => { await window.galata.app.commands.execute('docmanager:open', "
                              "{path}); }", notebook.name)
                page.wait_for_function("(path) => { const w = window.galata.app.shell.currentWidget;"
                                       " return w && w.context && w.context.path === path; }",
                                       arg=notebook.name, timeout=90_000)
                time.sleep(3)  # the outputs render
                shots = screenshots(page, APP, out, notebook.stem)
                print(f"{notebook.name}: {len(shots)} screenshots at 1280×720 in {out}")
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), [Path(a).resolve() for a in sys.argv[2:]])
