"""Readable checks for exercise test cells, and their sentences by language."""

from __future__ import annotations

import ast
import contextlib
import enum
import linecache
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any

from ..text.i18n import language, percent

__all__ = ['CheckFailed', 'check', 'scenario', 'check_moves', 'check_wins', 'move_names', 'passed', 'summary']


# --- the checks' sentences ----------------------------------------------------------------------------------
#
# The sentences of the exercises' checks, by language (English is the fallback for a missing key).

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "expected": "{what}: expected {expected}, got {got}",
        "missing": "missing {moves}",
        "not_legal": "should not be legal {moves}",
        "legal": "legal: {moves}",
        "did_not_run": "{what}: the check did not run",
        "raised": "your code raised {error}",
        "undefined_call": "the check calls `{name}`, which your notebook does not define: run the cell that "
                          "defines it, or give it back that name",
        "undefined": "the check uses `{name}`, which your notebook does not define: run the cell that "
                     "defines it, or give it back that name",
        "check_raised": "the check raised {error}",
        "where_check": "in the check cell, line {line}: {code}",
        "not_written": "{function} is not written yet: replace raise NotImplementedError() with your code",
        "your_code": "your code",
        "failed": "Check failed",
        "where": "in {function}, line {line}: {code}",
        "passed": "All {count} checks passed.",
        "passed_one": "The check passed.",
        "passed_all": "All checks passed.",
        "wins": "{what}: won {won} of {games} hands ({rate}), at least {expected} needed",
        "some_failed": "{failed} of {count} checks failed.",
        "earlier": "(a scenario before it in this cell failed before setting it up)",
        "failed_any": "Some checks failed.",
        "summary": "Checks run: {passed} passed, {failed} failed.",
        "summary_none": "No checks have run yet: run the cells above first (Run → Run All Cells).",
    },
    "de": {
        "expected": "{what}: erwartet {expected}, erhalten {got}",
        "missing": "es fehlen {moves}",
        "not_legal": "sollten nicht erlaubt sein {moves}",
        "legal": "erlaubt: {moves}",
        "did_not_run": "{what}: die Prüfung lief nicht",
        "raised": "dein Code hat {error} ausgelöst",
        "undefined_call": "die Prüfung ruft `{name}` auf, aber dein Notebook definiert es nicht: führe die Zelle "
                          "aus, die es definiert, oder gib ihm seinen Namen zurück",
        "undefined": "die Prüfung verwendet `{name}`, aber dein Notebook definiert es nicht: führe die Zelle "
                     "aus, die es definiert, oder gib ihm seinen Namen zurück",
        "check_raised": "die Prüfung hat {error} ausgelöst",
        "where_check": "in der Prüfzelle, Zeile {line}: {code}",
        "not_written": "{function} ist noch nicht geschrieben: ersetze raise NotImplementedError() "
                       "durch deinen Code",
        "your_code": "dein Code",
        "failed": "Prüfung fehlgeschlagen",
        "where": "in {function}, Zeile {line}: {code}",
        "passed": "Alle {count} Prüfungen bestanden.",
        "passed_one": "Die Prüfung ist bestanden.",
        "passed_all": "Alle Prüfungen bestanden.",
        "wins": "{what}: {won} von {games} Spielen gewonnen ({rate}), mindestens {expected} nötig",
        "some_failed": "{failed} von {count} Prüfungen fehlgeschlagen.",
        "earlier": "(ein Szenario davor in dieser Zelle ist gescheitert, bevor es das vorbereitet hat)",
        "failed_any": "Einige Prüfungen sind fehlgeschlagen.",
        "summary": "Gelaufene Prüfungen: {passed} bestanden, {failed} fehlgeschlagen.",
        "summary_none": "Noch keine Prüfung gelaufen: führe zuerst die Zellen darüber aus (Run → Run All Cells).",
    },
    "hu": {
        "expected": "{what}: várt érték {expected}, kapott {got}",
        "missing": "hiányzik {moves}",
        "not_legal": "nem volna szabályos {moves}",
        "legal": "szabályos: {moves}",
        "did_not_run": "{what}: az ellenőrzés nem futott le",
        "raised": "a kódod hibát dobott: {error}",
        "undefined_call": "az ellenőrzés meghívja ezt: `{name}`, de a notebookod nem definiálja: futtasd a "
                          "cellát, amelyik definiálja, vagy add vissza neki ezt a nevet",
        "undefined": "az ellenőrzés ezt használja: `{name}`, de a notebookod nem definiálja: futtasd a "
                     "cellát, amelyik definiálja, vagy add vissza neki ezt a nevet",
        "check_raised": "az ellenőrzés hibát dobott: {error}",
        "where_check": "az ellenőrző cella {line}. sora: {code}",
        "not_written": "{function} még nincs megírva: a raise NotImplementedError() helyére írd a saját kódodat",
        "your_code": "a kódod",
        "failed": "Sikertelen ellenőrzés",
        "where": "{function}, {line}. sor: {code}",
        "passed": "{count}/{count} ellenőrzés sikeres.",
        "passed_one": "Az ellenőrzés sikeres.",
        "passed_all": "Minden ellenőrzés sikeres.",
        "wins": "{what}: {games} leosztásból {won} megnyerve ({rate}), legalább {expected} kell",
        "some_failed": "{count} ellenőrzésből {failed} sikertelen.",
        "earlier": "(a cella egy korábbi esete elbukott, mielőtt ezt előkészítette volna)",
        "failed_any": "Néhány ellenőrzés sikertelen.",
        "summary": "Lefutott ellenőrzések: {passed} sikeres, {failed} sikertelen.",
        "summary_none": "Még nem futott ellenőrzés: előbb futtasd a fenti cellákat (Run → Run All Cells).",
    },
}


