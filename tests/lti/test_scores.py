"""Assignment and Grade Services against the real platform (lti1p3platform's AGS and token
endpoint on loopback): ``maumau lti scores`` sends each learner's final score of grades.csv to
one line item per exercise, and the score is read back from the platform's results."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from .lms import LEARNER, Browser, Platform, User
from .lms_services import Fault
from .test_launch import launch

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HEAD = "student,exercise,score,max_score,status,late_days,penalty,final\n"


def grades(tmp_path: Path, rows: list[tuple[str, str, float, float, float]], name: str = "grades.csv") -> Path:
    """A grades.csv as maumau grade writes it: learner, exercise, score, points, final (after penalties)."""
    path = tmp_path / name
    path.write_text(HEAD + "".join(f"{s},{e},{sc},{mx},ok,0,0,{f}\n" for s, e, sc, mx, f in rows))
    return path


def lti_json(tmp_path: Path, platform: Platform) -> Path:
    path = tmp_path / "lti.json"
    path.write_text(json.dumps({"platforms": [platform.registration_entry("lms")]}))
    return path


def run(*argv: str) -> tuple[int, str, str]:
    from maumau.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["lti", *argv], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def scores(server: Any, tmp_path: Path, platform: Platform, csv: Path, *more: str) -> tuple[int, str, str]:
    return run("scores", "--db", server.lti.keys.db, "--lti", str(lti_json(tmp_path, platform)), "--grades", str(csv),
               *more)


def given(platform: Platform) -> dict[tuple[str, str], float]:
    """The platform's scores: (exercise, user id) -> scoreGiven."""
    items = {n: item["resourceId"] for n, item in platform.store.items.items()}
    return {(items[n], user): s["scoreGiven"] for (n, user), s in platform.store.scores.items()}


@pytest.fixture
def launched(server: Any, platform: Platform) -> Any:
    """Anna (a learner) and Tom (the instructor) opened maumau's link in the course."""
    for who in ("anna", "tom"):
        assert launch(Browser(), platform, who).status == 303
    return server


def test_final_scores_go_to_one_line_item_per_exercise_and_read_back(launched: Any, platform: Platform,
                                                                     tmp_path: Path):
    csv = grades(tmp_path, [("lms-u-17", "01_matching", 8, 10, 6.4), ("lms-u-17", "02_skip", 3, 5, 3)])
    code, out, err = scores(launched, tmp_path, platform, csv)
    assert code == 0, err
    assert "lms-u-17 in \"Maths 7b\" (course-7): sent 01_matching 6.4, 02_skip 3" in out
    assert "1 learner(s) sent, 0 unchanged, 0 failed, 0 not sent" in out
    assert given(platform) == {("01_matching", "u-17"): 6.4, ("02_skip", "u-17"): 3}  # final, not score
    assert sorted((i["resourceId"], i["scoreMaximum"], i["tag"]) for i in platform.store.items.values()) == [
        ("01_matching", 10, "maumau"), ("02_skip", 5, "maumau")]
    sent = next(s for (n, u), s in platform.store.scores.items() if u == "u-17")
    assert (sent["activityProgress"], sent["gradingProgress"]) == ("Completed", "FullyGraded")
    # read back through the platform's results service (the line item URL keeps its ?type_id=)
    from maumau.lti.contexts import Courses
    from maumau.lti.keys import ToolKeys
    from maumau.lti.platforms import load_registrations
    from maumau.lti.scores import results
    from maumau.lti.services import Services

    course = Courses(launched.lti.keys.db).all()[0]
    back = results(launched.lti.keys.db, load_registrations(lti_json(tmp_path, platform)), course, "01_matching",
                   Services(ToolKeys(launched.lti.keys.db)))
    assert back == {"u-17": 6.4}
    assert platform.token_requests == 2  # one token per run (the command's, then the read back)


def test_a_rerun_sends_nothing_new_and_a_regrade_sends_the_new_score(launched: Any, platform: Platform,
                                                                     tmp_path: Path):
    first = grades(tmp_path, [("lms-u-17", "01_matching", 8, 10, 8)])
    assert scores(launched, tmp_path, platform, first)[0] == 0
    code, out, _ = scores(launched, tmp_path, platform, first)
    assert code == 0 and "unchanged 01_matching 8" in out and "0 learner(s) sent, 1 unchanged" in out
    regrade = grades(tmp_path, [("lms-u-17", "01_matching", 9, 10, 9)], "regrade.csv")
    code, out, _ = scores(launched, tmp_path, platform, regrade)
    assert code == 0 and "sent 01_matching 9" in out
    assert given(platform) == {("01_matching", "u-17"): 9}
    assert len(platform.store.items) == 1 and platform.store.created == 1  # never a second column


