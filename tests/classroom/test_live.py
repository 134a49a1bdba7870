"""The live view of the class (issue 38, item 1): learners' kernels share their checks with a real
class server, the teacher's page follows them, and every hostile report is refused with a
sentence while nothing of it is stored."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from maumau import classroom  # noqa: E402
from maumau.classroom import ClassroomError, Course  # noqa: E402
from maumau.classroom.live_checks import course_checks  # noqa: E402
from maumau.classroom.live_wire import live_schema  # noqa: E402
from maumau.grading import checks  # noqa: E402
from maumau.grading.exercise import TEST, load_exercise, student_cell_source  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
EX = "02_skip_on_eight"
WATCH = {"type": "watch", "projector": False, "idle": 5, "lang": "en"}


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("source")
    (folder / "de").mkdir()
    (folder / f"{EX}.ipynb").write_bytes((REPO / "exercises" / f"{EX}.ipynb").read_bytes())
    (folder / "de" / f"{EX}.ipynb").write_bytes((REPO / "exercises" / "de" / f"{EX}.ipynb").read_bytes())
    return folder


@pytest.fixture(scope="module")
def known(source):
    return course_checks(source)  # read once: each server of the module finds it read


def start(tmp_path: Path, source: Path, known, **kwargs) -> classroom.Server:
    roster = tmp_path / "roster.csv"
    roster.write_text("learner,name,id,sis_user_id,email\nanna,Anna A,11,A-1,a@s.example\n"
                      "ben,<b>Ben</b>,12,B-1,b@s.example\ncleo,Cleo C,13,C-1,c@s.example\n")
    server = classroom.Server(db=tmp_path / "class.sqlite", port=0, teacher_token="t-secret", course=Course(source),
                              roster=roster, **kwargs)
    assert server.live is not None and server.live.exercises is known
    return server.start()


@pytest.fixture
def server(tmp_path, source, known):
    server = start(tmp_path, source, known)
    try:
        yield server
    finally:
        server.stop()


def codes(server) -> dict[str, str]:
    return {line.learner: line.code for line in server.roster.lines()}


def stored_rows(server) -> list[tuple]:
    with sqlite3.connect(server.store.path) as db:
        return db.execute("SELECT learner, exercise, checks FROM live_checks ORDER BY learner").fetchall()


def live_ws(server):
    return connect(server.url.replace("http", "ws") + "/live/ws", open_timeout=5, max_size=2 ** 20)


def said(ws, message) -> dict:
    ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
    return json.loads(ws.recv(5))


def hello_as(ws, code) -> None:
    assert said(ws, {"type": "hello", "code": code})["type"] == "welcome"


def report(scenario: str = "3 players, seat 0 plays 8♥", ok: bool = True, **extra) -> dict:
    return {"type": "checks", "exercise": EX, "checks": [{"scenario": scenario, "ok": ok}], **extra}


# --- learners' kernels --------------------------------------------------------------------------------------
LEARNER = """
import sys, time
from maumau import classroom
sharing = classroom.share_progress(sys.argv[1], sys.argv[2], exercise=sys.argv[3])
exec(open(sys.argv[4], encoding="utf-8").read())
for _ in range(100):
    if sharing.last_answer is not None:
        break
    time.sleep(0.05)
print("ANSWER", sharing.last_answer)
"""
RIGHT = "return card.rank is Rank.EIGHT", "turn.skip()"
WRONG = "return False", "pass"


def kernel_cells(tmp_path: Path, name: str, affects: str, on_play: str) -> Path:
    """The notebook's cells as the learner runs them: the setup, their class, the visible test cells."""
    exercise = load_exercise(REPO / "exercises" / f"{EX}.ipynb")
    setup = student_cell_source(exercise.by_key()["skip_on_eight_setup"])
    tests = [student_cell_source(c) for c in exercise.cells if c.role == TEST]
    mine = (f"class SkipOnEight(mm.Rule):\n    name = 'skip_on_eight'\n    rule_id = 'MK-5'\n"
            f"    def affects(self, card):\n        {affects}\n    def on_play(self, turn, card):\n        {on_play}\n")
    path = tmp_path / f"{name}.py"
    path.write_text("\n".join([setup, mine, *tests]), encoding="utf-8")
    return path


