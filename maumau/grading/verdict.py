"""Verdicts decided outside the learner's kernel.

Whatever runs in a learner's kernel is the learner's to change: ``check`` can be rebound, a
fake ``maumau.grading`` put into ``sys.modules``, an input transformer can turn test cells
into ``pass``, a ``post_run_cell`` hook can swallow their errors.  So the kernel is never
asked whether a test passed.  Instead:

1. The instructor's notebook (solutions included) runs once per batch in a kernel of its
   own, with its test cells as written: every ``check``/``check_moves`` compares as usual and
   records its *expected* value (``checks.canonical``).  This is the reference.
2. In each learner's kernel the test cells run with every ``expected`` argument removed
   (:func:`instrument`), so ``check(what, got)`` only records ``got``: the expected values
   never enter that kernel, not even the hidden tests' ones.
3. After each test cell a probe asks the kernel for its records (``run``), and the grader
   compares them, value by value, with the reference (:func:`judge`).  A test passes when
   the cell ran without error *and* every recorded value equals the reference's.

A cheat that silences the checks records nothing and fails; one that forges records must
know the expected values, which are not in the kernel.  A test cell without any ``check``
(plain ``assert``s, as in nbgrader's notebooks) can only be judged by whether it raised: that
weaker verdict is what nbgrader does, and the grader says so in the row's notes.

Messages: a failed test is described with the reference's own words (its scenario and what
was checked) and the learner's value; for a hidden test, and for every cell that runs after
a hidden test's code entered the kernel, the feedback carries no text the learner's code
could have chosen (so nothing read from a hidden test can be sent back in it).  Such a test's
``explanation`` is the reference's words alone (scenario, what is checked, the answer expected):
the gradebook keeps it, and learners read it once the teacher releases the feedback
(``feedback_release``).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Any

from .kernel import OK, CellRun

__all__ = ['PREAMBLE', 'PROBE', 'instrument', 'same', 'Verdict', 'judge', 'explanation', 'CHECK_NAMES']


#: The first cell of every graded notebook: the checks start recording.
PREAMBLE = "import maumau.grading.checks as __maumau_checks__\n__maumau_checks__.record()"
#: Run after each test cell: the kernel displays what its checks recorded.
PROBE = "__import__('maumau.grading.checks', fromlist=['report']).report()"
_BEGIN = "__import__('maumau.grading.checks', fromlist=['begin']).begin()"
#: The functions whose third argument (or ``expected=``) is the expected value.
CHECK_NAMES = frozenset({"check", "check_moves", "check_wins"})
_DEPTH = 60


class _StripExpected(ast.NodeTransformer):
    """Removes the expected argument of every check call."""

    def __init__(self) -> None:
        self.removed = 0

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in CHECK_NAMES:
            if len(node.args) >= 3:
                node.args = node.args[:2] + node.args[3:]
                self.removed += 1
            kept = [k for k in node.keywords if k.arg != "expected"]
            self.removed += len(node.keywords) - len(kept)
            node.keywords = kept
        return node


def _python(source: str) -> str:
    """IPython syntax (magics, ``!shell``) as the plain Python IPython would run."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover - IPython is a dependency of the kernel
        return source
    return TransformerManager().transform_cell(source)


def instrument(source: str, keep_expected: bool) -> str:
    """A test cell as it runs when graded: it forgets earlier records first, and (for a
    learner's kernel, ``keep_expected=False``) calls every check without its expected value.
    A cell that is not valid Python runs as written (it fails the same way everywhere)."""
    try:
        tree = ast.parse(_python(source))
    except (SyntaxError, ValueError):
        return _BEGIN + "\n" + source
    if not keep_expected:
        tree = _StripExpected().visit(tree)
    tree.body[:0] = ast.parse(_BEGIN).body
    return ast.unparse(ast.fix_missing_locations(tree))


# --- comparing records ------------------------------------------------------------------------------

def _number(x: Any) -> bool:
    return type(x) in (int, float)


def same(a: Any, b: Any, depth: int = 0) -> bool:
    """Whether two canonical values are equal, numbers compared as Python compares them
    (``1 == 1.0``), but a truth value only with a truth value (a forged ``True`` must not
    pass for the seat number 1).  Anything malformed is simply unequal."""
    if depth > _DEPTH:
        return False
    if _number(a) and _number(b):
        return bool(a == b) and not (isinstance(a, float) and math.isnan(a))
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y, depth + 1) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], depth + 1) for k in a)
    return bool(a == b)


