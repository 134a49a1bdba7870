"""The package's rooms: imports run one way, from a higher room to a lower one, with no circle.

Read with ``ast`` only (maumau is never imported here): every import of a maumau module in
every ``.py`` file of the package counts, at module level, inside a function (a lazy import),
under ``if TYPE_CHECKING:``, through ``importlib.import_module``/``__import__`` with a literal
name, and the ``cimport`` lines of the ``.pxd`` files.  ``maumau/__init__.py`` is the facade:
it may import anything, and nothing inside the package imports it.

When modules move (e.g. into ``maumau.core``), update ROOMS: a key is a module or a package
(it then covers everything inside it); the longest matching key wins.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

PACKAGE = Path(__file__).resolve().parents[1] / "maumau"
FACADE = "maumau"

#: The rooms, bottom to top: a module may import from its own room and the rooms below it.
ROOM_NAMES = {0: "catalogue", 1: "core", 2: "text", 3: "players", 4: "play", 5: "simulation", 6: "apps"}

ROOMS: dict[str, int] = {
    # 0 the message catalogue: the words of en/de/hu (it imports nothing of maumau by name)
    "maumau.text.locale": 0,
    # 1 the core: it records events and refusals as data; words are made above it
    "maumau.core": 1,
    # 2 words about the game: narration, how a state looks, the variants side by side
    "maumau.text": 2,
    #   and how numbers look: charts as Vega-Lite specs or matplotlib pictures (imports nothing of maumau)
    "maumau.charts": 2,
    #   and what an install lacks, in a sentence: which extra brings a missing module (maumau.extras)
    "maumau.extras": 2,
    # 3 players: what a seat sees, computer players
    "maumau.players": 3,
    # 4 playing on: games (undo, replay, players at a table), matches, saved files
    "maumau.play": 4,
    # 5 many hands between players, and their statistics
    "maumau.simulation": 5,
    #   and the sandbox learners' code runs in (the jail, its limits, the guard), below the grader and
    #   the league that share it; it imports nothing of maumau (test_the_sandbox_stands_alone)
    "maumau.sandbox": 5,
    # 6 the applications
    "maumau.widgets": 6,
    "maumau.graph": 6,
    "maumau.terminal": 6,
    "maumau.cli": 6,
    "maumau.grading": 6,
    "maumau.classroom": 6,
    "maumau.lti": 6,  # the LTI 1.3 tool: an LMS launches learners into the class server
    "maumau.league": 6,
    "maumau.env": 6,
    "maumau.course": 6,
    "maumau.__main__": 6,
    "maumau._version": 6,
}


#: The only imports that go up a room: the doors through which the core hands a person words or a
#: saved form, each imported inside the one method that needs it (a lazy import), never at the
#: top of a module.  The state's ``why_illegal``, ``explain``, ``repr`` and ``to_dict`` and an
#: ``IllegalMove``'s message; a scoring rule's goal and the Runde's memory, told to the players.
#: A variant shown in a notebook (``Variant._repr_html_``) and a misspelt card's ``CardError``
#: speak the course's language too.
#: The engine itself (legal moves, applying a move, refusals, events) never imports the words.
DOORS = {
    ("maumau.core.cards", "maumau.text.i18n"),  # a CardError's message, in the course's language
    ("maumau.core.state", "maumau.text.refusals"),
    ("maumau.core.state", "maumau.text.explain"),
    ("maumau.core.state", "maumau.play.serialize"),
    ("maumau.core.variants", "maumau.text.rules_table"),  # the variant's table and repr, in the language
}


def _door(i: Import) -> bool:
    return i.kind == "lazy" and (i.source, i.target) in DOORS


def test_no_module_closes_a_cycle_at_its_end():
    """No import at the end of a module closes a cycle: the state holds the engine's functions."""
    late = {(i.source, i.target) for i in imports() if i.kind == "late"}
    assert late == set(), late


