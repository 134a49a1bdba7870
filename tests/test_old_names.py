"""The modules' names from before the package was built in rooms still import (maumau/_old_names.py):
each is a small plain module that hands over the very objects of its new home, with a
DeprecationWarning that says where to import them from; learners' notebooks, saved games and
pickles written before keep working, and a class keeps one identity."""

from __future__ import annotations

import ast
import importlib
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import maumau as mm
from maumau._old_names import MOVED, new_name

PACKAGE = Path(mm.__file__).resolve().parent


def _public_names(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    return [n for n in getattr(module, "__all__", ()) if hasattr(module, n)]


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_old_name_is_a_plain_module_that_hands_over_its_new_homes_names(old):
    module = importlib.import_module(old)
    new = importlib.import_module(MOVED[old])
    assert module.__name__ == old and module.__file__ is not None
    for name in _public_names(MOVED[old])[:5]:
        with pytest.warns(DeprecationWarning, match=f"{old} is an old name: import {name} from"):
            assert getattr(module, name) is getattr(new, name)


def test_the_old_modules_are_files_without_import_hooks():
    for old in MOVED:
        path = PACKAGE.joinpath(*old.split(".")[1:])
        assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), old
    source = (PACKAGE / "_old_names.py").read_text(encoding="utf-8")
    assert "meta_path" not in source and "sys.modules[" not in source


def test_a_learners_old_imports_give_the_same_classes_and_say_where_they_live_now():
    with pytest.warns(DeprecationWarning) as told:
        from maumau.cards import Card, Rank
        from maumau.rules import Role
        from maumau.rules.base import Rule, Table
        from maumau.rules.turns import Runde
    assert list(dict.fromkeys(str(w.message) for w in told)) == [  # a package's name may be asked twice
        "maumau.cards is an old name: import Card from maumau", "maumau.cards is an old name: import Rank from maumau",
        "maumau.rules is an old name: import Role from maumau",
        "maumau.rules.base is an old name: import Rule from maumau",
        "maumau.rules.base is an old name: import Table from maumau.core.rules.base",
        "maumau.rules.turns is an old name: import Runde from maumau.core.rules.turns"]

    assert Card is mm.Card and Rank is mm.Rank and Rule is mm.Rule and Role is mm.Role
    assert Table.__module__ == "maumau.core.rules.base"
    assert isinstance(mm.variant("mau_mau_runde").having(Role.RUNDE)[0], Runde)


def test_an_unknown_name_of_an_old_module_is_an_attribute_error():
    import maumau.rules.scoring as old

    with pytest.raises(AttributeError, match="nothing_here"):
        old.nothing_here  # noqa: B018


def test_importing_an_old_name_does_not_hide_a_function_of_the_package():
    import maumau.cards  # noqa: F401
    import maumau.simulate  # noqa: F401

    assert callable(mm.cards) and mm.cards("7H") == (mm.Card.parse("7H"),)
    assert callable(mm.simulate)


def test_old_module_attributes_of_the_package_still_answer():
    with pytest.warns(DeprecationWarning, match="maumau.i18n is an old name"):
        assert mm.i18n.t("word.or")
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        mm.nothing_here  # noqa: B018


def test_a_pickle_written_before_the_move_loads():
    state = mm.deal("makao", players=3, seed=4)
    data = pickle.dumps(state, protocol=0)
    assert b"maumau.play.serialize" in data
    before = data.replace(b"maumau.play.serialize", b"maumau.serialize")
    with pytest.warns(DeprecationWarning, match="maumau.serialize is an old name"):
        assert pickle.loads(before) == state


def test_names_that_did_not_move_are_left_alone():
    assert new_name("maumau.players.view") is None and new_name("maumau.grading") is None
    assert new_name("maumau.cardsharp") is None  # a prefix of a name, not a moved module
    assert new_name("maumau.rules.base") == "maumau.core.rules.base"


def test_a_fresh_interpreter_can_start_from_an_old_name():
    code = ("import warnings; warnings.simplefilter('ignore', DeprecationWarning)\n"
            "from maumau.start import deal; from maumau.explain import narrate\n"
            "print(deal('makao', players=2, seed=1).players)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "2"


def test_nothing_shipped_imports_an_old_name():
    """The package, the notebooks and the exercises import from the new homes (or from maumau),
    so nothing a learner runs prints a DeprecationWarning."""
    root = PACKAGE.parent
    olds = tuple(MOVED)
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        if module.startswith(olds) or module == "maumau._old_names":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith(olds):
                found.append(f"{path}:{node.lineno}")
    for notebook in sorted([*root.glob("notebooks/*.ipynb"), *root.glob("exercises/*.ipynb")]):
        text = notebook.read_text(encoding="utf-8")
        found += [f"{notebook.name}: {old}" for old in olds
                  if f"from {old} import" in text or f"import {old}\\n" in text]
    assert not found, "old module names imported:\n" + "\n".join(found)