@dataclass(frozen=True)
class Verdict:
    """A test cell's result: passed or not, and what the learner is told."""

    passed: bool
    message: str = ""
    checked: bool = True     # False: the cell has no checks, only "ran without error" decided
    #: A quiet test's own explanation, shown only once the teacher releases the feedback
    #: (``feedback_release``): the reference's words alone, nothing the learner's code chose.
    explanation: str = ""


def _records(report: Any) -> list[dict[str, Any]] | None:
    if not isinstance(report, list) or not all(isinstance(r, dict) for r in report):
        return None
    return report


def _moves(value: Any) -> set[str]:
    items = value.get("list") if isinstance(value, dict) else None
    return {m for m in items if isinstance(m, str)} if isinstance(items, list) else set()


def _sentence(want: dict[str, Any], got: dict[str, Any] | None) -> str:
    """"scenario: what: expected X, got Y" in the reference's words, in the checks' language
    (``maumau.text.i18n``: the grader scores a hand-in in the language of its notebook)."""
    from .checks import _t

    where = "".join(f"{s}: " for s in want.get("scenario", []) if isinstance(s, str))
    what = str(want.get("what", ""))
    if got is None:
        return where + _t("did_not_run", what=what)
    if want.get("kind") == "moves" and got.get("kind") == "moves":
        expected, legal = _moves(want.get("value")), _moves(got.get("value"))
        parts = []
        if expected - legal:
            parts.append(_t("missing", moves=sorted(expected - legal)))
        if legal - expected:
            parts.append(_t("not_legal", moves=sorted(legal - expected)))
        return f"{where}{what}: {'; '.join(parts)} ({_t('legal', moves=sorted(legal))})"
    hint = got.get("hint") if isinstance(got.get("hint"), str) else ""
    return (where + _t("expected", what=what, expected=want.get("repr", "?"), got=str(got.get("repr", "?")))
            + (f" ({hint})" if hint else ""))


def explanation(want: dict[str, Any]) -> str:
    """What a check of the reference expects, in its own words ("scenario: what: expected X"):
    a hidden test's explanation, with no text of the learner's (their value is left out)."""
    from ..text.i18n import language
    from ..text.locale.feedback import said

    where = "".join(f"{s}: " for s in want.get("scenario", []) if isinstance(s, str))
    what = str(want.get("what", ""))
    if want.get("kind") == "moves":
        return where + said("moves", language(), what=what, moves=sorted(_moves(want.get("value"))))
    if want.get("kind") == "hands":
        return where + what
    return where + said("expected", language(), what=what, expected=str(want.get("repr", "?")))


def _error(run: CellRun) -> str:
    if run.ename in ("CheckFailed", "AssertionError") and run.evalue:
        return run.evalue
    return f"{run.ename}: {run.evalue}" if run.evalue else run.ename


def judge(reference: list[dict[str, Any]], run: CellRun, quiet: bool) -> Verdict:
    """Judge one test cell of a learner's run against the reference's records.

    ``quiet``: the message may hold no text the learner's code chose (a hidden test, or any
    cell after one)."""
    if not reference:
        ok = run.status == OK
        return Verdict(ok, "" if ok or quiet else _error(run), checked=False)
    records = _records(run.report)
    first = explanation(reference[0]) if quiet else ""  # the cell failed as a whole: what it checks first
    if run.status != OK:
        return Verdict(False, "" if quiet else _error(run), explanation=first)
    if records is None:
        return Verdict(False, "" if quiet else "the test cell reported no results (were the checks changed?)",
                       explanation=first)
    for i, want in enumerate(reference):
        got = records[i] if i < len(records) else None
        if want.get("kind") == "hands":  # a player's hands: played again here, wins counted here
            from .hands import judge_hands

            passed, what = judge_hands(want.get("value"), got.get("value") if got else None)
            if not passed:
                where = "".join(f"{s}: " for s in want.get("scenario", []) if isinstance(s, str))
                return Verdict(False, "" if quiet else f"{where}{want.get('what', '')}: {what}",
                               explanation=explanation(want) if quiet else "")
            continue
        if got is None or not same(want.get("value"), got.get("value")):
            return Verdict(False, "" if quiet else _sentence(want, got), explanation=explanation(want) if quiet else "")
    if len(records) != len(reference):
        return Verdict(False, "" if quiet else "the test cell reported more results than it checks", explanation=first)
    return Verdict(True)
