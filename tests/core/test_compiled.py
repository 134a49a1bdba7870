"""The compiled engine and its Python sources play the same games (maumau/core/compiled.py).

``setup.py`` compiles maumau/core/state.py, turn.py, playable.py and variants.py with Cython, and the
learning environments' step (maumau/env/seen.py, hand.py, aec_env.py, gym_env.py); the rest of the
test suite runs whichever is installed (the compiled modules under ``make test``).
These tests run the other one in a subprocess and compare, and check that an edited
source is never silently ignored, in either package.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import maumau as mm
from maumau import _compiled
from maumau import env as mm_env

ROOT = Path(mm.__file__).resolve().parent.parent
BUILT = all(_compiled.compiled_file(module) for module in _compiled.MODULES)
needs_build = pytest.mark.skipif(not BUILT, reason="the engine is not compiled here (no Cython or no C compiler)")
ENV = mm_env._BUILT
ENV_BUILT = BUILT and all(ENV.file(module) for module in ENV.modules)
needs_env_build = pytest.mark.skipif(not ENV_BUILT, reason="the environments are not compiled here")

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
    """maumau/core/_built/ comes first on maumau.core's path when the compiled engine runs (maumau/env/_built/
    on maumau.env's when the compiled environments do); no finder of maumau sits in sys.meta_path."""
    assert not [f for f in sys.meta_path if getattr(f, "__module__", "").startswith("maumau")]
    assert (str(_compiled.BUILT) in mm.core.__path__) == mm.compiled
    assert (str(ENV.folder) in mm_env.__path__) == mm_env._COMPILED  # the environments alike
    assert not mm_env._COMPILED or mm.compiled  # never without the compiled engine
    out = run("import maumau.core.state as s; print(s.__file__.endswith('.py'))", pure=True)
    assert out.returncode == 0 and out.stdout.split() == ["True"], out.stderr


# Random play of every variant through both environments, 2 and 3 seats: a digest of every observation
# and mask (the AEC env's, each seat's in turn, and the Gymnasium env's), of every reward and info.
ENVS = """
import hashlib, random, numpy as np
import maumau as mm
from maumau import env
digest = hashlib.sha256()
rng = random.Random(1)
def add(obs):
    digest.update(obs["observation"].tobytes()); digest.update(obs["action_mask"].tobytes())
for name in mm.variant_names():
    for players in (2, 3):
        e = env.aec(name, players=players, seed=players)
        for hand in range(3):
            e.reset()
            for n, agent in enumerate(e.agent_iter(max_iter=300)):
                for other in e.agents[:1 + n % players]:  # seats that look now and then, not only the one to move
                    add(e.observe(other))
                obs, reward, term, trunc, info = e.last()
                digest.update(repr((agent, reward, term, trunc, sorted(info))).encode())
                e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        g = env.gym(name, opponents=["random"] * (players - 1), seed=players)
        for hand in range(3):
            obs, _ = g.reset()
            add(obs)
            for _ in range(200):
                obs, reward, term, trunc, info = g.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
                add(obs); digest.update(repr((reward, term, trunc, sorted(info))).encode())
                if term or trunc:
                    break
import maumau.env.seen as seen
print(mm.compiled, env._COMPILED, seen.__file__.endswith(".py"), digest.hexdigest())
"""


@needs_env_build
def test_compiled_and_pure_environments_give_the_same_observations() -> None:
    compiled, pure = run(ENVS, pure=False), run(ENVS, pure=True)
    assert compiled.returncode == 0 and pure.returncode == 0, compiled.stderr + pure.stderr
    *flags_c, digest_c = compiled.stdout.split()
    *flags_p, digest_p = pure.stdout.split()
    assert (flags_c, flags_p) == (["True", "True", "False"], ["False", "False", "True"])
    assert digest_c == digest_p


def test_setup_compiles_the_modules_each_package_names() -> None:
    """setup.py's list and the packages' own lists (all or nothing per package) name the same modules."""
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    listed = setup[setup.index("COMPILED = ["):]
    listed = listed[:listed.index("]")]
    named = {f"maumau/core/{m}.py" for m in _compiled.MODULES} | {f"maumau/env/{m}.py" for m in ENV.modules}
    assert set(re.findall(r'"(maumau/[\w/]+\.py)"', listed)) == named


ENV_PROBE = ("import maumau as mm, maumau.env as e, maumau.env.seen as s; "
             "print(mm.compiled, e._COMPILED, s.__file__.rsplit('/', 1)[-1])")


@needs_env_build
def test_an_edited_environment_source_runs_as_python_with_a_warning(tmp_path: Path) -> None:
    checkout = copy_checkout(tmp_path)
    later = time.time() + 60
    os.utime(checkout / "maumau" / "env" / "seen.pxd", (later, later))
    out = run(ENV_PROBE, pure=False, cwd=checkout, path=checkout)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False", "seen.py"]  # the engine stays compiled
    assert "seen.pxd changed since the environments' code was compiled" in out.stderr
    assert "make build" in out.stderr


@needs_env_build
def test_partly_compiled_environments_run_as_python_with_a_warning(tmp_path: Path) -> None:
    checkout = copy_checkout(tmp_path)
    hand = ENV.file("hand")
    assert hand is not None
    (checkout / "maumau" / "env" / "_built" / hand.name).unlink()
    out = run(ENV_PROBE, pure=False, cwd=checkout, path=checkout)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False", "seen.py"]
    assert "only part of the environments' code was compiled" in out.stderr


@needs_env_build
def test_environments_compiled_without_a_running_compiled_engine_run_as_python(tmp_path: Path) -> None:
    """The compiled environments read the compiled GameState: with the engine's sources running (here an
    edited engine source), the environments' sources run too; the engine's warning is the only one."""
    checkout = copy_checkout(tmp_path)
    later = time.time() + 60
    os.utime(checkout / "maumau" / "core" / "turn.py", (later, later))
    out = run(ENV_PROBE, pure=False, cwd=checkout, path=checkout)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False", "seen.py"]
    assert "turn.py changed since the engine was compiled" in out.stderr
    assert "environments' code" not in out.stderr


@needs_env_build
def test_the_copied_checkout_uses_the_compiled_environments(tmp_path: Path) -> None:
    checkout = copy_checkout(tmp_path)  # the control of the three tests above
    out = run(ENV_PROBE, pure=False, cwd=checkout, path=checkout)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:2] == ["True", "True"] and not out.stdout.split()[2].endswith(".py")
    assert "maumau:" not in out.stderr
    pure = run(ENV_PROBE, pure=True, cwd=checkout, path=checkout)
    assert pure.returncode == 0 and pure.stdout.split() == ["False", "False", "seen.py"], pure.stderr
