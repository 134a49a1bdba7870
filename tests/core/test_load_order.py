"""No module of the core needs another one half-loaded: each can be imported first, alone, in a fresh
interpreter, of the Python sources and of the compiled engine alike (the state once imported the engine
at its end, and ``maumau/core/__init__.py`` had to load the state first)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from maumau.core import compiled

CORE = Path(compiled.__file__).resolve().parent
MODULES = sorted("maumau.core." + ".".join(p.relative_to(CORE).with_suffix("").parts)
                 for p in CORE.rglob("*.py") if p.name != "__init__.py" and "_built" not in p.parts)


def _import_each_first(pure: bool) -> list[str]:
    """The modules that fail when imported first (each in an interpreter of its own)."""
    env = dict(os.environ, MAUMAU_PURE_PYTHON="1" if pure else "0", PYTHONPATH=str(CORE.parents[1]))
    failed = []
    for module in MODULES:
        out = subprocess.run([sys.executable, "-W", "ignore", "-c", f"import {module}"], env=env,
                             capture_output=True, text=True, timeout=120, check=False)
        if out.returncode != 0:
            failed.append(f"{module}: {out.stderr.strip().splitlines()[-1]}")
    return failed


def test_the_core_has_its_modules():
    assert {"maumau.core.state", "maumau.core.turn", "maumau.core.rules.base"} <= set(MODULES)
    assert "maumau.core.engine" not in MODULES  # its functions are the state's


@pytest.mark.parametrize("pure", [True, False], ids=["sources", "compiled"])
def test_every_core_module_can_be_imported_first(pure: bool):
    if not pure and not all(compiled.compiled_file(m) for m in compiled.MODULES):
        pytest.skip("the engine is not compiled here")
    assert _import_each_first(pure) == []
