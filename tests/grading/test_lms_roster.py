"""`maumau export --roster` reads the LMS's own exports (issue 37, item 6): Canvas's gradebook
export, Moodle's participants download and grade export, as the LMS writes them (BOM, separators,
quoted names with accents), each learner's folder matched to one row, and the files refused that
cannot be read or matched, with a sentence and nothing written."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from maumau.classroom.roster import Roster, RosterError
from maumau.cli import main
from maumau.grading.export import ExportError, export, read_grades, read_roster_file
from maumau.grading.lms_roster import MAX_ROSTER_BYTES
from maumau.grading.submissions import safe_folder_name

EX, EX2 = "01_matching", "02_skip_on_eight"

# Canvas's gradebook export as lib/gradebook_exporter.rb writes it: SIS ids shown, a manually posted
# assignment (the "Manual Posting" row), the points row with its leading spaces, totals read only.
CANVAS = """Student,ID,SIS User ID,SIS Login ID,Section,01_matching (4711),Skip on eight (4712),Quiz 1 (4713),\
Current Points,Final Points,Current Score,Unposted Current Score,Final Score,Unposted Final Score
,,,,,,Manual Posting,,,,,,,
    Points Possible,,,,,6.00,10.00,5.00,(read only),(read only),(read only),(read only),(read only),(read only)