#: The kinds of import the cycle check counts: what runs when a module is loaded.  An import
#: under ``if TYPE_CHECKING:`` never runs (the hooks of a rule name the Turn and the state they
#: are given), and an import inside a function (a lazy import) runs when it is called, once both
#: modules are loaded; so would an import at the very end of a module, after its last function
#: and class ("late"; none is left).  The room check counts them all.
CYCLE_KINDS = {"top", "dynamic", "cimport"}


class Import(NamedTuple):
    source: str  # the importing module
    target: str  # the imported module (the nearest module of a dotted name)
    file: str
    line: int
    kind: str  # "top", "late" (after the last def), "lazy" (inside a function), "type-checking", "dynamic", "cimport"

    def __str__(self) -> str:
        return f"{self.source} -> {self.target}  ({self.file}:{self.line}, {self.kind})"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
PACKAGES = {_module_name(p) for p in PACKAGE.rglob("__init__.py")}


def _absolute(current: str, level: int, module: str | None) -> str:
    if level == 0:
        return module or ""
    base = current.split(".") if current in PACKAGES else current.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _nearest_module(name: str) -> str:
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


class _Collector(ast.NodeVisitor):
    def __init__(self, module: str, file: str):
        self.module, self.file = module, file
        self.functions = self.type_checking = 0
        self.found: list[Import] = []

    def visit_Module(self, node: ast.Module) -> None:  # noqa: N802
        defs = [n.end_lineno or n.lineno for n in node.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        self.last_def = max(defs, default=0)
        self.generic_visit(node)

    def _add(self, name: str, line: int, kind: str | None = None) -> None:
        if name == FACADE or name.startswith(FACADE + "."):
            kind = kind or ("type-checking" if self.type_checking else "lazy" if self.functions
                            else "late" if 0 < getattr(self, "last_def", 0) < line else "top")
            self.found.append(Import(self.module, _nearest_module(name), self.file, line, kind))

    def visit_FunctionDef(self, node: ast.AST) -> None:  # noqa: N802
        self.functions += 1
        self.generic_visit(node)
        self.functions -= 1

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef  # noqa: N815

    def visit_If(self, node: ast.If) -> None:  # noqa: N802
        if not _is_type_checking(node.test):
            self.generic_visit(node)
            return
        self.type_checking += 1
        for child in node.body:
            self.visit(child)
        self.type_checking -= 1
        for child in node.orelse:
            self.visit(child)

    def visit_Import(self, node: ast.Import) -> None:  # noqa: N802
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:  # noqa: N802
        base = _absolute(self.module, node.level, node.module)
        names_only = False
        for alias in node.names:
            if f"{base}.{alias.name}" in MODULES:  # from . import engine: the module engine
                self._add(f"{base}.{alias.name}", node.lineno)
            else:
                names_only = True
        if names_only:
            self._add(base, node.lineno)

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in ("import_module", "__import__") and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                self._add(arg.value, node.lineno, "dynamic")
            elif (isinstance(arg, ast.BinOp) and isinstance(arg.left, ast.Name) and arg.left.id == "__name__"
                  and isinstance(arg.right, ast.Constant) and isinstance(arg.right.value, str)):
                self._add(self.module + arg.right.value, node.lineno, "dynamic")
        self.generic_visit(node)


def imports() -> list[Import]:
    """Every import of a maumau module inside the package."""
    found: list[Import] = []
    for module, path in MODULES.items():
        collector = _Collector(module, str(path.relative_to(PACKAGE.parent)))
        collector.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        found += collector.found
    for path in sorted(PACKAGE.rglob("*.pxd")):
        module = _module_name(path)
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = re.match(r"\s*from\s+(\.*)([\w.]*)\s+cimport\b", text)
            if match and (match.group(1) or match.group(2).startswith(FACADE + ".")):
                name = _absolute(module, len(match.group(1)), match.group(2) or None)
                found.append(Import(module, _nearest_module(name), str(path.relative_to(PACKAGE.parent)),
                                    number, "cimport"))
    return found


def room(module: str) -> int | None:
    keys = [k for k in ROOMS if module == k or module.startswith(k + ".")]
    return ROOMS[max(keys, key=len)] if keys else None


def _named(number: int | None) -> str:
    return f"{number} {ROOM_NAMES.get(number, '?')}" if number is not None else "no room"


def test_every_module_has_a_room():
    homeless = [m for m in MODULES if m != FACADE and room(m) is None]
    assert not homeless, "modules in no room of ROOMS (add them to the table): " + ", ".join(homeless)


def test_imports_go_down():
    """No module imports one in a higher room, lazily or for type checking included."""
    upward = [i for i in imports() if i.source != FACADE and i.target != FACADE and not _door(i)
              and (room(i.target) or 0) > (room(i.source) or 0)]
    lines = [f"  [{_named(room(i.source))} -> {_named(room(i.target))}] {i}" for i in upward]
    assert not upward, f"{len(upward)} imports go up a room:\n" + "\n".join(lines)


def test_the_core_imports_no_words_but_through_its_doors():
    """The engine records events and refusals; words are made above it (maumau.text)."""
    words = [i for i in imports() if i.source.startswith("maumau.core") and not _door(i)
             and (i.target.startswith("maumau.text") or (room(i.target) or 0) > 1)]
    assert not words, "the core imports words:\n" + "\n".join(f"  {i}" for i in words)
    doors = {(i.source, i.target) for i in imports() if _door(i)}
    assert doors == DOORS, f"doors that are not used any more: {DOORS - doors}"


def test_nothing_imports_the_facade():
    """maumau/__init__.py imports the whole package, so importing it from inside goes up to the top."""
    inside = [i for i in imports() if i.target == FACADE and i.source != FACADE]
    assert not inside, "imports of the facade maumau from inside the package:\n" + "\n".join(f"  {i}" for i in inside)


def _allowed_in_cycles(i: Import) -> bool:
    """Left out of the cycle check: the facade, and a submodule's import of its own package's
    ``__init__`` (its re-exports), e.g. ``maumau.players.strength`` -> ``maumau.players``."""
    return FACADE in (i.source, i.target) or i.source == i.target or (
        i.target in PACKAGES and i.source.startswith(i.target + "."))


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, without recursion; the components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def _shortest_cycle(start: str, graph: dict[str, set[str]]) -> list[str]:
    """A shortest circle through ``start`` (breadth first)."""
    previous: dict[str, str] = {}
    queue = [start]
    for node in queue:
        for child in sorted(graph.get(node, ())):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if child not in previous:
                previous[child] = node
                queue.append(child)
    return []


def test_no_import_cycles():
    """The module graph (the CYCLE_KINDS of import) has no circle."""
    edges = [i for i in imports() if i.kind in CYCLE_KINDS and not _allowed_in_cycles(i) and not _door(i)]
    graph: dict[str, set[str]] = defaultdict(set)
    for i in edges:
        graph[i.source].add(i.target)
        graph.setdefault(i.target, set())
    components = _strongly_connected(graph)
    report = []
    for component in components:
        members = set(component)
        report.append(f"cycle among {len(component)} modules: {', '.join(component)}")
        seen = set()
        for module in component:
            circle = _shortest_cycle(module, {m: graph[m] & members for m in members})
            if circle and frozenset(circle) not in seen:
                seen.add(frozenset(circle))
                report.append("    e.g. " + " -> ".join(circle))
        report += [f"    {i}" for i in edges if i.source in members and i.target in members]
    assert not components, f"{len(components)} import cycles:\n" + "\n".join(report)


def test_the_sandbox_stands_alone():
    """The sandbox that grading and the league share imports nothing of maumau but itself, so it
    stands below both of its users and neither of them is reached through it."""
    outside = [i for i in imports()
               if i.source.startswith("maumau.sandbox") and not i.target.startswith("maumau.sandbox")]
    assert not outside, "the sandbox imports outside itself:\n" + "\n".join(f"  {i}" for i in outside)
