"""Names and Roles against the real platform (lti1p3platform's NRPS on loopback): the course's
roster, page after page, named as launches name learners; learners on it get their scores
without ever having launched maumau."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .lms import LEARNER, Browser, Platform, User
from .test_launch import launch
from .test_scores import given, grades, lti_json, run, scores

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def roster(server: Any, tmp_path: Path, platform: Platform, *more: str) -> tuple[int, str, str]:
    return run("roster", "--db", server.lti.keys.db, "--lti", str(lti_json(tmp_path, platform)), *more)


def test_the_roster_comes_from_the_lms_page_by_page_named_as_launches_name(server: Any, platform: Platform,
                                                                          tmp_path: Path):
    platform.users["bea"] = User("u-21", "Bea Nagy", [LEARNER])  # on the roster, never launched
    platform.former.append({"user_id": "u-9", "roles": [LEARNER], "name": "Old Name", "status": "Inactive"})
    assert launch(Browser(), platform, "anna").status == 303
    before = platform.token_requests
    code, out, err = roster(server, tmp_path, platform)
    assert code == 0, err
    assert out.splitlines() == [
        '"Maths 7b" (course-7): 4 member(s)',
        "  lms-u-17  Anna Kovács  anna@school.example  learner",
        "  lms-u-21  Bea Nagy  bea@school.example  learner",
        "  lms-u-9  Old Name  -  learner  (inactive)",
        "  lms-u-3  Tom Berg  tom@school.example  teacher",
    ]
    assert platform.token_requests == before + 1  # four pages (one member each), one token
    users = {u["learner"]: u for u in server.lti.learners.users()}
    assert users["lms-u-17"]["sub"] == "u-17" and users["lms-u-21"]["name"] == "Bea Nagy"


def test_a_learner_on_the_roster_gets_their_score_an_inactive_one_does_not(server: Any, platform: Platform,
                                                                         tmp_path: Path):
    platform.users["bea"] = User("u-21", "Bea Nagy", [LEARNER])
    platform.former.append({"user_id": "u-9", "roles": [LEARNER], "name": "Old Name", "status": "Inactive"})
    assert launch(Browser(), platform, "tom").status == 303  # only the teacher ever launched
    assert roster(server, tmp_path, platform)[0] == 0
    csv = grades(tmp_path, [("lms-u-21", "01_matching", 6, 10, 6), ("lms-u-9", "01_matching", 2, 10, 2)])
    code, out, err = scores(server, tmp_path, platform, csv)
    assert code == 0, err
    assert "lms-u-21 in \"Maths 7b\" (course-7): sent 01_matching 6" in out
    assert "lms-u-9: not sent, no longer active in \"Maths 7b\" (course-7)" in out
    assert given(platform) == {("01_matching", "u-21"): 6}


def test_a_roster_without_names_keeps_the_names_launches_gave(server: Any, platform: Platform, tmp_path: Path):
    assert launch(Browser(), platform, "anna").status == 303
    platform.users["anna"] = User("u-17", "", [LEARNER])  # the LMS shares no names with the tool's services
    assert roster(server, tmp_path, platform)[0] == 0
    users = {u["learner"]: u for u in server.lti.learners.users()}
    assert users["lms-u-17"]["name"] == "Anna Kovács"


def test_a_course_without_the_roster_service_or_a_failing_one_is_one_sentence(server: Any, platform: Platform,
                                                                            tmp_path: Path):
    from .lms_services import Fault

    platform.services = False  # the LMS does not offer its services (yet)
    assert launch(Browser(), platform, "anna").status == 303
    code, out, err = roster(server, tmp_path, platform)
    assert code == 1 and "offers maumau no roster: turn on Names and Role Provisioning" in err
    platform.services = True  # turned on; the next launch brings the roster's URL
    assert launch(Browser(), platform, "anna").status == 303
    platform.faults.append(Fault("/memberships", status=503))
    code, out, err = roster(server, tmp_path, platform)
    assert code == 1 and "the roster of \"Maths 7b\" (course-7)" in err and "answered 503" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    platform.services = False  # a later launch without the claims keeps the course's URLs
    assert launch(Browser(), platform, "anna").status == 303
    assert roster(server, tmp_path, platform)[0] == 0


def test_the_roster_is_on_the_teachers_course_page_in_the_course_language(course_server: Any, platform: Platform):
    platform.users["eve"] = User("u-66", "<script>alert(1)</script>", [LEARNER])
    teacher = Browser()
    assert launch(teacher, platform, "tom").status == 303  # an instructor: the teacher's session too
    assert launch(Browser(), platform, "eve").status == 303
    page = teacher.follow(course_server.url + "/course?lang=de")
    assert page.status == 200, page.body
    assert "LMS-Kurs Maths 7b" in page.body and "<td>Lehrkraft</td>" in page.body and "<td>aktiv</td>" in page.body
    assert "moodle-u-66" in page.body and "<script>alert" not in page.body and "&lt;script&gt;" in page.body
    assert Browser().follow(course_server.url + "/course").status == 403  # still the teacher's only


def test_the_roster_as_the_roster_file_of_maumau_export(server: Any, platform: Platform, tmp_path: Path):
    platform.users["bea"] = User("u-21", "=HYPERLINK(\"x\")", [LEARNER])  # a name a spreadsheet would run
    assert launch(Browser(), platform, "anna").status == 303
    out = tmp_path / "roster.csv"
    code, said, err = roster(server, tmp_path, platform, "--out", str(out))
    assert code == 0, err
    assert f"wrote the active learners to {out}" in said
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "learner,name,email,sis_user_id"
    assert "lms-u-17,Anna Kovács,anna@school.example," in lines
    assert any(line.startswith("lms-u-21,\"'=HYPERLINK") for line in lines)  # text, never a formula
    assert not any("u-3" in line for line in lines)  # the instructor is no learner of the export
    csv = grades(tmp_path, [("lms-u-17", "01_matching", 6, 10, 6)])
    code, said, err = run_export(tmp_path, csv, out)
    assert code == 0, err
    assert "anna@school.example" in (tmp_path / "moodle.csv").read_text(encoding="utf-8")


def run_export(tmp_path: Path, csv: Path, roster_file: Path) -> tuple[int, str, str]:
    import io

    from maumau.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["export", "moodle", "--grades", str(csv), "--roster", str(roster_file), "--out",
                 str(tmp_path / "moodle.csv")], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_a_next_page_elsewhere_gets_no_token(server: Any, platform: Platform, tmp_path: Path):
    from .lms_services import Fault

    assert launch(Browser(), platform, "anna").status == 303
    # the LMS's next page is a plain-http address elsewhere: the token is not sent there (following it
    # would fail to resolve and the command would say so): the roster is the pages before it
    platform.faults.append(Fault("/memberships", status=0, link="http://elsewhere.example/members?page=2"))
    code, out, err = roster(server, tmp_path, platform)
    assert code == 0, err
    assert '"Maths 7b" (course-7): 1 member(s)' in out
