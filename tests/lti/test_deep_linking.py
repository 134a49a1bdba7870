"""Deep linking against the real platform, and then the whole way: the instructor adds an exercise
to the LMS course (the LMS makes its grade column), a learner launches that link and lands on the
exercise, hands it in, ``maumau grade`` grades it late, ``maumau lti scores`` sends the final
score to that column (not to a second one), and the score is read back from the platform."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import jwt
import pytest

from .conftest import EX, REPO
from .lms import Browser, Platform, Response, form_of
from .test_launch import launch

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def choice(browser: Browser, platform: Platform, who: str = "tom") -> Response:
    """``who`` opens the LMS's "add an activity" dialog: maumau's page of activities."""
    page = browser.follow(platform.launch_link(who, "deep-link"))
    assert page.status == 200, page.body
    return browser.submit(page)


def add(browser: Browser, page: Response, *items: str) -> Response:
    """The instructor ticks ``items`` and adds them: maumau's answer page (its form goes to the LMS)."""
    form = form_of(page)
    return browser.request("POST", form["action"], [("pick", form["pick"]), *(("item", i) for i in items)])


def test_an_instructor_adds_an_exercise_and_the_tables_and_the_lms_makes_the_column(course_server: Any,
                                                                                   platform: Platform):
    browser = Browser()
    page = choice(browser, platform)
    assert page.status == 200 and 'value="01_matching"' in page.body and 'value="maumau:tables"' in page.body
    assert "Exercise 01 Matching (C-3): " in page.body  # the notebook's heading, as the column is named
    answer = add(browser, page, EX, "maumau:tables")
    assert answer.status == 200, answer.body
    assert "script-src 'sha256-" in (answer.header("Content-Security-Policy") or "")
    form = form_of(answer)
    assert form["action"] == platform.url + "/deep_link_return"
    claims = jwt.decode(form["JWT"], options={"verify_signature": False})
    assert claims["iss"] == platform.client_id and claims["aud"] == platform.issuer
    back = browser.submit(answer)  # what the page's script does: post the signed answer to the LMS
    assert (back.status, back.body) == (200, "added 2"), back.body  # the LMS checked the tool's signature
    assert platform.returned_data == {"session": "dl-7"}  # the request's data, sent back unchanged
    exercise = next(item for item in platform.links.values() if item.get("custom"))
    assert exercise["custom"] == {"exercise": EX}
    assert exercise["lineItem"]["resourceId"] == EX and exercise["lineItem"]["scoreMaximum"] > 0
    assert exercise["title"] == exercise["lineItem"]["label"] == "01 Matching (C-3)"
    assert [i["resourceId"] for i in platform.store.items.values()] == [EX]


def test_a_learner_cannot_add_activities_and_a_choice_is_used_once(course_server: Any, platform: Platform):
    learner = Browser()
    refused = learner.submit(learner.follow(platform.launch_link("anna", "deep-link")))
    assert refused.status == 403 and "only an instructor of the course" in refused.body
    browser = Browser()
    page = choice(browser, platform)
    nothing = add(browser, page)
    assert nothing.status == 400 and "choose at least one activity" in nothing.body
    assert add(browser, page, EX).status == 200  # the choice stayed open for the one ticked
    again = add(browser, page, EX)
    assert again.status == 400 and "used already" in again.body


def test_the_whole_way_launch_hand_in_grade_scores_read_back(course_server: Any, platform: Platform,
                                                             tmp_path: Path):
    from maumau.cli import main

    teacher = Browser()
    for _ in range(2):  # added twice (the teacher forgot): two links, one grade column
        assert teacher.submit(add(teacher, choice(teacher, platform), EX)).status == 200
    assert len(platform.links) == 2 and len(platform.store.items) == 1
    assert "lineItem" not in platform.links["dl-2"]
    link = "dl-2"

    anna = Browser()
    landed = anna.submit(anna.follow(platform.launch_link("anna", link)))
    assert landed.status == 303 and (landed.header("Location") or "").endswith(f"/lti/exercise?name={EX}")
    page = anna.follow(landed.header("Location") or "")
    assert page.status == 200 and "<h1>Exercise 01 Matching (C-3)</h1>" in page.body
    assert "not handed it in yet" in page.body
    here = landed.header("Location") or ""
    notebook = (REPO / "exercises" / f"{EX}.ipynb").read_bytes()
    sent = anna.request("POST", here, upload=("notebook", f"{EX}.ipynb", notebook), origin=course_server.lti.url)
    assert sent.status == 303 and sent.header("Location") == here, sent.body  # on the exercise's page
    assert "version 1, received" in anna.follow(here).body
    assert [(r.learner, r.exercise) for r in course_server.course.handins.receipts()] == [("moodle-u-17", EX)]

    db = course_server.lti.keys.db
    due = (datetime.now(timezone.utc) - timedelta(hours=36)).isoformat(timespec="seconds")  # two days late
    out = io.StringIO()
    argv = ["grade", "--source", str(tmp_path / "source"), "--handins", db, "--out", str(tmp_path / "grades"),
            "--due", f"{EX}={due}", "--late", "10%/day", "--cell-timeout", "20", "--gradebook", db]
    assert main(argv, out=out, err=out) == 0, out.getvalue()
    row = next(csv.DictReader((tmp_path / "grades" / "grades.csv").open(encoding="utf-8")))
    assert row["student"] == "moodle-u-17" and float(row["final"]) < float(row["score"])

    (tmp_path / "lti.json").write_text(json.dumps({"platforms": [platform.registration_entry("moodle")]}))
    out = io.StringIO()
    argv = ["lti", "scores", "--db", db, "--lti", str(tmp_path / "lti.json"), "--grades",
            str(tmp_path / "grades" / "grades.csv")]
    assert main(argv, out=out, err=out) == 0, out.getvalue()
    assert f"moodle-u-17 in \"Maths 7b\" (course-7): sent {EX} {float(row['final']):g}" in out.getvalue()
    assert len(platform.store.items) == 1 and platform.store.created == 0  # the LMS's column, not a second
    out = io.StringIO()  # from the gradebook (the same final scores): nothing new to send
    argv = ["lti", "scores", "--db", db, "--lti", str(tmp_path / "lti.json"), "--gradebook", db]
    assert main(argv, out=out, err=out) == 0, out.getvalue()
    assert f"moodle-u-17 in \"Maths 7b\" (course-7): unchanged {EX}" in out.getvalue()
    from maumau.lti.contexts import Courses
    from maumau.lti.keys import ToolKeys
    from maumau.lti.platforms import load_registrations
    from maumau.lti.scores import results
    from maumau.lti.services import Services

    course = Courses(db).all()[0]
    back = results(db, load_registrations(tmp_path / "lti.json"), course, EX, Services(ToolKeys(db)))
    assert back == {"u-17": float(row["final"])}


