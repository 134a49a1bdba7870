"""The pictures of docs/howto/during-the-lesson.md: the teacher's live page and the projector's, of
a class of eight in the middle of exercises 02 and 03 (two of them stuck for a while), taken in
headless Chromium from a real class server; and the teacher's page in German of the same lesson
where each learner has their own cards (``--variants``).

    MAUMAU_PURE_PYTHON=1 python tests/browser/live_shots.py [OUT]    (OUT: docs/images by default)
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from maumau import classroom  # noqa: E402
from maumau.classroom import Course  # noqa: E402
from maumau.classroom.live_checks import course_checks  # noqa: E402
from maumau.classroom.progress import Progress  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
EXERCISES = ("02_skip_on_eight", "03_reverse_on_nine")
CLASS = {"anna": "Anna Aranyi", "ben": "Ben Bauer", "cleo": "Cleo Castro", "dora": "Dóra Dévai",
         "emil": "Emil Eder", "fanni": "Fanni Fekete", "gabor": "Gábor Gál", "hanna": "Hanna Huber"}
#: learner: (minutes ago, exercise, the checks that pass by their place), oldest first
RUNS = [
    ("anna", 14, "02_skip_on_eight", (1, 1, 1)), ("anna", 3, "03_reverse_on_nine", (1, 0, 1)),
    ("ben", 12, "02_skip_on_eight", (0, 1, 0)), ("ben", 1, "02_skip_on_eight", (0, 1, 1)),
    ("cleo", 13, "02_skip_on_eight", (1, 1, 1)), ("cleo", 2, "03_reverse_on_nine", (1, 1, 1)),
    ("dora", 11, "02_skip_on_eight", (0, 1, 0)),
    ("emil", 9, "02_skip_on_eight", (0, 1, 1)), ("emil", 0.5, "02_skip_on_eight", (0, 1, 1)),
    ("fanni", 6, "02_skip_on_eight", (1, 1, 1)), ("fanni", 1, "03_reverse_on_nine", (1, 0, 0)),
    ("gabor", 4, "02_skip_on_eight", (0, 1, 1)),
]


def course(folder: Path) -> Path:
    """The lesson's course (exercises 02 and 03, English and German) and its roster, in ``folder``."""
    source = folder / "source"
    (source / "de").mkdir(parents=True)
    for name in EXERCISES:
        shutil.copy(REPO / "exercises" / f"{name}.ipynb", source)
        shutil.copy(REPO / "exercises" / "de" / f"{name}.ipynb", source / "de")
    (folder / "roster.csv").write_text("learner,name,id,sis_user_id,email\n" + "".join(
        f"{key},{name},{i},S-{i},{key}@s.example\n" for i, (key, name) in enumerate(CLASS.items())))
    return source


def lesson(source: Path, db: Path) -> None:
    """The lesson so far, as the server stored it (check ids: the same whatever cards a learner has)."""
    known = course_checks(source)
    progress = Progress(db, known)
    now = time.time()
    for learner, ago, exercise, passing in RUNS:
        checks = {c.id: bool(ok) for c, ok in zip(known[exercise].checks, passing, strict=True)}
        progress.record(learner, exercise, checks, now - ago * 60)
    progress.close()


def shoot(server: classroom.Server, shots: dict[str, str]) -> None:
    """Each page of ``shots`` (file name: path) in headless Chromium, as the logged-in teacher."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 1200, "height": 900}, device_scale_factor=1)
        assert context.request.post(server.url + "/login", headers={"Authorization": "Teacher t"}).ok
        for name, path in shots.items():
            page = context.new_page()
            if "projector" in path:
                page.set_viewport_size({"width": 1280, "height": 800})
            page.goto(server.url + path)
            ready = "#counts li" if "projector" in path else "#rows tr:nth-child(8)"
            page.wait_for_function(f"() => document.querySelector('{ready}') !== null")
            page.screenshot(path=str(name), full_page=True)
            print(json.dumps({name: page.inner_text("main")[:300]}, ensure_ascii=False))
        browser.close()


def main(out: Path) -> None:
    for variants in (None, bytes([7]) * 32):  # the common cards, then each learner's own (maumau serve --variants)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            source = course(folder)
            lesson(source, folder / "class.sqlite")
            server = classroom.Server(db=folder / "class.sqlite", port=0, teacher_token="t",
                                      course=Course(source, variants=variants), roster=folder / "roster.csv").start()
            try:
                if variants is None:
                    shoot(server, {str(out / "live-teacher.png"): "/live?idle=5",
                                   str(out / "live-projector-de.png"): "/live/projector?lang=de&idle=5"})
                else:
                    shoot(server, {str(out / "live-teacher-variants-de.png"): "/live?lang=de&idle=5"})
            finally:
                server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "images")