def test_learners_kernels_share_their_checks_and_the_teacher_sees_them(server, tmp_path):
    own = codes(server)
    runs = {}
    for who, (affects, on_play) in {"anna": RIGHT, "ben": WRONG}.items():
        cells = kernel_cells(tmp_path, who, affects, on_play)
        runs[who] = subprocess.Popen([sys.executable, "-c", LEARNER, server.url, own[who], EX, str(cells)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for who, run in runs.items():
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        assert "ANSWER {'type': 'stored'" in out, (who, out, err)
        assert "never your code" in out  # the notebook says what is sent
    frame = server.live.frame(WATCH)
    rows = {row["name"]: row for row in frame["rows"]}
    assert rows["Anna A"]["cells"][EX] == {**rows["Anna A"]["cells"][EX], "passed": 3, "total": 3, "failed": []}
    assert rows["<b>Ben</b>"]["cells"][EX]["passed"] == 1  # the 5♣ without effect passes by itself
    assert rows["<b>Ben</b>"]["cells"][EX]["failed"] == ["3 players, seat 0 plays 8♥", "2 players, seat 0 plays 8♥"]
    assert rows["Cleo C"]["progress"] is None and rows["Cleo C"]["cells"] == {}  # on the roster, not connected
    assert frame["failing"][0] == {"exercise": EX, "check": "3 players, seat 0 plays 8♥", "rules": ["MK-5"],
                                   "learners": 1, "tried": 2}
    assert [(r["rule"], r["learners"]) for r in frame["rules"]] == [("MK-5", 1)]
    assert frame["counts"] == [{"exercise": EX, "tried": 2, "all_passed": 1}]
    text = json.dumps(stored_rows(server))
    assert "SkipOnEight" not in text and "turn.skip" not in text and "Rank" not in text  # never the code


def test_the_teachers_socket_gets_a_frame_for_each_change_and_the_projector_no_name(server):
    login = urllib.request.Request(server.url + "/login", headers={"Authorization": "Teacher t-secret"},
                                   method="POST")
    cookie = urllib.request.urlopen(login).headers["Set-Cookie"].split(";")[0]
    url = server.url.replace("http", "ws") + "/live/ws"
    with connect(url, additional_headers={"Cookie": cookie}) as page, \
            connect(url, additional_headers={"Cookie": cookie}) as projector, live_ws(server) as learner:
        page.send(json.dumps(WATCH))
        projector.send(json.dumps({**WATCH, "projector": True, "lang": "de"}))
        first = json.loads(page.recv(5))
        assert first["rows"][0]["cells"] == {}, first
        json.loads(projector.recv(5))
        hello_as(learner, codes(server)["anna"])
        began = time.monotonic()
        assert said(learner, report(ok=False))["type"] == "stored"
        frame = json.loads(page.recv(5))
        assert time.monotonic() - began < 1.0
        anna = next(row for row in frame["rows"] if row["name"] == "Anna A")
        assert anna["cells"][EX]["failed"] == ["3 players, seat 0 plays 8♥"]
        seen = json.loads(projector.recv(5))
        assert seen["rows"] == [] and seen["idle"] == [] and "Anna" not in json.dumps(seen)
        assert seen["failing"][0]["check"] == "3 Spieler, Platz 0 legt 8♥"  # in the projector's language
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(frame, live_schema())
    jsonschema.validate(seen, live_schema())


def test_the_live_page_is_the_logged_in_teachers_only(server):
    for path in ("/live", "/live/projector"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server.url + path)
        assert refused.value.code == 403 and b"teacher" in refused.value.read()
    with live_ws(server) as ws:
        answer = said(ws, WATCH)
        assert answer["code"] == "forbidden" and "teacher" in answer["message"]
    login = urllib.request.Request(server.url + "/login", headers={"Authorization": "Teacher t-secret"},
                                   method="POST")
    cookie = urllib.request.urlopen(login).headers["Set-Cookie"].split(";")[0]
    page = urllib.request.urlopen(urllib.request.Request(server.url + "/live?lang=hu&idle=3",
                                                         headers={"Cookie": cookie}))
    text = page.read().decode()
    assert '<html lang="hu">' in text and "Az osztály most" in text and '"idle": 3.0' in text
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]  # no inline script runs
    assert urllib.request.urlopen(server.url + "/live.js").headers["Content-Type"].startswith("text/javascript")


def teacher_cookie(server) -> str:
    login = urllib.request.Request(server.url + "/login", headers={"Authorization": "Teacher t-secret"},
                                   method="POST")
    return urllib.request.urlopen(login).headers["Set-Cookie"].split(";")[0]


def test_the_course_page_links_to_the_live_view_for_the_teacher_alone(server):
    page = urllib.request.urlopen(urllib.request.Request(server.url + "/course?lang=de",
                                                         headers={"Cookie": teacher_cookie(server)})).read().decode()
    assert '<a href="live?lang=de">Die Klasse gerade (live): die letzten Prüfungen aller</a>' in page
    assert '<a href="live/projector?lang=de">Projektor-Ansicht (ohne Namen)</a>' in page
    assert page.index("live?lang=de") < page.index("<table")  # under the heading, before the grades
    for path in ("/course", "/live"):  # a learner's browser: neither the page with the link nor the view
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server.url + path)
        assert refused.value.code == 403


