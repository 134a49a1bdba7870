"""The whole launch against a real platform over real HTTP: the platform's login initiation, the
tool's redirect, the platform's signed launch form, the tool's checks, the class page with the
LMS identity.  Every hostile case is a launch a browser could post."""

from __future__ import annotations

import json
from typing import Any

import pytest

from maumau.classroom.messages import Join, decode_server, encode_request

from .lms import INSTRUCTOR, Browser, Platform, Response, form_of, launch_form, tampered

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def login(browser: Browser, platform: Platform, hint: str = "anna") -> Response:
    """The user opens the tool's link in the LMS: the platform's launch form, not yet posted."""
    page = browser.follow(platform.launch_link(hint))
    assert page.status == 200, page.body
    return page


def launch(browser: Browser, platform: Platform, hint: str = "anna") -> Response:
    return browser.submit(login(browser, platform, hint))


def sit_down(server: Any, browser: Browser, code: str) -> dict[str, Any]:
    """The class page's websocket, with the browser's cookies, joins table ``code``."""
    from websockets.sync.client import connect

    with connect(server.ws_url, additional_headers={"Cookie": browser.cookie_header(server.url + "/ws"),
                                                    "Origin": server.url}) as ws:
        ws.send(encode_request(Join(code=code, id=1)))
        while True:
            answer = decode_server(ws.recv(timeout=10))
            if answer.get("id") == 1:
                return dict(answer)


def refused(response: Response, words: str) -> None:
    assert response.status in (400, 403), (response.status, response.body)
    assert words in response.body, response.body
    assert "Traceback" not in response.body
    assert response.body.count("\n") == 1  # one sentence


# --- the launch that works ------------------------------------------------------------------------------

def test_a_learner_launched_from_the_lms_sits_at_a_table_under_the_lms_identity(server: Any, platform: Platform):
    from websockets.datastructures import Headers

    browser = Browser()
    answer = launch(browser, platform, "anna")
    assert answer.status == 303, answer.body
    assert answer.header("Location") == server.url + "/"
    assert browser.follow(answer.header("Location") or "").status == 200  # the lobby page
    code = server.create_table("makao", seats=2, computers=1, seed=1)
    joined = sit_down(server, browser, code)
    assert joined["type"] == "ok", joined
    seat = server.table(code).seats[joined["seat"]]
    assert (seat.name, seat.user) == ("Anna Kovács", "lms-u-17")  # no name typed: the LMS's
    assert server.lti.learners.users() == [{"learner": "lms-u-17", "issuer": platform.issuer, "sub": "u-17",
                                            "name": "Anna Kovács", "email": ""}]
    assert not server.sessions.is_teacher(Headers(Cookie=browser.cookie_header(server.url + "/")))


def test_an_instructors_launch_opens_the_teachers_session(server: Any, platform: Platform):
    from websockets.datastructures import Headers

    learner, teacher = Browser(), Browser()
    assert launch(learner, platform, "anna").status == 303
    assert launch(teacher, platform, "tom").status == 303
    assert server.sessions.is_teacher(Headers(Cookie=teacher.cookie_header(server.url + "/")))
    assert not server.sessions.is_teacher(Headers(Cookie=learner.cookie_header(server.url + "/")))


def test_the_jwks_endpoint_publishes_the_tools_key(server: Any):
    page = Browser().request("GET", server.lti.url + "/lti/jwks")
    keys = json.loads(page.body)["keys"]
    assert page.status == 200 and len(keys) == 1
    assert keys[0]["kty"] == "RSA" and keys[0]["alg"] == "RS256" and "d" not in keys[0]  # public only


# --- state and nonce ------------------------------------------------------------------------------------

def test_a_replayed_launch_is_refused(server: Any, platform: Platform):
    browser = Browser()
    form = form_of(login(browser, platform))
    cookies = dict(browser.cookies)
    first = browser.request("POST", form.pop("action"), form)
    assert first.status == 303
    browser.cookies.update(cookies)  # even with the state cookie back, the same launch posted again
    refused(browser.request("POST", server.lti.url + "/lti/launch", form), "used already")


