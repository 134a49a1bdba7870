"""Ours beside the peers, in one run: makao 2p random self-play, compiled, pure Python and batched,
against OpenSpiel's crazy_eights (its Python API) and RLCard's UNO; then our PettingZoo AEC env
beside PettingZoo's own Leduc hold'em and Connect Four, by the same loop (``benchmarks/aec_loop.py``),
and our AEC and Gymnasium envs against the raw engine of the same rounds.

    make bench-peers                      # makes the throwaway venv, then runs this
    python benchmarks/peers.py --peers-venv benchmarks/peers/.venv --seconds 3 --rounds 3

The peers live in a throwaway venv of their own (``make bench-peers`` makes it in
``benchmarks/peers/.venv``: ``pip install open_spiel rlcard pygame``; PettingZoo's classic envs import
pygame), never in the project's venv nor in
git.  Each engine plays in a fresh process of this interpreter (the peers' site-packages put on
its path, same Python, one thread), for ``--seconds`` of its own CPU time (``time.process_time``:
on a shared machine wall-clock time mostly measures the neighbours), round after round: the four take turns, so a busy
spell of the shared machine falls on all of them; each engine's best round counts, and the
ratios of every round are printed too, to show how much the machine wandered.  The rules of the
play are those of ``benchmarks/engine.py --peers`` (uniformly random legal moves, player
decisions only, OpenSpiel with special cards, reshuffling and no turn cap).  The goals (issue 39):
ours/OpenSpiel >= 5x with the engine that ships (compiled), >= 1.5x pure Python; ours/RLCard >= 25x;
the batched engine (4,096 games at once) >= 3,000,000 decisions/s; the environments at least half
the raw engine's decisions/s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: name, game, environment additions, the call of benchmarks/engine.py that plays it
ENGINES = [
    ("maumau compiled", "makao", {}, "random_games('makao', 2, {seconds}, seed={seed}, clock=CLOCK)"),
    ("maumau pure Python", "makao", {"MAUMAU_PURE_PYTHON": "1"},
     "random_games('makao', 2, {seconds}, seed={seed}, clock=CLOCK)"),
    ("OpenSpiel", "crazy_eights", {}, "openspiel_games({seconds}, seed={seed}, clock=CLOCK)"),
    ("RLCard", "uno", {}, "rlcard_games({seconds}, seed={seed}, clock=CLOCK)"),
]
GOALS = {"OpenSpiel": (5.0, 1.5), "RLCard": (25.0, None)}
#: the batched engine: a row of the engines' table (its ratio to the peers printed beside), not a peer
BATCH = ("maumau Batch x4096", "makao", {}, "batch_games({seconds}, seed={seed}, clock=CLOCK)")
BATCH_GOAL = 3_000_000

#: the learning environments, each by the same random AEC loop
ENVS = [
    ("maumau AEC env", "makao", {}, "aec_games('maumau', {seconds}, seed={seed}, clock=CLOCK)"),
    ("PettingZoo", "leduc_holdem_v4", {}, "aec_games('leduc_holdem_v4', {seconds}, seed={seed}, clock=CLOCK)"),
    ("PettingZoo", "connect_four_v3", {}, "aec_games('connect_four_v3', {seconds}, seed={seed}, clock=CLOCK)"),
]
#: our Gymnasium env (seat 0 against a Random computer), set beside the raw engine as the AEC env is
GYM = ("maumau Gym env", "makao", {}, "gym_games({seconds}, seed={seed}, clock=CLOCK)")
#: issue 39: the environments' decisions/s at least half the raw engine's
ENV_GOAL = 0.5

CHILD = """
import json, sys, time
CLOCK = time.process_time  # this process's CPU seconds: what the engine costs, not how busy the machine is
sys.path.insert(0, {here!r})
from engine import random_games, openspiel_games, rlcard_games
try:
    from aec_loop import aec_games, batch_games, gym_games
except ImportError:  # --baseline: an earlier checkout's benchmarks play only the engines
    pass
