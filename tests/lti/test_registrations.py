"""The teacher's side of the tool: the registrations file, the tool's keys, the learner names,
the commands.  A wrong file is one sentence and nothing starts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from maumau.lti import LtiError
from maumau.lti.keys import GRACE, ToolKeys
from maumau.lti.platforms import load_registrations

GOOD = {"name": "moodle", "issuer": "https://moodle.school.example", "client_id": "kN3uR8pQ",
        "deployment_ids": ["1"], "jwks_url": "https://moodle.school.example/mod/lti/certs.php",
        "login_url": "https://moodle.school.example/mod/lti/auth.php",
        "token_url": "https://moodle.school.example/mod/lti/token.php"}


def test_a_registration_is_found_by_issuer_and_client_id():
    canvas = {**GOOD, "name": "canvas", "issuer": "https://canvas.instructure.com", "client_id": "10000000000001"}
    second = {**canvas, "client_id": "10000000000002"}
    found = load_registrations({"platforms": [GOOD, canvas, second], "tool_url": "https://maumau.school.example/"})
    assert found.tool_url == "https://maumau.school.example"
    assert found.find("https://moodle.school.example", None).client_id == "kN3uR8pQ"  # its only one
    assert found.find("https://canvas.instructure.com", None) is None  # two: the client id must say which
    assert found.find("https://canvas.instructure.com", "10000000000002") == found.platforms[2]
    assert found.find("https://evil.example", "kN3uR8pQ") is None


@pytest.mark.parametrize(("change", "words"), [
    ({"issuer": ""}, 'no "issuer"'),
    ({"client_id": None}, 'no "client_id"'),
    ({"deployment_ids": "1"}, '"deployment_ids" is a list'),
    ({"deployment_ids": []}, '"deployment_ids" is a list'),
    ({"jwks_url": "http://moodle.school.example/certs"}, "must be an https URL"),
    ({"login_url": "file:///etc/passwd"}, "must be an https URL"),
    ({"name": "Moodle 4"}, "short word"),
])
def test_a_wrong_registration_is_one_sentence(change: dict[str, Any], words: str):
    with pytest.raises(LtiError, match=words) as err:
        load_registrations({"platforms": [{**GOOD, **change}]})
    assert "\n" not in str(err.value)


def test_a_wrong_file_is_one_sentence(tmp_path: Path):
    with pytest.raises(LtiError, match="cannot read"):
        load_registrations(tmp_path / "missing.json")
    (tmp_path / "lti.json").write_text("{platforms: }", encoding="utf-8")
    with pytest.raises(LtiError, match="not JSON"):
        load_registrations(tmp_path / "lti.json")
    (tmp_path / "lti.json").write_text(json.dumps({"platforms": []}), encoding="utf-8")
    with pytest.raises(LtiError, match='a list "platforms"'):
        load_registrations(tmp_path / "lti.json")
    with pytest.raises(LtiError, match="twice"):
        load_registrations({"platforms": [GOOD, GOOD]})
    with pytest.raises(LtiError, match="both named"):
        load_registrations({"platforms": [GOOD, {**GOOD, "issuer": "https://other.example"}]})


def test_http_is_taken_on_this_machine_only():
    local = {**GOOD, "issuer": "http://127.0.0.1:9", "jwks_url": "http://localhost:9/jwks"}
    assert load_registrations({"platforms": [local]}).platforms[0].jwks_url == "http://localhost:9/jwks"


def test_the_tools_key_is_made_once_kept_and_rotated(tmp_path: Path):
    import jwt

    keys = ToolKeys(tmp_path / "class.sqlite")
    kid, key = keys.signing_key()
    assert ToolKeys(tmp_path / "class.sqlite").signing_key()[0] == kid  # kept in the database
    token = jwt.encode({"iss": "maumau"}, key, algorithm="RS256", headers={"kid": kid})
    published = {k["kid"]: k for k in keys.jwks()["keys"]}
    assert set(published[kid]) == {"kty", "n", "e", "kid", "alg", "use"}  # the public part only
    public = jwt.PyJWK(published[kid]).key
    assert jwt.decode(token, public, algorithms=["RS256"]) == {"iss": "maumau"}
    new, _ = keys.rotate()
    assert new != kid and keys.signing_key()[0] == new
    assert [k["kid"] for k in keys.jwks()["keys"]] == [new, kid]  # the old one, for a while
    import sqlite3
    with sqlite3.connect(tmp_path / "class.sqlite") as con:
        con.execute("UPDATE lti_keys SET retired = retired - ? WHERE kid = ?", (GRACE + 1, kid))
    assert [k["kid"] for k in keys.jwks()["keys"]] == [new]


def test_a_learner_is_named_by_platform_and_sub():
    from maumau.lti.launch import Launch
    from maumau.lti.learners import learner_name

    platform = load_registrations({"platforms": [GOOD]}).platforms[0]

    def named(sub: str) -> str:
        return learner_name(Launch(platform, sub, "", "", (), "1", "", "", "l", "", {}))
    assert named("42") == "moodle-42"
    assert named("a1b2-c3d4") == "moodle-a1b2-c3d4"
    assert named("../../etc") != "moodle-../../etc" and named("../../etc").startswith("moodle-")  # a path: hashed
    assert named("..") != "moodle-.."
    assert named("x" * 200) == named("x" * 200) and len(named("x" * 200)) < 30


def test_maumau_lti_prints_the_public_keys_and_rotates(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from maumau.cli import main

    db = str(tmp_path / "class.sqlite")
    assert main(["lti", "keys", "--db", db]) == 0
    first = json.loads(capsys.readouterr().out)["keys"]
    assert main(["lti", "rotate", "--db", db]) == 0
    assert "signs from now on" in capsys.readouterr().out
    assert main(["lti", "keys", "--db", db]) == 0
    assert len(json.loads(capsys.readouterr().out)["keys"]) == 2 and "d" not in first[0]


def test_maumau_serve_with_a_wrong_registrations_file_says_why_and_serves_nothing(tmp_path: Path,
                                                                                   capsys: pytest.CaptureFixture[str]):
    from maumau.cli import main

    (tmp_path / "lti.json").write_text(json.dumps({"platforms": [{**GOOD, "client_id": ""}]}), encoding="utf-8")
    assert main(["serve", "--db", str(tmp_path / "c.sqlite"), "--port", "0", "--lti", str(tmp_path / "lti.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith('maumau: error: platform 1 of the LTI registrations has no "client_id"')
    assert "Traceback" not in err and err.count("\n") == 1 and not (tmp_path / "c.sqlite").exists()


def _refusals_raised() -> list[str]:
    """The English template of every refusal the LTI tool raises (read from its source)."""
    import ast

    found = []
    for path in (Path(__file__).resolve().parents[2] / "maumau" / "lti").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "").endswith("Refused") and node.args \
                    and isinstance(node.args[0], ast.Constant):
                found.append(node.args[0].value)
    return found


def test_every_refusal_is_said_in_german_and_hungarian_with_the_same_values():
    import string

    from maumau.lti.words import REFUSALS

    raised = _refusals_raised()
    assert len(raised) > 20
    assert [t for t in raised if t not in REFUSALS] == []
    for template, said in REFUSALS.items():
        names = {f[1] for f in string.Formatter().parse(template) if f[1]}
        for lang in ("de", "hu"):
            assert {f[1] for f in string.Formatter().parse(said[lang]) if f[1]} == names, (template, lang)


def test_the_browsers_language_is_taken():
    from maumau.lti.logins import LoginRefused
    from maumau.lti.words import browser_language

    assert browser_language("hu-HU,hu;q=0.9,en;q=0.8") == "hu"
    assert browser_language("fr-FR, de;q=0.7") == "de"
    refusal = LoginRefused("this launch was used already: open the link in the LMS again")
    assert refusal.said("de").startswith("dieser Start wurde schon benutzt")
    assert str(refusal) == "this launch was used already: open the link in the LMS again"


def test_an_lms_user_keeps_their_learner_name_and_two_users_are_never_one(tmp_path: Path):
    from maumau.lti.launch import Launch
    from maumau.lti.learners import LearnerSessions

    db = tmp_path / "class.sqlite"
    moodle = load_registrations({"platforms": [GOOD]}).platforms[0]
    renamed = load_registrations({"platforms": [{**GOOD, "name": "school"}]}).platforms[0]
    other = load_registrations({"platforms": [{**GOOD, "issuer": "https://other.example"}]}).platforms[0]

    def opened(platform: Any, sub: str) -> str:
        launch = Launch(platform, sub, "Anna", "", (), "1", "", "", "l", "", {})
        return LearnerSessions(db).open(launch)[0].learner
    assert opened(moodle, "42") == "moodle-42"
    assert opened(renamed, "42") == "moodle-42"  # the teacher renamed the platform: still the same learner
    clash = opened(other, "42")  # another LMS now named "moodle": its user 42 is someone else
    assert clash.startswith("moodle-42-") and clash != "moodle-42"
    assert opened(other, "42") == clash


def test_a_server_on_the_network_needs_the_https_address_the_lms_reaches(tmp_path: Path):
    from maumau.classroom import Server

    with pytest.raises(LtiError, match="tool_url"):
        Server(db=tmp_path / "c.sqlite", host="0.0.0.0", port=0, lti={"platforms": [GOOD]})
    server = Server(db=tmp_path / "c.sqlite", host="0.0.0.0", port=0,
                    lti={"platforms": [GOOD], "tool_url": "https://maumau.school.example"})
    assert server.lti is not None and server.lti.url == "https://maumau.school.example"
    assert server.lti.class_url == "https://maumau.school.example"
    server.stop()


def test_without_the_lti_extra_the_commands_say_what_to_install(tmp_path: Path):
    from blocked import maumau  # tests/blocked.py: a subprocess that cannot import the modules named

    (tmp_path / "lti.json").write_text(json.dumps({"platforms": [GOOD]}), encoding="utf-8")
    done = maumau(tmp_path, ["jwt"], "serve", "--db", str(tmp_path / "c.sqlite"), "--lti", str(tmp_path / "lti.json"))
    assert done.stderr.strip() == "maumau: error: maumau serve --lti needs PyJWT: pip install 'maumau[lti]'"
    assert done.returncode == 2 and not (tmp_path / "c.sqlite").exists()  # nothing written
    done = maumau(tmp_path, ["jwt"], "lti", "keys", "--db", str(tmp_path / "c.sqlite"))
    assert done.stderr.strip() == "maumau: error: maumau lti keys needs PyJWT: pip install 'maumau[lti]'"
