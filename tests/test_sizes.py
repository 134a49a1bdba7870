"""Short functions: no function of the package over 60 lines.  Read with ``ast``; a function that
grows past the bar is split by its steps, not squeezed.

Modules have no line cap (issue 35): a module holds one idea, and a long module is fine when it
holds one (python-chess's board is one file); a module is split when it holds two ideas, never
because it is long.  Each module opens with the docstring that says its idea."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "maumau"
MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_says_its_idea():
    silent = [str(p.relative_to(PACKAGE)) for p in MODULES if not ast.get_docstring(ast.parse(p.read_text()))]
    assert not silent, f"modules without a docstring saying their idea: {silent}"


def test_no_function_is_over_60_lines():
    long = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > 60:
                    long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, "functions over 60 lines:\n" + "\n".join(long)