import maumau as mm
random_games('makao', 2, 0.3, seed=99)  # caches warm, as in a long run
found = {call}
print(json.dumps({{"run": found, "compiled": mm.compiled}}))
"""


def site_packages(venv: Path) -> str:
    found = sorted(venv.glob("lib/python*/site-packages"))
    if not found:
        raise SystemExit(f"no site-packages in {venv}: run `make bench-peers` (it makes the venv)")
    return str(found[0])


def play(call: str, extra: dict[str, str], peers: str, here: Path = HERE) -> tuple[list[float] | None, bool]:
    """(games, decisions, seconds) of one engine's run in a fresh process, and whether ours ran compiled.
    ``here``: the benchmarks folder of the checkout whose maumau plays (``--baseline``: an earlier one)."""
    env = {**os.environ, **extra, "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (peers, os.environ.get("PYTHONPATH", "")) if p)
    out = subprocess.run([sys.executable, "-c", CHILD.format(here=str(here), call=call)], env=env,
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return result["run"], result["compiled"]


def rate(run: list[float]) -> float:
    return run[1] / run[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peers-venv", type=Path, default=HERE / "peers" / ".venv")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--instructions", type=int, default=0, metavar="DECISIONS",
                        help="also count machine instructions per decision under valgrind (e.g. 20000)")
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="also an earlier maumau, compiled and pure Python, in the same rounds: a checkout "
                             "of it (git worktree add DIR COMMIT; its engine built in place: setup.py build_ext "
                             "--inplace), so that before and after are measured side by side")
    args = parser.parse_args(argv)
    peers = site_packages(args.peers_venv)
    engines = [(name, game, extra, call, HERE) for name, game, extra, call in ENGINES]
    if args.baseline:
        before = args.baseline.resolve() / "benchmarks"
        if not (before / "engine.py").is_file() or not (before.parent / "maumau" / "core").is_dir():
            raise SystemExit(f"--baseline {args.baseline}: not a maumau checkout (no benchmarks/engine.py and "
                             "maumau/core there); make one with `git worktree add DIR COMMIT` and build its "
                             "engine there (python setup.py build_ext --inplace)")
        engines += [(f"before: {name[len('maumau '):]}", game, extra, call, before)
                    for name, game, extra, call in ENGINES[:2]]
    if args.instructions:
        count_instructions(peers, args.instructions, args.baseline)
    extras = [(name, game, extra, call, HERE) for name, game, extra, call in [BATCH, *ENVS, GYM]]
    rounds: list[list[list[float] | None]] = []
    for r in range(args.rounds):
        row = []
        for name, _, extra, call, here in engines + extras:
            found, compiled = play(call.format(seconds=args.seconds, seed=1000 * r), extra, peers, here)
            if name.endswith(" compiled") and not compiled:
                raise SystemExit(f"the compiled engine of {here.parent} is not built: run `make build` first")
            row.append(found)
        rounds.append(row)
    everyone = engines + extras
    best = [max((rnd[i] for rnd in rounds if rnd[i] is not None), key=rate, default=None) for i in range(len(everyone))]
    report(best[:len(engines)], [rnd[:len(engines)] for rnd in rounds], args, [(n, g) for n, g, *_ in engines])
    report_batch(best[len(engines)], best[2])
    first, gym = len(engines) + 1, len(engines) + 1 + len(ENVS)
    report_envs(best[first:gym], [rnd[first:gym] for rnd in rounds], [(n, g) for n, g, *_ in ENVS])
    report_env_speed(best[first], best[gym], best[0], [(rnd[first], rnd[gym], rnd[0]) for rnd in rounds])
    return 0


def report_batch(batch: list[float] | None, openspiel: list[float] | None) -> None:
    """The batched engine's decisions/s against its goal and OpenSpiel's scalar loop."""
    if batch is None:
        print("\nmaumau.env.Batch: not in this checkout")
        return
    verdict = "met" if rate(batch) >= BATCH_GOAL else f"not met: {BATCH_GOAL / rate(batch):.2f}x short"
    beside = f", {rate(batch) / rate(openspiel):.1f}x OpenSpiel's scalar loop" if openspiel else ""
    print(f"\nmaumau.env.Batch, 4,096 makao games at once, random legal actions: {rate(batch):,.0f} decisions/s"
          f"{beside}; goal >= {BATCH_GOAL:,}: {verdict}")


def report_envs(best: list[list[float] | None], rounds: list[list[list[float] | None]],
                envs: list[tuple[str, str]]) -> None:
    """Steps/s of the AEC envs (decisions only), ours against each of PettingZoo's."""
    print("\nPettingZoo AEC environments, the same random masked loop (last, choose, step), decisions/s:")
    for i, ((name, game), run) in enumerate(zip(envs, best, strict=True)):
        if run is None:
            print(f"  {name:<16}{game:<18}not installed")
            continue
        line = f"  {name:<16}{game:<18}{rate(run):>11,.0f}"
        if i and best[0] is not None:
            each = " ".join(f"{rate(rnd[0]) / rate(rnd[i]):.2f}" for rnd in rounds if rnd[0] and rnd[i])
            line += f"   ours/this {rate(best[0]) / rate(run):.2f}x (rounds {each})"
        print(line)