def test_the_page_names_each_exercise_by_its_title_and_each_rule_by_what_it_says(server):
    with live_ws(server) as ws:
        hello_as(ws, codes(server)["anna"])
        assert said(ws, report(ok=False))["type"] == "stored"
    frame = server.live.frame({**WATCH, "lang": "de"})
    assert frame["titles"][EX] == "02 Aussetzen bei der 8 (MK-5)" and frame["exercises"] == [EX]
    assert frame["rules"] == [{"rule": "MK-5", "learners": 1,
                               "says": "Eine 8 lässt den nächsten Spieler aussetzen; eine Antwort gibt es nicht. "
                                       "Zu zweit bist du gleich noch einmal dran."}]
    assert server.live.frame(WATCH)["titles"][EX] == "02 Skip on 8 (MK-5)" and not frame["variants"]


def test_learners_with_their_own_cards_fail_the_same_check_and_the_page_counts_them_together(tmp_path, source,
                                                                                             known):
    """With the course key each learner's cells name their own cards (anna's 8♠, ben's 8♣, cleo's 8♦ in
    German and without saying the exercise, where the common cells say 8♥): the same check of the three
    counts once, under its common name, and each learner's row names it with their own cards, as their
    notebook does."""
    from maumau.grading.learner_variants import learners_draw

    key = bytes([1]) * 32
    roster = tmp_path / "roster.csv"
    roster.write_text("learner,name,email\nanna,Anna A,a@s.example\nben,Ben B,b@s.example\ncleo,Cleo C,c@s.example\n")
    server = classroom.Server(db=tmp_path / "class.sqlite", port=0, teacher_token="t-secret",
                              course=Course(source, variants=key), roster=roster).start()
    try:
        skip = known[EX]
        own = {who: skip.drawn(learners_draw(key, who, skip.exercise)).checks[0].name(lang)
               for who, lang in (("anna", "en"), ("ben", "en"), ("cleo", "de"))}
        assert own["anna"] != own["ben"] and "8♥" not in own["anna"] + own["ben"] + own["cleo"], own
        for who, name in own.items():
            with live_ws(server) as ws:
                hello_as(ws, codes(server)[who])
                sent = report(name, ok=False)
                if who == "cleo":  # as in the browser course: the exercise is the one her own checks are of
                    del sent["exercise"]
                answer = said(ws, sent)
                assert answer["type"] == "stored" and answer["exercise"] == EX, answer
        frame = server.live.frame(WATCH)
        assert frame["failing"] == [{"exercise": EX, "check": "3 players, seat 0 plays 8♥", "rules": ["MK-5"],
                                     "learners": 3, "tried": 3}]
        assert frame["rules"][0]["learners"] == 3 and frame["variants"]
        rows = {row["name"]: row["cells"][EX]["failed"] for row in frame["rows"]}
        assert rows["Anna A"] == [own["anna"]] and rows["Ben B"] == [own["ben"]]
        assert rows["Cleo C"] == [skip.drawn(learners_draw(key, "cleo", skip.exercise)).checks[0].name("en")]
        with live_ws(server) as ws:  # a notebook of the common release (no draw): its names are the common ones
            hello_as(ws, codes(server)["anna"])
            assert said(ws, report("3 players, seat 0 plays 8♥", ok=True))["type"] == "stored"
            assert said(ws, report("3 players, seat 0 plays 5♠ (no effect)"))["code"] == "no_checks"  # no one's
        assert server.live.frame(WATCH)["failing"][0]["learners"] == 2
    finally:
        server.stop()