# --- the checks ---------------------------------------------------------------------------------------------
#
# Readable checks for exercise test cells.
#
# A failing check says which scenario failed and what was expected and got, in one
# sentence, instead of a bare ``AssertionError``::
#
#     with scenario("3 players, seat 0 plays 8♥"):
#         check("who moves next", t.to_move, 2)
#     # CheckFailed: 3 players, seat 0 plays 8♥: who moves next: expected 2, got 0
#
# An exception raised by the learner's own code inside ``scenario`` becomes a CheckFailed
# that says so: a method that still has its stub (``raise NotImplementedError()``) reads
# "SkipOnEight.affects is not written yet: ...", any other error "your code raised ...".  An error
# on the check's own line is not the learner's code: a name the check calls that the notebook does
# not define (deleted, renamed, its cell not run) reads "the check calls `play_card`, which your
# notebook does not define ...", and the line shown under it is "in the check cell, line 9".
#
# In a notebook a CheckFailed shows as that one line, not as a traceback (IPython calls
# ``_render_traceback_``).  When ``maumau grade`` runs a learner's notebook, the checks decide
# nothing in the kernel: the grader removes every ``expected`` argument from the test cells,
# ``check(what, got)`` then only records what the learner's code produced, and the grader
# compares those records with the expected values of a run of the instructor's solution,
# which never enter the learner's kernel (``maumau.grading.verdict``).  A stub
# called outside a scenario (a *try it* cell) reads the same way: importing this module in an
# IPython kernel shows a NotImplementedError raised by the learner's code as one line.  The
# sentences follow ``maumau.text.i18n``'s language (en, de, hu: the small catalogue below).

_current: list[str] = []
#: The checks' records while a notebook is graded (None: not recording).
_records: list[dict[str, Any]] | None = None
#: ``check(what, got)`` without ``expected`` (the grader removed it): record, do not compare.
_MISSING: Any = object()
REPORT_MIME = "application/vnd.maumau.report+json"
_REPR_CHARS = 200

_RED, _BOLD, _RESET = "\x1b[31m", "\x1b[1m", "\x1b[0m"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: Where the standard library and installed packages live (never the learner's code).
_LIBRARIES = tuple(dict.fromkeys(os.path.abspath(p).rstrip(os.sep) + os.sep
                                 for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)
                                 if os.path.abspath(p) != os.sep))


