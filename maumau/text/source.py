"""``mm.source(...)``: the source of a rule (or of any maumau class or function) from the installed
package, so a pointer in a notebook works where the learner is: a clone, ``pip install maumau``, or
the browser site (the wheel ships the ``.py`` files; a compiled module's source sits beside its
``_built`` folder).

    mm.source("skip_on_eight")   # every built-in rule of that name, e.g. SkipOnEight (MK-5)
    mm.source(rule.rule_id)      # by rule id (MK-5, ...)
    mm.source(mm.Rule)           # the hooks a rule may have
"""

from __future__ import annotations

import html
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Source", "source"]


@dataclass(frozen=True)
class Source:
    """Source code with where it comes from; shown highlighted in Jupyter, as text elsewhere."""

    parts: tuple[tuple[str, str], ...]  # (where, code)

    def __str__(self) -> str:
        return "\n\n".join(f"# {where}\n{code}" for where, code in self.parts)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        blocks = []
        for where, code in self.parts:
            try:
                from pygments import highlight  # type: ignore[import-untyped]
                from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
                from pygments.lexers import PythonLexer  # type: ignore[import-untyped]

                body = highlight(code, PythonLexer(), HtmlFormatter(noclasses=True, nobackground=True))
            except ImportError:  # pygments comes with IPython; a plain block without it
                body = f"<pre>{html.escape(code)}</pre>"
            blocks.append(f"<div><code>{html.escape(where)}</code>{body}</div>")
        return "".join(blocks)


def _rule_classes() -> list[Any]:
    from ..core import rules
    from ..core.rules.base import Rule

    found = [getattr(rules, name) for name in rules.__all__]
    return [c for c in found if isinstance(c, type) and issubclass(c, Rule) and c is not Rule]


def _code(obj: Any) -> tuple[str, str]:
    """(where, source) of a class or function: from inspect, else from the ``.py`` beside a
    compiled module."""
    module = sys.modules.get(getattr(obj, "__module__", ""), None)
    where = f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', obj)}"
    try:
        return where, inspect.getsource(obj)
    except (OSError, TypeError):
        pass
    path = Path(getattr(module, "__file__", "") or "")
    folder = path.parent.parent if path.parent.name == "_built" else path.parent  # maumau/core/_built/
    text = folder / (path.name.split(".")[0] + ".py")
    if text.is_file():  # the class in the module's source: from its header to the next top-level line
        lines = text.read_text(encoding="utf-8").splitlines()
        name = getattr(obj, "__name__", "")
        start = next((i for i, line in enumerate(lines) if line.startswith((f"class {name}", f"def {name}",
                                                                               f"cdef class {name}"))), None)
        if start is not None:
            end = next((i for i in range(start + 1, len(lines)) if lines[i][:1] not in ("", " ", "#", ")")), len(lines))
            return where, "\n".join(lines[start:end]).rstrip() + "\n"
    raise ValueError(f"the source of {where} is not in this installation")


def source(what: Any) -> Source:
    """The source of a built-in rule by name (``"skip_on_eight"``) or id (MK-5), or of a
    class, function or rule object."""
    if isinstance(what, str):
        classes = [c for c in _rule_classes() if what in (c.name, c.rule_id, c.__name__)]
        if not classes:
            names = sorted({c.name for c in _rule_classes()} - {"rule"})
            raise ValueError(f"no built-in rule is called {what!r}: a rule name ({', '.join(names)}) "
                             f"or a rule id such as MK-5")
        return Source(tuple(_code(c) for c in classes))
    if not (inspect.isclass(what) or inspect.isfunction(what) or inspect.ismethod(what)):
        what = type(what)  # a rule object: its class
    return Source((_code(what),))
