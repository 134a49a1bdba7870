"""Rules tables: the variants side by side (which rule each one plays, generated from the rule
classes), and one variant's rules as plain sentences in a language (``mm.rulebook``)."""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.rules.base import Rule
from ..core.variants import Variant, variant, variant_names
from .i18n import language, rule_summary, t

__all__ = ["RulesTable", "rules_table", "RulesSheet", "rulebook", "rules_markdown", "variant_html"]


@dataclass(frozen=True, repr=False)
class RulesTable:
    """One row per rule name, one column per variant: the rule id where the variant has it."""

    variants: tuple[Variant, ...]
    rows: tuple[dict[str, str], ...]

    def __str__(self) -> str:
        names = [v.name for v in self.variants]
        head = t("rules.name")
        width = max(len(head), *(len(r["rule"]) for r in self.rows))
        lines = [f"{head:<{width}}  " + "  ".join(f"{n:<13}" for n in names)]
        for row in self.rows:
            lines.append(f"{row['rule']:<{width}}  " + "  ".join(f"{row[n] or '·':<13}" for n in names))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        """The rule's plain sentence first (its code name under it), then its id per variant; the
        formal one-liner of each variant's rule as the cell's tooltip."""
        head = "".join(f"<th>{html.escape(v.name)}</th>" for v in self.variants)
        body = []
        for row in self.rows:
            name = row["rule"]
            rules = {v.name: next((r for r in v.rules if r.name == name), None) for v in self.variants}
            cells = "".join(
                f"<td style='text-align:center' title='{html.escape(_formal(rules[v.name], v))}'>"
                f"{html.escape(row[v.name]) if row[v.name] else '·'}</td>" for v in self.variants)
            owner = next(v for v in self.variants if rules[v.name] is not None)  # its call word: Mau or Makaó
            first = rules[owner.name]
            assert first is not None
            plain = rule_summary(first, call=owner.call)
            body.append(f"<tr><td style='text-align:left'>{html.escape(plain)}<br>"
                        f"<small><code>{html.escape(name)}</code></small></td>{cells}</tr>")
        return f"<table><tr><th>{html.escape(t('rules.rule'))}</th>{head}</tr>{''.join(body)}</table>"

    def to_rows(self) -> list[dict[str, str]]:
        """Plain rows (rule, then the rule id per variant or ''), e.g. for pandas."""
        return [{k: v for k, v in row.items() if not k.endswith(":summary")} for row in self.rows]


def _formal(rule: Rule | None, v: Variant) -> str:
    """A variant's rule as the formal one-liner in the language, with the variant's own call word."""
    return rule_summary(rule, formal=True, call=v.call) if rule is not None else ""


def variant_repr(v: Variant) -> str:
    """``repr(variant)`` in the course's language: ``<Variant makao: 104 cards, 11 rules, house rules:
    without skip_on_eight>``, ``<Variante makao: 104 Karten, 11 Regeln, Hausregeln: ohne
    skip_on_eight>``. A rule keeps its name: it is what code writes (``.without("skip_on_eight")``)."""
    changes = ", ".join(t(f"variant.{how}", rule=what if how == "without" else repr(what))
                        for how, what in v.changes)
    extra = t("variant.house", changes=changes) if v.changes else ""
    return t("variant.repr", name=v.name, cards=len(v.deck), rules=len(v.rules), extra=extra)


def variant_html(v: Variant) -> str:
    """A variant in a notebook (``Variant._repr_html_``): its deck and players, and each rule's
    name, id and formal one-liner in the language, with the variant's own call word."""
    lo, hi = v.players
    rows = "".join(
        f"<tr><td><code>{r.name}</code></td><td>{html.escape(r.rule_id)}</td>"
        f"<td style='text-align:left'>{html.escape(_formal(r, v))}</td></tr>" for r in v.rules)
    line = t("rules.variant_line", cards=len(v.deck), each=v.hand_size, lo=lo, hi=hi)
    return (f"<b>{html.escape(v.title)}</b> — {html.escape(line)}<table><tr><th>{html.escape(t('rules.name'))}</th>"
            f"<th>{html.escape(t('rules.id'))}</th><th>{html.escape(t('rules.says'))}</th></tr>{rows}</table>")


