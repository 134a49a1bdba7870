"""Accessibility checks shared by the browser tests: axe-core (npm, ``make browser-test`` puts it in
.venv/axe) on an element of the page, WCAG 2.1 A and AA rules only."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(os.environ.get("MM_AXE", Path(__file__).resolve().parents[2] / ".venv/axe/node_modules/axe-core/axe.min.js"))
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

RUN = """async ([selector, tags]) => {
  const result = await axe.run(document.querySelectorAll(selector), { runOnly: { type: 'tag', values: tags },
                                                                      resultTypes: ['violations'] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: ' + n.failureSummary) }));
}"""


def axe_violations(page: Page, selector: str) -> list[dict[str, Any]]:
    """The WCAG 2.1 A/AA violations axe-core finds inside every element matching ``selector``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN, [selector, TAGS])
    return found


def assert_no_violations(page: Page, selector: str, where: str) -> int:
    """Fail with axe's findings if there are any; else the count (0), for the log."""
    found = axe_violations(page, selector)
    lines = [f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in found]
    assert not found, f"axe-core, {where}: {len(found)} WCAG 2.1 A/AA violation(s)\n" + "\n".join(lines)
    return len(found)
