"""Feedback release on a real JupyterHub (issue 38 item 2): a hub user reads their own feedback with
their hub token (a notebook) or on their page after the hub's login, a hub teacher releases it with the
course page's button, and a learner's session cannot press that button.  Needs jupyterhub and
configurable-http-proxy, as tests/classroom/test_hub.py."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

pytest.importorskip("jupyterhub")

from test_hub import CHP, hub, page_session  # noqa: E402,F401  (the module's hub fixture)

from maumau import classroom  # noqa: E402
from maumau.grading.gradebook import Gradebook, Row  # noqa: E402
from maumau.grading.gradebook import TestResult as Result  # noqa: E402

pytestmark = pytest.mark.skipif(not CHP.exists(), reason=f"configurable-http-proxy is not installed at {CHP}")
EX = "03_reverse_on_nine"
SECRET = "alice's hidden explanation"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _post(url: str, cookie: str, origin: str) -> int:
    request = urllib.request.Request(url, data=b"", method="POST",
                                     headers={"Cookie": cookie, "Origin": origin, "Content-Length": "0"})
    try:
        with urllib.request.build_opener(_NoRedirect).open(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def test_a_hub_teacher_releases_and_each_hub_user_reads_only_their_own(hub):  # noqa: F811  the fixture
    row = Row("alice", EX, 1, 6, tests=[Result("h", "hidden", 0, 2, False, True, "", SECRET)])
    Gradebook(hub.run / "class.sqlite").record([(row, "sub", "src", False)], forced=False)
    before = classroom.feedback(hub.service, "ANY", EX, hub_token=hub.token("alice"))
    assert not before.released and "when your teacher releases it" in before.message
    # a learner's session cannot press the teacher's button, not even with the teacher's form token
    _, tina, _ = page_session(hub, "tina", "/")  # the hub's login on the lobby, then the course page
    request = urllib.request.Request(hub.service + "/course", headers={"Cookie": tina})
    with urllib.request.urlopen(request, timeout=10) as answer:
        page = answer.read().decode()
    action = page.split(f'action="course/release?exercise={EX}&amp;do=release')[1].split('"')[0]
    button = f"{hub.service}/course/release?exercise={EX}&do=release" + action.replace("&amp;", "&")
    _, bob, _ = page_session(hub, "bob", "/my-feedback")
    assert _post(button, bob, hub.url) == 403
    assert _post(button, tina, "http://evil.example") == 403
    assert not classroom.feedback(hub.service, "ANY", EX, hub_token=hub.token("alice")).released
    assert _post(button, tina, hub.url) == 303
    after = classroom.feedback(hub.service, "ANY", EX, hub_token=hub.token("alice"))
    assert after.released and SECRET in after.text
    theirs = classroom.feedback(hub.service, "alice", EX, hub_token=hub.token("bob"))  # naming alice: bob's own
    assert theirs.released and theirs.text == "" and SECRET not in str(theirs)
    alices_page, _, _ = page_session(hub, "alice", "/my-feedback")
    bobs_page, _, _ = page_session(hub, "bob", "/my-feedback")
    assert "alice&#x27;s hidden explanation" in alices_page and "alice&#x27;s" not in bobs_page
