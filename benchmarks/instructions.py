"""Instructions per decision under valgrind: a steady measure for optimising the engine.

    python benchmarks/instructions.py                   # makao, 30,000 decisions
    python benchmarks/instructions.py --variant lite_macau --decisions 5000
    python benchmarks/instructions.py --peers           # also OpenSpiel crazy_eights

Timings on a shared 2-core machine wander by a third from one minute to the next;
the number of machine instructions a decision costs does not.  This runs random
self-play (as ``benchmarks/engine.py`` does) under ``valgrind --tool=callgrind`` twice,
with no decisions and with ``--decisions`` of them, and prints the difference per
decision (both runs first play 5,000 decisions to warm the caches, as a timed run does).
Fewer instructions is faster on the same interpreter, though not one for one
(a C++ engine does more per instruction than the Python interpreter).  Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import site
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import OPENSPIEL_PARAMS  # noqa: E402  the benchmark's own settings

OURS = """
import random, sys
sys.path.insert(0, {root!r})
import maumau as mm
n, variant = int(sys.argv[1]), sys.argv[2]
rng = random.Random(0)
choice = rng.choice

def play(n, first_seed):
    done = games = 0
    while done < n:
        state = mm.deal(variant, players=2, seed=first_seed + games)
        games += 1
        while not state.is_over and done < n:
            state = state.apply(choice(state.legal_moves()))
            done += 1

play(5000, 10**6)  # imports and the variant's caches warm up, as in a long timed run: not counted
play(n, 0)
"""

OPENSPIEL = """
import random, sys
import pyspiel
n = int(sys.argv[1])
game = pyspiel.load_game("crazy_eights", {params!r})
rng = random.Random(0)
choice, choices = rng.choice, rng.choices
game.new_initial_state()
done = 0
while done < n:
    state = game.new_initial_state()
    while not state.is_terminal() and done < n:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choices(outcomes, probs)[0])
        else:
            state.apply_action(choice(state.legal_actions()))
            done += 1
"""

RLCARD = """
import random, sys
import rlcard
n = int(sys.argv[1])
env = rlcard.make("uno", config={"seed": 0})
choice = random.Random(0).choice
env.reset()
done = 0
while done < n:
    state, _ = env.reset()
    while not env.is_over() and done < n:
        state, _ = env.step(choice(list(state["legal_actions"])))
        done += 1
"""


def _environment() -> dict[str, str]:
    """The run's environment: the real interpreter binary does not know this venv, so its
    site-packages (where the peers are installed) go on the path."""
    paths = [*site.getsitepackages(), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def instructions(script: str, *args: str) -> int:
    """Instructions executed by ``python -c script args`` under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             os.path.realpath(sys.executable), "-c", script, *args],
            capture_output=True, text=True, env=_environment(), check=True)
    found = re.search(r"Collected\s*:\s*([\d,]+)|I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int((found.group(1) or found.group(2)).replace(",", ""))


def per_decision(script: str, decisions: int, *args: str) -> float:
    return (instructions(script, str(decisions), *args) - instructions(script, "0", *args)) / decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="makao")
    parser.add_argument("--decisions", type=int, default=30_000)
    parser.add_argument("--peers", action="store_true", help="also OpenSpiel crazy_eights, if installed")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)")
        return 1
    ours = per_decision(OURS.format(root=str(ROOT)), args.decisions, args.variant)
    import maumau as mm

    engine = "compiled" if mm.compiled else "pure Python"
    print(f"maumau {args.variant:<13} {ours:>9,.0f} instructions per decision ({engine})")
    if args.peers:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print("OpenSpiel crazy_eights  not installed (pip install .[bench])")
        else:
            theirs = per_decision(OPENSPIEL.format(params=OPENSPIEL_PARAMS), args.decisions)
            print(f"OpenSpiel crazy_eights {theirs:>9,.0f} instructions per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
