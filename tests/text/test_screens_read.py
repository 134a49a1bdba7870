"""Every screen in the course's language (issue 36, item 5): the table and its log, the refusals of
random games, the terminal, the summaries (``print(mm.simulate(...))``, ``Simulation.plot``), the
teacher's view of a state and the graph pictures say no English word and no English card letter in
German and Hungarian; and the pictures draw no glyph a default font (DejaVu Sans) lacks."""

from __future__ import annotations

import html
import io
import random
import re
from collections.abc import Iterable, Iterator
from functools import cache

import matplotlib
import pytest

matplotlib.use("Agg")

import maumau as mm  # noqa: E402
from maumau.text import graph_words as gw  # noqa: E402
from maumau.text import locale  # noqa: E402
from maumau.text.i18n import use_language  # noqa: E402
from maumau.text.locale.plain import PLAIN  # noqa: E402

LANGS = ("de", "hu")
WORD = re.compile(r"[A-Za-zÀ-ÿőűŐŰ]{3,}")
SUITS = "♠♥♦♣"
#: Everyday English words of the screens (beside the ones of the English catalogues).
COMMON = set("""the and of to with is are not no your you card cards hand hands seat seats wins win won moves
move player players plays played draws drawn skip skips wish wished wishes rank suit top stock pile turn turns
game games after before every each which what when where there this that these those from into only must may
can cannot would should will their them they one two three four five six seven eight nine ten jack queen king ace
hearts spades clubs diamonds left right next first last more less than then out over nobody share fair chance
round rounds rule rules step steps phase phases state states depth level levels explored complete blocked
penalty penalties pending answer take takes taken sit says said winner winners points score scores mean
average median longest shortest length cut off unfinished finished yes none total count times shuffle reshuffle
reshuffled deck decks direction reverse reversed""".split())
#: Words every language writes alike: names of games and players, the Runde, the Joker, code.
SHARED = {"runde", "joker", "mau", "makaó", "makao", "macau", "anna", "ben", "clara", "cleo", "play", "draw", "pass",
          "jokern", "lite", "mit", "max"}


@cache
def english_words() -> frozenset[str]:
    """Words English screens use that neither German nor Hungarian does."""
    def words(texts: Iterable[str]) -> set[str]:
        return {w.lower() for text in texts for w in WORD.findall(re.sub(r"\{[^}]*\}", "", text))}
    english = words([*locale.en.MESSAGES.values(), *gw._DE, *PLAIN["en"].values(),
                     *(text for text in gw.SENTENCES["en"].values())]) | COMMON
    others = words([*locale.de.MESSAGES.values(), *locale.hu.MESSAGES.values(), *gw._DE.values(), *gw._HU.values(),
                    *PLAIN["de"].values(), *PLAIN["hu"].values(),
                    *(text for lang in LANGS for text in gw.SENTENCES[lang].values())])
    return frozenset(english - others - SHARED)


