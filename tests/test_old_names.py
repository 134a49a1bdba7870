"""The modules' names from before the package was built in rooms still import, as the very
modules of their new homes (maumau/_old_names.py): learners' notebooks, the exercises, saved
games and pickles written before keep working, and a class keeps one identity."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys

import pytest

import maumau as mm
from maumau._old_names import MOVED, new_name


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_old_name_imports_the_module_of_its_new_home(old):
    module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    assert module.__name__ == MOVED[old] and module.__spec__.name == MOVED[old]


def test_a_learners_imports_give_the_same_classes():
    from maumau.cards import Card, Rank
    from maumau.rules import Role
    from maumau.rules.base import Rule, Table
    from maumau.rules.turns import Runde

    assert Card is mm.Card and Rank is mm.Rank and Rule is mm.Rule and Role is mm.Role
    assert Table.__module__ == "maumau.core.rules.base"
    assert isinstance(mm.variant("mau_mau_runde").having(Role.RUNDE)[0], Runde)


def test_submodules_of_a_moved_package_load_once():
    import maumau.core.rules.scoring as new
    import maumau.rules.scoring as old

    assert old is new and sys.modules["maumau.rules.scoring"] is sys.modules["maumau.core.rules.scoring"]


def test_importing_an_old_name_does_not_hide_a_function_of_the_package():
    import maumau.cards  # noqa: F401
    import maumau.simulate  # noqa: F401

    assert callable(mm.cards) and mm.cards("7H") == (mm.Card.parse("7H"),)
    assert callable(mm.simulate)


def test_old_module_attributes_of_the_package_still_answer():
    assert mm.state is sys.modules["maumau.core.state"] and mm.i18n.t("word.or")
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        mm.nothing_here  # noqa: B018


def test_a_pickle_written_before_the_move_loads():
    state = mm.deal("makao", players=3, seed=4)
    data = pickle.dumps(state, protocol=0)
    assert b"maumau.play.serialize" in data
    before = data.replace(b"maumau.play.serialize", b"maumau.serialize")
    assert pickle.loads(before) == state


def test_names_that_did_not_move_are_left_alone():
    assert new_name("maumau.players.view") is None and new_name("maumau.grading") is None
    assert new_name("maumau.cardsharp") is None  # a prefix of a name, not a moved module
    assert new_name("maumau.rules.base") == "maumau.core.rules.base"


def test_a_fresh_interpreter_can_start_from_an_old_name():
    code = ("from maumau.start import deal; from maumau.explain import narrate; "
            "print(deal('makao', players=2, seed=1).players)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "2"