def _t(key: str, **values: Any) -> str:
    table = TEXT.get(language(), TEXT["en"])
    return table.get(key, TEXT["en"][key]).format(**values)


class CheckFailed(AssertionError):
    """A test scenario whose result differs from the expected one.

    ``where`` optionally names the line of the learner's code that raised (shown in a
    notebook under the message, never part of the message the grader reads)."""

    def __init__(self, message: str = "", where: str = "") -> None:
        super().__init__(message)
        self.where = where

    def _render_traceback_(self) -> list[str]:
        """What IPython shows instead of a traceback: the message, and where the learner's code
        raised if it did."""
        lines = [f"{_RED}{_BOLD}✗ {_t('failed')}:{_RESET} {self}"]
        if self.where:
            lines.append(f"  {self.where}")
        return lines


def _prefix() -> str:
    return "".join(f"{s}: " for s in _current)


# --- records for the grader ------------------------------------------------------------------------

def canonical(value: Any, depth: int = 0) -> Any:
    """``value`` as plain JSON data that compares like the value itself: numbers, strings,
    None and booleans as they are, cards and moves by name, enums by class and member,
    sequences, sets and dicts element by element; anything else by its type and repr.
    Built from the base types' own methods, so a learner's subclass cannot pose as another
    value (an object whose ``__eq__`` always answers True is just an object)."""
    if depth > 30:
        return {"deep": True}
    kind = type(value)
    if value is None or kind in (bool, str, int):
        return value
    if kind is float:
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, enum.Enum):
        return {"enum": f"{kind.__name__}.{value.name}"}
    from ..core.cards import Card
    from ..core.moves import Move
    if isinstance(value, (Card, Move)):
        return {kind.__name__.lower() if isinstance(value, Card) else "move": str(value)}
    if isinstance(value, bool):
        return bool.__bool__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return canonical(float.__float__(value))
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (tuple, list)):
        items = [canonical(v, depth + 1) for v in (tuple.__iter__(value) if isinstance(value, tuple)
                                                   else list.__iter__(value))]
        return {"tuple" if isinstance(value, tuple) else "list": items}
    if isinstance(value, (set, frozenset)):
        return {"set": sorted((canonical(v, depth + 1) for v in value), key=repr)}
    if isinstance(value, dict):
        pairs = [[canonical(k, depth + 1), canonical(v, depth + 1)] for k, v in dict.items(value)]
        return {"dict": sorted(pairs, key=repr)}
    return {"object": f"{kind.__module__}.{kind.__qualname__}", "repr": _short_repr(value)}


def _short_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception as err:  # a learner's broken __repr__
        text = f"<repr raised {type(err).__name__}>"
    return text if len(text) <= _REPR_CHARS else text[: _REPR_CHARS - 1] + "…"


def _record(kind: str, what: str, value: Any, shown: Any, hint: str) -> None:
    if _records is not None:
        _records.append({"kind": kind, "scenario": list(_current), "what": str(what),
                         "value": canonical(value), "repr": _short_repr(shown), "hint": str(hint)})


def record() -> None:
    """Start recording checks (the grader's first cell)."""
    global _records
    _records = []


def begin() -> None:
    """Forget what was recorded so far (the grader, before each test cell)."""
    if _records is not None:
        _records.clear()


def report() -> None:
    """Display the records of the last test cell for the grader, and forget them."""
    from IPython.display import display

    found = list(_records or ())
    begin()
    display({REPORT_MIME: found}, raw=True)


def check(what: str, got: Any, expected: Any = _MISSING, hint: str = "") -> None:
    """Pass if ``got == expected``; else CheckFailed "scenario: what: expected X, got Y".

    Without ``expected`` (as the grader runs a learner's test cells) it records ``got``."""
    if expected is _MISSING:
        _record("value", what, got, got, hint)
        return
    _record("value", what, expected, expected, hint)
    if got != expected:
        message = _prefix() + _t("expected", what=what, expected=repr(expected), got=repr(got))
        raise CheckFailed(message + (f" ({hint})" if hint else ""))