def report_env_speed(aec: list[float] | None, gym: list[float] | None, raw: list[float] | None,
                     rounds: list[tuple[list[float] | None, ...]]) -> None:
    """Our AEC and Gym envs against the raw compiled engine of the same rounds (issue 39: at least half)."""
    if raw is None:
        return
    print("\nOur environments / the raw engine (compiled), makao 2 players, decisions/s:")
    for i, (name, run) in enumerate((("AEC env", aec), ("Gym env, every decision", gym))):
        if run is None:
            print(f"  {name:<26}not in this checkout")
            continue
        ratio = rate(run) / rate(raw)
        each = " ".join(f"{rate(rnd[i]) / rate(rnd[2]):.2f}" for rnd in rounds
                        if rnd[i] and rnd[2])
        verdict = "met" if ratio >= ENV_GOAL else f"not met: {ENV_GOAL / ratio:.2f}x short"
        print(f"  {name:<26}{rate(run):>11,.0f}   {ratio:.2f} (rounds {each})   goal >= {ENV_GOAL:g}: {verdict}")


def count_instructions(peers: str, decisions: int, baseline: Path | None = None) -> None:
    """Instructions per decision (benchmarks/instructions.py): the measure a busy machine does not move."""
    sys.path.insert(0, str(HERE))
    import instructions as ins

    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (peers, os.environ.get("PYTHONPATH", "")) if p)
    ours = ins.OURS.format(root=str(HERE.parent))
    rows = [("maumau compiled", ours, ("makao",), {}),
            ("maumau pure Python", ours, ("makao",), {"MAUMAU_PURE_PYTHON": "1"}),
            ("OpenSpiel", ins.OPENSPIEL.format(params=ins.OPENSPIEL_PARAMS), (), {}), ("RLCard", ins.RLCARD, (), {})]
    if baseline is not None:
        earlier = ins.OURS.format(root=str(baseline.resolve()))
        rows += [("before: compiled", earlier, ("makao",), {}),
                 ("before: pure Python", earlier, ("makao",), {"MAUMAU_PURE_PYTHON": "1"})]
    counts = {}
    for name, script, extra_args, extra_env in rows:
        saved = {k: os.environ.get(k) for k in extra_env}
        os.environ.update(extra_env)
        try:
            counts[name] = ins.per_decision(script, decisions, *extra_args)
        finally:
            for k, v in saved.items():
                os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    print(f"Instructions per decision (valgrind --tool=callgrind, {decisions:,} decisions after 5,000 warm-up ones):")
    for name, n in counts.items():
        print(f"  {name:<20}{n:>9,.0f}   OpenSpiel/this {counts['OpenSpiel'] / n:.2f}x   "
              f"RLCard/this {counts['RLCard'] / n:.2f}x")
    print()


def report(best: list[list[float] | None], rounds: list[list[list[float] | None]], args: argparse.Namespace,
           engines: list[tuple[str, str]]) -> None:
    print(f"2 players, uniformly random legal moves, player decisions only; {args.rounds} rounds of "
          f"{args.seconds:g} CPU s per engine, the best round counts; Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores")
    print(f"{'engine':<20}{'game':<14}{'games/s':>9}{'decisions/s':>13}{'dec/game':>10}")
    for (name, game), run in zip(engines, best, strict=True):
        if run is None:
            print(f"{name:<20}{game:<14}  not installed in {args.peers_venv}")
            continue
        print(f"{name:<20}{game:<14}{run[0] / run[2]:>9.0f}{rate(run):>13,.0f}{run[1] / max(run[0], 1):>10.1f}")
    print("\nours/peer (decisions/s; best rounds, then each round) and the goal:")
    for i, (peer, _, _, _) in enumerate(ENGINES[2:], start=2):
        for j, ours in ((0, "compiled"), (1, "pure Python")):
            goal = GOALS[peer][j]
            if best[i] is None or best[j] is None or goal is None:
                continue
            ratio = rate(best[j]) / rate(best[i])
            each = " ".join(f"{rate(rnd[j]) / rate(rnd[i]):.2f}" for rnd in rounds if rnd[i] and rnd[j])
            verdict = "met" if ratio >= goal else f"not met: {goal / ratio:.2f}x short"
            print(f"  {ours:<12} / {peer:<10}{ratio:>6.2f}x   rounds {each:<18} goal >= {goal:g}x: {verdict}")
    for i in range(len(ENGINES), len(engines)):  # --baseline: now / before, each engine, same rounds
        j = i - len(ENGINES)
        if best[i] is None or best[j] is None:
            continue
        each = " ".join(f"{rate(rnd[j]) / rate(rnd[i]):.2f}" for rnd in rounds if rnd[i] and rnd[j])
        print(f"  {engines[j][0]:<20} / {engines[i][0]:<22}{rate(best[j]) / rate(best[i]):>6.2f}x   rounds {each}")


if __name__ == "__main__":
    raise SystemExit(main())
