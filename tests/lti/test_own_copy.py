"""A learner the LMS launched downloads their own copy of the exercise from its page (issue 38 item 3):
with the course's variants its positions are drawn for the LMS user the grader files them under."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import EX
from .lms import Browser, Platform
from .test_launch import launch

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
KEY = bytes(range(32))


def test_the_launched_learner_downloads_their_own_positions(course_server: Any, platform: Platform):
    from maumau.grading import learner_variants as lv
    from maumau.grading.exercise import load_exercise
    from maumau.grading.submissions import safe_folder_name

    course_server.course.course.variants = KEY
    page = f"{course_server.lti.url}/lti/exercise?name={EX}"
    anna = Browser()
    assert launch(anna, platform, "anna").status == 303
    shown = anna.follow(page)
    assert shown.status == 200 and "Download your notebook of this exercise" in shown.body
    got = anna.follow(page + "&download=1")
    assert got.status == 200 and got.header("Content-Disposition") == f'attachment; filename="{EX}.ipynb"'
    notebook = json.loads(got.body)
    exercise = load_exercise(course_server.course.course.source / f"{EX}.ipynb")
    learner = "moodle-u-17"  # the LMS user, as hand-ins from this page are filed
    assert notebook["metadata"]["maumau"]["variant"] == {
        "learner": learner, "draw": lv.learners_draw(KEY, safe_folder_name(learner), exercise).name}
    stranger = Browser().follow(page + "&download=1")
    assert stranger.status == 403 and "open maumau's link in the LMS" in stranger.body
