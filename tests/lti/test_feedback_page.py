"""A launched learner's released feedback (issue 38 item 2): on their exercise page in the LMS's link,
and on their own page of the class server (/my-feedback); before the release, a sentence saying
when; never another learner's."""

from __future__ import annotations

from typing import Any

import pytest

from maumau.grading.feedback_release import FeedbackRelease, utc_now
from maumau.grading.gradebook import Gradebook, Row
from maumau.grading.gradebook import TestResult as Result

from .conftest import EX
from .lms import Browser, Platform
from .test_launch import launch

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ANNA = "moodle-u-17"  # the learner the launch of anna signs in


def _grade(db: str, learner: str, explanation: str) -> None:
    row = Row(learner, EX, 4, 6, tests=[Result("v", "a visible test", 4, 4, True, False),
                                       Result("h", "a hidden <b>test</b>", 0, 2, False, True, "", explanation)])
    Gradebook(db).record([(row, "sub", "src", False)], forced=False)


def test_the_exercise_page_and_the_learners_page_show_the_feedback_once_released(course_server: Any,
                                                                                  platform: Platform):
    db = str(course_server.course.db)
    _grade(db, ANNA, "expected <script>alert(1)</script>")
    _grade(db, "moodle-u-3", "the other learner's explanation")
    anna = Browser()
    assert launch(anna, platform, "anna").status == 303
    page = anna.follow(f"{course_server.lti.url}/lti/exercise?name={EX}")
    assert page.status == 200 and "you see it when your teacher releases it" in page.body
    assert "alert" not in page.body and "4 of 6" not in page.body
    mine = anna.follow(course_server.url + "/my-feedback?lang=de")
    assert mine.status == 200 and "Deine Rückmeldung" in mine.body and "alert" not in mine.body

    FeedbackRelease(db).release(EX, utc_now())
    page = anna.follow(f"{course_server.lti.url}/lti/exercise?name={EX}")
    assert page.status == 200 and "4 of 6 points" in page.body
    assert "expected &lt;script&gt;alert(1)&lt;/script&gt;" in page.body and "<script>" not in page.body
    assert "the other learner" not in page.body and "moodle-u-3" not in page.body
    assert "```" not in page.body and "# " not in page.body and "<pre style" in page.body  # a page, no Markdown
    assert "<li style" in page.body and "a hidden &lt;b&gt;test&lt;/b&gt;" in page.body and "<b>" not in page.body
    mine = anna.follow(course_server.url + "/my-feedback?lang=hu")
    assert mine.status == 200 and '<html lang="hu">' in mine.body and "4 pont a 6 pontból" in mine.body
    # headed by its title (this course has no Hungarian notebook: the English one's), not its file name
    assert f'<h2 id="feedback-{EX}">01 Matching (C-3)</h2>' in mine.body and "nem sikerült</strong>" in mine.body
    assert "the other learner" not in mine.body
    stranger = Browser().follow(course_server.url + "/my-feedback")
    assert stranger.status == 403 and "alert" not in stranger.body and stranger.body.count("\n") == 1


def test_an_lms_link_to_the_learners_feedback_page_lands_there(course_server: Any, platform: Platform):
    target = "https://purl.imsglobal.org/spec/lti/claim/target_link_uri"
    platform.extra = {target: f"{course_server.url}/my-feedback"}
    anna = Browser()
    assert launch(anna, platform, "anna").header("Location") == f"{course_server.url}/my-feedback"
    page = anna.follow(f"{course_server.url}/my-feedback")
    assert page.status == 200 and "Signed in as Anna" in page.body and EX in page.body


def test_an_lms_link_to_the_live_view_lands_the_teacher_there_and_a_learner_is_refused(course_server: Any,
                                                                                         platform: Platform):
    target = "https://purl.imsglobal.org/spec/lti/claim/target_link_uri"
    platform.extra = {target: f"{course_server.url}/live"}
    teacher = Browser()
    assert launch(teacher, platform, "tom").header("Location") == f"{course_server.url}/live"  # an instructor
    page = teacher.follow(f"{course_server.url}/live")
    assert page.status == 200 and "The class right now" in page.body
    course = teacher.follow(f"{course_server.url}/course?lang=de")
    assert '<a href="live?lang=de">Die Klasse gerade (live)' in course.body  # one click from the course page
    anna = Browser()
    assert launch(anna, platform, "anna").header("Location") == f"{course_server.url}/live"
    assert anna.follow(f"{course_server.url}/live").status == 403  # the link lands; the page is the teacher's