# --- hostile reports ------------------------------------------------------------------------------------------
def test_a_report_for_another_learner_is_refused_and_nothing_stored(server):
    own = codes(server)
    with live_ws(server) as ws:
        hello_as(ws, own["anna"])
        answer = said(ws, report(learner="ben"))
        assert answer["code"] == "not_yours" and "your own checks" in answer["message"]
        assert said(ws, report(learner="anna"))["type"] == "stored"  # one's own name changes nothing
    assert [row[0] for row in stored_rows(server)] == ["anna"]


@pytest.mark.parametrize("message, code, words", [
    ("not json", "bad_request", "one JSON object"),
    ("[1, 2]", "bad_request", "one JSON object"),
    ({"type": "shout"}, "bad_request", "hello, checks or watch"),
    ({"type": "checks", "exercise": EX, "checks": "all passed"}, "bad_request", "list of at most"),
    ({"type": "checks", "exercise": EX, "checks": [{"scenario": "x", "ok": "yes"}]}, "bad_request", "true or false"),
    ({"type": "checks", "exercise": EX, "checks": [{"scenario": "x", "ok": True, "code": "import os"}]},
     "bad_request", "true or false"),
    ({"type": "checks", "exercise": EX, "checks": [], "at": 0}, "bad_request", "no field 'at'"),
    ({"type": "checks", "exercise": 7, "checks": []}, "bad_request", "the exercise must be a text"),
    ({"type": "checks", "exercise": EX, "checks": [{"scenario": "s", "ok": True}] * 101}, "bad_request", "at most 100"),
    ({"type": "checks", "exercise": "../../etc/passwd", "checks": []}, "no_exercise", "no exercise"),
    (report("my own scenario"), "no_checks", "is a visible check"),
    (report("hidden: an 8 on an 8 skips again, nobody answers"), "no_checks", "is a visible check"),
    ("x" * 20_000, "too_large", "at most 16384 bytes"),
])
def test_a_malformed_report_is_refused_with_a_sentence_and_nothing_stored(server, message, code, words):
    with live_ws(server) as ws:
        hello_as(ws, codes(server)["anna"])
        answer = said(ws, message)
        assert answer["type"] == "error" and answer["code"] == code and words in answer["message"], answer
        assert said(ws, report())["type"] == "stored"  # the connection goes on
    assert len(stored_rows(server)) == 1 and "hidden" not in stored_rows(server)[0][2]


def test_a_huge_frame_closes_the_connection_and_stores_nothing(server):
    with live_ws(server) as ws:
        hello_as(ws, codes(server)["anna"])
        ws.send(json.dumps(report("y" * 200_000)))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(5)
        assert closed.value.rcvd.code == 1009  # "message too big"
    assert stored_rows(server) == []


def test_no_report_without_a_learner_the_server_knows(server):
    with live_ws(server) as ws:
        answer = said(ws, report())
        assert answer["code"] == "who" and "personal code" in answer["message"]
        answer = said(ws, {"type": "hello", "code": "ZZZZ-ZZZZ-ZZZZ"})
        assert answer["code"] == "unknown_learner" and "no learner of this course" in answer["message"]
        answer = said(ws, {"type": "hello", "name": "Anna A"})
        assert answer["code"] == "bad_request"  # a typed name is nobody
        assert said(ws, report())["code"] == "who"
    with pytest.raises(ClassroomError, match="no learner of this course"):
        classroom.share_progress(server.url, "ZZZZ-ZZZZ-ZZZZ", exercise=EX)
    assert stored_rows(server) == []


def test_a_flood_of_reports_is_refused_beyond_the_rate(server):
    with live_ws(server) as ws:
        hello_as(ws, codes(server)["anna"])
        answers = [said(ws, report(ok=n % 2 == 0))["type"] for n in range(40)]
        assert answers.count("stored") < 35 and answers[-1] == "error"
        refused = said(ws, report())
        assert refused["code"] == "too_often" and "wait" in refused["message"]
    assert json.loads(stored_rows(server)[0][2]) == {"skip_on_eight_test1#0": answers.index("error") % 2 == 1}


def test_a_server_without_a_roster_or_a_hub_follows_no_one(tmp_path, source, known):
    server = classroom.Server(db=tmp_path / "c.sqlite", port=0, course=Course(source))
    with server, live_ws(server) as ws:
        answer = said(ws, {"type": "hello", "code": "ABCD-EFGH-JKLM"})
        assert answer["code"] == "unknown_learner" and "--roster" in answer["message"]


