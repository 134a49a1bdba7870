"""Issue 36 item 3: what the class table, the league, the learning environments and the charts
say defaults to the course's language (``lang=None``: ``mm.set_language``), never to English.
Wire messages and stored table settings keep their English default: a request or a row that
names no language is English, whatever the server's course."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

PACKAGES = ("maumau.classroom", "maumau.league", "maumau.env", "maumau.charts")
#: Data, not calls: a wire request without ``lang`` and a stored table's settings.
DATA = {"maumau.classroom.messages.Join", "maumau.classroom.messages.Watch", "maumau.classroom.spec.TableSpec"}


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        names.append(package)
        if hasattr(module, "__path__"):
            names += [info.name for info in pkgutil.walk_packages(module.__path__, package + ".")]
    return names


def _english_defaults() -> list[str]:
    found = []
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional dependency (gymnasium, pettingzoo) missing here
            continue
        for attr, value in vars(module).items():
            if attr.startswith("_") or getattr(value, "__module__", None) != name:
                continue
            where = f"{name}.{attr}"
            if where in DATA:
                continue
            calls = [(where, value)] if callable(value) else []
            if inspect.isclass(value):
                calls += [(f"{where}.{m}", f) for m, f in vars(value).items()
                          if inspect.isfunction(f) and (not m.startswith("_") or m == "__init__")]
            for label, call in calls:
                try:
                    parameters = inspect.signature(call).parameters
                except (TypeError, ValueError):
                    continue
                if "lang" in parameters and parameters["lang"].default == "en":
                    found.append(label)
    return found


def test_nothing_a_class_reads_defaults_to_english() -> None:
    assert _english_defaults() == []


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_defaults_follow_the_courses_language(lang: str) -> None:
    from maumau.league.words import say
    from maumau.text.i18n import check_language, set_language

    set_language(lang)
    try:
        assert check_language(None) == lang
        assert say("standings") != "Standings"
    finally:
        set_language("en")