def test_the_exercise_page_is_the_launched_learners_only_and_an_unknown_exercise_lands_in_the_lobby(
        course_server: Any, platform: Platform):
    page = Browser().follow(course_server.lti.url + f"/lti/exercise?name={EX}")
    assert page.status == 403 and "open maumau's link in the LMS" in page.body
    platform.links["dl-9"] = {"type": "ltiResourceLink", "custom": {"exercise": "../../etc/passwd"}}
    anna = Browser()
    landed = anna.submit(anna.follow(platform.launch_link("anna", "dl-9")))
    assert landed.status == 303 and landed.header("Location") == course_server.url + "/"
    unknown = anna.follow(course_server.lti.url + "/lti/exercise?name=nope")
    assert unknown.status == 404 and "no exercise 'nope'" in unknown.body and unknown.body.count("\n") == 1


def test_an_lms_that_takes_one_item_gets_round_buttons_and_one_link():
    from maumau.lti.deep_linking import TABLES, choice_page, content_items

    page = choice_page("k", "https://tool/lti/deep-link", {EX: 6.0}, multiple=False, lang="hu")
    assert page.count('type="radio"') == 2 and 'type="checkbox"' not in page and "feladat: 6 pont" in page
    items = content_items([EX, "nope", EX, TABLES], {EX: 6.0}, "https://tool", "en", frozenset({EX}))
    assert [i["title"] for i in items] == [EX, "maumau: the class tables"]  # unknown left out, twice is once
    assert "lineItem" not in items[0] and items[0]["custom"] == {"exercise": EX}
    titled = content_items([EX], {EX: 6.0}, "https://tool", "de", titles={EX: "01 Passende Karten (C-3)"})
    assert titled[0]["title"] == titled[0]["lineItem"]["label"] == "01 Passende Karten (C-3)"
    assert titled[0]["lineItem"]["resourceId"] == EX  # found again by its name, whatever its label


def test_an_exercise_is_called_by_its_heading_in_each_language():
    from maumau.grading.exercise import load_exercises

    exercise = next(e for e in load_exercises(REPO / "exercises") if e.name == "02_skip_on_eight")
    assert [exercise.in_language(lang).title for lang in ("en", "de", "hu")] == [
        "02 Skip on 8 (MK-5)", "02 Aussetzen bei der 8 (MK-5)", "02 Kimaradás 8-asra (MK-5)"]


def test_an_upload_that_is_not_the_launched_learners_or_not_a_notebook_is_refused(course_server: Any,
                                                                                 platform: Platform):
    anna = Browser()
    page = f"{course_server.lti.url}/lti/exercise?name={EX}"
    assert launch(anna, platform, "anna").status == 303
    notebook = (REPO / "exercises" / f"{EX}.ipynb").read_bytes()
    other_site = anna.request("POST", page, upload=("notebook", "x.ipynb", notebook), origin="https://evil.example")
    assert other_site.status == 403 and "open maumau's link in the LMS" in other_site.body
    stranger = Browser().request("POST", page, upload=("notebook", "x.ipynb", notebook))
    assert stranger.status == 403
    junk = anna.request("POST", page, upload=("notebook", "x.ipynb", b"not a notebook"), origin=course_server.lti.url)
    assert junk.status == 400 and junk.body.count("\n") == 1 and "Traceback" not in junk.body
    empty = anna.request("POST", page, form={"x": "1"}, origin=course_server.lti.url)
    assert empty.status == 400 and "choose your notebook" in empty.body
    assert course_server.course.handins.receipts() == []
    big = Browser().request("POST", course_server.lti.url + "/lti/launch", form={"id_token": "x" * 70_000})
    assert big.status == 413 and "too large" in big.body  # only a notebook's upload may be that large
