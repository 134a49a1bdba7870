"""A simulation as text (``print(result)``, ``maumau simulate``), in the course's language
(``mm.set_language``): the words from the catalogue (``sim.text.*``), the numbers as the language
writes them (1,234.5 · 1.234,5 · 1 234,5; 42.3% · 42,3 %).

A table of win rates per player and per seat, the length of a hand, the rules acting per hand.
English names a variant and a rule by its code name (``makao``, ``seven_draws_two``: what a learner
types and ``rules_fired()`` holds); German and Hungarian, where a code name is a foreign word, by
the variant's title and the rule's RULES.md id with its plain sentence, as the explorer and the
picture name them.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from ..core.variants import Variant, variant, variant_names
from ..text.i18n import fired_rule, language, number, percent, t

if TYPE_CHECKING:  # pragma: no cover
    from .results import Simulation

__all__ = ["summary_text", "one_line"]

#: The languages whose words the code's names are: there a summary names variants and rules by them.
CODE_NAMES_READ = frozenset({"en"})

#: The widths of the table's columns (player, hands, wins, win rate), at least; a longer heading
#: widens its column.  The win rates stand one place left of their heading's end, as they always have.
WIDTHS = (24, 7, 7, 9)


def _known(sim: Simulation) -> Variant | None:
    return variant(sim.variant) if sim.variant in variant_names() else None


def _variant(sim: Simulation) -> str:
    """The variant by its code name where the language reads it, else by its title (``Makaó``)."""
    known = _known(sim)
    return known.title if known and language() not in CODE_NAMES_READ else sim.variant


def _whole(x: float) -> str:
    """A whole number as one (``49``), anything else with one decimal (``45.5``)."""
    return number(x, 0 if float(x).is_integer() else 1)


def _interval(low: float, high: float) -> str:
    return t("sim.text.interval", low=percent(low, 1), high=percent(high, 1))


def summary_text(sim: Simulation) -> str:
    """The whole summary: heading, table, hand length, rules acting."""
    return "\n".join([_heading(sim), "", *_table(sim), "", _length(sim), "", *_rules(sim)])


def _heading(sim: Simulation) -> str:
    how = t("sim.text.rotate" if sim.rotate else "sim.text.fixed")
    return t("sim.text.heading", variant=_variant(sim), hands=number(sim.games),
             players=len(sim.players), how=how, seed=sim.seed)


def _table(sim: Simulation) -> list[str]:
    heads = [t("sim.text.player"), t("sim.text.hands"), t("sim.text.wins"), t("sim.text.rate")]
    who, hands, wins, rate = (max(w, len(h)) for w, h in zip(WIDTHS, heads, strict=True))

    def row(name: str, r: dict[str, Any]) -> str:
        return (f"{name:<{who}} {number(r['games']):>{hands}} {number(r['wins']):>{wins}} "
                f"{percent(r['win_rate'], 1):>{rate - 1}}   {_interval(r['ci_low'], r['ci_high'])}")

    lines = [f"{heads[0]:<{who}} {heads[1]:>{hands}} {heads[2]:>{wins}} {heads[3]:>{rate}}   {t('sim.text.ci')}"]
    lines += [row(r["player"], r) for r in sim.by_player()]
    for r in sim.by_seat():
        seat = t("sim.text.seat", seat=r["seat"])
        lines.append(row(t("sim.text.first", seat=seat) if r["seat"] == 0 else seat, r))
    if sim.no_winner:
        lines.append(t("sim.text.no_winner_1" if sim.no_winner == 1 else "sim.text.no_winner",
                       n=number(sim.no_winner)))
    return lines


def _length(sim: Simulation) -> str:
    s = sim.length_stats()
    return t("sim.text.length", mean=number(s["mean"], 1), median=_whole(s["median"]), p5=number(s["p5"]),
             p95=number(s["p95"]), longest=number(s["max"]))


def _rules(sim: Simulation) -> list[str]:
    """One line a rule: its name, how often it acted per hand, what it says (none by a code name)."""
    known, by_code, lines = _known(sim), language() in CODE_NAMES_READ, [t("sim.text.rules")]
    for name, rate in sim.rules_fired().items():
        label, says = (name, name) if by_code else fired_rule(known, name)
        times = number(rate, 2) if rate >= 0.005 else "< " + number(0.01, 2)
        line = t("sim.text.rule", rule=label, times=times, says="" if says == label else says).rstrip()
        lines += _wrapped(line, len(t("sim.text.rule", rule=label, times=times, says="")))
    return lines


#: The widest line of a summary: a rule's sentence goes on below itself, under its own start.
WIDTH = 90


def _wrapped(line: str, indent: int) -> list[str]:
    """``line`` in lines of at most ``WIDTH`` characters, the ones after the first indented to
    ``indent`` (where the sentence starts), no word broken."""
    if len(line) <= WIDTH or indent >= WIDTH // 2:
        return [line]
    return textwrap.wrap(line, WIDTH, subsequent_indent=" " * indent, break_long_words=False,
                         break_on_hyphens=False, drop_whitespace=True)


def one_line(sim: Simulation) -> str:
    """``repr``: the variant, the hands and who played (the hands without separators, as ever)."""
    return t("sim.text.repr", variant=_variant(sim), hands=sim.games,
             players=t("sim.versus").join(sim.players))