# --- the learner's side ---------------------------------------------------------------------------------------
def test_not_sharing_changes_nothing_and_an_unreachable_server_slows_no_check(server):
    assert checks.listeners == []
    sharing = classroom.share_progress(server.url, codes(server)["cleo"], exercise=EX)
    try:
        assert checks.listeners == [sharing._ran]
        server.stop()  # the server goes away: the checks go on as fast
        began = time.perf_counter()
        for n in range(20):
            with checks.scenario("3 players, seat 0 plays 8♥"):
                checks.check("who moves next", n, n)
        assert time.perf_counter() - began < 0.2
        time.sleep(0.3)
        assert sharing.sender.dropped >= 1
    finally:
        sharing.stop()
        checks._results.clear()
    assert checks.listeners == []


def test_a_server_out_of_reach_is_said_when_sharing_begins(server):
    import socket

    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{spare.getsockname()[1]}"
    began = time.monotonic()
    with pytest.raises(ClassroomError, match="cannot be reached") as refused:
        classroom.share_progress(nobody, codes(server)["anna"], exercise=EX)
    assert refused.value.code == "unreachable" and time.monotonic() - began < 3
    assert checks.listeners == []


def test_a_server_without_the_course_follows_no_checks(tmp_path):
    with classroom.Server(db=tmp_path / "c.sqlite", port=0) as plain_server:
        assert plain_server.live is None
        with pytest.raises(ClassroomError, match="does not follow checks") as refused:
            classroom.share_progress(plain_server.url, "ABCD-EFGH-JKLM", exercise=EX)
        assert refused.value.code == "no_live" and "404" in str(refused.value)


def test_the_notebooks_exercise_is_its_files_name_or_the_one_its_checks_are_of(monkeypatch, server):
    monkeypatch.setenv("JPY_SESSION_NAME", f"/home/jovyan/student/{EX}.ipynb")
    sharing = classroom.share_progress(server.url, codes(server)["anna"])
    sharing.stop()
    assert sharing.exercise == EX
    monkeypatch.delenv("JPY_SESSION_NAME")  # as in the browser course: Jupyter does not say which notebook
    sharing = classroom.share_progress(server.url, codes(server)["anna"])
    try:
        assert sharing.exercise is None
        with checks.scenario("3 Spieler, Platz 0 legt 8♥"):  # a German learner's check
            checks.check("who moves next", 2, 2)
        for _ in range(100):
            if sharing.last_answer is not None:
                break
            time.sleep(0.05)
        assert sharing.last_answer["type"] == "stored" and sharing.last_answer["exercise"] == EX
    finally:
        sharing.stop()
        checks._results.clear()
    with live_ws(server) as ws:
        hello_as(ws, codes(server)["ben"])
        answer = said(ws, {"type": "checks", "checks": [{"scenario": "my own scenario", "ok": True}]})
        assert answer["code"] == "no_checks" and "any exercise of this course" in answer["message"]
        assert said(ws, {"type": "hello", "code": codes(server)["ben"], "lang": "hu"})["type"] == "welcome"
        answer = said(ws, {"type": "checks", "checks": [{"scenario": "my own scenario", "ok": True}]})
        assert "a kurzus egyetlen feladatának sem" in answer["message"]


def test_a_restarted_server_shows_the_latest_state(tmp_path, source, known):
    server = start(tmp_path, source, known)
    try:
        with live_ws(server) as ws:
            hello_as(ws, codes(server)["ben"])
            said(ws, report(ok=False))
            said(ws, report("3 players, seat 0 plays 5♣ (no effect)"))
    finally:
        server.stop()
    again = start(tmp_path, source, known)
    try:
        row = next(r for r in again.live.frame(WATCH)["rows"] if r["name"] == "<b>Ben</b>")
        assert row["cells"][EX]["passed"] == 1 and row["cells"][EX]["failed"] == ["3 players, seat 0 plays 8♥"]
    finally:
        again.stop()


# --- the checks the server knows ------------------------------------------------------------------------------
def test_a_check_is_the_same_in_every_language_and_an_f_string_is_a_pattern(known):
    checks_of = known[EX]
    assert checks_of.id_of("3 players, seat 0 plays 8♥") == checks_of.id_of("3 Spieler, Platz 0 legt 8♥") \
        == "skip_on_eight_test1#0"
    assert checks_of.id_of("hidden: an 8 on an 8 skips again, nobody answers") is None
    from maumau.classroom.live_checks import _names
    found = _names('with scenario(f"{n} players, seat {s} plays 8♥"):\n    pass\n')
    assert found[0].fullmatch("3 players, seat 0 plays 8♥") and not found[0].fullmatch("3 players")


