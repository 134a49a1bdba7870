"""``mm.simulate``: many hands between computer players, in parallel, with statistics.

>>> import maumau as mm
>>> r = mm.simulate("makao", players=["random", "heuristic"], games=20, seed=1, executor="serial")
>>> r.games, [row["player"] for row in r.by_player()]
(20, ['Random()', 'Heuristic()'])

Every hand gets its own seed, drawn from ``seed`` before anything runs, and every player
is copied and reseeded for each hand; so the results do not depend on how the hands are
spread over workers: a process pool, a dask cluster and a plain loop give the same numbers.
"""

from __future__ import annotations

import copy
import functools
import math
import pickle
import random
import sys
import traceback
from collections.abc import Sequence
from concurrent.futures import Executor, as_completed
from typing import Any

from ..core.dealing import deal
from ..core.events import Blocked, Reshuffled
from ..core.moves import Move, Play
from ..core.rules.base import Role
from ..core.state import GameState, IllegalMove
from ..core.variants import Variant, VariantError, variant, variant_names
from ..players import for_strength
from ..players.base import IllegalChoice, Random, ask, label, sees_state
from ..players.heuristic import Heuristic, best_move
from .collector import collector_paused
from .results import SimulatedHand, Simulation, wilson
from .spread import Job, chunks_of, cores, plan, probe, run_shared, timed

__all__ = ["simulate", "Simulation", "SimulationError", "wilson", "SimulatedHand", "POOL_FROM", "can_start_workers"]

#: Below this many hands the default runs them in this process without timing them (see ``spread``).
POOL_FROM = 100


def can_start_workers() -> bool:
    """Whether this Python can start threads and processes: not in a browser (Pyodide, the browser
    edition of the course, says ``sys.platform == "emscripten"``) nor under WASI, where starting
    one raises.  There ``simulate`` plays every hand in a plain loop, without a word."""
    return sys.platform not in ("emscripten", "wasi")


class SimulationError(RuntimeError):
    """A simulation could not run: a player failed or cheated, or the executor broke."""


# --- playing (this part runs in the workers) ---------------------------------------------------

def rules_acting(move: Move, after: GameState) -> set[str]:
    """The names of the rules that acted in a play, read from the events it set off (a rule of
    a learner's counts as the shipped one does), the rule that lets sets be played for a set
    (LM-5), and the core's reshuffle (C-6) and blocked hand (C-7) by those names."""
    played = type(move) is Play
    acting: set[str] = set()
    for event in after.events:
        if type(event) is Reshuffled:
            acting.add("reshuffle")
        elif type(event) is Blocked:
            acting.add("blocked")
        elif played and event.rule is not None:
            acting.add(event.rule.name)
    if isinstance(move, Play) and len(move.cards) > 1:
        acting.update(rule.name for rule in after.variant.having(Role.SETS)[:1])
    return acting


#: maumau's players that ``reseed`` returns to exactly their fresh state (they keep nothing else
#: between hands): a chunk copies each once per seat and reseeds it for every hand, where any other
#: player is copied afresh for every hand (a learner's player may remember what it likes).
_RESEED_IS_FRESH = (Random, Heuristic)


def _seat_players(templates: Sequence[Any], seats: tuple[int, ...], rng: random.Random,
                  kept: dict[tuple[int, int], Any]) -> list[Any]:
    """Each seat's player for one hand: a copy of its template, reseeded from ``rng``."""
    players = []
    for s, t in enumerate(seats):
        template = templates[t]
        if type(template) in _RESEED_IS_FRESH:
            player = kept.get((s, t))
            if player is None:
                player = kept[(s, t)] = copy.deepcopy(template)
        else:
            player = copy.deepcopy(template)
        player_seed = rng.getrandbits(63)
        if hasattr(player, "reseed"):
            player.reseed(player_seed)
        players.append(player)
    return players


def _count_acting(move: Move, after: GameState, fired: dict[str, int]) -> None:
    """``fired[name] += 1`` for each rule in ``rules_acting(move, after)`` (the hot path of a hand)."""
    events = after.events
    if not events and (type(move) is not Play or len(move.cards) < 2):
        return
    for name in rules_acting(move, after):
        fired[name] = fired.get(name, 0) + 1


def _chooser(player: Any) -> Any:
    """What a hand calls for ``player``'s move on a GameState: the Heuristic's choice itself (its
    ``choose`` only passes the state on), any of maumau's own players' ``choose``, any other
    player through ``ask`` (its seat's View)."""
    if type(player) is Heuristic:
        return best_move
    return player.choose if sees_state(player) else functools.partial(ask, player)


