"""The notebooks of the docs' German and Hungarian screenshots (issue 36): notebook 01, notebook 06
and the student version of exercise 02, as the German and Hungarian courses have them
(notebooks/de, notebooks/hu; ``maumau release`` writes student/de, student/hu), written into a
folder for drive_course.py (``COURSE_DIR``):

    python tests/browser/languages.py OUT_DIR
    COURSE_DIR=OUT_DIR tests/browser/run.sh course     # screenshots in .tmp-home/browser/course

The exercise is the version a learner gets, so its checks fail with ✗ lines in the language and its
summary cell fails last (the course pass reports it; the screenshots are what matters here).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from maumau.grading.releaser import release  # noqa: E402


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as student:
        release(REPO / "exercises", student)
        for lang in ("de", "hu"):
            shutil.copy(REPO / "notebooks" / lang / "01_start_here.ipynb", out / f"01_{lang}_01_start_here.ipynb")
            shutil.copy(REPO / "notebooks" / lang / "06_game_state_graphs.ipynb",
                        out / f"06_{lang}_06_game_state_graphs.ipynb")
            shutil.copy(Path(student) / lang / "02_skip_on_eight.ipynb", out / f"ex_{lang}_02_skip_on_eight.ipynb")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