def rules_table(games: Iterable[str | Variant] | None = None) -> RulesTable:
    """Compare variants (default: all four) rule by rule, in the order the rules first appear."""
    chosen = tuple(variant(g) for g in (games if games is not None else variant_names()))
    order: dict[str, None] = {}
    for v in chosen:
        for r in v.rules:
            order.setdefault(r.name)
    rows = []
    for name in order:
        row: dict[str, str] = {"rule": name}
        for v in chosen:
            rule = next((r for r in v.rules if r.name == name), None)
            row[v.name] = rule.rule_id if rule else ""
            row[v.name + ":summary"] = rule.summary if rule else ""
        rows.append(row)
    return RulesTable(chosen, tuple(rows))


# --- one variant's rules as sentences (notebook 01, the terminal, ``maumau rules``) ----------------

@dataclass(frozen=True, repr=False)
class RulesSheet:
    """A variant's rules, each a plain sentence in the language, with its id; ``formal`` adds the
    teacher's one-liners (``next(X)``, the ids they cite)."""

    variant: Variant
    lang: str
    formal: bool = False

    def rows(self) -> list[tuple[str, str, str]]:
        """(plain sentence, rule id, the rule's name and formal one-liner) per rule."""
        call = self.variant.call  # the variant's own announcement word (Makaó), as its button says
        return [(rule_summary(r, self.lang, call=call), r.rule_id,
                 f"{r.name}: {rule_summary(r, self.lang, formal=True, call=call)}") for r in self.variant.rules]

    def heading(self) -> str:
        v = self.variant
        lo, hi = v.players
        return t("rules.heading", self.lang, title=v.title, cards=len(v.deck), each=v.hand_size, lo=lo, hi=hi)

    def __str__(self) -> str:
        lines = [self.heading(), ""]
        for plain, rule_id, formal in self.rows():
            lines.append(f"- {plain} ({rule_id})" + (f"\n    {formal}" if self.formal else ""))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        head = f"<th>{html.escape(t('rules.rule', self.lang))}</th><th>{html.escape(t('rules.id', self.lang))}</th>"
        if self.formal:
            head += f"<th>{html.escape(t('rules.formal', self.lang))}</th>"
        body = []
        for plain, rule_id, formal in self.rows():
            extra = f"<td style='text-align:left'><small>{html.escape(formal)}</small></td>" if self.formal else ""
            body.append(f"<tr><td style='text-align:left'>{html.escape(plain)}</td>"
                        f"<td style='white-space:nowrap'>{html.escape(rule_id)}</td>{extra}</tr>")
        return (f"<div class='mm-rules' lang='{self.lang}'><b>{html.escape(self.heading())}</b>"
                f"<table><tr>{head}</tr>{''.join(body)}</table></div>")


def rulebook(game: str | Variant = "makao", lang: str | None = None, formal: bool = False) -> RulesSheet:
    """The rules of ``game`` as plain sentences in ``lang`` (default: the current language);
    ``formal=True`` adds the formal one-liners for teachers."""
    return RulesSheet(variant(game), lang or language(), formal)


def rules_markdown(langs: Iterable[str] = ("en", "de", "hu")) -> str:
    """Every variant's rules as sentences, in each language: the course's ``RULES.md``
    (``maumau rules --markdown``), so the rules stand beside the notebooks in the lab."""
    lines = ["# The rules of the course", "",
             "Each variant's rules in plain sentences, with the rule's id (written by `maumau rules --markdown`;",
             "`maumau rules NAME --formal` and `mm.rulebook(NAME, formal=True)` add the precise notation).", ""]
    for lang in langs:
        lines += [f"## {t('rules.language', lang)}", ""]
        for name in variant_names():
            sheet = RulesSheet(variant(name), lang)
            lines += [f"### {sheet.heading()}", ""]
            lines += [f"- {plain} ({rule_id})" for plain, rule_id, _ in sheet.rows()]
            lines.append("")
    return "\n".join(lines)