def move_names(moves: Iterable[Any]) -> list[str]:
    """Moves as sorted short strings, e.g. ['draw', 'play 7H', 'play JC wish H']."""
    return sorted(str(m) for m in moves)


def _shown(names: Iterable[str]) -> list[str] | str:
    """Moves named by ``move_names`` as a check line shows them: in English by those names
    (``play 7H``), in another language as the code that makes them (``Play('7H')``, ``Draw()``),
    which reads the same in every language."""
    if language() == "en":
        return sorted(names)
    return "[" + ", ".join(sorted(_as_code(name) for name in names)) + "]"


def _as_code(name: str) -> str:
    from ..core.moves import Draw, Pass, Play

    words = name.split()
    if words in (["draw"], ["pass"]):
        return repr(Draw() if words == ["draw"] else Pass())
    if not words or words[0] != "play":
        return name
    cards = [w for w in words[1:] if w not in ("wish", "runde", "mau")]
    wish = words[words.index("wish") + 1] if "wish" in words[:-1] else None
    if wish is not None:
        cards.remove(wish)
    try:
        return repr(Play(cards, wish=wish, mau="mau" in words, runde="runde" in words))
    except (ValueError, TypeError):  # not a move the engine knows: said as it is
        return name


def check_moves(what: str, state: Any, expected: Iterable[Any] = _MISSING, hint: str = "") -> None:
    """The legal moves of ``state`` are exactly ``expected`` (any order); the message
    lists what is missing and what should not be there.  Without ``expected`` (as the
    grader runs a learner's test cells) it records the legal moves."""
    got = set(move_names(state.legal_moves()))
    if expected is _MISSING:
        _record("moves", what, sorted(got), sorted(got), hint)
        return
    want = set(move_names(expected))
    _record("moves", what, sorted(want), sorted(want), hint)
    if got != want:
        parts = []
        if want - got:
            parts.append(_t("missing", moves=_shown(want - got)))
        if got - want:
            parts.append(_t("not_legal", moves=_shown(got - want)))
        message = f"{_prefix()}{what}: {'; '.join(parts)} ({_t('legal', moves=_shown(got))})"
        raise CheckFailed(message + (f" ({hint})" if hint else ""))


def check_wins(what: str, hands: Any, expected: Any = _MISSING, hint: str = "") -> None:
    """``hands`` (``maumau.grading.hands.play_hands``) were won at least ``expected`` of the
    time (a share, 0.45 for 45%).  While graded it compares nothing: without ``expected`` (a
    learner's kernel) it records what the test asked for and the player, which the grader plays
    on secret deals in a process of its own (``maumau.grading.hands.judge_hands``); with it
    (the instructor's reference run) the hands asked for and the share.  The wins of a kernel
    count for nothing."""
    record = getattr(hands, "record", None)
    spec = getattr(hands, "spec", None)
    if expected is _MISSING:
        if _records is not None:
            value = record() if callable(record) else {}
            _records.append({"kind": "hands", "scenario": list(_current), "what": str(what), "value": value,
                             "repr": _short_repr(hands), "hint": str(hint)})
        return
    if _records is not None:
        _records.append({"kind": "hands", "scenario": list(_current), "what": str(what),
                         "value": {"spec": spec.to_dict() if spec is not None else {}, "at_least": float(expected)},
                         "repr": f"{float(expected):.0%}", "hint": str(hint)})
        return  # the grader plays the hands (no process can be started in a graded kernel)
    won = list(getattr(hands, "won", []))
    rate = sum(map(bool, won)) / len(won) if won else 0.0
    if rate < expected:
        message = _prefix() + _t("wins", what=what, won=sum(map(bool, won)), games=len(won), rate=percent(rate),
                                 expected=percent(float(expected)))  # 42% · 42 % (tests/grading/test_hands.py)
        raise CheckFailed(message + (f" ({hint})" if hint else ""))


# --- where the learner's code raised ------------------------------------------------------------

