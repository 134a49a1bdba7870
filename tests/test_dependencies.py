"""What each install brings (pyproject.toml): a plain ``pip install maumau`` runs every command a
teacher needs; environment.yml holds what the notebooks need; the docs' table names every extra."""

from __future__ import annotations

import ast
import csv
import importlib.metadata
import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from blocked import blocking, maumau
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def pyproject() -> dict[str, Any]:
    """pyproject.toml's [project] (Python 3.11+ reads TOML; 3.10 skips these tests)."""
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


#: A module the notebooks import -> its package (conda-forge's name, which is PyPI's for these).
PACKAGE_OF = {"IPython": "ipython", "nbformat": "nbformat", "networkx": "networkx", "numpy": "numpy",
              "matplotlib": "matplotlib-base", "ipywidgets": "ipywidgets", "pandas": "pandas"}
#: PyPI's name -> conda-forge's, where they differ.
CONDA_NAME = {"matplotlib": "matplotlib-base"}
#: A maumau package a notebook imports -> the extra it needs.
EXTRA_OF = {"maumau.env": "env"}


def default_requirements() -> list[Requirement]:
    """pyproject.toml's dependencies that hold on this computer (not the browser's)."""
    wanted = [Requirement(d) for d in pyproject()["dependencies"]]
    return [r for r in wanted if r.marker is None or r.marker.evaluate({"extra": ""})]


# --- environment.yml ---------------------------------------------------------------------------------

def notebook_imports() -> dict[str, set[str]]:
    """Every module the course's notebooks and exercises import (top-level name, or maumau.X) -> the notebooks."""
    found: dict[str, set[str]] = {}
    for path in sorted([*ROOT.glob("notebooks/**/*.ipynb"), *ROOT.glob("exercises/**/*.ipynb")]):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(code)):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names = [node.module] + ([f"maumau.{a.name}" for a in node.names] if node.module == "maumau"
                                             else [])
                for name in names:
                    key = ".".join(name.split(".")[:2]) if name.startswith("maumau.") else name.split(".")[0]
                    found.setdefault(key, set()).add(path.relative_to(ROOT).as_posix())
    return found


def environment() -> tuple[set[str], set[str]]:
    """environment.yml's packages (conda's and pip's, by name) and the extras its ``-e .[...]`` installs."""
    yaml = pytest.importorskip("yaml")
    spec = yaml.safe_load((ROOT / "environment.yml").read_text())
    names: set[str] = set()
    extras: set[str] = set()
    for item in spec["dependencies"]:
        for entry in item["pip"] if isinstance(item, dict) else [item]:
            if entry.startswith("-e ."):
                extras |= set(re.findall(r"\w+", entry.partition("[")[2]))
            else:
                names.add(re.split(r"[<>=!~ ]", entry, maxsplit=1)[0].lower())
    return names, extras


def test_environment_yml_holds_what_the_notebooks_import() -> None:
    names, extras = environment()
    imports = notebook_imports()
    assert "maumau.env" in imports and "maumau.classroom" in imports  # the reading of imports works
    for module, where in sorted(imports.items()):
        if module.startswith("maumau.") or module == "maumau":
            if module in EXTRA_OF:
                assert EXTRA_OF[module] in extras, f"{sorted(where)} import {module}: environment.yml's " \
                                                   f"`-e .[...]` needs the extra {EXTRA_OF[module]}"
            continue
        if module in sys.stdlib_module_names:
            continue
        assert module in PACKAGE_OF, f"{sorted(where)} import {module}: add it to PACKAGE_OF (its package)"
        assert PACKAGE_OF[module] in names, f"{sorted(where)} import {module}: environment.yml lacks " \
                                            f"{PACKAGE_OF[module]}"


def test_environment_yml_holds_maumaus_plain_install() -> None:
    """By name, from conda-forge: what notebook 09 (websockets) and 10 (openskill) need among them."""
    names, _ = environment()
    lacking = {CONDA_NAME.get(r.name, r.name) for r in default_requirements()} - names
    assert not lacking, f"environment.yml lacks pyproject.toml's dependencies {sorted(lacking)}"


# --- the docs ----------------------------------------------------------------------------------------