def test_a_column_the_teacher_made_with_the_resource_id_is_used_not_doubled(launched: Any, platform: Platform,
                                                                           tmp_path: Path):
    platform.store.items[1] = {"id": platform.store.item_url(platform.url, 1), "label": "Matching (by hand)",
                               "scoreMaximum": 10, "resourceId": "01_matching"}
    assert scores(launched, tmp_path, platform, grades(tmp_path, [("lms-u-17", "01_matching", 7, 10, 7)]))[0] == 0
    assert platform.store.created == 0 and len(platform.store.items) == 1
    assert given(platform) == {("01_matching", "u-17"): 7}


def test_two_runs_at_once_make_one_line_item(launched: Any, platform: Platform, tmp_path: Path):
    from maumau.grading.export import read_grades
    from maumau.lti.keys import ToolKeys
    from maumau.lti.platforms import load_registrations
    from maumau.lti.scores import send_scores
    from maumau.lti.services import Services

    # both runs' listings are slow and both find no line item: only one may make it
    platform.faults += [Fault("/lineitems", status=0, delay=0.5), Fault("/lineitems", status=0, delay=0.5)]
    found, points = read_grades(grades(tmp_path, [("lms-u-17", "01_matching", 7, 10, 7)]))
    registrations = load_registrations(lti_json(tmp_path, platform))
    states: list[str] = []

    def one_run() -> None:
        db = launched.lti.keys.db
        outcomes = send_scores(db, registrations, found, points, Services(ToolKeys(db)))
        states.extend(o.state for o in outcomes)

    runs = [threading.Thread(target=one_run) for _ in range(2)]
    for t in runs:
        t.start()
    for t in runs:
        t.join(30)
    assert len(states) == 2 and "sent" in states and set(states) <= {"sent", "unchanged"}
    assert platform.store.created == 1 and len(platform.store.items) == 1
    assert given(platform) == {("01_matching", "u-17"): 7}


def test_a_learner_the_platform_does_not_know_fails_alone_in_one_sentence(launched: Any, platform: Platform,
                                                                         tmp_path: Path):
    platform.users["bea"] = User("u-21", "Bea Nagy", [LEARNER])
    assert launch(Browser(), platform, "bea").status == 303
    del platform.users["bea"]  # Bea left the course in the LMS
    csv = grades(tmp_path, [("lms-u-17", "01_matching", 7, 10, 7), ("lms-u-21", "01_matching", 5, 10, 5),
                            ("nobody", "01_matching", 4, 10, 4)])
    code, out, err = scores(launched, tmp_path, platform, csv)
    assert code == 1
    assert "lms-u-17 in \"Maths 7b\" (course-7): sent 01_matching 7" in out
    assert "nobody: not sent, no LMS course knows them" in out
    lines = [line for line in err.splitlines() if "lms-u-21" in line]
    assert len(lines) == 1 and "failed 01_matching" in lines[0] and "422" in lines[0], err
    assert "not a member of this course" in lines[0] and "Traceback" not in err
    assert given(platform) == {("01_matching", "u-17"): 7}


def test_a_platform_failing_or_slow_writes_nothing_half_and_a_rerun_completes(launched: Any, platform: Platform,
                                                                            tmp_path: Path):
    csv = grades(tmp_path, [("lms-u-17", "01_matching", 7, 10, 7), ("lms-u-17", "02_skip", 4, 5, 4)])
    platform.faults.append(Fault("/scores", status=500))
    code, out, err = scores(launched, tmp_path, platform, csv)
    assert code == 1 and "answered 500" in err and "run the command again" in out
    assert given(platform) == {("02_skip", "u-17"): 4}
    from maumau.grading.export import read_grades
    from maumau.lti.keys import ToolKeys
    from maumau.lti.platforms import load_registrations
    from maumau.lti.scores import send_scores  # a slow platform: the timeout, then the rerun
    from maumau.lti.services import Services

    platform.faults.append(Fault("/scores", status=0, delay=2.0))
    quick = Services(ToolKeys(launched.lti.keys.db), timeout=(2.0, 0.5))
    found, points = read_grades(csv)
    outcomes = send_scores(launched.lti.keys.db, load_registrations(lti_json(tmp_path, platform)), found, points, quick)
    assert [o.state for o in outcomes] == ["failed"]
    assert "did not answer within 0.5 s" in outcomes[0].sentence
    code, out, err = scores(launched, tmp_path, platform, csv)
    assert code == 0, err
    assert "sent 01_matching 7" in out and "unchanged 02_skip 4" in out
    assert given(platform) == {("01_matching", "u-17"): 7, ("02_skip", "u-17"): 4}
    assert platform.store.created == 2