def english(text: str, lang: str) -> list[str]:
    """The English words and English card letters (Q♥, a J, Q or Hungarian A next to a suit) in a
    screen's ``text`` (code to type, like Play("QH"), and tags of HTML left aside)."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<style.*?</style>", " ", text, flags=re.S)))
    text = re.sub(r"\b(Play|Draw|Pass)\([^)]*\)|mm\.[\w.]+\([^)]*\)*|\b[a-z]+_[a-z_]+\b", " ", text)
    found = sorted({w for w in WORD.findall(text) if w.lower() in english_words()})
    letters = "JQA" if lang == "hu" else "JQ"
    return found + re.findall(rf"(?<!\w)[{letters}][{SUITS}]|\([{letters}]\)", text)


def audit(texts: Iterable[str], lang: str) -> None:
    titles = [mm.variant(name).title for name in mm.variant_names()]  # "LITE Games Macau" is a name
    texts = [re.sub("|".join(map(re.escape, titles)), " ", text) for text in texts]
    bad = [(found, text[:200]) for text in texts if (found := english(text, lang))]
    assert not bad, "\n".join(f"{found}: {text!r}" for found, text in bad[:12])


def test_the_audit_finds_english_and_passes_the_languages_own():
    assert english("Q♥ passt nicht, the rank is Q", "de") == ["rank", "the", "Q♥"]
    assert english("A kívánt figura (A), A♠", "hu") == ["(A)", "A♠"]
    assert not english('B♥ verlangt einen Wunsch: sag welchen, z. B. Play("JH", wish="Q").', "de")
    assert not english("Á♥ nem illik: sem a szín (♣), sem a figura (Á) nem egyezik; D♦ K♦", "hu")


# --- the screens ------------------------------------------------------------------------------------------------

#: The parts of a widget's state a person reads (not its CSS classes, layout or code).
SHOWN = ("value", "description", "tooltip", "placeholder", "_options_labels", "title", "_titles")


def widget_texts(widget) -> Iterator[str]:
    """Every string a person reads of a widget and the widgets in it."""
    for key, value in widget.get_state().items():
        if key not in SHOWN:
            continue
        if isinstance(value, str):
            yield re.sub(r"<script.*?</script>", " ", value, flags=re.S)
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, str))
        elif isinstance(value, dict):
            yield from (v for v in value.values() if isinstance(v, str))
    for child in getattr(widget, "children", ()):
        yield from widget_texts(child)


@pytest.mark.parametrize("lang", LANGS)
def test_the_table_and_its_log_speak_the_language(lang):
    pytest.importorskip("ipywidgets")
    from test_widgets import play_hand_by_clicks

    from maumau.widgets import TableView

    texts: list[str] = []
    for seed in range(2):
        table = TableView("makao", 3, seed=seed, lang=lang, delay=0)
        texts += widget_texts(table.widget)
        play_hand_by_clicks(table, random.Random(seed))
        texts += widget_texts(table.widget)
    audit(texts, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", mm.variant_names())
def test_every_refusal_and_narration_of_random_games_speaks_the_language(name, lang):
    from test_card_letters import sentences_of_random_games

    audit(sentences_of_random_games(name, lang, games=2), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_teachers_view_of_states_speaks_the_language(lang):
    rng = random.Random(3)
    texts = []
    with use_language(lang):
        for name in mm.variant_names():
            s = mm.deal(name, players=3, seed=2)
            for _ in range(60):
                if s.is_over:
                    break
                texts.append(s._repr_html_())
                s = s.apply(rng.choice(s.legal_moves()))
            texts.append(mm.variant(name)._repr_html_())
            texts.append(mm.rulebook(name)._repr_html_())
    audit(texts, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_speaks_the_language(lang):
    from maumau.cli import main

    def answer(prompt: str) -> str:
        offered = re.search(r"\(([^()]*)\) $", prompt)
        if offered:
            return offered.group(1).replace("/", " ").split()[0]
        return "" if re.search(r"\[[YJI]/n\] $", prompt) else "1"

    out = io.StringIO()
    asked = []

    def input_fn(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 5000:
            raise EOFError
        out.write(prompt + "\n")
        return answer(prompt)

    main(["play", "mau_mau_runde", "--players", "3", "--seed", "4", "--lang", lang], input_fn=input_fn, out=out,
         err=io.StringIO())
    audit(out.getvalue().splitlines(), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_summaries_speak_the_language(lang):
    import matplotlib.pyplot as plt

    with use_language(lang):
        for players in (2, 3):
            sim = mm.simulate("makao", players=["heuristic"] * players, games=30, seed=1, progress=False)
            text = str(sim)
            assert max(map(len, text.splitlines())) <= 90, text
            figure = sim.plot().figure()
            texts = [text, *figure_texts(figure)]
            audit(texts, lang)
            assert not missing_glyphs(texts)
    plt.close("all")


def figure_texts(figure) -> list[str]:
    return [t.get_text() for t in figure.findobj(matplotlib.text.Text) if t.get_text().strip()]


@pytest.mark.parametrize("lang", LANGS)
def test_the_graph_pictures_speak_the_language_in_glyphs_every_font_has(lang):
    import matplotlib.pyplot as plt

    from maumau import graph as gr

    texts: list[str] = []
    with use_language(lang):
        G = gr.state_graph(gr.fixed_stock(mm.position("makao", hands=["8S QD JH", "3H 3S AH"], top="10S",
                                                      stock="8D")))
        sol = gr.solve(G)
        for options in ({}, {"labels": "long"}, {"labels": "short"}):
            texts += figure_texts(gr.draw(G, **options).figure())
        _, ax = plt.subplots()
        gr.draw(G, ax, color="value", labels="long")
        texts += figure_texts(ax.figure)
        for name in ("makao", "mau_mau_runde", "joker_mau_mau", "lite_macau"):
            P = gr.phase_graph(name, games=4, seed=1)
            texts += figure_texts(gr.draw_phases(P).figure())
            texts += str(gr.phase_statistics(P)).splitlines()
            texts += figure_texts(gr.draw(gr.game_path(next(gr.random_games(name, games=1, seed=3)))).figure())
        texts += str(gr.compare_phases(gr.phase_graph("makao", games=4, seed=1),
                                       gr.phase_graph("lite_macau", games=4, seed=1))).splitlines()
        texts.append(gr.describe(G))
        texts += [str(trap).split("\n", 1)[1] for trap in gr.natural_traps(sol)]
    plt.close("all")
    audit(texts, lang)
    assert not missing_glyphs(texts), missing_glyphs(texts)


@cache
def dejavu() -> frozenset[int]:
    """The characters DejaVu Sans (matplotlib's default font, on every machine with matplotlib) draws."""
    from fontTools.ttLib import TTFont
    from matplotlib import font_manager

    font = TTFont(font_manager.findfont("DejaVu Sans"))
    return frozenset(font.getBestCmap())


def missing_glyphs(texts: Iterable[str]) -> list[str]:
    """The characters of ``texts`` DejaVu Sans has no glyph for (an emoji, say: an empty box)."""
    return sorted({ch for text in texts for ch in text if ord(ch) not in dejavu() and not ch.isspace()})


def test_the_glyph_check_finds_an_emoji():
    assert missing_glyphs(["🏆 Joker", "🔒"]) == sorted(["🏆", "🔒"])
    assert not missing_glyphs(["★ D♥ Á♠ 10♦ – → ▶ · ő ű"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_check_lines_speak_the_language_whatever_the_learners_code_raises(lang, capsys):
    from maumau.grading.checks import check_moves, scenario

    class Broken(mm.Rule):
        name = "broken"
        rule_id = "H-9"

        def forbids(self, card, table):
            return card.rank.nonexistent  # an AttributeError in the learner's rule

    broken = mm.variant("makao").with_rules(Broken())
    s = mm.position("makao", hands=["5C 3H", "7S 9C"], top="5H", stock="3C 3D 3S")
    with use_language(lang):
        for error in (AttributeError, NameError, ValueError, KeyError, ZeroDivisionError):
            with scenario("S"):
                if error is AttributeError:
                    mm.position(broken, hands=["5C 3H", "7S 9C"], top="5H", stock="3C 3D 3S").legal_moves()
                raise error("x")
        with scenario("S"):
            check_moves("M", s, [mm.Play("3H"), mm.Draw()])
    said = capsys.readouterr().out
    assert said.count("✗") == 6, said
    lines = [re.sub(r"\x1b\[[\d;]*m|\w+Error|'Rank' object has no attribute 'nonexistent'|\S*Broken\.forbids", " ",
                    re.sub(r"(Zeile \d+|\d+\. sor): .*", r"\1", line))
             for line in said.splitlines()]  # the learner's own code line and Python's own words aside
    audit(lines, lang)
    assert "Play('3H')" in said and "play 3H" not in said