def test_the_install_table_names_every_extra_and_every_dependency() -> None:
    page = (ROOT / "docs" / "howto" / "open-the-course.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in page.splitlines() if line.startswith("| "))
    for extra in pyproject()["optional-dependencies"]:
        assert f"`maumau[{extra}]`" in table, f"the install table lacks the extra {extra}"
    for requirement in pyproject()["dependencies"]:
        assert Requirement(requirement).name in table, f"the install table lacks {Requirement(requirement).name}"


# --- a plain install -------------------------------------------------------------------------------

def plain_install_modules() -> set[str]:
    """The top-level modules a plain ``pip install maumau`` brings: its dependencies and theirs (with
    the extras they ask for), as installed here."""
    seen: set[str] = set()
    todo = [(r.name, frozenset(r.extras)) for r in default_requirements()]
    while todo:
        name, extras = todo.pop()
        key = f"{name.lower().replace('_', '-')}[{','.join(sorted(extras))}]"
        if key in seen:
            continue
        seen.add(key)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue  # a dependency of this platform's that is not installed: it cannot be relied on here either
        for line in requires:
            req = Requirement(line)
            wanted = [req.marker is None or req.marker.evaluate({"extra": e}) for e in ("", *extras)]
            if any(wanted):
                todo.append((req.name, frozenset(req.extras)))
    dists = {k.partition("[")[0] for k in seen}
    modules = {m for m, owners in importlib.metadata.packages_distributions().items()
               if any(o.lower().replace("_", "-") in dists for o in owners)}
    return modules | {"maumau", "_distutils_hack", "pkg_resources", "setuptools"}


def outside_plain_install() -> set[str]:
    """Every module installed here that a plain install would not have (to block)."""
    installed = set(importlib.metadata.packages_distributions())
    return {m for m in installed - plain_install_modules() if m.isidentifier() and m not in sys.stdlib_module_names}


def test_the_plain_install_is_told_apart() -> None:
    """The blocked set is what the extras bring: JupyterHub, JupyterLab, Gymnasium, dask, pytest ..."""
    blocked = outside_plain_install()
    assert {"jupyterhub", "jupyterlab", "gymnasium", "pettingzoo", "distributed", "pytest"} <= blocked
    assert not blocked & {"nbformat", "nbclient", "ipykernel", "jupyter_client", "websockets", "openskill",
                          "confusable_homoglyphs", "networkx", "ipywidgets", "IPython", "numpy"}


ROSTER = "learner,name,id,sis_user_id,sis_login_id,email,section\nalice,Alice,1001,S-1,alice,alice@school.example,A\n"


@pytest.mark.slow
def test_a_plain_install_runs_every_teachers_command(tmp_path: Path) -> None:
    """Every module outside pyproject.toml's dependencies (and theirs) blocked: rules, play, simulate,
    release, grade, export, gradebook, serve, table and league work."""
    blocked = outside_plain_install()
    run = tmp_path / "run"
    run.mkdir()

    def ok(*argv: str, stdin: str = "") -> str:
        done = maumau(run, blocked, *argv, stdin=stdin, MAUMAU_TEACHER_TOKEN="t" * 32)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (argv, done.stderr[-3000:])
        return done.stdout

    assert "makao" in ok("rules")
    ok("play", "makao", "--seed", "1", stdin="q\n")
    assert "win" in ok("simulate", "makao", "-g", "20", "--serial", "--no-progress").lower()
    ok("release", str(ROOT / "exercises"), "--out", "student")
    (run / "handed" / "alice").mkdir(parents=True)
    shutil.copy(ROOT / "exercises" / "01_matching.ipynb", run / "handed" / "alice")  # the solution, handed in
    ok("grade", "--source", str(ROOT / "exercises"), "--out", "grades", "--gradebook", "book.sqlite", "handed")
    assert next(csv.DictReader((run / "grades" / "grades.csv").open()))["status"] == "ok"
    (run / "roster.csv").write_text(ROSTER)
    ok("export", "csv", "--grades", "grades/grades.csv", "--roster", "roster.csv", "--out", "lms.csv")
    assert "alice" in (run / "lms.csv").read_text()
    assert "01_matching" in ok("gradebook", "book.sqlite", "alice")
    sandbox = [] if Path("/usr/bin/bwrap").exists() else ["--unsandboxed"]
    for name in ("Random", "Heuristic"):
        (run / f"{name}.py").write_text(f"from maumau.players import {name}\nPLAYER = {name}\n")
        ok("league", "enter", name.lower(), f"{name}.py", "-n", "2", *sandbox)
    ok("league", "play", "--deals", "1", *sandbox)
    assert "heuristic" in ok("league", "standings")
    serve_and_list_tables(run, blocked)


def serve_and_list_tables(run: Path, blocked: set[str]) -> None:
    """``maumau serve`` until it says where, then ``maumau table create`` and ``list`` against it."""
    env = blocking(run, blocked, MAUMAU_TEACHER_TOKEN="t" * 32)
    server = subprocess.Popen([sys.executable, "-m", "maumau", "serve", "--port", "0", "--db", "class.sqlite"],
                              cwd=run, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = re.search(r"http://\S+", line)
        assert url, line + (server.stderr.read() if server.poll() is not None else "")  # type: ignore[union-attr]
        for action in (["create", "makao"], ["list"]):
            done = subprocess.run([sys.executable, "-m", "maumau", "table", *action, "--url", url.group(0)],
                                  cwd=run, env=env, capture_output=True, text=True, timeout=60)
            assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
