"""The compiled engine and its Python sources play the same games (maumau/core/compiled.py).

``setup.py`` compiles maumau/core/state.py, turn.py, playable.py and variants.py with Cython; the rest of the
test suite runs whichever engine is installed (the compiled one under ``make test``).
These tests run the other one in a subprocess and compare, and check that an edited
source is never silently ignored.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import maumau as mm
from maumau import _compiled

ROOT = Path(mm.__file__).resolve().parent.parent
BUILT = all(_compiled.compiled_file(module) for module in _compiled.MODULES)
needs_build = pytest.mark.skipif(not BUILT, reason="the engine is not compiled here (no Cython or no C compiler)")

# Random self-play of every variant, 2 and 4 players: a digest of every move and of the
# final states (their full dictionaries, reshuffle seeds included).
GAMES = """
import hashlib, json, random, sys
import maumau as mm
digest = hashlib.sha256()
rng = random.Random(1)
for name in mm.variant_names():
    for players in (2, 4):
        for seed in range(4):
            state = mm.deal(name, players=players, seed=seed)
            for _ in range(400):
                if state.is_over:
                    break
                move = rng.choice(state.legal_moves())
                digest.update(repr(move).encode())
                state = state.apply(move)
            digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
print(mm.compiled, digest.hexdigest())
"""


def run(script: str, *, pure: bool, cwd: Path = ROOT, path: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("MAUMAU_PURE_PYTHON", None)
    if pure:
        env["MAUMAU_PURE_PYTHON"] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300, check=False)


@needs_build
def test_compiled_engine_is_used_when_built() -> None:
    if os.environ.get("MAUMAU_PURE_PYTHON", "") not in ("", "0"):
        pytest.skip("MAUMAU_PURE_PYTHON is set for this run")
    assert mm.compiled
    assert not mm.core.state.__file__.endswith(".py")


@needs_build
def test_compiled_and_pure_engines_play_the_same_games() -> None:
    compiled, pure = run(GAMES, pure=False), run(GAMES, pure=True)
    assert compiled.returncode == 0 and pure.returncode == 0, compiled.stderr + pure.stderr
    flag_c, digest_c = compiled.stdout.split()
    flag_p, digest_p = pure.stdout.split()
    assert (flag_c, flag_p) == ("True", "False")
    assert digest_c == digest_p


def test_pure_python_switch_loads_the_sources() -> None:
    out = run("import maumau as mm; print(mm.compiled, mm.core.turn.__file__, mm.core.state.__file__, sep='\\n')",
              pure=True)
    assert out.returncode == 0, out.stderr
    flag, turn_file, state_file = out.stdout.splitlines()  # a checkout's path may hold spaces
    assert flag == "False"
    assert turn_file.endswith("turn.py") and state_file.endswith("state.py")


def copy_checkout(tmp_path: Path) -> Path:
    """The package and setup.py, as in a source checkout, with the compiled modules."""
    shutil.copytree(ROOT / "maumau", tmp_path / "maumau", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    return tmp_path


PROBE = "import maumau as mm; print(mm.compiled, mm.core.state.__file__.rsplit('/', 1)[-1])"


@needs_build
def test_an_edited_source_runs_as_python_with_a_warning(tmp_path: Path) -> None:
    checkout = copy_checkout(tmp_path)
    later = time.time() + 60
    os.utime(checkout / "maumau" / "core" / "state.py", (later, later))
    out = run(PROBE, pure=False, cwd=checkout, path=checkout)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "state.py"]
    assert "state.py changed since the engine was compiled" in out.stderr
    assert "make build" in out.stderr


@needs_build
def test_a_partly_compiled_engine_runs_as_python_with_a_warning(tmp_path: Path) -> None:
    checkout = copy_checkout(tmp_path)
    compiled_turn = _compiled.compiled_file("turn")
    assert compiled_turn is not None
    (checkout / "maumau" / "core" / "_built" / compiled_turn.name).unlink()
    out = run(PROBE, pure=False, cwd=checkout, path=checkout)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "state.py"]
    assert "only part of the engine was compiled" in out.stderr


@needs_build
def test_the_copied_checkout_uses_the_compiled_engine(tmp_path: Path) -> None:
    # The control for the two tests above: unchanged, the copy runs compiled and silently.
    checkout = copy_checkout(tmp_path)
    out = run(PROBE, pure=False, cwd=checkout, path=checkout)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "True"
    assert "maumau:" not in out.stderr


def test_the_engine_is_chosen_by_the_packages_path_not_an_import_hook() -> None:
    """maumau/core/_built/ comes first on maumau.core's path when the compiled engine runs; no
    finder of maumau sits in sys.meta_path."""
    assert not [f for f in sys.meta_path if getattr(f, "__module__", "").startswith("maumau")]
    assert (str(_compiled.BUILT) in mm.core.__path__) == mm.compiled
    out = run("import maumau.core.state as s; print(s.__file__.endswith('.py'))", pure=True)
    assert out.returncode == 0 and out.stdout.split() == ["True"], out.stderr