def learners_code(filename: str) -> bool:
    """Whether code of ``filename`` is the learner's (a notebook cell), not maumau's or a library's."""
    path = os.path.abspath(filename)
    return not (filename.startswith("<frozen") or path.startswith(_PACKAGE + os.sep) or path.startswith(_LIBRARIES))


def _innermost(tb: TracebackType | None) -> TracebackType | None:
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb


def _function(tb: TracebackType) -> str:
    code = tb.tb_frame.f_code
    name = getattr(code, "co_qualname", code.co_name)
    return _t("your_code") if name.startswith("<") else name


def _stub(err: BaseException) -> str | None:
    """The name of the learner's function ``err`` (a NotImplementedError) comes from, or None
    when it was raised elsewhere."""
    tb = _innermost(err.__traceback__)
    if not isinstance(err, NotImplementedError) or tb is None or not learners_code(tb.tb_frame.f_code.co_filename):
        return None
    return _function(tb)


def _learners_lines(err: BaseException) -> list[TracebackType]:
    """The lines of the learner's notebook in ``err``'s traceback, outermost first: inside ``scenario``
    the first is the cell's own line (the check), any after it are functions that line called."""
    found = []
    tb = err.__traceback__
    while tb is not None:
        if learners_code(tb.tb_frame.f_code.co_filename):
            found.append(tb)
        tb = tb.tb_next
    return found


def _in_the_check(err: BaseException) -> TracebackType | None:
    """The check's own line when ``err`` was raised there (a name it calls is missing, or maumau
    refused what it was given), not inside a function of the learner's; else None."""
    lines = _learners_lines(err)
    return lines[0] if len(lines) == 1 else None


def _where(err: BaseException) -> str:
    """The innermost line of the notebook in ``err``'s traceback, as one short line: in the check
    cell, or in the learner's function it called."""
    lines = _learners_lines(err)
    if not lines:
        return ""
    found = lines[-1]
    code = linecache.getline(found.tb_frame.f_code.co_filename, found.tb_lineno).strip()
    if not code:
        return ""
    if found is _in_the_check(err):
        return _t("where_check", line=found.tb_lineno, code=code[:100])
    return _t("where", function=_function(found), line=found.tb_lineno, code=code[:100])


def _uses(tb: TracebackType, name: str) -> str | None:
    """How the cell of ``tb`` uses ``name``: "calls" it, only "uses" it, or "sets" it itself (a
    scenario before sets it up); None when the cell's source cannot be read."""
    source = "".join(linecache.getlines(tb.tb_frame.f_code.co_filename))
    if not source:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    sets = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    sets |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    sets |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
             for a in n.names}
    if name in sets:
        return "sets"
    called = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name for n in ast.walk(tree))
    return "calls" if called else "uses"


def _raised(err: BaseException) -> str:
    """What a scenario says when ``err`` was raised in it (not a stub): a name the check needs that
    the notebook does not define, a name an earlier scenario failed to set, or what the learner's
    code raised."""
    error = type(err).__name__ + (f": {err}" if str(err) else "")
    check = _in_the_check(err)
    if isinstance(err, NameError) and check is not None:
        name = getattr(err, "name", None)
        use = _uses(check, name) if name else None
        if use in ("calls", "uses"):  # the learner deleted or renamed it, or never ran its cell
            return _t("undefined_call" if use == "calls" else "undefined", name=name)
        if _failed_here:  # a name the failed scenario before never set
            return _t("check_raised", error=error) + " " + _t("earlier")
    if isinstance(err, NameError) and _failed_here:  # the note after the sentence: German ends it on its verb
        return _t("raised", error=error) + " " + _t("earlier")
    return _t("raised", error=error)


def _not_written(err: BaseException) -> str | None:
    name = _stub(err)
    if name is None:
        return None
    return _t("not_written", function=name) + (f" ({err})" if str(err) else "")


