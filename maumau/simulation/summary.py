"""A simulation as text (``print(result)``, ``maumau simulate``), in the course's language
(``mm.set_language``): the words from the catalogue (``sim.text.*``), the numbers as the language
writes them (1,234.5 · 1.234,5 · 1 234,5; 42.3% · 42,3 %).

A table of win rates per player and per seat, the length of a hand, the rules acting per hand.
English names a rule by its code name (``seven_draws_two``, what ``rules_fired()`` holds);
German and Hungarian by its RULES.md id with its plain sentence, as the explorer and the
picture name it, since a code name is English.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.variants import Variant, variant, variant_names
from ..text.i18n import fired_rule, number, percent, t

if TYPE_CHECKING:  # pragma: no cover
    from .results import Simulation

__all__ = ["summary_text", "one_line"]

#: The widths of the table's columns (player, hands, wins, win rate), at least; a longer heading
#: widens its column.  The win rates stand one place left of their heading's end, as they always have.
WIDTHS = (24, 7, 7, 9)


def _known(sim: Simulation) -> Variant | None:
    return variant(sim.variant) if sim.variant in variant_names() else None


def _title(sim: Simulation) -> str:
    known = _known(sim)
    return known.title if known else sim.variant


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
    return t("sim.text.heading", variant=sim.variant, title=_title(sim), hands=number(sim.games),
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
    known, lines = _known(sim), [t("sim.text.rules")]
    for name, rate in sim.rules_fired().items():
        label, says = fired_rule(known, name)
        times = number(rate, 2) if rate >= 0.005 else "< " + number(0.01, 2)
        lines.append(t("sim.text.rule", name=name, rule=label, times=times,
                       says="" if says == label else says).rstrip())
    return lines


def one_line(sim: Simulation) -> str:
    """``repr``: the variant, the hands and who played (the hands without separators, as ever)."""
    return t("sim.text.repr", variant=sim.variant, title=_title(sim), hands=sim.games,
             players=t("sim.versus").join(sim.players))