def _play_hand(v: Variant, templates: Sequence[Any], game: int, seed: int, rotate: bool,
               max_moves: int, kept: dict[tuple[int, int], Any] | None = None) -> SimulatedHand:
    n = len(templates)
    rng = random.Random(seed)
    seats = tuple((s + game) % n if rotate else s for s in range(n))
    deal_seed = rng.getrandbits(63)
    players = _seat_players(templates, seats, rng, {} if kept is None else kept)
    # maumau's own players are handed the state (ask does the same); any other through ask's View
    choosers = [_chooser(p) for p in players]
    fired: dict[str, int] = {}
    state = deal(v, players=n, seed=deal_seed)
    moves = 0
    while not state.is_over and moves < max_moves:
        seat = state.to_move
        try:
            move = choosers[seat](state)
            after = state.apply(move)
        except IllegalChoice as err:
            raise SimulationError(f"hand {game} (seed {seed}): {err.reason}") from None
        except IllegalMove as err:
            raise SimulationError(f"hand {game} (seed {seed}): {label(players[seat])} at seat {seat} chose an "
                                  f"illegal move {move!r}: {err.reason}") from None
        if after.events or (type(move) is Play and len(move.cards) > 1):  # most moves set off nothing
            _count_acting(move, after, fired)
        state = after
        moves += 1
    winner = state.winner if state.is_over else None
    return SimulatedHand(game, seed, seats, winner, moves, tuple(len(h) for h in state.hands), fired)


#: The variants this worker process has played (equal variants are the same object from then on).
_ARRIVED: dict[Variant, Variant] = {}


def _play_chunk(v: Variant | tuple[str, dict[str, Any]], templates: Sequence[Any], jobs: Sequence[tuple[int, int]],
                rotate: bool, max_moves: int) -> list[SimulatedHand]:
    """Play the hands ``jobs`` (hand number, seed): the unit of work sent to a worker."""
    if isinstance(v, tuple):
        v = variant(v[0], **v[1])
    else:  # a house-rule variant arrives as a new copy with every chunk: keep playing the first one,
        v = _ARRIVED.setdefault(v, v)  # whose caches (legal cards, the heuristic's tables) are warm
    done = []
    kept: dict[tuple[int, int], Any] = {}  # the reseedable players of this chunk, one per seat
    with collector_paused(all(sees_state(t) for t in templates)):
        for game, seed in jobs:
            try:
                done.append(_play_hand(v, templates, game, seed, rotate, max_moves, kept))
            except SimulationError:
                raise
            except Exception as err:
                detail = "".join(traceback.format_exception(type(err), err, err.__traceback__, limit=-3))
                raise SimulationError(f"hand {game} (seed {seed}) failed: {type(err).__name__}: {err}\n"
                                      f"{detail}") from None
    return done


# --- the call ------------------------------------------------------------------------------------

def _player(spec: Any) -> Any:
    if isinstance(spec, str):
        return for_strength(spec)
    if isinstance(spec, type):
        return spec()
    if not callable(getattr(spec, "choose", None)):
        raise TypeError(f"a player is a name ('random', 'heuristic', 'search', 'easy', ...), a player class "
                        f"or an object with choose(view), not {spec!r}")
    return spec


def simulate(game: str | Variant, players: Sequence[Any] = ("random", "heuristic"), games: int = 1000,
             seed: int = 0, *, rotate: bool = True, executor: Executor | str | None = None,
             progress: bool | None = None, max_moves: int = 100_000, **options: Any) -> Simulation:
    """Play ``games`` hands of ``game`` and return their statistics (a ``Simulation``).

    ``players``: one per seat: names (``"random"``, ``"heuristic"``, ``"search"``,
    ``"easy"``, ``"medium"``, ``"hard"``), classes or player objects; a player not of
    maumau's own is asked with its seat's ``View`` only (``maumau.players.ask``).  ``rotate`` moves
    every player one seat on after each hand, so that each player sits at each seat
    equally often.  ``executor``: any ``concurrent.futures.Executor`` (a dask
    ``client.get_executor()`` works too), ``"serial"`` for a plain loop, ``"process"`` for a
    process pool over the machine's cores, or None: this process and, where the hands are worth
    it, worker processes on the other cores (``maumau.simulation.spread``: never slower than the
    plain loop; a plain loop below ``POOL_FROM`` hands and where no process can start, as in the
    browser, see ``can_start_workers``).  ``progress``:
    a tqdm bar (None: only for 1000 hands or more).  ``max_moves`` cuts off a hand that
    runs too long (it then has no winner).  Variant options go in ``**options``.
    """
    v = variant(game, **options)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise TypeError(f"players is a list with one player per seat, not {players!r}")
    templates = [_player(p) for p in players]
    lo, hi = v.players
    if not lo <= len(templates) <= hi:
        raise VariantError(f"{v.name} is played by {lo} to {hi} players, not {len(templates)}")
    master = random.Random(seed)
    jobs = [(g, master.getrandbits(63)) for g in range(games)]
    labels = [label(p) for p in templates]
    # a named variant travels as its name and options (a worker makes it once, from its own cache)
    spec: Variant | tuple[str, dict[str, Any]] = (v.name, v.options) if v.name in variant_names() and not v.changes \
        and variant(v.name, **v.options) == v else v
    show = games >= 1000 if progress is None else progress
    if executor is None and games >= POOL_FROM and cores() > 1 and can_start_workers():
        hands = _run_shared(spec, templates, jobs, rotate, max_moves, show, v.name)
    elif executor == "serial" or executor is None:
        hands = _run_serial(spec, templates, jobs, rotate, max_moves, show, v.name)
    elif executor == "process":
        if not can_start_workers():
            raise SimulationError(f"executor='process' needs worker processes, and this Python ({sys.platform}, "
                                  "e.g. the browser edition) cannot start any: leave executor out, or use 'serial'")
        from concurrent.futures import ProcessPoolExecutor  # loads multiprocessing: only when it is used

        with ProcessPoolExecutor(cores()) as pool:
            hands = _run_parallel(pool, spec, templates, jobs, rotate, max_moves, show, v.name)
    elif isinstance(executor, Executor) or callable(getattr(executor, "submit", None)):
        hands = _run_parallel(executor, spec, templates, jobs, rotate, max_moves, show, v.name)
    else:
        raise TypeError(f"executor is a concurrent.futures.Executor, 'serial' or None, not {executor!r}")
    return Simulation(v.name, labels, games, seed, rotate, hands)


