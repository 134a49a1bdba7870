"""The notebooks of the docs' German and Hungarian screenshots (issue 24): notebook 01, notebook 06
and the student version of exercise 02, each with a first cell choosing the language
(``mm.set_language``), written into a folder for drive_course.py (``COURSE_DIR``):

    python tests/browser/languages.py OUT_DIR
    COURSE_DIR=OUT_DIR tests/browser/run.sh course     # screenshots in .tmp-home/browser/course

The exercise is the version a learner gets (``maumau release``), so its checks fail with ✗ lines in
the language and its summary cell fails last (the course pass reports it; the screenshots are what
matters here).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from maumau.grading.releaser import release  # noqa: E402


def with_language(source: Path, lang: str, out: Path, prefix: str) -> Path:
    nb = json.loads(source.read_text(encoding="utf-8"))
    nb["cells"].insert(0, {"cell_type": "code", "execution_count": None, "id": f"language-{lang}", "metadata": {},
                           "outputs": [], "source": ["import maumau as mm\n", "\n", f"mm.set_language({lang!r})"]})
    target = out / f"{prefix}_{lang}_{source.stem}.ipynb"
    target.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as student:
        release(REPO / "exercises", student)
        exercise = Path(student) / "02_skip_on_eight.ipynb"
        for lang in ("de", "hu"):
            with_language(REPO / "notebooks" / "01_start_here.ipynb", lang, out, "01")
            with_language(REPO / "notebooks" / "06_game_state_graphs.ipynb", lang, out, "06")
            with_language(exercise, lang, out, "ex")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
