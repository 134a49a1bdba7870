"""The hand-in sees the identity a launch signed in: a page's hand-in socket carries the session
cookie, and the notebook is the LMS learner's, whatever code the message names."""

from __future__ import annotations

import json
from typing import Any

from .conftest import EX, REPO
from .lms import Browser, Platform
from .test_launch import launch


def hand_in(server: Any, cookie: str, hello: dict[str, Any]) -> dict[str, Any]:
    from websockets.sync.client import connect

    data = (REPO / "exercises" / f"{EX}.ipynb").read_bytes()
    headers = {"Cookie": cookie, "Origin": server.url} if cookie else {}
    with connect(server.url.replace("http", "ws") + "/handin", additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hand_in", "exercise": EX, "size": len(data), **hello}))
        answer = json.loads(ws.recv(10))
        if answer.get("type") == "ready":
            ws.send(data)
            answer = json.loads(ws.recv(10))
    return dict(answer)


def test_a_launched_learners_hand_in_is_theirs(course_server: Any, platform: Platform):
    browser = Browser()
    assert launch(browser, platform, "anna").status == 303
    receipt = hand_in(course_server, browser.cookie_header(course_server.url + "/handin"),
                      {"code": "moodle-u-3"})  # naming another learner changes nothing: the session says who
    assert receipt["type"] == "receipt" and receipt["learner"] == "moodle-u-17", receipt


def test_without_a_launch_the_hand_in_is_refused(course_server: Any, platform: Platform):
    answer = hand_in(course_server, "", {"code": "moodle-u-17"})
    assert answer["type"] == "error" and "does not know who its learners are" in answer["message"]
    forged = hand_in(course_server, "maumau_lti=made-up", {"code": "moodle-u-17"})
    assert forged["type"] == "error"
    assert course_server.course.handins.receipts() == []
