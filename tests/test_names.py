"""One name per idea (issue 27): a public class or function of the package is defined in one module,
unless the list below says why the same name stands for the same idea in two places (a package's
own store, its command-line commands, mm's front door) or names a clash left to the owner of the
other module.  Read with ``ast``: a new class or function that takes a name already used for
something else fails here, so ``View``, ``Seat`` or ``Choice`` never mean two things again."""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "maumau"

#: The names defined in more than one module on purpose, and why.
SHARED: dict[str, str] = {
    # the same idea, once in each package that has it (the packages do not import each other)
    "Store": "a package's SQLite database (classroom tables, a league)",
    "Limits": "what one run may use: a graded notebook (sandbox.limits), a bot's game (league)",
    "Sandbox": "where untrusted code runs: a batch of graded kernels, a league's bots",
    "Row": "one line of a package's results table (grades.csv, the league's standings)",
    "add_commands": "each package's subcommands of the ``maumau`` command line",
    "main": "the entry point of a script run as its own process (cli, the jails, a league runner)",
    "say": "a package's word catalogue lookup (the grading report's, the league's)",
    "cpu_seconds": "the CPU time of a process tree (a grading kernel's, a bot's)",
    "wilson": "the Wilson interval of a win rate (the league clamps its bounds; simulation does not)",
    "encode": "a message of a wire as text: the class table's (classroom.messages), the league's",
    # mm's front door: the public function wraps the one below it (the public names of docs/explanation/design.md)
    "play": "mm.play, the notebook's table (widgets) and the terminal's (terminal.play)",
    "join": "mm.join (a seat with its table) wraps classroom.join (docs/explanation/design.md: the seat alone)",
    "replay": "mm.replay and the league's replay of a game show the same viewer",
    "rulebook": "mm.rulebook is text.rules_table.rulebook",
    "set_language": "mm.set_language is text.i18n.set_language",
    "source": "mm.source is text.source.source",
    # different ideas in modules this session could not change (reported, not renamed)
    "number": "charts.number rounds a chart spec's number, text.i18n.number writes one in a language "
              "(charts' is used by graph/)",
    "probe": "grading.kernel.probe asks a kernel; simulation.spread.probe times a worker (grading's)",
    "Batch": "env.Batch, the batched engine (its name fixed by issue 39's design), and grading.kernel.Batch, "
             "what a kernel reads of its grading batch (a Protocol inside grading)",
}


def _definitions() -> dict[str, set[str]]:
    """Every public top-level class and function of the package, by name: the modules defining it."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            defines = isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            if defines and not node.name.startswith("_"):
                found[node.name].add(str(path.relative_to(PACKAGE)))
    return found


def test_a_public_name_means_one_thing_in_the_package():
    twice = {name: sorted(where) for name, where in _definitions().items() if len(where) > 1 and name not in SHARED}
    assert not twice, f"defined in several modules (rename one, or say why in SHARED): {twice}"


def test_the_list_of_shared_names_is_not_stale():
    found = _definitions()
    stale = [name for name in SHARED if len(found.get(name, ())) < 2]
    assert not stale, f"no longer defined twice, drop from SHARED: {stale}"


def test_no_test_module_is_named_like_a_standard_library_module() -> None:
    """pytest puts every test folder on sys.path; a tests/lti/platform.py was imported as the standard
    library's ``platform`` by the processes the tests spawn (dask's workers died: 'module platform has no
    attribute system')."""
    tests = Path(__file__).resolve().parent
    shadowing = sorted(p.relative_to(tests).as_posix() for p in tests.rglob("*.py")
                       if p.stem in sys.stdlib_module_names and "submissions" not in p.parts)
    assert not shadowing, f"rename these test modules: {shadowing}"
