"""Rules explorer: pick a variant, switch single rules off (or extra rules on), then play the
result at once or simulate many games of random players to see what the change does."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

import ipywidgets as W

from .. import players as _players
from ..core.dealing import deal
from ..core.rules.base import Rule
from ..core.variants import Variant, variant, variant_names
from ..text.i18n import fired_rule, number, percent, rule_summary, t
from .access import Access
from .common import STRENGTHS, Displayed, check_lang, esc
from .scores import house_rules_text, rules_html
from .style import style_sheet
from .table import TableView
from .table_renderer import access_labels
from .theme import theme_classes

__all__ = ["RulesExplorer", "random_stats", "simulated_stats"]


#: One hand as the explorer counts it: (moves, winner or None, blocked).
Outcome = tuple[int, int | None, bool]


def random_stats(v: Variant, players: int, games: int, seed: int = 0, cap: int = 3000) -> dict[str, Any]:
    """Play ``games`` hands of random players through the engine and count what happened
    (what the explorer shows where ``maumau.simulation.run`` is missing)."""
    began = time.perf_counter()
    hands: list[Outcome] = []
    for g in range(games):
        state = deal(v, players=players, seed=seed + g)
        bots = [_players.Random(seed * 7919 + g * 31 + s) for s in range(players)]
        moves = 0
        while not state.is_over and moves < cap:
            state = state.apply(_players.ask(bots[state.to_move], state))
            moves += 1
        hands.append((moves, state.winner, bool(state.is_over and state.blocked)))
    return _stats(players, "easy", hands, cap, {}, time.perf_counter() - began)


def _stats(players: int, strength: str, hands: Sequence[Outcome], cap: int, fired: dict[str, float],
           seconds: float) -> dict[str, Any]:
    """The numbers of the explorer: lengths of the hands that ended only (a hand cut off after
    ``cap`` moves is counted as cut off, never as a length)."""
    lengths = [moves for moves, winner, blocked in hands if winner is not None or blocked]
    wins = [sum(winner == seat for _, winner, _ in hands) for seat in range(players)]
    blocked = sum(b for _, _, b in hands)
    finished = sum(winner is not None for _, winner, _ in hands)
    return {"games": len(hands), "players": players, "strength": strength, "finished": finished,
            "no_winner": len(hands) - finished, "blocked": blocked, "cut_off": len(hands) - finished - blocked,
            "cap": cap, "wins": wins, "fired": fired,
            "mean_moves": statistics.fmean(lengths) if lengths else 0.0, "shortest": min(lengths, default=0),
            "longest": max(lengths, default=0), "seconds": seconds}


def simulated_stats(v: Variant, players: int, games: int, seed: int = 0, strength: str = "medium",
                    cap: int = 3000) -> dict[str, Any]:
    """The same numbers from ``maumau.simulation.run`` (any strength, and which rules acted), else
    from random players."""
    try:
        from ..simulation.run import simulate
    except ImportError:
        return random_stats(v, players, games, seed, cap)
    began = time.perf_counter()
    result = simulate(v, players=[strength] * players, games=games, seed=seed, rotate=False, executor="serial",
                      progress=False, max_moves=cap)
    hands = [(h.moves, h.winner, "blocked" in h.fired) for h in result.hands]
    return _stats(players, strength, hands, cap, result.rules_fired(), time.perf_counter() - began)


def _fired_html(v: Variant, fired: dict[str, float], lang: str) -> str:
    """The rules that acted most, by rule id (the plain sentence as the tooltip), per hand in the
    language's number format; the core's reshuffle and blocked hand in words."""
    parts = []
    for name, rate in [(n, r) for n, r in fired.items() if r >= 0.05][:6]:  # what rounds to 0,0 acted too rarely
        label, tip = fired_rule(v, name, lang)
        parts.append(f'<span title="{esc(tip)}">{esc(label)}: {esc(number(rate, 1, lang))}</span>')
    return " · ".join(parts)


def stats_html(stats: dict[str, Any], lang: str, v: Variant | None = None) -> str:
    games = stats["games"] or 1
    wins = " · ".join(f"{t('seat.label', lang, seat=s)}: {percent(w / games, 0, lang)}"
                      for s, w in enumerate(stats["wins"]))
    rows = [  # (label, HTML)
        (t("ui.stats_finished", lang), f"{stats['finished']} / {stats['games']}"),
        (t("ui.stats_blocked", lang), str(stats.get("blocked", 0))),
        (t("ui.stats_moves", lang), number(stats["mean_moves"], 0, lang)),
        (t("ui.stats_range", lang), f"{number(stats['shortest'], 0, lang)} / {number(stats['longest'], 0, lang)}"),
        (t("ui.stats_wins", lang), esc(wins)),
    ]
    if stats.get("cut_off"):
        rows.insert(2, (t("ui.stats_cut_off", lang, cap=number(stats["cap"], 0, lang)), str(stats["cut_off"])))
    if stats["fired"]:
        rows.append((t("ui.stats_rules", lang), _fired_html(v or variant("makao"), stats["fired"], lang)))
    strength = t("ui.strength." + stats["strength"], lang) if stats["strength"] in STRENGTHS else stats["strength"]
    title = t("ui.stats_title", lang, games=stats["games"], players=stats["players"], strength=strength,
              seconds=number(stats["seconds"], 1, lang))
    body = "".join(f"<tr><td>{esc(label)}</td><td><b>{value}</b></td></tr>" for label, value in rows)
    return f'<div class="mm-result"><div class="mm-win">{esc(title)}</div><table>{body}</table></div>'


class RulesExplorer(Displayed):
    """A variant with a checkbox per rule; ``variant`` is the variant the boxes describe.

    ``extra_rules`` are rules of one's own, offered switched off (``with_rules``).
    """

    def __init__(self, game: str | Variant = "makao", *, lang: str | None = None, extra_rules: Sequence[Rule] = (),
                 players: int | None = None, strength: str = "medium", games: int = 100, seed: int = 0,
                 delay: float = 0.6, colours: str = "two", contrast: str = "normal") -> None:
        self.lang = check_lang(lang)
        self.theme = theme_classes(colours, contrast)
        self.colours, self.contrast = colours, contrast
        self.extra_rules = list(extra_rules)
        self.seed, self.delay = seed, delay
        self.table: TableView | None = None
        self.stats: dict[str, Any] | None = None
        base = variant(game)
        lang = self.lang
        self.pick = W.Dropdown(options=[(variant(name).title, name) for name in variant_names()], value=base.name,
                               description=t("ui.variant", lang))
        self.players = W.IntSlider(description=t("ui.players", lang), min=2, max=5, value=2)
        self.strength = W.Dropdown(options=[(t("ui.strength." + k, lang), k) for k in STRENGTHS], value=strength,
                                   description=t("ui.strength", lang))
        self.games = W.BoundedIntText(value=games, min=1, max=100_000, description=t("ui.games", lang),
                                      layout=W.Layout(width="180px"))
        self.play_button = W.Button(description="▶ " + t("ui.play", lang), button_style="success")
        self.simulate_button = W.Button(description="⚙ " + t("ui.simulate", lang), button_style="info")
        self.play_button.on_click(lambda _: self.play())
        self.simulate_button.on_click(lambda _: self.simulate())
        self.checks_box = W.VBox()
        self.checks_box.add_class("mm-checks")
        self.summary = W.HTML()
        self.stage = W.VBox()
        self.checks: dict[str, W.Checkbox] = {}
        self._base = base
        self._set_variant(base, players)
        self.pick.observe(lambda change: self._set_variant(variant(change["new"])), names="value")
        head = W.HTML(f'<div class="mm-head">{esc(t("ui.explorer", lang))}</div>')
        rules_panel = W.VBox([self.checks_box, self.summary])
        rules_panel.add_class("mm-rules")
        choose = W.HBox([self.pick, self.players, self.strength], layout=W.Layout(flex_flow="row wrap"))
        self.widget = W.VBox([style_sheet(), Access(labels=access_labels(lang)), head, choose, rules_panel,
                              W.HBox([self.play_button, self.games, self.simulate_button]), self.stage])
        self.widget.add_class("mm-table")
        for name in self.theme:
            self.widget.add_class(name)

    def __repr__(self) -> str:
        # English shows the variant's repr, as it always did; the other languages its name (the repr is English)
        return t("ui.repr_explorer", self.lang, variant=repr(self.variant) if self.lang == "en" else self.variant.name)

    # --- the rules ---------------------------------------------------------------------------------------
    def _set_variant(self, base: Variant, players: int | None = None) -> None:
        self._base = base
        lo, hi = base.players
        self.players.min, self.players.max = 1, hi  # widen first so the next two settings never clash
        self.players.min = lo
        self.players.value = players if players is not None else min(max(self.players.value, lo), hi)
        self.checks = {}
        rows = []
        for rule, on in [(r, True) for r in base.rules] + [(r, False) for r in self.extra_rules]:
            box = W.Checkbox(value=on, description=rule.rule_id if on and rule.rule_id else rule.name, indent=False,
                             layout=W.Layout(width="220px", min_width="220px"))
            box.observe(lambda _: self._show_summary(), names="value")
            key = rule.name if on else "+" + rule.name
            self.checks[key] = box
            summary = W.HTML(f'<div class="mm-summary">{esc(rule_summary(rule, self.lang, call=base.call))}</div>',
                             layout=W.Layout(flex="1"))
            rows.append(W.HBox([box, summary]))
        self.checks_box.children = tuple(rows)
        self._show_summary()

    @property
    def variant(self) -> Variant:
        """The chosen variant with the rules switched off removed and the extra ones added."""
        off = [name for name, box in self.checks.items() if not name.startswith("+") and not box.value]
        extra = [r for r in self.extra_rules if self.checks.get("+" + r.name) is not None
                 and self.checks["+" + r.name].value]
        v = self._base.without(*off) if off else self._base
        return v.with_rules(*extra) if extra else v

    def set_rule(self, name: str, on: bool) -> None:
        """Switch a rule off or on (``"+name"`` for an extra rule), as a click on its box would."""
        if name not in self.checks:
            raise KeyError(f"{self._base.name} has no rule {name!r} here; the boxes are {sorted(self.checks)}")
        self.checks[name].value = on

    def _show_summary(self) -> None:
        text = house_rules_text(self.variant, self.lang, self._base)
        self.summary.value = f"<b>{esc(t('ui.house_rules', self.lang))}:</b> {esc(text)}"

    # --- trying it out -------------------------------------------------------------------------------------
    def play(self) -> TableView:
        """A table with the chosen rules, shown below the boxes."""
        self.table = TableView(self.variant, opponents=self.players.value - 1, strength=self.strength.value,
                               seed=self.seed, lang=self.lang, delay=self.delay, colours=self.colours,
                               contrast=self.contrast)
        self.stage.children = (self.table.widget,)
        return self.table

    def simulate(self, games: int | None = None) -> dict[str, Any]:
        """Play ``games`` hands of computer players (of the chosen strength) with the chosen rules, and
        show what happened."""
        n = self.games.value if games is None else games
        self.stats = simulated_stats(self.variant, self.players.value, n, seed=self.seed,
                                     strength=self.strength.value)
        rules = W.Accordion(children=[W.HTML(rules_html(self.variant, self.lang))], selected_index=None)
        rules.set_title(0, t("ui.rules", self.lang))
        self.stage.children = (W.HTML(stats_html(self.stats, self.lang, self.variant)), rules)
        return self.stats
