"""A module an install lacks: one sentence saying what to install, exit code 2, no traceback
(maumau/extras.py).  Each command runs in a subprocess that cannot import the module (tests/blocked.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from blocked import maumau, python

from maumau.extras import MODULES, MissingModule, missing, need, what_to_install

ROOT = Path(__file__).resolve().parents[1]


def assert_said(done, line: str, code: int = 2) -> None:  # type: ignore[no-untyped-def]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.stderr.strip() == f"maumau: error: {line}", done.stderr[-3000:]
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])


# --- the table and its sentence -----------------------------------------------------------------------

def test_the_sentence_names_the_extra_in_each_language() -> None:
    assert what_to_install("jupyterhub", "maumau serve --hub", "en") == \
        "maumau serve --hub needs JupyterHub: pip install 'maumau[hub]'"
    assert what_to_install("gymnasium.spaces", "maumau.env.gym()", "de") == \
        "maumau.env.gym() braucht Gymnasium: pip install 'maumau[env]'"
    assert what_to_install("pettingzoo", "maumau.env.aec()", "hu") == \
        "maumau.env.aec() nem fut PettingZoo nélkül: pip install 'maumau[env]'"
    assert what_to_install("websockets", "maumau serve", "en") == \
        "maumau serve needs websockets: pip install websockets"


def test_every_extra_named_by_the_table_is_one_of_pyprojects() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    named = {install[len("maumau["):-1] for _, install in MODULES.values() if install.startswith("maumau[")}
    assert named and named <= set(extras), named - set(extras)


def test_need_imports_what_is_there_and_leaves_an_unknown_module_alone() -> None:
    assert need("json", "x").dumps([]) == "[]"
    with pytest.raises(ModuleNotFoundError) as caught:
        need("no_such_module_anywhere", "x")
    assert not isinstance(caught.value, MissingModule)  # a bug to show, not an install to ask for
    assert missing(ModuleNotFoundError("No module named 'x'"), "y") is None  # no name: nothing to say


def test_a_missing_module_is_an_import_error_code_that_falls_back_still_catches() -> None:
    err = missing(ModuleNotFoundError("No module named 'distributed.client'", name="distributed.client"), "z")
    assert isinstance(err, ImportError) and err.name == "distributed"
    assert str(err) == "z needs dask: pip install 'maumau[dask]'"


# --- the command line ------------------------------------------------------------------------------

def test_serve_hub_without_jupyterhub(tmp_path: Path) -> None:
    done = maumau(tmp_path, ["jupyterhub"], "serve", "--hub", "--db", str(tmp_path / "class.sqlite"),
                  JUPYTERHUB_API_URL="http://127.0.0.1:9/hub/api")
    assert_said(done, "maumau serve --hub needs JupyterHub: pip install 'maumau[hub]'")
    assert not (tmp_path / "class.sqlite").exists()  # nothing written


def test_serve_hub_without_jupyterhub_says_the_install_before_the_hubs_settings(tmp_path: Path) -> None:
    done = maumau(tmp_path, ["jupyterhub"], "serve", "--hub", "--db", str(tmp_path / "class.sqlite"))
    assert_said(done, "maumau serve --hub needs JupyterHub: pip install 'maumau[hub]'")


def test_grade_on_dask_without_dask(tmp_path: Path) -> None:
    (tmp_path / "alice").mkdir()
    done = maumau(tmp_path, ["distributed", "dask"], "grade", "--source", str(ROOT / "exercises"), "--dask",
                  "local", "--out", str(tmp_path / "grades"), str(tmp_path / "alice"))
    assert_said(done, "maumau grade --dask needs dask: pip install 'maumau[dask]'")
    assert not (tmp_path / "grades").exists()


@pytest.mark.parametrize(("argv", "module", "line"), [
    (["serve", "--port", "0"], "websockets", "maumau serve needs websockets: pip install websockets"),
    (["table", "list"], "websockets", "maumau table needs websockets: pip install websockets"),
    (["release", str(ROOT / "exercises"), "--out", "student"], "nbformat",
     "maumau release needs nbformat: pip install nbformat"),
    (["grade", "--source", str(ROOT / "exercises"), "."], "nbformat",
     "maumau grade needs nbformat: pip install nbformat"),
])
def test_a_default_dependency_installed_without_says_which(tmp_path: Path, argv: list[str], module: str,
                                                           line: str) -> None:
    """``pip install --no-deps maumau`` (or a copied folder): the package to add, in a sentence."""
    done = maumau(tmp_path, [module], *argv, MAUMAU_TEACHER_TOKEN="t" * 32)
    assert_said(done, line)


def test_the_sentence_is_in_the_course_language(tmp_path: Path) -> None:
    done = maumau(tmp_path, ["jupyterhub"], "serve", "--hub", MAUMAU_LANG="de")
    assert_said(done, "maumau serve --hub braucht JupyterHub: pip install 'maumau[hub]'")


def test_an_unknown_missing_module_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module the table does not know, missing: a bug to show with its traceback, not an install to ask for."""
    import maumau.cli

    def broken(args, con):  # type: ignore[no-untyped-def]
        raise ModuleNotFoundError("No module named 'maumau_helper'", name="maumau_helper")
    monkeypatch.setattr(maumau.cli, "cmd_rules", broken)
    with pytest.raises(ModuleNotFoundError, match="maumau_helper"):
        maumau.cli.main(["rules"])


def test_the_rules_and_play_need_nothing_of_the_grader(tmp_path: Path) -> None:
    """The command line's parser loads no notebook library: without nbformat the game still runs."""
    done = maumau(tmp_path, ["nbformat", "nbclient", "websockets", "openskill"], "rules")
    assert done.returncode == 0 and "makao" in done.stdout, done.stderr[-2000:]


# --- the Python API where a learner meets it ------------------------------------------------------

@pytest.mark.parametrize(("code", "module", "line"), [
    ("env.gym('makao')", "gymnasium", "maumau.env.gym() needs Gymnasium: pip install 'maumau[env]'"),
    ("env.aec('makao')", "pettingzoo", "maumau.env.aec() needs PettingZoo: pip install 'maumau[env]'"),
    ("env.MauMauAEC", "pettingzoo", "maumau.env.MauMauAEC needs PettingZoo: pip install 'maumau[env]'"),
])
def test_the_learning_environments_without_their_extra(tmp_path: Path, code: str, module: str, line: str) -> None:
    done = python(tmp_path, [module], "from maumau import env\nenv.moves('makao')\n" + code)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == f"maumau.extras.MissingModule: {line}", done.stderr[-2000:]
    assert "During handling" not in done.stderr  # the sentence, not a chain of two tracebacks


def test_a_learner_reads_it_in_the_course_language(tmp_path: Path) -> None:
    done = python(tmp_path, ["gymnasium"], "from maumau import env\nenv.gym('makao')", MAUMAU_LANG="hu")
    assert done.stderr.strip().endswith("maumau.env.gym() nem fut Gymnasium nélkül: pip install 'maumau[env]'")