def test_a_captured_token_replayed_with_a_fresh_login_is_refused_by_its_nonce(server: Any, platform: Platform):
    victim, thief = Browser(), Browser()
    stolen = form_of(login(victim, platform))
    fresh = form_of(login(thief, platform))  # a login of the thief's own: a state and a cookie that match
    answer = thief.request("POST", fresh["action"], {"id_token": stolen["id_token"], "state": fresh["state"]})
    refused(answer, "nonce")


def test_a_launch_without_the_browsers_state_cookie_is_refused(server: Any, platform: Platform):
    browser = Browser()
    form = form_of(login(browser, platform))
    browser.cookies.clear()
    refused(browser.request("POST", form["action"], {"id_token": form["id_token"], "state": form["state"]}),
            "state cookie")


def test_a_forged_state_is_refused(server: Any, platform: Platform):
    browser = Browser()
    form = form_of(login(browser, platform))
    refused(browser.request("POST", form["action"], {"id_token": form["id_token"], "state": "made-up"}),
            "state cookie")
    assert browser.request("POST", form["action"], {"id_token": form["id_token"], "state": form["state"]}).status \
        == 303  # the refusal changed nothing: the real launch still works


# --- the token --------------------------------------------------------------------------------------------

def test_an_expired_token_is_refused(server: Any, platform: Platform):
    platform.clock = -400  # issued 400 s ago, valid for 300 s
    refused(launch(Browser(), platform), "expired")


def test_a_token_issued_in_the_future_is_refused(server: Any, platform: Platform):
    platform.clock = 120
    refused(launch(Browser(), platform), "future")


def test_a_token_a_few_seconds_off_is_taken(server: Any, platform: Platform):
    platform.clock = 5  # two machines' clocks differ a little
    assert launch(Browser(), platform).status == 303


def test_a_token_for_another_audience_is_refused(server: Any, platform: Platform):
    platform.extra = {"aud": "another-tool"}
    refused(launch(Browser(), platform), "another tool")


def test_several_audiences_need_this_tool_as_the_authorized_party(server: Any, platform: Platform):
    platform.extra = {"aud": ["another-tool", platform.client_id], "azp": "another-tool"}
    refused(launch(Browser(), platform), "azp")
    platform.extra = {"aud": ["another-tool", platform.client_id], "azp": platform.client_id}
    assert launch(Browser(), platform).status == 303


def test_a_learner_who_makes_themselves_instructor_is_refused(server: Any, platform: Platform):
    browser = Browser()
    form = form_of(login(browser, platform, "anna"))
    forged = tampered(form["id_token"], **{"https://purl.imsglobal.org/spec/lti/claim/roles": [INSTRUCTOR]})
    refused(browser.request("POST", form["action"], {"id_token": forged, "state": form["state"]}), "signature")
    assert not server.lti.learners.users()  # nobody was signed in


def test_an_unsigned_token_is_refused(server: Any, platform: Platform):
    import jwt

    browser = Browser()
    form = form_of(login(browser, platform))
    claims = jwt.decode(form["id_token"], options={"verify_signature": False})
    unsigned = jwt.encode(claims, None, algorithm="none")
    refused(browser.request("POST", form["action"], {"id_token": unsigned, "state": form["state"]}), "RS256")