@contextlib.contextmanager
def scenario(name: str) -> Iterator[None]:
    """Name the situation being tested; errors inside say which one failed.

    In the learner's notebook a failure is shown as its ✗ line and the cell goes on after the
    ``with`` block, so Run All shows every check's result at once (``summary()`` lists them);
    while graded it raises as before (the verdict is the grader's, outside the kernel)."""
    _current.append(name)
    try:
        try:
            yield
        except CheckFailed:
            raise
        except Exception as err:
            stub = _not_written(err)
            if stub is not None:
                raise CheckFailed(_prefix() + stub) from err
            raise CheckFailed(_prefix() + _raised(err), _where(err)) from err
    except CheckFailed as failed:
        if _records is not None or len(_current) > 1:  # graded, or an inner scenario: the outer one says it
            raise
        _note(_prefix(), False, str(failed))
        print("\n".join(failed._render_traceback_()))
    else:
        if len(_current) == 1:
            _note(_prefix(), True, "")
    finally:
        _current.pop()


#: What the scenarios of this kernel did, for ``summary()``: scenario → (passed, message), in the
#: order first run (a cell run again replaces its lines); and the failures since the last ``passed()``.
_results: dict[str, tuple[bool, str]] = {}
_failed_here: list[str] = []
#: Called with every scenario's ✓ or ✗ in the learner's kernel: ``maumau.classroom.live_client``
#: reports them to the class server the learner chose to connect to (nothing is called otherwise).
listeners: list[Callable[[str, bool], None]] = []


def _note(where: str, ok: bool, message: str) -> None:
    _results[where.removesuffix(": ")] = (ok, message)
    if not ok:
        _failed_here.append(message)
    for listener in listeners:
        with contextlib.suppress(Exception):  # a report that fails must never fail the check
            listener(where.removesuffix(": "), ok)


def passed(count: int | None = None) -> None:
    """Print the line a test cell ends with: all passed, or how many of its checks failed."""
    if _failed_here:
        failed = len(_failed_here)
        _failed_here.clear()
        print(_t("some_failed", failed=failed, count=max(count or 0, failed)) if count else _t("failed_any"))
        return
    print(_t("passed_all") if not count else _t("passed_one") if count == 1 else _t("passed", count=count))


def summary() -> None:
    """The last cell of an exercise: ✓ or ✗ for every scenario run in this kernel, then a total.
    Raises CheckFailed (one ✗ line) if any failed, so ``pytest --nbval-lax`` fails too; says
    nothing while graded (the grader writes its own report)."""
    if _records is not None:
        return
    if not _results:
        print(_t("summary_none"))
        return
    lines = [f"{'✓' if ok else '✗'} {where}" + (f"\n    {message.removeprefix(where + ': ')}" if message else "")
             for where, (ok, message) in _results.items()]  # the scenario is said once
    failed = sum(not ok for ok, _ in _results.values())
    print("\n".join(lines))
    print(_t("summary", passed=len(_results) - failed, failed=failed))
    _failed_here.clear()
    if failed:
        raise CheckFailed(_t("some_failed", failed=failed, count=len(_results)))


# --- a stub called outside a scenario, in IPython --------------------------------------------------

def _show_stub(shell: Any, etype: type, value: BaseException, tb: TracebackType, tb_offset: Any = None) -> list[str]:
    """IPython's custom handler for NotImplementedError: one line for a learner's stub, else the
    usual traceback."""
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb
    stub = _not_written(value)
    if stub is None:
        stb: list[str] = shell.InteractiveTB.structured_traceback(etype, value, tb, tb_offset=tb_offset)
    else:
        stb = [f"{_RED}{_BOLD}✗ NotImplementedError:{_RESET} {stub}"]
    shell._showtraceback(etype, value, stb)
    return stb


def _install() -> None:
    """In an IPython kernel, show a learner's stub raised outside a scenario as one line
    (once, and never over another custom handler)."""
    if "IPython" not in sys.modules:
        return
    try:
        shell = sys.modules["IPython"].get_ipython()
        if shell is None or getattr(shell, "custom_exceptions", None) != ():
            return
        shell.set_custom_exc((NotImplementedError,), _show_stub)
    except Exception:  # an unusual shell: keep its own display
        return


_install()