def test_a_token_request_with_a_key_the_platform_does_not_have_is_refused(launched: Any, platform: Platform,
                                                                         tmp_path: Path):
    from maumau.lti.keys import ToolKeys

    platform.tool_key_set = ToolKeys(launched.lti.keys.db).jwks()  # the teacher pasted the tool's keys into the LMS
    ToolKeys(launched.lti.keys.db).rotate()  # ... and then rotated the tool's key without pasting again
    code, out, err = scores(launched, tmp_path, platform, grades(tmp_path, [("lms-u-17", "01_matching", 7, 10, 7)]))
    assert code == 1
    assert "refused maumau's request for an access token (invalid_client" in err
    assert "maumau lti keys" in err and err.count("\n") == 1  # one sentence for the course, not one per score
    assert "Traceback" not in err and given(platform) == {}


def test_a_course_without_the_grade_service_says_what_to_turn_on(server: Any, platform: Platform, tmp_path: Path):
    platform.services = False
    assert launch(Browser(), platform, "anna").status == 303
    code, _, err = scores(server, tmp_path, platform, grades(tmp_path, [("lms-u-17", "01_matching", 7, 10, 7)]))
    assert code == 1 and "offers maumau no grade service: turn on Assignment and Grade Services" in err


def test_scores_before_any_launch_and_bad_arguments_are_one_sentence(server: Any, platform: Platform,
                                                                    tmp_path: Path):
    csv = grades(tmp_path, [("lms-u-17", "01_matching", 7, 10, 7)])
    code, _, err = scores(server, tmp_path, platform, csv)
    assert code == 1 and "no launch came from an LMS course yet" in err
    code, _, err = run("scores", "--db", str(tmp_path / "none.sqlite"), "--grades", str(csv))
    assert code == 1 and "there is no class server database" in err
    assert not (tmp_path / "none.sqlite").exists()
    code, _, err = run("scores", "--db", server.lti.keys.db, "--lti", str(lti_json(tmp_path, platform)))
    assert code == 2 and "needs either --grades" in err
    code, _, err = run("scores", "--db", server.lti.keys.db, "--lti", str(lti_json(tmp_path, platform)),
                       "--gradebook", str(tmp_path / "nothing.sqlite"))
    assert code == 1 and "there is no gradebook" in err and not (tmp_path / "nothing.sqlite").exists()


def test_an_instructors_test_hand_in_is_not_sent(launched: Any, platform: Platform, tmp_path: Path):
    csv = grades(tmp_path, [("lms-u-3", "01_matching", 7, 10, 7), ("lms-u-17", "01_matching", 5, 10, 5)])
    code, out, err = scores(launched, tmp_path, platform, csv)
    assert code == 0, err
    assert "lms-u-3: not sent, an instructor of \"Maths 7b\" (course-7)" in out
    assert given(platform) == {("01_matching", "u-17"): 5}


def test_a_claim_left_by_a_run_that_died_is_taken_over_and_a_fresh_one_waited_for(
        launched: Any, platform: Platform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import sqlite3
    import time

    from maumau.lti import line_items
    from maumau.lti.line_items import STALE, LineItems

    db = launched.lti.keys.db
    LineItems(db, None)  # type: ignore[arg-type]  (its table)
    csv = grades(tmp_path, [("lms-u-17", "01_matching", 7, 10, 7)])
    with sqlite3.connect(db) as con:  # a run died after claiming the exercise, before the LMS answered
        con.execute("INSERT INTO lti_line_items VALUES (?, ?, 'course-7', '01_matching', NULL, 'dead', ?)",
                    (platform.issuer, platform.client_id, time.time() - STALE - 5))
    code, out, err = scores(launched, tmp_path, platform, csv)
    assert code == 0, err
    assert platform.store.created == 1 and given(platform) == {("01_matching", "u-17"): 7}
    with sqlite3.connect(db) as con:  # a live claim of another exercise: this run waits, then says so
        con.execute("INSERT INTO lti_line_items VALUES (?, ?, 'course-7', '02_skip', NULL, 'alive', ?)",
                    (platform.issuer, platform.client_id, time.time()))
    from maumau.grading.export import read_grades
    from maumau.lti.keys import ToolKeys
    from maumau.lti.platforms import load_registrations
    from maumau.lti.scores import send_scores
    from maumau.lti.services import Services

    found, points = read_grades(grades(tmp_path, [("lms-u-17", "02_skip", 3, 5, 3)], "second.csv"))
    monkeypatch.setattr(line_items, "WAIT", 1.0)  # wait one second, not thirty
    outcomes = send_scores(db, load_registrations(lti_json(tmp_path, platform)), found, points,
                           Services(ToolKeys(db)))
    assert [o.state for o in outcomes] == ["failed"]
    assert "another run is making the grade column of 02_skip" in outcomes[0].sentence
    assert platform.store.created == 1
