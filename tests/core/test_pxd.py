"""Each ``.pxd`` says what its ``.py`` says: the same fields for every class Cython compiles.

A field added to ``Turn`` in turn.py but not in turn.pxd builds without a word and fails
at run time in the compiled engine (a C class has no room for it); a field left in a ``.pxd``
after the ``.py`` dropped it is dead weight.  The classes' own ``__slots__`` (read from the
Python sources, in a pure-Python interpreter) must equal the ``cdef public`` fields of their
``.pxd``; a class the ``.pxd`` leaves open (``cdef dict __dict__``, as Variant) may have more,
never fewer.  The arguments of the ``cpdef`` functions must match too.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The packages with compiled modules: the engine and the learning environments (setup.py).
PACKAGES = (ROOT / "maumau" / "core", ROOT / "maumau" / "env")
PXDS = sorted(pxd for package in PACKAGES for pxd in package.glob("*.pxd"))
WITH_CLASSES = [p for p in PXDS if "cdef class" in p.read_text(encoding="utf-8")]


def pxd_classes(text: str) -> dict[str, tuple[set[str], bool]]:
    """Per ``cdef class``: its declared fields, and whether it keeps a ``__dict__``."""
    classes: dict[str, tuple[set[str], bool]] = {}
    current = None
    for line in text.splitlines():
        head = re.match(r"cdef class (\w+)", line)
        if head:
            current = head.group(1)
            classes[current] = (set(), False)
            continue
        if current is None or not line.startswith("    "):
            if line.strip() and not line.startswith("    "):
                current = None
            continue
        fields, open_ = classes[current]
        decl = re.match(r"\s+cdef (?:public |readonly )?[\w\[\]:.]+ ([\w, ]+)$", line)  # object, Py_ssize_t, float[::1]
        if decl:
            fields.update(name.strip() for name in decl.group(1).split(",")
                          if name.strip() not in ("__weakref__", "__dict__"))
        if re.match(r"\s+cdef dict __dict__", line):
            classes[current] = (fields, True)
    return classes


def pxd_functions(text: str) -> dict[str, list[str]]:
    """Per ``cpdef``/``cdef`` function: its argument names (joined over continuation lines)."""
    found = {}
    joined = re.sub(r",\s*\n\s+", ", ", text)
    for m in re.finditer(r"^c(?:p)?def (?!class )[\w.]+ (\w+)\(([^)]*)\)", joined, re.M):
        found[m.group(1)] = [arg.split("=")[0].split()[-1] for arg in m.group(2).split(",") if arg.strip()]
    return found


def python_slots(module: str, names: list[str]) -> dict[str, list[str]]:
    """The own ``__slots__`` of classes of a module (``core.state``), from its Python source."""
    code = (f"import json, importlib; m = importlib.import_module('maumau.{module}'); "
            f"print(json.dumps({{n: list(getattr(m, n).__dict__.get('__slots__', ())) for n in {names!r}}}))")
    env = dict(os.environ, MAUMAU_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env, capture_output=True, text=True,
                         check=True, cwd=ROOT)
    return json.loads(out.stdout)


def python_assigned(source: str, cls: str) -> set[str]:
    """The attributes a class's methods assign on ``self``."""
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    targets = [t for n in ast.walk(node) for t in getattr(n, "targets", [getattr(n, "target", None)])]
    targets += [e for t in targets if isinstance(t, ast.Tuple) for e in t.elts]  # self.a, self.b = ...
    return {t.attr for t in targets
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}


@pytest.mark.parametrize("pxd", WITH_CLASSES, ids=lambda p: p.name)
def test_every_compiled_class_declares_exactly_its_fields(pxd):
    module = f"{pxd.parent.name}.{pxd.stem}"
    declared = pxd_classes(pxd.read_text(encoding="utf-8"))
    assert declared, f"{pxd.name}: its classes were not read"
    slots = python_slots(module, list(declared))
    source = pxd.with_suffix(".py").read_text(encoding="utf-8")
    for name, (fields, open_) in declared.items():
        own = {s for s in slots[name] if s != "__weakref__"}
        if own:
            assert fields == own, f"{module}.{name}: .pxd {sorted(fields - own)} extra, {sorted(own - fields)} missing"
        else:
            assigned = python_assigned(source, name)
            assert fields <= assigned, f"{module}.{name}: .pxd declares {sorted(fields - assigned)}, never set"
            assert open_ or assigned <= fields, f"{module}.{name}: {sorted(assigned - fields)} not in the .pxd"


@pytest.mark.parametrize("pxd", PXDS, ids=lambda p: p.name)
def test_every_compiled_function_takes_the_arguments_of_its_source(pxd):
    source = ast.parse(pxd.with_suffix(".py").read_text(encoding="utf-8"))
    defs = {n.name: [a.arg for a in n.args.args] for n in source.body if isinstance(n, ast.FunctionDef)}
    for name, args in pxd_functions(pxd.read_text(encoding="utf-8")).items():
        assert name in defs, f"{pxd.name} declares {name}, which {pxd.stem}.py does not define"
        assert args == defs[name], f"{pxd.stem}.{name}: .pxd {args}, .py {defs[name]}"


def test_the_check_finds_a_field_missing_from_the_pxd():
    fields, _ = pxd_classes("cdef class Turn(_Tabletop):\n    cdef public object state, player\n")["Turn"]
    assert fields == {"state", "player"} and fields != {"state", "player", "new_field"}
    assert pxd_functions("cpdef GameState make_state(variant, hands,\n        events=*)\n") == {
        "make_state": ["variant", "hands", "events"]}
