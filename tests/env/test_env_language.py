"""The learning environments in a German or Hungarian notebook (issue 36 items 3 and 5): the
text table, the actions and features as labels, the learning curve's axes and legend speak the
course's language; the identifiers code uses (``str(move)``, ``FEATURES``) and English stay."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from maumau import env
from maumau.env.agent import FEATURES, feature_labels
from maumau.text.i18n import set_language

ENGLISH = re.compile(r"\b(seat|to move|top|stock|pile|cards?|you|draw|pass|play|wish|mau|rank|generation|"
                     r"win rate|mean weights|fixed check hands|elite|random player|Learning curve|held|left)\b")
CURVE = [{"generation": 0, "check": 0.1, "elite": 0.2}, {"generation": 1, "check": 0.5, "elite": 0.6}]


@pytest.fixture
def course() -> Iterator[None]:
    yield
    set_language("en")


def _words(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m|<[^>]+>|Makaó", " ", text)


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_text_table_speaks_the_courses_language(course: None, lang: str) -> None:
    set_language(lang)
    for mode in ("ansi", "html"):
        game = env.gym("makao", opponents=["random"], seed=1, render_mode=mode)
        game.reset(seed=1)
        shown = game.render()
        assert shown is not None
        assert not ENGLISH.search(_words(shown)), shown
    game = env.gym("makao", opponents=["random"], seed=1, render_mode="ansi")
    game.reset(seed=1)
    shown = game.render()
    assert shown is not None and "Q♥" not in shown and "D♥" in shown  # the Queen as the language writes it


def test_the_text_table_in_english_stays_as_it_was() -> None:
    game = env.gym("makao", opponents=["random"], seed=1, render_mode="ansi")
    game.reset(seed=1)
    assert game.render() == ("Makaó: seat 0 to move\ntop \x1b[31m2♦\x1b[0m   stock 88 cards   pile 1 card\n"
                             "▶ \x1b[1mseat 0 (you)\x1b[0m: 7 cards  \x1b[31m4♦\x1b[0m \x1b[31m7♦\x1b[0m "
                             "\x1b[31mA♦\x1b[0m \x1b[31mQ♥\x1b[0m 4♠ J♠ K♠\n  seat 1: 8 cards")


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_actions_and_features_have_labels_in_the_language(course: None, lang: str) -> None:
    actions = env.actions("makao")
    set_language(lang)
    labels = actions.labels()
    assert len(labels) == len(actions) and len(set(labels)) == len(labels)
    for label in labels:
        assert not ENGLISH.search(label), label
    assert [str(actions[i]) for i in range(4)] == ["draw", "pass", "play 2C", "play 2C mau"]  # identifiers stay
    assert "Makaó" in actions.label(3)
    shown = feature_labels()
    assert len(shown) == len(FEATURES) and len(set(shown)) == len(shown)
    for label in shown:
        assert not ENGLISH.search(label), label
    assert FEATURES[0] == "draw"


def test_labels_in_english_are_the_identifiers() -> None:
    actions = env.actions("makao")
    assert actions.labels() == [str(m) for m in actions]
    assert feature_labels() == FEATURES


@pytest.mark.parametrize("lang", ["de", "hu"])
def test_the_learning_curve_speaks_the_language(course: None, lang: str) -> None:
    set_language(lang)
    chart = env.learning_curve(CURVE, baseline=0.4)
    encoding = chart.spec["layer"][0]["encoding"]
    said = [chart.spec["title"], encoding["x"]["title"], encoding["y"]["title"], *encoding["color"]["scale"]["domain"]]
    for text in said:
        assert not ENGLISH.search(text), text
    pytest.importorskip("matplotlib")
    fig = chart.figure()
    ax = fig.axes[0]
    drawn = [ax.get_xlabel(), ax.get_ylabel(), *(t.get_text() for t in ax.get_legend().get_texts())]
    for text in drawn:
        assert not ENGLISH.search(text), text


def test_the_learning_curve_in_english_stays_as_it_was() -> None:
    chart = env.learning_curve(CURVE, baseline=0.4)
    encoding = chart.spec["layer"][0]["encoding"]
    assert (chart.spec["title"], encoding["x"]["title"], encoding["y"]["title"]) == (
        "Learning curve", "generation", "win rate of seat 0")
    assert encoding["color"]["scale"]["domain"] == ["mean weights, fixed check hands", "elite, this generation's hands"]
