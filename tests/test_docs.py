"""The manual (docs/, `make docs`) and the README that leads into it.

The Sphinx build itself runs in `make docs` (and so in .ci/run), with warnings as errors; these
tests hold what a build cannot see: the README stays short and links only into pages that exist,
no file cites a design note outside the repository, a teacher finds the teachers' how-tos on the
first page, and the number of notebooks the manual names is the number there are.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"

#: How the manual says a number of notebooks or exercises (in words or digits).
NUMBERS = {"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
           "fifteen": 15}


def _links(markdown: str) -> list[str]:
    """The targets of the Markdown links and images of a text (not web addresses, not anchors alone)."""
    targets = re.findall(r"\]\(([^)\s]+)\)", markdown)
    return [t for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def test_the_readme_is_short():
    lines = README.read_text().count("\n")
    assert lines <= 250, f"README.md has {lines} lines: the manual (docs/) is the place for more"


def test_the_readme_links_only_to_files_that_exist():
    links = _links(README.read_text())
    assert any(link.startswith("docs/") for link in links), "the README leads into the manual"
    missing = [link for link in links if not (ROOT / link.split("#")[0]).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"


def test_the_manual_s_pages_link_only_to_files_that_exist():
    missing = []
    for page in DOCS.rglob("*.md"):
        if "_build" in page.parts:
            continue
        for link in _links(page.read_text()):
            target = link.split("#")[0]
            if target and not (page.parent / target).exists():
                missing.append(f"{page.relative_to(ROOT)}: {link}")
    assert not missing, missing


def _tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False).stdout
    files = [ROOT / line for line in out.splitlines() if line]
    if not files:  # not a git checkout (an unpacked archive): every file but the generated ones
        skip = {".git", ".venv", ".tmp-home", "_build", "site", ".site-build", "node_modules"}
        files = [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.parts)]
    return [f for f in files if f.is_file()]


def test_no_file_cites_a_design_note_outside_the_repository():
    """The design and the notes on Jupyter live in docs/explanation/; nothing cites the files they
    were once kept in, which are not in the repository."""
    notes = re.compile(r"\b(DESIGN|JUPYTER-NOTES)\.md\b")
    citing = []
    for path in _tracked_files():
        if path.suffix in {".png", ".sqlite", ".so", ".whl"} or path == Path(__file__).resolve():
            continue
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        if notes.search(text):
            citing.append(str(path.relative_to(ROOT)))
    assert not citing, f"cite docs/explanation/design.md or jupyter-notes.md instead: {citing}"


def test_the_first_page_leads_a_teacher_to_grading_class_tables_and_moodle():
    index = (DOCS / "index.md").read_text()
    first_screen = index[: index.index("![")]  # the links above the picture
    for page in ("howto/release-and-grade", "howto/class-table.md#tables-for-a-class-of-25",
                 "howto/deadlines-and-export.md#export-to-moodle-canvas-or-a-plain-csv",
                 "howto/deadlines-and-export.md#hand-ins-through-the-class-server"):
        assert page in first_screen, f"docs/index.md's first screen does not link to {page}"
    assert "Moodle" in first_screen and "25 learners" in first_screen


def test_every_how_to_is_in_the_manual_s_table_of_contents():
    toc = (DOCS / "howto" / "index.md").read_text()
    for page in (DOCS / "howto").glob("*.md"):
        if page.name != "index.md":
            assert page.stem in toc, f"docs/howto/index.md does not list {page.name}"


def test_the_number_of_notebooks_the_manual_names_is_the_number_there_are():
    """Wherever the manual or the README counts the course ("the eleven course notebooks", "the 11
    notebooks of `notebooks/`", "the course is eleven notebooks") or the graded exercises, it counts
    right (the README once said 8 when there were 11)."""
    notebooks = len(list((ROOT / "notebooks").glob("*.ipynb")))
    exercises = len(list((ROOT / "exercises").glob("*.ipynb")))
    number = r"(\d+|" + "|".join(NUMBERS) + r")"
    claims = [
        (re.compile(rf"\b(?:the|is|of)\s+{number}\s+(?:course\s+)?notebooks\b", re.I), notebooks),
        (re.compile(rf"\b{number}\s+course\s+notebooks\b", re.I), notebooks),
        (re.compile(rf"\b{number}\s+graded\s+exercises\b", re.I), exercises),
    ]
    wrong, found = [], 0
    for page in [README, *DOCS.rglob("*.md")]:
        if "_build" in page.parts:
            continue
        for pattern, want in claims:
            for match in pattern.finditer(page.read_text()):
                word = match.group(1).lower()
                said = int(word) if word.isdigit() else NUMBERS[word]
                found += 1
                if said != want:
                    wrong.append(f"{page.relative_to(ROOT)}: {match.group(0)!r} (there are {want})")
    assert not wrong, wrong
    assert found >= 3, "the manual says how many notebooks the course has"


def test_the_course_notebooks_are_the_manual_s_tutorials():
    link = DOCS / "tutorials" / "course"
    assert link.resolve() == (ROOT / "notebooks").resolve(), "docs/tutorials/course leads to notebooks/"
    index = (DOCS / "tutorials" / "index.md").read_text()
    for notebook in [*(ROOT / "notebooks").glob("*.ipynb"), *(ROOT / "notebooks").glob("*/*.ipynb")]:
        name = notebook.relative_to(ROOT / "notebooks").with_suffix("").as_posix()  # de/01_start_here
        assert f"course/{name}\n" in index, f"docs/tutorials/index.md does not list notebooks/{name}"


def test_the_pictures_the_manual_and_the_notebooks_show_exist():
    images = {p.name for p in (DOCS / "images").glob("*.png")}
    shown = set()
    for path in [README, *DOCS.rglob("*.md"), *(ROOT / "notebooks").glob("*.ipynb"),
                 *(ROOT / "notebooks").glob("*/*.ipynb")]:
        if "_build" not in path.parts:
            shown |= set(re.findall(r"images/([\w-]+\.png)", path.read_text()))
    assert shown <= images, shown - images
    assert not list(DOCS.glob("*.png")), "pictures go into docs/images/"


def test_ci_builds_the_manual_with_warnings_as_errors():
    run = (ROOT / ".ci" / "run").read_text()
    assert "make test" in run and "make docs" in run, ".ci/run builds the manual"
    assert run.index("make docs") > run.index("make test")
    makefile = (ROOT / "Makefile").read_text()
    build = next(line for line in makefile.splitlines() if "sphinx-build" in line)
    for flag in ("-W", "--keep-going", "-n", "-b html"):
        assert flag in build, f"make docs: sphinx-build without {flag}"
    assert '"$(CURDIR)/docs"' in build, "a checkout's path may hold spaces"
