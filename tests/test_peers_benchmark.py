"""benchmarks/peers.py (issue 29): ours beside OpenSpiel and RLCard in one run, the peers in a throwaway venv.
Its numbers live in docs/explanation/performance.md; here: it refuses clearly without the venv, and with one
it prints every engine and every ratio against its goal."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "benchmarks" / "peers" / ".venv"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "peers.py"), *args],
                          capture_output=True, text=True, timeout=300)


def test_without_the_peers_venv_it_says_how_to_make_it(tmp_path: Path) -> None:
    done = run("--peers-venv", str(tmp_path / "none"))
    assert done.returncode != 0 and "make bench-peers" in done.stderr


@pytest.mark.skipif(not any(PEERS.glob("lib/python*/site-packages/pyspiel*")),
                    reason="no peers venv (make bench-peers makes it)")
def test_one_round_prints_every_engine_and_ratio() -> None:
    done = run("--rounds", "1", "--seconds", "0.2")
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("maumau compiled", "maumau pure Python", "OpenSpiel", "RLCard"):
        assert name in done.stdout
    goals = [line.rstrip() for line in done.stdout.splitlines() if "goal >=" in line]
    verdict = r"(met|not met: \d+\.\d\dx short)$"
    # the engines' ratios to the peers: "goal >= 5x: met" or "goal >= 5x: not met: 1.76x short"
    ratio = re.compile(r".* \d+\.\d\dx .*goal >= [\d.]+x: " + verdict)
    # the batched engine's decisions/s, then the AEC and Gym envs against the raw engine
    batch = re.compile(r"maumau\.env\.Batch, .*: [\d,]+ decisions/s.*goal >= 3,000,000: " + verdict)
    env = re.compile(r"  (AEC env|Gym env, every decision) +[\d,]+   \d\.\d\d \(rounds .*\)   goal >= 0\.5: " + verdict)
    assert len(goals) == 6, goals
    assert all(ratio.match(line) for line in goals[:3]), goals
    assert batch.match(goals[3]) and env.match(goals[4]) and env.match(goals[5]), goals
    for peer in ("leduc_holdem_v4", "connect_four_v3"):  # PettingZoo's envs, by the same loop as ours
        assert re.search(peer + r" +[\d,]+   ours/this \d+\.\d\dx", done.stdout), done.stdout


def test_a_baseline_that_is_no_checkout_is_refused_with_a_sentence(tmp_path: Path) -> None:
    if not any(PEERS.glob("lib/python*/site-packages")):
        pytest.skip("no peers venv (make bench-peers makes it)")
    done = run("--rounds", "1", "--seconds", "0.1", "--baseline", str(tmp_path))
    assert done.returncode != 0 and "not a maumau checkout" in done.stderr


@pytest.mark.skipif(not any(PEERS.glob("lib/python*/site-packages/pyspiel*")),
                    reason="no peers venv (make bench-peers makes it)")
def test_a_baseline_checkout_plays_in_the_same_rounds() -> None:
    done = run("--rounds", "1", "--seconds", "0.2", "--baseline", str(ROOT))  # this checkout against itself
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("before: compiled", "before: pure Python"):
        assert name in done.stdout
    assert sum("/ before:" in line for line in done.stdout.splitlines()) == 2
