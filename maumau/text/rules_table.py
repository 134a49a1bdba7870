"""The variants side by side: which rule each one plays, generated from the rule classes."""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.variants import Variant, variant, variant_names

__all__ = ["RulesTable", "rules_table"]


@dataclass(frozen=True, repr=False)
class RulesTable:
    """One row per rule name, one column per variant: the rule id where the variant has it."""

    variants: tuple[Variant, ...]
    rows: tuple[dict[str, str], ...]

    def __str__(self) -> str:
        names = [v.name for v in self.variants]
        width = max(len(r["rule"]) for r in self.rows)
        lines = [f"{'rule':<{width}}  " + "  ".join(f"{n:<13}" for n in names)]
        for row in self.rows:
            lines.append(f"{row['rule']:<{width}}  " + "  ".join(f"{row[n] or '·':<13}" for n in names))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(v.name)}</th>" for v in self.variants)
        body = []
        for row in self.rows:
            cells = "".join(
                f"<td style='text-align:center' title='{html.escape(row[v.name + ':summary'])}'>"
                f"{html.escape(row[v.name]) if row[v.name] else '·'}</td>" for v in self.variants)
            body.append(f"<tr><td style='text-align:left'><code>{html.escape(row['rule'])}</code></td>{cells}</tr>")
        return f"<table><tr><th>rule</th>{head}</tr>{''.join(body)}</table>"

    def to_rows(self) -> list[dict[str, str]]:
        """Plain rows (rule, then the rule id per variant or ''), e.g. for pandas."""
        return [{k: v for k, v in row.items() if not k.endswith(":summary")} for row in self.rows]


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
