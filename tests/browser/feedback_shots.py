"""The feedback pages as a learner and the teacher see them (issue 38 item 2), in headless Chromium.

    python tests/browser/feedback_shots.py OUT_DIR

A class server with three exercises (their German and Hungarian notebooks beside them): anna hands in
a notebook with a bug in 01 through the server, two days late, ``maumau grade`` grades it into the
class database; 01's feedback is released by hand, 02's is planned for its close time plus two hours,
03's is held.  Then it photographs

- the learner's page ``/my-feedback`` of anna in English, German and Hungarian
  (``feedback-learner[-de|-hu].png``: the page the server answers a signed-in learner, shown in the
  browser; signing in needs a hub or an LMS, which ``tests/lti`` and ``tests/classroom/test_hub.py``
  drive);
- the teacher's course page, logged in with the teacher's token: its release section
  (``feedback-release.png``) and anna's feedback as the teacher reads it (``feedback-teacher.png``).
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("MM_CHROMIUM", "/usr/bin/chromium")
EXERCISES = ("01_matching", "02_skip_on_eight", "03_reverse_on_nine")
VIEWPORT = {"width": 1000, "height": 700}


def course(tmp: Path) -> Path:
    """The three exercises and their translations, as a course folder."""
    source = tmp / "source"
    for lang in ("", "de", "hu"):
        (source / lang).mkdir(parents=True, exist_ok=True)
        for name in EXERCISES:
            shutil.copy(REPO / "exercises" / lang / f"{name}.ipynb", source / lang)
    return source


def graded(server: object, tmp: Path, source: Path, db: Path) -> None:
    """anna's hand-in of 01 (a bug in it), through the server, graded two days late."""
    from maumau import classroom
    from maumau.classroom.identity import codes_answer
    from maumau.cli import main

    codes = {line["learner"]: line["code"] for line in codes_answer(server.roster, None)["codes"]}
    classroom.hand_in(server.url, codes["anna"], REPO / "tests" / "submissions" / "buggy_matching" /
                      "01_matching.ipynb")
    due = (datetime.now(timezone.utc) - timedelta(hours=36)).isoformat(timespec="seconds")
    out = io.StringIO()
    argv = ["grade", "--source", str(source), "--handins", str(db), "--out", str(tmp / "grades"), "-j", "1",
            "--due", f"01_matching={due}", "--late", "10%/day, 0 after 7 days", "--gradebook", str(db),
            "--cell-timeout", "20"]
    if main(argv, out=out, err=out) != 0:
        sys.exit(out.getvalue())


def main(out: Path) -> None:
    from maumau import classroom
    from maumau.classroom import Course
    from maumau.grading.feedback_release import FeedbackRelease, utc_now

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        source, db = course(tmp), tmp / "class.sqlite"
        (tmp / "roster.csv").write_text("learner,name,id\nanna,Anna A,11\nben,Ben B,12\n")
        close = {"02_skip_on_eight": utc_now() + timedelta(days=1)}
        server = classroom.Server(db=db, port=0, teacher_token="t-secret", computer_delay=0, pause=60,
                                  roster=tmp / "roster.csv",
                                  course=Course(source, closes=close, feedback_delay=timedelta(hours=2)))
        server.start()
        try:
            graded(server, tmp, source, db)
            FeedbackRelease(db).release("01_matching", utc_now())
            login = urllib.request.Request(server.url + "/login", method="POST",
                                           headers={"Authorization": "Teacher t-secret"})
            cookie = urllib.request.urlopen(login).headers["Set-Cookie"].split(";")[0].split("=", 1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport=VIEWPORT)
                for lang in ("en", "de", "hu"):
                    page.set_content(server.course.feedback_desk.page("anna", "Anna A", lang))
                    page.screenshot(path=out / f"feedback-learner{'' if lang == 'en' else '-' + lang}.png",
                                    full_page=True)
                page.context.add_cookies([{"name": cookie[0], "value": cookie[1], "url": server.url}])
                page.goto(server.url + "/course?lang=en")
                page.locator("#feedback-release").screenshot(path=out / "feedback-release.png")
                page.goto(server.url + "/course/feedback?learner=anna&lang=en")
                page.screenshot(path=out / "feedback-teacher.png", full_page=True)
                browser.close()
        finally:
            server.stop()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