"Liddell, Alice",1001,S-17,alice@school.example,Class A,5.00,7.00,4.00,16.00,16.00,76.19,76.19,76.19,76.19
"Kovács, Ödön",1002,S-18,odon@school.example,Class A,,,,,,,,,
"@SUM(1+1)*cmd|' /C calc'!A0, Eve",1003,S-19,eve@school.example,Class B,,,,,,,,,
"Müller, Jürgen",1004,,juergen.mueller,Class B,EX,,,,,,,,
"Student, Test",1099,,,Class A,N/A,N/A,,,,,,,
"""

# Moodle's participants download (dataformat csv: UTF-8 with a BOM), identity fields: e-mail, ID number.
MOODLE_PARTICIPANTS = ("\ufeffFirst name,Last name,Email address,ID number\n"
                       "Ödön,Kovács,odon@school.example,H-2\n"
                       "Jürgen,Müller,juergen.mueller@school.example,H-4\n"
                       "\"=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",Eve,eve@school.example,H-3\n")

# Moodle's grade export, plain text, tab separated, German headers (the teacher's language).
MOODLE_GRADES_DE = ("Vorname\tNachname\tID-Nummer\tInstitution\tAbteilung\tE-Mail-Adresse\t"
                    "Aufgabe: 01_matching (Punkte)\tKurs gesamt (Punkte)\tZuletzt aus diesem Kurs geladen\n"
                    "Ödön\tKovács\tH-2\tGimnázium\t9.b\todon@school.example\t-\t-\t1765100000\n"
                    "Jürgen\tMüller\t\tGymnasium\t9.b\tjuergen.mueller@school.example\t3,00\t3,00\t1765100000\n")


def _write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def _grades(tmp_path: Path, rows: list[tuple[str, str, float, float]]) -> Path:
    """A grades.csv as ``maumau grade`` writes it (its columns; ``final`` after the penalty)."""
    lines = ["student,exercise,score,max_score,status,final"]
    lines += [f"{s},{e},{score},{top},ok,{score}" for s, e, score, top in rows]
    return _write(tmp_path, "grades.csv", "\n".join(lines) + "\n")


def _export(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["export", *argv], out=out, err=out), out.getvalue()


def _sheet(path: Path) -> list[list[str]]:
    return list(csv.reader(path.open(encoding="utf-8", newline="")))


# --- Canvas -------------------------------------------------------------------------------------------------

def test_canvas_gradebook_export_is_the_roster_and_the_scores_land_in_its_own_assignment_columns(tmp_path):
    grades = _grades(tmp_path, [("alice", EX, 6, 6), ("ODON", EX, 4.5, 6), ("juergen.mueller", EX2, 3, 4),
                                (safe_folder_name("eve@school.example"), EX, 1, 6)])
    roster = _write(tmp_path, "Grades-MauMau.csv", CANVAS)
    out = tmp_path / "canvas.csv"
    code, said = _export("canvas", "--grades", str(grades), "--roster", str(roster), "--out", str(out),
                         "--column", f"{EX2}=Skip on eight")
    assert code == 0, said
    assert "as Canvas's gradebook export: 5 learners" in said
    # Skip on eight is 10 points in Canvas, 4 in maumau: the teacher is told, Canvas's points stay
    assert "Canvas gives 10.00 points, maumau 4" in said
    assert "On the roster without a grade (as Canvas has it): 1099" in said
    table = _sheet(out)
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                        "01_matching (4711)", "Skip on eight (4712)"]
    assert table[1] == ["Points Possible", "", "", "", "", "6.00", "10.00"]
    rows = {r[1]: r for r in table[2:]}
    # a cell maumau has no grade for keeps what Canvas has (7.00, excused, not assigned): the import
    # changes no grade maumau did not give
    assert rows["1001"] == ["Liddell, Alice", "1001", "S-17", "alice@school.example", "Class A", "6", "7.00"]
    assert rows["1002"][5:] == ["4.5", ""] and rows["1002"][0] == "Kovács, Ödön"
    assert rows["1004"][5:] == ["EX", "3"]
    assert rows["1003"][0].startswith("'@")      # a name is text in a spreadsheet, never a formula
    assert rows["1003"][5:] == ["1", ""]        # eve's hub name as a folder: matched by her login
    assert rows["1099"][5:] == ["N/A", "N/A"]   # the test student: left as it is

    # round trip: the file read back as Canvas's importer reads it (the header, the points row, ids)
    back = {r[1]: dict(zip(table[0], r, strict=True)) for r in table[2:]}
    assert float(back["1002"]["01_matching (4711)"]) == 4.5


def test_canvas_export_with_semicolons_decimal_commas_and_last_first_names(tmp_path):
    """Canvas in a German course writes ';' and decimal commas; the LastName/FirstName option splits names."""
    text = ("LastName;FirstName;ID;SIS User ID;SIS Login ID;Section;01_matching (4711);Current Score\n"
            "    Points Possible;;;;;;6,00;(read only)\n"
            "Szűcs;Ágnes;2001;;agnes.szucs@school.example;9.b;;\n")
    roster = _write(tmp_path, "canvas.csv", "\ufeff" + text)
    out = tmp_path / "out.csv"
    code, said = _export("canvas", "--grades", str(_grades(tmp_path, [("agnes.szucs", EX, 5.5, 6)])),
                         "--roster", str(roster), "--out", str(out))
    assert code == 0, said
    assert "Canvas gives" not in said   # 6,00 is 6: nothing to say
    table = _sheet(out)
    assert table[0][5:] == ["01_matching (4711)"] and table[1][5] == "6,00"
    assert table[2] == ["Szűcs, Ágnes", "2001", "", "agnes.szucs@school.example", "9.b", "5.5"]
    moodle_out = tmp_path / "m.csv"
    assert _export("moodle", "--grades", str(tmp_path / "grades.csv"), "--roster", str(roster),
                   "--out", str(moodle_out))[0] == 0
    assert _sheet(moodle_out)[1] == ["Ágnes", "Szűcs", "2001", "agnes.szucs@school.example", "5.5"]


def test_an_exercise_canvas_does_not_have_becomes_a_new_assignment_and_the_teacher_is_told(tmp_path):
    out = tmp_path / "canvas.csv"
    code, said = _export("canvas", "--grades", str(_grades(tmp_path, [("alice", EX2, 2, 4)])),
                         "--roster", str(_write(tmp_path, "c.csv", CANVAS)), "--out", str(out))
    assert code == 0 and "makes a new assignment of each: 02_skip_on_eight" in said
    assert _sheet(out)[0][5:] == [EX2] and _sheet(out)[1][5] == "4"


# --- Moodle -------------------------------------------------------------------------------------------------

def test_moodle_participants_download_is_the_roster_and_moodle_import_finds_each_row(tmp_path):
    grades = _grades(tmp_path, [("odon", EX, 6, 6), ("Juergen.Mueller", EX, 2.5, 6), ("eve", EX, 0, 6)])
    roster = _write(tmp_path, "courseid_7_participants.csv", MOODLE_PARTICIPANTS)
    out = tmp_path / "moodle.csv"
    code, said = _export("moodle", "--grades", str(grades), "--roster", str(roster), "--out", str(out))
    assert code == 0, said
    assert "as Moodle's participants download: 3 learners" in said
    table = _sheet(out)
    assert table[0] == ["First name", "Last name", "ID number", "Email address", EX]
    assert ["Ödön", "Kovács", "H-2", "odon@school.example", "6"] in table
    assert ["Jürgen", "Müller", "H-4", "juergen.mueller@school.example", "2.5"] in table
    eve = next(r for r in table if r[3] == "eve@school.example")
    assert eve[0].startswith("'=") and eve[4] == "0"   # never a formula; the score stays a number
    # read back as the roster's own grades: the scores where Moodle maps them (by e-mail)
    by_mail = {r[3]: r[4] for r in table[1:]}
    assert by_mail == {"odon@school.example": "6", "juergen.mueller@school.example": "2.5", "eve@school.example": "0"}


def test_moodle_grade_export_in_german_with_tabs_is_read_and_keeps_what_moodle_has(tmp_path):
    """Moodle's import empties a grade for an empty cell (grade/import/csv: '' is no grade): where
    maumau has no grade the cell keeps what the grade export holds, and a learner without any grade
    is left out of the file."""
    roster = _write(tmp_path, "Kurs Bewertungen.txt", MOODLE_GRADES_DE)
    out = tmp_path / "moodle.csv"
    grades = _grades(tmp_path, [("odon", EX, 5, 6), ("juergen.mueller", EX2, 2, 4)])
    code, said = _export("moodle", "--grades", str(grades), "--roster", str(roster), "--out", str(out))
    assert code == 0 and "as Moodle's grade export: 2 learners" in said
    table = _sheet(out)
    assert table[0][4:] == [EX, EX2]
    assert ["Ödön", "Kovács", "H-2", "odon@school.example", "5", ""] in table
    assert ["Jürgen", "Müller", "", "juergen.mueller@school.example", "3,00", "2"] in table   # Moodle's 3,00 kept
    assert "An empty cell empties that grade in Moodle on import: odon (02_skip_on_eight)" in said


def test_a_learner_without_any_grade_is_left_out_of_the_moodle_file(tmp_path):
    out = tmp_path / "moodle.csv"
    code, said = _export("moodle", "--grades", str(_grades(tmp_path, [("odon", EX, 5, 6)])),
                         "--roster", str(_write(tmp_path, "p.csv", MOODLE_PARTICIPANTS)), "--out", str(out))
    assert code == 0 and "Wrote 1 learners" in said and "left out of the Moodle file" in said
    assert "On the roster without a grade (not in the file): eve, juergen.mueller" in said
    assert [r[3] for r in _sheet(out)[1:]] == ["odon@school.example"]


def test_a_maumau_column_the_teacher_adds_is_the_only_key(tmp_path):
    text = "First name;Last name;Email address;maumau\nÖdön;Kovács;odon@school.example;seat-7\n"
    roster = read_roster_file(_write(tmp_path, "p.csv", text))
    assert roster.lms is not None and roster.lms.matched_by == "the maumau column"
    entries = roster.roster(["seat-7", "odon"])
    assert entries["seat-7"].email == "odon@school.example" and "odon" not in entries


# --- the matching ----------------------------------------------------------------------------------------

def test_a_folder_two_rows_answer_to_stops_the_export_naming_it(tmp_path):
    text = ("First name,Last name,Email address\nAnna,Nagy,anna@a.example\nAnna,Kiss,anna@b.example\n")
    roster = _write(tmp_path, "p.csv", text)
    out = tmp_path / "moodle.csv"
    code, said = _export("moodle", "--grades", str(_grades(tmp_path, [("anna", EX, 1, 6)])),
                         "--roster", str(roster), "--out", str(out))
    assert code == 1 and "'anna' answers to 2 learners (lines 2, 3)" in said and "Traceback" not in said
    assert "Nothing was written" in said and not out.exists()
    # by the whole address each is one learner
    grades = _grades(tmp_path, [("anna@a.example", EX, 1, 6), ("ANNA@B.EXAMPLE", EX, 2, 6)])
    assert _export("moodle", "--grades", str(grades), "--roster", str(roster), "--out", str(out))[0] == 0


def test_two_folders_of_one_learner_stop_the_export(tmp_path):
    grades = _grades(tmp_path, [("alice", EX, 6, 6), ("alice@school.example", EX, 1, 6)])
    out = tmp_path / "canvas.csv"
    code, said = _export("canvas", "--grades", str(grades), "--roster", str(_write(tmp_path, "c.csv", CANVAS)),
                         "--out", str(out))
    assert code == 1 and "'alice' and 'alice@school.example' are both the learner of line 4" in said
    assert not out.exists()


def test_a_graded_learner_the_export_does_not_have_is_named_and_never_dropped_silently(tmp_path):
    grades = _grades(tmp_path, [("alice", EX, 6, 6), ("mallory", EX, 6, 6)])
    out = tmp_path / "canvas.csv"
    code, said = _export("canvas", "--grades", str(grades), "--roster", str(_write(tmp_path, "c.csv", CANVAS)),
                         "--out", str(out))
    assert code == 3
    assert "not in Canvas's gradebook export (matched by SIS Login ID" in said and "exported: mallory" in said


def test_a_maumau_column_left_empty_or_naming_two_learners_alike_is_refused_by_the_class_server(tmp_path):
    text = "First name,Last name,Email address,maumau\nA,B,a@x.example,seat1\nC,D,c@x.example,SEAT1\n"
    with pytest.raises(RosterError, match="line 3: 'SEAT1' is a second learner's name too"):
        Roster.load(_write(tmp_path, "p.csv", text), tmp_path / "c.sqlite")


def test_the_class_server_takes_the_same_exports_each_learner_under_one_name(tmp_path):
    roster = Roster.load(_write(tmp_path, "c.csv", CANVAS), tmp_path / "class.sqlite")
    try:
        assert sorted(roster.entries) == ["1099", "alice", "eve", "juergen.mueller", "odon"]
        assert roster.display_name("odon") == "Kovács, Ödön"
    finally:
        roster.close()
    with pytest.raises(RosterError, match="not UTF-8"):
        Roster.load(_write(tmp_path, "x.csv", MOODLE_PARTICIPANTS.lstrip("\ufeff"), "cp1252"), tmp_path / "c2.sqlite")


# --- hostile files ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("content", "says"), [
    (b"", "is empty"),
    (b"\xef\xbb\xbf\r\n", "is empty"),
    (b"PK\x03\x04" + b"\x00" * 40, "spreadsheet workbook"),
    ("First name,Last name,Email address\nJosé,Ölçer,jose@x.example\n".encode("cp1252", "replace"), "not UTF-8"),
    (b"a,b\x00,c\n", "not a text file"),
    (b"exercise,score\n01,3\n", "neither a roster"),
    (b"First name,Last name,Email address\n\"" + b"x" * 200_000 + b"\",b,c@x.example\n", "not a CSV file that can"),
    (b"Student,ID,SIS User ID,SIS Login ID,Section,Quiz (1)\n    Points Possible,,,,,5\n", "names no learner"),
])
def test_a_file_that_is_no_roster_is_refused_in_a_sentence(tmp_path, content, says):
    path = tmp_path / "roster.csv"
    path.write_bytes(content)
    with pytest.raises(ExportError, match=says):
        read_roster_file(path)
    out = tmp_path / "out.csv"
    code, said = _export("canvas", "--grades", str(_grades(tmp_path, [("a", EX, 1, 6)])), "--roster", str(path),
                         "--out", str(out))
    assert code == 1 and says in said and "Traceback" not in said and not out.exists()


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(tmp_path):
    path = tmp_path / "huge.csv"
    with path.open("wb") as f:
        f.write(b"First name,Last name,Email address\n")
        f.truncate(MAX_ROSTER_BYTES + 1)
    with pytest.raises(ExportError, match="MB: a roster is far smaller"):
        read_roster_file(path)


def test_the_same_learner_twice_is_refused_naming_both_lines(tmp_path):
    text = CANVAS + '"Liddell, Alice",1001,S-17,alice@school.example,Class A,,,,,,,,,\n'
    with pytest.raises(ExportError, match=r"lines 4 and 9: the same learner twice \(id '1001'\)"):
        read_roster_file(_write(tmp_path, "c.csv", text))


def test_excel_unicode_text_and_quoted_fields_with_line_breaks_are_read(tmp_path):
    text = 'First name\tLast name\tEmail address\n"Zoé\nMarie"\tÉrsek\tzoe@x.example\n'
    roster = read_roster_file(_write(tmp_path, "u.txt", "\ufeff" + text, "utf-16-le"))
    assert roster.lms is not None
    assert roster.roster(["zoe"])["zoe"].first == "Zoé\nMarie"


def test_a_hand_written_roster_still_reads_with_semicolons(tmp_path):
    roster = read_roster_file(_write(tmp_path, "r.csv", "learner;name;email\nalice;Alice;a@x.example\n"))
    assert roster.lms is None and roster.roster(["alice"])["alice"].email == "a@x.example"
    scores, points = read_grades(_grades(tmp_path, [("alice", EX, 2, 6)]))
    assert export("csv", scores, points, roster.roster(scores)).unmatched == []
