"""Who chooses in every hand of a ``Batch`` at once: the batched player's protocol (issue 39).

A scalar player answers one seat's View with a move (``choose(view)``, ``maumau.players.Player``).
A batched player answers a whole ``Batch`` with one action per hand: ``choose_batch(batch, rng)``
returns an int array ``[games]`` of action numbers, each legal for the seat to move in its hand
(``batch.legal_mask()`` marks them).  The caller steps only the hands it means (``Batch.step``'s
``where``); what is chosen for the others is not read.  A policy reads the batch and draws from
``rng`` (the caller's generator, so that a seeded run stays the same); it never steps the batch.

``BatchRandom`` plays uniformly random legal actions (``Batch.sample``); ``env.BatchAgent`` plays
its ranking of the moves (``maumau.env.batch_learner``); a function ``(batch, rng) -> actions`` is
one too.  ``seat_policies`` reads what a caller gave as the opponents of seat 0: one policy for
every other seat, or one per seat; ``seat_turns`` groups the seats a policy plays and ``policy_step``
steps the hands where one of them is to move, naming the seat when the batch refuses the choice.
Both callers of a policy use them: ``env.vector`` and ``env.batch_win_rate``/``env.train_cem_batch``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from .batch import Batch

__all__ = ["BatchPolicy", "BatchRandom", "Opponents", "policy_step", "seat_policies", "seat_turns"]

Ints = npt.NDArray[np.int64]


@runtime_checkable
class BatchPolicy(Protocol):
    """Anything with ``choose_batch(batch, rng) -> actions`` chooses in every hand of a Batch:
    one legal action (an int) per hand, for the seat to move there."""

    def choose_batch(self, batch: Batch, rng: np.random.Generator) -> Ints: ...


#: What ``env.vector``'s ``opponents`` takes: a policy, a function ``(batch, rng) -> actions``, "random"
#: or None (``BatchRandom``) for every seat after seat 0, or a sequence of those, one per seat.
Opponent = BatchPolicy | Callable[[Batch, np.random.Generator], Any] | str | None
Opponents = Opponent | Sequence[Opponent]


class BatchRandom:
    """A uniformly random legal action in every hand (``Batch.sample``, drawn with ``rng``)."""

    name = "random"

    def choose_batch(self, batch: Batch, rng: np.random.Generator) -> Ints:
        # sample()'s own array: the next step takes it as legal without checking it again
        return batch.sample(rng)

    def __repr__(self) -> str:
        return "BatchRandom()"


class _Function:
    """A function ``(batch, rng) -> actions`` as a BatchPolicy."""

    def __init__(self, function: Callable[[Batch, np.random.Generator], Any]) -> None:
        self.function = function

    def choose_batch(self, batch: Batch, rng: np.random.Generator) -> Ints:
        chosen: Ints = self.function(batch, rng)
        return chosen

    def __repr__(self) -> str:
        return getattr(self.function, "__name__", repr(self.function))


def seat_policies(opponents: Opponents, players: int) -> tuple[BatchPolicy, ...]:
    """The policy of each seat after seat 0 (seat ``1 + i`` is the ``i``-th): ``opponents`` None or
    "random" (``BatchRandom``), one policy for every such seat, or a sequence of one per seat.
    A bad entry or count is a ValueError that names the seat."""
    others = players - 1
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        one = _policy(opponents, "every seat after 0")
        return (one,) * others  # one object: the caller may choose for all its seats at once
    if len(opponents) != others:
        raise ValueError(f"{players} players leave {others} opponent seat{'s' * (others > 1)} (1 to {others}): "
                         f"give one policy for them all or a list of {others}, not {len(opponents)}")
    return tuple(_policy(p, f"seat {seat}") for seat, p in enumerate(opponents, start=1))


def _policy(given: object, seat: str) -> BatchPolicy:
    """``given`` as a BatchPolicy, or a ValueError saying what a policy is."""
    if given is None or (isinstance(given, str) and given.lower() == "random"):
        return BatchRandom()
    if isinstance(given, BatchPolicy) and not isinstance(given, type):
        return given
    if callable(given) and not isinstance(given, type):
        return _Function(given)
    hint = ""
    if isinstance(given, type):
        hint = f" (a class: give a policy made of it, {given.__name__}(...))"
    elif hasattr(given, "choose"):
        hint = " (a player of one hand: choose(view) plays one seat, not a batch)"
    elif isinstance(given, str):
        hint = " (by name only 'random': env.gym's computer players choose in one hand at a time)"
    raise ValueError(f"the opponent of {seat} is a batch policy, with choose_batch(batch, rng) (env.BatchRandom, "
                     f"env.BatchAgent, 'random') or a function (batch, rng) -> actions, not {given!r}{hint}")


def seat_turns(opponents: tuple[BatchPolicy, ...]) -> list[tuple[BatchPolicy, npt.NDArray[np.bool_]]]:
    """Each distinct policy of ``opponents`` (seat ``1 + i`` plays the ``i``-th, as ``seat_policies``
    gives them) with its seats as a lookup ``seats[to_move]``: one policy for every opponent seat
    chooses once for all their hands (so the default's random numbers are drawn as they always were:
    one ``sample`` over every waiting hand)."""
    turns: list[tuple[BatchPolicy, npt.NDArray[np.bool_]]] = []
    for seat, policy in enumerate(opponents, start=1):
        for known, seats in turns:
            if known is policy:
                seats[seat] = True
                break
        else:
            seats = np.zeros(len(opponents) + 1, dtype=bool)
            seats[seat] = True
            turns.append((policy, seats))
    return turns


def policy_step(batch: Batch, policy: BatchPolicy, seats: npt.NDArray[np.bool_], moving: npt.NDArray[np.bool_],
                rng: np.random.Generator) -> npt.NDArray[np.bool_]:
    """``policy`` (of ``seats``) chooses in every hand; the hands ``moving`` take its choice and the
    hands that ended are returned.  The batch checks the choice: a refused array changes nothing, and
    the ValueError names the seat and the policy, as does one for a policy that stepped the batch."""
    decisions = batch.decisions
    chosen = policy.choose_batch(batch, rng)
    if batch.decisions != decisions:
        raise ValueError(f"the policy of {_seats(seats)} ({policy!r}) stepped the batch itself: a policy "
                         f"only chooses (choose_batch returns one action per hand)")
    try:
        return batch.step(chosen, where=moving)
    except ValueError as refused:
        raise ValueError(f"the policy of {_seats(seats)} ({policy!r}) chose what the batch refuses: {refused}"
                         ) from refused


def _seats(seats: npt.NDArray[np.bool_]) -> str:
    """The seats a policy plays, as its refusals name them ("seat 1", "seat 1 and 2"): made only for them."""
    return "seat " + " and ".join(map(str, np.flatnonzero(seats).tolist()))