def _bar(total: int, show: bool, name: str) -> Any:
    from tqdm.auto import tqdm

    if not can_start_workers():
        tqdm.monitor_interval = 0  # tqdm's monitor is a thread: it would fail to start, and warn
    return tqdm(total=total, disable=not show, desc=f"simulate {name}", unit="hand", leave=False)


def _run_serial(spec: Any, templates: list[Any], jobs: list[Job], rotate: bool, max_moves: int, show: bool,
                name: str) -> list[SimulatedHand]:
    hands: list[SimulatedHand] = []
    with _bar(len(jobs), show, name) as bar:
        for start in range(0, len(jobs), 50):
            part = _play_chunk(spec, templates, jobs[start:start + 50], rotate, max_moves)
            hands.extend(part)
            bar.update(len(part))
    return hands


def _run_shared(spec: Any, templates: list[Any], jobs: list[Job], rotate: bool, max_moves: int, show: bool,
                name: str) -> list[SimulatedHand]:
    """The default: this process times the first hands, then plays on beside worker processes
    where the rest is worth them (``spread``)."""
    def local(chunk: list[Job]) -> list[SimulatedHand]:
        return _play_chunk(spec, templates, chunk, rotate, max_moves)

    with _bar(len(jobs), show, name) as bar:
        probed, per_hand = probe(local, jobs)
        bar.update(len(probed))
        left = jobs[len(probed):]
        workers, size = plan(per_hand, len(left))
        if workers and not _picklable(spec, templates):
            workers = 0  # players that cannot travel (a class defined inside a function): all here
        if not workers:
            for chunk in chunks_of(left, 50):
                probed += local(chunk)
                bar.update(len(chunk))
            return probed
        from concurrent.futures import ProcessPoolExecutor  # loads multiprocessing: only when it is used

        with ProcessPoolExecutor(workers) as pool:
            def remote(chunk: list[Job]) -> Any:
                return pool.submit(timed, _play_chunk, spec, templates, chunk, rotate, max_moves)

            results = run_shared(pool, remote, local, chunks_of(left, size), workers,
                                 lambda part: bar.update(len(part)), _failure)
    return probed + [hand for first in sorted(results) for hand in results[first]]


def _picklable(spec: Any, templates: list[Any]) -> bool:
    try:
        pickle.dumps((spec, templates))
    except Exception:
        return False
    return True


def _failure(err: BaseException) -> BaseException:
    if isinstance(err, SimulationError):
        return err
    return SimulationError(f"the executor failed: {type(err).__name__}: {err}")


def _run_parallel(executor: Any, spec: Any, templates: list[Any], jobs: list[Job], rotate: bool, max_moves: int,
                  show: bool, name: str) -> list[SimulatedHand]:
    try:
        pickle.dumps((spec, templates))
    except Exception as err:
        raise SimulationError(f"the players cannot be sent to other processes ({type(err).__name__}: {err}); "
                              "define player classes at the top level of a module, or use executor='serial'"
                              ) from None
    workers = cores()
    size = max(1, min(200, math.ceil(len(jobs) / (workers * 8))))
    chunks = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    futures = {}
    try:
        for chunk in chunks:
            futures[executor.submit(_play_chunk, spec, templates, chunk, rotate, max_moves)] = chunk
    except Exception as err:
        for f in futures:
            f.cancel()
        raise SimulationError(f"the executor refused the work: {type(err).__name__}: {err}") from err
    results: dict[int, list[SimulatedHand]] = {}
    with _bar(len(jobs), show, name) as bar:
        for future in as_completed(futures):
            try:
                part = future.result()
            except SimulationError:
                _cancel(futures)
                raise
            except Exception as err:
                _cancel(futures)
                raise SimulationError(f"the executor failed: {type(err).__name__}: {err}") from err
            results[futures[future][0][0]] = part
            bar.update(len(part))
    return [hand for first in sorted(results) for hand in results[first]]


def _cancel(futures: dict[Any, Any]) -> None:
    for f in futures:
        f.cancel()

