"""What anyone can make the tool keep by starting logins is bounded, and a login is used once."""

from __future__ import annotations

import pytest

from maumau.lti.logins import MOST_PENDING, PENDING_PER_CLIENT, STATE_COOKIE, LoginRefused, Logins
from maumau.lti.platforms import load_registrations

PLATFORM = {"name": "lms", "issuer": "https://lms.example", "client_id": "c1", "deployment_ids": ["1"],
            "jwks_url": "https://lms.example/jwks", "login_url": "https://lms.example/auth?x=1",
            "token_url": "https://lms.example/token"}
PARAMS = {"iss": "https://lms.example", "login_hint": "u1", "target_link_uri": "https://tool.example/"}


def test_one_client_keeps_at_most_its_share_and_the_server_at_most_its_total():
    logins = Logins(load_registrations({"platforms": [PLATFORM]}))
    first = logins.start(PARAMS, "https://tool.example/lti/launch", client="10.0.0.1")[1]
    for _ in range(PENDING_PER_CLIENT + 50):
        logins.start(PARAMS, "https://tool.example/lti/launch", client="10.0.0.1")
    assert len(logins) == PENDING_PER_CLIENT
    with pytest.raises(LoginRefused, match="used already"):  # the oldest went first
        logins.take(first, {STATE_COOKIE + first: first})
    for n in range(MOST_PENDING + 10):
        logins.start(PARAMS, "https://tool.example/lti/launch", client=f"10.1.{n // 100}.{n % 100}")
    assert len(logins) <= MOST_PENDING


def test_the_redirect_carries_what_the_spec_asks_and_a_state_used_once():
    from urllib.parse import parse_qs, urlsplit

    logins = Logins(load_registrations({"platforms": [PLATFORM]}))
    location, state, cookie = logins.start({**PARAMS, "lti_message_hint": "h"}, "https://tool.example/lti/launch")
    query = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}
    assert location.startswith("https://lms.example/auth?x=1&")  # the LMS's own query kept
    assert query["scope"] == "openid" and query["response_type"] == "id_token"
    assert query["response_mode"] == "form_post" and query["prompt"] == "none"
    assert query["client_id"] == "c1" and query["redirect_uri"] == "https://tool.example/lti/launch"
    assert query["login_hint"] == "u1" and query["lti_message_hint"] == "h" and query["state"] == state
    assert "SameSite=None; Secure" in cookie and "HttpOnly" in cookie and "Path=/lti/" in cookie
    pending = logins.take(state, {STATE_COOKIE + state: state})
    assert pending.nonce == query["nonce"]
    with pytest.raises(LoginRefused, match="used already"):
        logins.take(state, {STATE_COOKIE + state: state})
