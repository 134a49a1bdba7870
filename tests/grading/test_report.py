"""CSV cells a spreadsheet never runs as a formula (issue 34 item 7): grades.csv and the LMS files.

A learner chooses their name (folder, seat) and what their code raises; a cell that starts
with ``= + - @`` in any Unicode form, or after characters that show nothing, is written with
a leading ``'``.  Names and numbers are kept as they are, and a score is always a number.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from maumau.grading.export import RosterEntry, export, read_grades
from maumau.grading.gradebook import Row
from maumau.grading.report import cell_text, csv_text, grades_csv
from maumau.grading.submissions import printable

EX = "01_matching"

#: Characters that show nothing before a sign (written out here, not taken from the module).
INVISIBLE = ["\u200b", "\ufeff", "\u200c", "\u200d", "\u2060", "\u200e", "\u200f", "\u202e", "\u00ad",
             "\u034f", "\ufe00", "\ufe0f", "\u3164", "\u115f", "\u1160", "\uffa0", "\u180e", "\u17b4",
             "\U000e0020", " ", "\u00a0", "\u2003", "\u3000", "\n", "\x00", "\x1b"]
#: ``= + - @`` as a spreadsheet or a reader might take them.
SIGNS = ["=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20", "\ufe66", "\ufe62", "\ufe63",
         "\ufe6b", "\u207a", "\u207b", "\u207c", "\u208a", "\u208b", "\u208c", "\u2212", "\u2010", "\u2011",
         "\u2013", "\u2014", "\u2796", "\u2795"]
#: From the issue: cells that were written unquoted.
ISSUE = ["\u200b=HYPERLINK(\"http://x\")", "\ufeff=1+1", "\uff1dSUM(A1:A9)", "\uff0b1", "\uff0d1", "\uff20SUM(A1)",
         "\u200b\u200b\ufeff-2+3", "\u3164=1", "\u034f@x", "\ufe0f+1", " \t=1", "\u00a0=1"]


def sheet(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def is_text(cell: str) -> bool:
    return cell.startswith("'")


def starts_a_formula(text: str) -> bool:
    """The brief's rule, checked apart from the module's own: NFKC, leading invisible, format,
    control and space characters dropped, then one of ``= + - @`` (or tab, carriage return)."""
    normal = unicodedata.normalize("NFKC", text)
    rest = normal.lstrip("".join(INVISIBLE) + "".join(ch for ch in normal if unicodedata.category(ch) in
                                                          ("Cf", "Zs", "Cc") and ch not in "\t\r"))
    return rest[:1] in ("=", "+", "-", "@", "\t", "\r")


@settings(deadline=None)  # a busy machine: no example has a time limit
@given(st.lists(st.sampled_from(INVISIBLE), max_size=4), st.sampled_from(SIGNS), st.text(max_size=20))
@example([], "\uff1d", "1+1")
@example(["\u200b"], "=", "HYPERLINK(\"http://evil\")")
def test_a_sign_in_any_form_after_anything_invisible_is_text(prefix, sign, rest):
    cell = "".join(prefix) + sign + rest
    assert is_text(csv_text(cell)), repr(cell)


@settings(deadline=None)
@given(st.text())
@example("\u200b=1")
@example("'=1")
@example("''x")
def test_every_cell_whose_nfkc_form_starts_a_formula_is_text_and_reads_back_exactly(cell):
    written = csv_text(cell)
    if starts_a_formula(printable(cell)):
        assert is_text(written), repr(cell)
    assert cell_text(written) == printable(cell)
    assert sheet(grades_csv([Row(cell, EX)]))[1][0] == written


@settings(deadline=None)
@given(st.from_regex(r"[A-Za-z0-9_ÄÖÜäöüßéÉ][A-Za-z0-9_ .,ÄÖÜäöüßéÉ-]{0,30}", fullmatch=True))
@example("José")
@example("Liddell, Alice")
@example("S-17")
def test_plain_names_and_ids_are_kept_as_they_are(name):
    assert csv_text(name) == name


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=12), st.lists(st.floats(-100, 100, allow_nan=False), min_size=1, max_size=3))
@example("\uff1dcmd|' /C calc'!A0", [-1.5])
@example("\u200b-2", [-0.25, 3.0])
def test_lms_files_quote_names_and_keep_scores_numbers(name, scores):
    exercises = [f"{i:02d}_ex" for i in range(len(scores))]
    entry = RosterEntry(learner=name, name=name, id=name, sis_user_id=name, sis_login_id=name, email=name)
    points = dict.fromkeys(exercises, 100.0)
    for fmt_name, first_score in (("canvas", 5), ("moodle", 4), ("csv", 3)):
        table = sheet(export(fmt_name, {name: dict(zip(exercises, scores, strict=True))}, points, {name: entry}).text)
        row = table[-1]
        for cell in row[:first_score]:
            assert not starts_a_formula(cell) or is_text(cell), (fmt_name, row)
        if fmt_name == "csv":
            assert cell_text(row[0]) == printable(name), row
        got = [float(c) for c in row[first_score:first_score + len(scores)]]  # numbers, never quoted
        assert got == [round(s, 2) + 0.0 for s in scores], (fmt_name, row)


def test_the_issue_s_cells_are_text_in_grades_csv_and_every_lms_file(tmp_path: Path):
    rows = [Row(name, EX, score=-1.5, max_score=6, message=name) for name in ISSUE]
    table = sheet(grades_csv(rows))
    for name, line in zip(ISSUE, table[1:], strict=True):
        assert is_text(line[0]) and is_text(line[9]) and cell_text(line[0]) == printable(name), line
        assert line[2] == "-1.5"  # the score stays a number, even a negative one
    path = tmp_path / "grades.csv"
    path.write_text(grades_csv(rows), encoding="utf-8")
    scores, points = read_grades(path)
    assert set(scores) == {printable(n) for n in ISSUE} and points == {EX: 6.0}  # read back without the quote
    roster = {n: RosterEntry(learner=n, name=n, id="1", email=n) for n in ISSUE}
    for fmt_name in ("canvas", "moodle", "csv"):
        for line in sheet(export(fmt_name, scores, points, roster, {EX: "\uff1dEX()"}).text):
            for cell in line:
                assert not starts_a_formula(cell) or is_text(cell) or cell == "-1.5", (fmt_name, line)


def test_a_line_break_in_a_cell_never_makes_a_row_of_its_own(tmp_path: Path):
    """Python's writer quotes only its line terminator's characters: a bare carriage return in a
    learner's name or message was written unquoted, and read back as the end of a line."""
    forged = "x\rmallory,01_matching,6,6,0,ok,1,0,0.0,,,0,0,6"
    rows = [Row(forged, EX, score=0, max_score=6, message=forged), Row("bob\r\n", EX, score=1, max_score=6)]
    path = tmp_path / "grades.csv"
    path.write_bytes(grades_csv(rows).encode())
    assert path.read_bytes().count(b"\n") == 3 + 1  # the header, two rows, and bob's own \n, quoted
    scores, points = read_grades(path)
    assert scores == {forged: {EX: 0.0}, "bob": {EX: 1.0}}, scores  # (bob's line break: spaces are stripped)
    roster = {forged: RosterEntry(learner=forged, name=forged)}
    assert len(sheet(export("csv", scores, points, roster).text)) == 2