def test_stuck_learners_are_named_after_the_pages_minutes(server):
    with live_ws(server) as ws:
        hello_as(ws, codes(server)["anna"])
        said(ws, report(ok=False))
    later = time.time() + 6 * 60
    assert server.live.frame(WATCH, now=later)["idle"] == ["Anna A"]
    assert server.live.frame({**WATCH, "idle": 10}, now=later)["idle"] == []
    projector = server.live.frame({**WATCH, "projector": True}, now=later)
    assert projector["idle"] == [] and projector["idle_count"] == 1


@pytest.mark.parametrize("lang, words", [("de", "nur deine eigenen Prüfungen"), ("hu", "csak a saját ellenőrzéseidről"),
                                         ("en", "your own checks only")])
def test_a_refusal_is_said_in_the_notebooks_language(server, lang, words):
    with live_ws(server) as ws:
        assert said(ws, {"type": "hello", "code": codes(server)["anna"], "lang": lang})["type"] == "welcome"
        answer = said(ws, report(learner="ben"))
        assert answer["code"] == "not_yours" and words in answer["message"]
    from maumau.classroom.live import REFUSED
    assert all(set(said) == {"en", "de", "hu"} for said in REFUSED.values())


def test_the_live_page_says_every_word_in_english_german_and_hungarian():
    import re
    import string

    from maumau.classroom.progress_page import LIVE_WORDS

    script = (REPO / "maumau" / "classroom" / "pages" / "live.js").read_text(encoding="utf-8")
    used = set(re.findall(r"say\('([a-z_]+)'", script)) | {"title", "projector", "just", "last", "no_check"}
    assert set(LIVE_WORDS) == {"en", "de", "hu"} and used <= set(LIVE_WORDS["en"]), used - set(LIVE_WORDS["en"])
    fields = {lang: {key: {f for _, f, _, _ in string.Formatter().parse(text) if f}
                     for key, text in words.items()} for lang, words in LIVE_WORDS.items()}
    assert fields["de"] == fields["en"] == fields["hu"]  # the same keys, each with the same blanks
    for lang in ("de", "hu"):
        same = [k for k, text in LIVE_WORDS[lang].items() if text == LIVE_WORDS["en"][k]
                and re.search("[a-z]{4}", re.sub(r"\{\w+\}", "", text))]
        assert same == [], (lang, same)  # no English sentence left on a German or Hungarian page


def test_every_field_the_live_page_reads_of_a_frame_is_in_the_schema():
    import re

    script = (REPO / "maumau" / "classroom" / "pages" / "live.js").read_text(encoding="utf-8")
    schema = live_schema()
    names = {"frame": ("LiveFrame",), "row": ("LiveRow",), "cell": ("LiveCell",), "f": ("FailingCheck",),
             "r": ("FailingRule",), "c": ("ExerciseCount",), "message": ("LiveFrame", "LiveRefusal")}
    refusal = {"type", "code", "message"}
    read = {}
    for name, definitions in names.items():
        fields = set(re.findall(r"(?<![\w$.])" + name + r"\.([a-z_]+)", script)) - {"length", "map", "join"}
        declared = set().union(*(refusal if d == "LiveRefusal" else set(schema["$defs"][d]["properties"])
                                 for d in definitions))
        assert fields <= declared, (name, fields - declared)
        read[name] = fields
    assert {"rows", "failing", "rules", "counts", "idle", "idle_count", "now"} <= read["frame"]
    assert {"passed", "total", "failed"} <= read["cell"] and {"check", "rules", "learners", "tried"} <= read["f"]


def test_a_learner_who_connected_and_ran_no_check_is_stuck_too(server, tmp_path, source, known):
    with live_ws(server) as ws:
        hello_as(ws, codes(server)["cleo"])
    frame = server.live.frame(WATCH)
    cleo = next(row for row in frame["rows"] if row["name"] == "Cleo C")
    assert cleo["connected"] and cleo["cells"] == {} and cleo["progress"] is not None
    assert server.live.frame(WATCH, now=time.time() + 6 * 60)["idle"] == ["Cleo C"]
    assert not next(row for row in frame["rows"] if row["name"] == "Anna A")["connected"]
    server.stop()
    again = start(tmp_path, source, known)  # the connection is in the class database too
    try:
        assert again.live.frame(WATCH, now=time.time() + 6 * 60)["idle"] == ["Cleo C"]
    finally:
        again.stop()