def test_a_launch_from_an_unregistered_deployment_is_refused(server: Any, platform: Platform):
    platform.deployment_id = "99"  # the LMS says so at the login already
    refused(Browser().follow(platform.launch_link("anna")), "deployment '99'")
    platform.deployment_id = "1"
    platform.extra = {"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "99"}  # only in the token
    refused(launch(Browser(), platform), "deployment '99'")


def test_a_login_from_an_unregistered_platform_is_refused(server: Any, platform: Platform):
    link = platform.launch_link("anna").replace("iss=http", "iss=https%3A%2F%2Fevil.example%2Fx%3Dhttp")
    refused(Browser().follow(link), "is registered")


def test_a_message_that_is_not_a_resource_link_launch_is_refused(server: Any, platform: Platform):
    platform.extra = {"https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiSubmissionReviewRequest"}
    refused(launch(Browser(), platform), "is not served")
    platform.extra = {"https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiDeepLinkingRequest"}
    refused(launch(Browser(), platform), "no URL to answer to")
    platform.extra = {"https://purl.imsglobal.org/spec/lti/claim/version": "1.1"}
    refused(launch(Browser(), platform), "1.3.0")


# --- the platform's keys ------------------------------------------------------------------------------------

def test_a_key_the_platform_rotated_is_fetched_and_the_old_one_refused(server: Any, platform: Platform):
    server.lti.platform_keys.cooldown = 0
    assert launch(Browser(), platform).status == 303
    fetched = server.lti.platform_keys.fetches
    old = platform.rotate()
    assert launch(Browser(), platform).status == 303  # the new key: its set fetched again, once
    assert server.lti.platform_keys.fetches == fetched + 1
    platform.sign_with = old  # a token signed with the key the platform withdrew
    refused(launch(Browser(), platform), "does not publish")


def test_made_up_key_ids_do_not_make_the_tool_ask_the_platform_again_and_again(server: Any, platform: Platform):
    assert launch(Browser(), platform).status == 303
    fetched = server.lti.platform_keys.fetches
    platform.rotate()
    refused(launch(Browser(), platform), "does not publish")  # within the cooldown: no fetch
    assert server.lti.platform_keys.fetches == fetched


def test_the_launch_form_is_escaped():  # the test platform's own form: values are attributes, escaped
    assert "&quot;" in launch_form({"launch_url": 'x"y', "id_token": "t", "state": "s"})


def test_a_learners_launch_in_a_browser_the_teacher_used_is_the_learners(server: Any, platform: Platform):
    from websockets.datastructures import Headers

    browser = Browser()
    assert launch(browser, platform, "tom").status == 303
    assert server.sessions.is_teacher(Headers(Cookie=browser.cookie_header(server.url + "/")))
    assert launch(browser, platform, "anna").status == 303
    assert not server.sessions.is_teacher(Headers(Cookie=browser.cookie_header(server.url + "/")))
    code = server.create_table("makao", seats=2, computers=1, seed=1)
    assert server.table(code).seats[sit_down(server, browser, code)["seat"]].user == "lms-u-17"


def test_the_platform_may_start_the_login_with_a_post(server: Any, platform: Platform):
    from urllib.parse import parse_qsl, urlsplit

    browser = Browser()
    link = urlsplit(platform.launch_link("anna"))
    answer = browser.request("POST", f"{link.scheme}://{link.netloc}{link.path}", dict(parse_qsl(link.query)))
    assert answer.status == 302
    page = browser.follow(answer.header("Location") or "")
    assert browser.submit(page).status == 303


def test_what_is_not_a_launch_is_refused_and_the_tool_goes_on(server: Any, platform: Platform):
    browser = Browser()
    assert browser.request("GET", server.lti.url + "/lti/launch").status == 405
    assert browser.request("GET", server.lti.url + "/lti/nothing").status == 404
    refused(browser.request("GET", server.lti.url + "/lti/login"), "not an LTI login")
    try:  # more than a launch ever is: tornado reads none of it and closes the connection
        big = browser.request("POST", server.lti.url + "/lti/launch", {"id_token": "x" * 100_000, "state": "s"})
        assert big.status >= 400
    except ConnectionError:
        pass
    refused(browser.request("POST", server.lti.url + "/lti/launch", {"id_token": "x.y.z", "state": "s"}),
            "state cookie")
    assert launch(Browser(), platform).status == 303


def test_a_token_signed_with_a_shared_secret_is_refused(server: Any, platform: Platform):
    import jwt

    browser = Browser()
    form = form_of(login(browser, platform))
    claims = jwt.decode(form["id_token"], options={"verify_signature": False})
    forged = jwt.encode(claims, "the platform's public key as a secret", algorithm="HS256",
                        headers={"kid": jwt.get_unverified_header(form["id_token"])["kid"]})
    refused(browser.request("POST", form["action"], {"id_token": forged, "state": form["state"]}), "RS256")


def test_a_refusal_is_said_in_the_browsers_language(server: Any, platform: Platform):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.lti.port, timeout=10)
    conn.request("POST", "/lti/launch", body="id_token=x.y.z&state=s",
                 headers={"Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "de-DE,de;q=0.9"})
    answer = conn.getresponse()
    assert answer.status == 403
    assert answer.read().decode().startswith("dieser Start ist nicht der, den dieser Browser begonnen hat")
    conn.close()


def test_a_login_inside_the_lmss_frame_opens_maumau_in_a_window_of_its_own(server: Any, platform: Platform):
    import html as html_module
    import http.client
    import re
    from urllib.parse import urlsplit

    link = urlsplit(platform.launch_link("anna"))
    conn = http.client.HTTPConnection("127.0.0.1", server.lti.port, timeout=10)
    conn.request("GET", f"{link.path}?{link.query}", headers={"Sec-Fetch-Dest": "iframe", "Accept-Language": "hu"})
    answer = conn.getresponse()
    page = answer.read().decode()
    conn.close()
    assert answer.status == 200 and "A maumau saját ablakban nyílik meg." in page
    assert "frame-ancestors *" in (answer.getheader("Content-Security-Policy") or "")
    assert answer.getheader("X-Frame-Options") is None and answer.getheader("Set-Cookie") is None  # nothing kept
    assert 'target="_blank"' in page and "<script" not in page
    opened = html_module.unescape(re.search(r'href="([^"]+)"', page).group(1))
    browser = Browser()  # the new window: the same login, at the top
    assert browser.submit(browser.follow(opened)).status == 303


def test_a_token_of_another_registered_lms_posted_to_this_login_is_refused(tmp_path: Any, platform: Platform):
    from maumau.classroom import Server

    from .lms import LEARNER, User

    other = Platform(users={"anna": User("u-17", "Anna Kovács", [LEARNER])}, client_id="maumau-client")
    srv = Server(db=tmp_path / "two.sqlite", port=0, computer_delay=0, pause=0,
                 lti={"platforms": [platform.registration_entry("one"), other.registration_entry("two")]})
    srv.start()
    try:
        for lms in (platform, other):
            lms.tool_login, lms.tool_launch = srv.lti.url + "/lti/login", srv.lti.url + "/lti/launch"
        browser = Browser()
        mine = form_of(login(browser, platform))
        theirs = form_of(login(Browser(), other))  # signed by the other LMS, for its own login
        refused(browser.request("POST", mine["action"], {"id_token": theirs["id_token"], "state": mine["state"]}),
                "does not publish")  # checked with the keys of the LMS this login is for
    finally:
        srv.stop()
        other.close()


def test_a_login_that_took_too_long_is_refused(server: Any, platform: Platform, monkeypatch: pytest.MonkeyPatch):
    import maumau.lti.logins as logins

    monkeypatch.setattr(logins, "STATE_SECONDS", -1)
    refused(launch(Browser(), platform), "took too long")


def test_a_launch_goes_on_to_the_page_its_link_names_if_it_is_this_servers(server: Any, platform: Platform):
    code = server.create_table("makao", seats=2, computers=1, seed=1)
    platform.extra = {"https://purl.imsglobal.org/spec/lti/claim/target_link_uri": f"{server.url}/t/{code}"}
    assert launch(Browser(), platform).header("Location") == f"{server.url}/t/{code}"
    platform.extra = {"https://purl.imsglobal.org/spec/lti/claim/target_link_uri": "https://evil.example/t/X"}
    assert launch(Browser(), platform).header("Location") == f"{server.url}/"  # never another site


def test_maumau_serve_says_so_when_the_lti_port_is_taken(tmp_path: Any, platform: Platform,
                                                          capsys: pytest.CaptureFixture[str]):
    import socket

    from maumau.cli import main

    (tmp_path / "lti.json").write_text(json.dumps({"platforms": [platform.registration_entry()]}), encoding="utf-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve", "--db", str(tmp_path / "c.sqlite"), "--port", "0", "--lti", str(tmp_path / "lti.json"),
                     "--lti-port", str(port)])
    err = capsys.readouterr().err
    assert code == 1 and "--lti-port" in err and "Traceback" not in err
