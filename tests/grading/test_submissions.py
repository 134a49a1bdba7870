"""Folders and receipts that cannot collide (issue 34, item 2): a learner's grading folder is theirs
alone, never another learner's by a name that looks like it, and a class server's receipt belongs to
the exact bytes it stamped, never to a folder copy that differs."""

from __future__ import annotations

import csv
import io
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maumau.cli import main
from maumau.grading.exercise import load_exercise
from maumau.grading.submissions import HandInError, HandIns, safe_folder_name

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
SUBMISSIONS = Path(__file__).resolve().parents[1] / "submissions"
EX = "01_matching"
CET = timezone(timedelta(hours=1))


def _course() -> dict[str, list[str]]:
    return {EX: [c.key for c in load_exercise(EXERCISES / f"{EX}.ipynb").cells if c.key]}


def test_a_plain_name_like_another_learners_folder_gets_a_folder_of_its_own(tmp_path):
    store = HandIns(tmp_path / "class.sqlite")
    jose = (EXERCISES / f"{EX}.ipynb").read_bytes()
    stub = (SUBMISSIONS / "buggy_matching" / f"{EX}.ipynb").read_bytes()
    store.receive("José", EX, jose, _course())
    store.receive(safe_folder_name("José"), EX, stub, _course())  # "Jos-24c2ab65", typed as a plain name
    stamps = store.write_folders(tmp_path / "in")
    folders = sorted(p.name for p in (tmp_path / "in").iterdir())
    assert len(folders) == 2 and safe_folder_name("José") in folders
    assert (tmp_path / "in" / safe_folder_name("José") / f"{EX}.ipynb").read_bytes() == jose
    assert len(stamps) == 2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=30), min_size=2, max_size=6, unique=True))
def test_different_learners_never_share_a_folder_and_a_folder_is_never_a_path(names):
    folders = [safe_folder_name(n) for n in names]
    assert len(set(folders)) == len(names)
    assert all("/" not in f and "\\" not in f and f not in (".", "..") for f in folders)
    made = folders[0]
    if made != names[0]:  # a plain name typed to look like the folder made for another name gets its own
        assert safe_folder_name(made) != made


def test_writing_folders_never_overwrites_a_notebook(tmp_path):
    store = HandIns(tmp_path / "class.sqlite")
    store.receive("anna", EX, (EXERCISES / f"{EX}.ipynb").read_bytes(), _course())
    there = tmp_path / "in" / "anna" / f"{EX}.ipynb"
    there.parent.mkdir(parents=True)
    there.write_bytes(b"someone else's")
    with pytest.raises(HandInError, match="is there already: the hand-in of 'anna' was not written over it"):
        store.write_folders(tmp_path / "in")
    assert there.read_bytes() == b"someone else's"


def test_a_receipt_is_never_given_to_a_folder_copy_with_other_bytes(tmp_path):
    """anna hands in A on time through the server; a late copy B of hers sits in a submissions folder.
    B must not be graded with A's receipt time; the report says which one was graded and why."""
    db = tmp_path / "class.sqlite"
    store = HandIns(db)
    on_time = datetime(2026, 12, 10, 8, 0, tzinfo=CET)
    receipt = store.receive("anna", EX, (SUBMISSIONS / "buggy_matching" / f"{EX}.ipynb").read_bytes(), _course(),
                            now=on_time)
    copy = tmp_path / "subs" / "anna"
    copy.mkdir(parents=True)
    shutil.copy(EXERCISES / f"{EX}.ipynb", copy)  # B: other bytes (the solution), handed in late
    (copy / "timestamp.txt").write_text("2026-12-14 10:00:00 Europe/Berlin")
    out = io.StringIO()
    argv = ["grade", "--source", str(EXERCISES), str(tmp_path / "subs"), "--handins", str(db), "--out",
            str(tmp_path / "grades"), "--exercise", EX, "--due", f"{EX}=2026-12-10T23:59+01:00",
            "--late", "0 after 0 days", "-j", "1", "--cell-timeout", "20"]
    assert main(argv, out=out, err=out) == 0, out.getvalue()
    rows = list(csv.DictReader((tmp_path / "grades" / "grades.csv").open(encoding="utf-8")))
    assert [r["student"] for r in rows] == ["anna", "anna"]
    graded = next(r for r in rows if r["status"] != "duplicate")
    other = next(r for r in rows if r["status"] == "duplicate")
    assert graded["submitted"] == receipt.received and graded["late_days"] == "0"
    assert float(graded["score"]) < 6  # A, the buggy notebook the server stamped, not B, the late solution
    assert other["submitted"] == "" and "it differs from the notebook the class server received" in other["message"]
    feedback = (tmp_path / "grades" / "feedback" / "anna.md").read_text(encoding="utf-8")
    assert "graded: the notebook the class server received" in feedback and "subs/anna differs" in feedback


def test_a_folder_copy_with_the_same_bytes_keeps_the_receipt(tmp_path):
    db = tmp_path / "class.sqlite"
    store = HandIns(db)
    data = (EXERCISES / f"{EX}.ipynb").read_bytes()
    receipt = store.receive("anna", EX, data, _course(), now=datetime(2026, 12, 10, 8, 0, tzinfo=CET))
    copy = tmp_path / "subs" / "anna"
    copy.mkdir(parents=True)
    (copy / f"{EX}.ipynb").write_bytes(data)
    out = io.StringIO()
    argv = ["grade", "--source", str(EXERCISES), str(tmp_path / "subs"), "--handins", str(db), "--out",
            str(tmp_path / "grades"), "--exercise", EX, "-j", "1", "--cell-timeout", "20"]
    assert main(argv, out=out, err=out) == 0, out.getvalue()
    rows = list(csv.DictReader((tmp_path / "grades" / "grades.csv").open(encoding="utf-8")))
    graded = next(r for r in rows if r["status"] != "duplicate")
    assert graded["submitted"] == receipt.received and graded["score"] == "6"
