"""The browser edition's build (lite/build.py, `make site`): what goes into the kernel's lock, and
maumau without what a browser lacks (matplotlib, websockets, threads).

The site itself is tested in Chromium by `make site-test` (tests/browser/drive_site.py)."""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
assert spec and spec.loader
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)

BROWSER = build.browser_environment("3.14")


def wheel(folder: Path, name: str, version: str, requires: list[str], files: list[str]) -> Path:
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
                *(f"Requires-Dist: {r}" for r in requires)]
        z.writestr(f"{name}-{version}.dist-info/METADATA", "\n".join(meta) + "\n")
        for file in files:
            z.writestr(file, "")
    return path


#: What a teacher's commands need and the browser does not get: no kernels to grade in, no sockets to
#: serve a class table from, no processes for a league (pyproject.toml's markers).
TEACHERS = {"nbformat", "nbclient", "ipykernel", "websockets", "confusable-homoglyphs", "openskill"}


@pytest.mark.parametrize("source", ["pyproject.toml", "installed"])
def test_the_browser_kernel_gets_maumau_without_matplotlib(source: str) -> None:
    """maumau's dependencies (pyproject.toml, and as installed) as Pyodide reads them: no matplotlib (no
    wasm wheel), none of the teacher's commands' packages, the rest all there."""
    if source == "installed":
        dependencies = [d for d in importlib.metadata.requires("maumau") or [] if "extra ==" not in d]
    else:
        tomllib = pytest.importorskip("tomllib")  # Python 3.11+
        dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    wanted = {Requirement(d).name for d in dependencies
              if Requirement(d).marker is None or Requirement(d).marker.evaluate({**BROWSER, "extra": ""})}
    assert "matplotlib" not in wanted
    assert {"networkx", "ipywidgets", "tqdm", "anywidget", "cloudpickle"} <= wanted
    native = {Requirement(d).name for d in dependencies if Requirement(d).marker is None
              or Requirement(d).marker.evaluate({"extra": ""})}
    assert "matplotlib" in native  # on a computer's Python the plots stay matplotlib's
    if source == "pyproject.toml":  # the installed metadata may be of an older install
        assert not wanted & TEACHERS, wanted & TEACHERS
        assert TEACHERS <= native  # a plain pip install runs every command (docs/howto/open-the-course.md)


def test_requirements_are_read_with_the_browsers_markers(tmp_path: Path) -> None:
    w = wheel(tmp_path, "a", "1.0", ["b>=2", "plot; sys_platform != 'emscripten'", "docs; extra == 'docs'",
                                     "new; python_version >= '3.15'"], ["a/__init__.py"])
    assert [r.name for r in build.browser_requirements(w, BROWSER)] == ["b"]


def test_the_lock_names_the_wheels_with_their_hashes_imports_and_browser_dependencies(tmp_path: Path) -> None:
    a = wheel(tmp_path, "a_pkg", "1.0", ["b", "gone; sys_platform == 'linux'"], ["a_pkg/__init__.py", "extra.py"])
    wheel(tmp_path, "b", "2.0", [], ["b/__init__.py"])
    wheel(tmp_path, "unused", "3.0", [], ["unused.py"])
    entries = build.lock_entries(tmp_path, BROWSER)
    assert entries["a-pkg"]["depends"] == ["b"]
    assert entries["a-pkg"]["imports"] == ["a_pkg", "extra"]
    assert entries["a-pkg"]["sha256"] == hashlib.sha256(a.read_bytes()).hexdigest()
    assert entries["a-pkg"]["file_name"] == a.name and entries["a-pkg"]["package_type"] == "package"
    assert list(build.reachable(entries, ["a_pkg"])) == ["a-pkg", "b"]
    with pytest.raises(SystemExit, match="no wheel for 'c'"):
        build.reachable(entries, ["a_pkg", "c"])


def test_site_notebooks_hold_strings_not_lists_of_lines() -> None:
    nb = {"cells": [{"cell_type": "code", "source": ["x = 1\n", "x"], "outputs": [
        {"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n"]},
        {"output_type": "execute_result", "data": {"text/plain": ["1\n", "2"], "application/json": {"k": [1]}}}]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    cell = json.loads(build.joined(json.dumps(nb)))["cells"][0]
    assert cell["source"] == "x = 1\nx"
    assert cell["outputs"][0]["text"] == "a\nb\n"
    assert cell["outputs"][1]["data"] == {"text/plain": "1\n2", "application/json": {"k": [1]}}


def test_the_teachers_notebooks_stay_off_the_public_site() -> None:
    assert set(build.NOT_ON_SITE) == {"08_for_teachers.ipynb", "09_play_together.ipynb", "10_class_league.ipynb",
                                      "11_teach_the_computer.ipynb"}
    assert all((ROOT / "notebooks" / name).exists() for name in build.NOT_ON_SITE)


BROWSERLIKE = textwrap.dedent("""
    import sys, threading
    class NoSuchModule:  # what a Pyodide kernel lacks
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("matplotlib", "websockets", "multiprocessing", "_multiprocessing", "nbformat",
                                      "nbclient", "jupyter_client", "confusable_homoglyphs", "openskill"):
                raise ModuleNotFoundError(f"No module named {name!r}")
    sys.meta_path.insert(0, NoSuchModule())
    def no_thread(self):
        raise RuntimeError("can't start new thread")
    threading.Thread.start = no_thread
    import warnings
    warnings.simplefilter("error")
    import maumau as mm
    from maumau import graph
    from maumau.grading import check, scenario
    state = mm.deal("makao", players=3, seed=1)
    game = mm.Game(state)
    game.play([mm.players.Heuristic(seed=1)] * 3)
    table = mm.play("makao", opponents=2, seed=3)
    G = graph.state_graph(mm.position("makao", hands=["7H", "8H"], top="7C", stock=""))
    print("ok", len(game), len(G))
""")


def test_maumau_runs_without_matplotlib_websockets_processes_or_threads() -> None:
    done = subprocess.run([sys.executable, "-c", BROWSERLIKE], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok "), done.stdout
