"""Many Makaó hands as one Gymnasium ``VectorEnv`` over the batched engine: the agent plays seat 0 of
every hand, batched players the other seats (``maumau.env.batch``: each hand the scalar engine's).

A step takes one action per hand for seat 0, then lets the opponents move in the hands where it is
their turn, until seat 0 is to move in every hand.  The opponents are batch policies
(``maumau.env.batch_policy``): uniformly random legal actions (``BatchRandom``, ``Batch.sample``) unless
``opponents`` says otherwise, e.g. a trained ``BatchAgent``; one for every other seat or one per seat.
Each policy chooses in the whole batch at once and the batch steps the hands where its seat moves.
A policy whose actions the batch refuses (illegal, wrong shape) stops the step with a ValueError that
names its seat; the batch takes nothing of that array, but seat 0 has moved, so the environment
takes no step until ``reset()``.
Reward: +1 when seat 0 goes out, -1 when another seat does, 0 in a blocked hand (C-7), as the Gym
environment has it.  A hand that ends is dealt anew at once (Gymnasium's same-step autoreset): the
observation returned for it is the new hand's first; the finished hand's last is not kept
(``final_obs`` is not given: a hand is never truncated, so nothing bootstraps from it).

The observation is seat 0's alone: its hand as card counts, the top card, the wish, the pending
draw, the extra play after an Ace, the direction, the other seats' hand sizes (from seat 1 on),
the stock and the pile sizes; ``action_mask`` marks the legal actions (``Batch.legal_mask``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .batch import CARDS, Batch
from .batch_policy import BatchPolicy, Opponents, policy_step, seat_policies, seat_turns

__all__ = ["BatchVectorEnv"]


class BatchVectorEnv(VectorEnv):
    """Seat 0 of ``num_envs`` Makaó hands for ``players`` seats against ``opponents``: batch policies,
    one for every other seat or a sequence of one per seat (None: ``BatchRandom``, random legal moves)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1024, players: int = 2, seed: int = 0, opponents: Opponents = None) -> None:
        self.num_envs = num_envs
        self.players = players
        self.batch = Batch("makao", games=num_envs, players=players, seed=seed, record=False)
        #: The policy of each opponent seat: ``opponents[i]`` plays seat ``i + 1``.
        self.opponents: tuple[BatchPolicy, ...] = seat_policies(opponents, players)
        self._turns = seat_turns(self.opponents)
        self._rng = np.random.default_rng(seed)
        self._stopped: str | None = None  # why the last step stopped half-way (a policy's refused actions)
        actions = len(self.batch.actions)
        self.size = 2 * CARDS + 4 + 3 + (players - 1) + 2
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, float(len(self.batch.variant.deck)), (self.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Deal every hand anew: from ``seed`` (hand ``i`` from ``seed + i``) when given."""
        if isinstance(seed, list):
            raise ValueError("the hands of a BatchVectorEnv take one seed: hand i is dealt from seed + i")
        if seed is not None:
            self.batch = Batch("makao", games=self.num_envs, players=self.players, seed=seed, record=False)
            self._rng = np.random.default_rng(seed)
            self.action_space.seed(seed)
        else:
            self.batch = Batch("makao", games=self.num_envs, players=self.players,
                               seed=int(self._rng.integers(2**40)), record=False)
        self._stopped = None
        return self._observe(), {}

    def step(self, actions: Any) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Seat 0's action in every hand, then the opponents' moves until seat 0 is to move again."""
        if self._stopped is not None:
            raise RuntimeError(f"the last step stopped half-way ({self._stopped}): reset() deals the hands anew")
        rewards = np.zeros(self.num_envs)
        ended = self.batch.step(np.asarray(actions))  # refused (ValueError) before anything changes
        self._score(ended, rewards)
        self._stopped = "an opponent's policy failed"  # until the opponents are done
        try:
            ended |= self._opponents_move(rewards)
        except ValueError as refused:  # a policy's choice (policy_step names the seat)
            self._stopped = str(refused)
            raise
        self._stopped = None
        return self._observe(), rewards, ended, np.zeros(self.num_envs, dtype=bool), {}

    def _opponents_move(self, rewards: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        """The opponents move, each policy in the hands where one of its seats is to move, round after
        round, until seat 0 is to move in every hand; returns the hands that ended."""
        b = self.batch
        ended = np.zeros(self.num_envs, dtype=bool)
        while (b.to_move != 0).any():
            for policy, seats in self._turns:
                moving = seats[b.to_move]
                if moving.any():
                    over = policy_step(b, policy, seats, moving, self._rng)
                    self._score(over, rewards)
                    ended |= over
        return ended

    def _score(self, over: npt.NDArray[np.bool_], rewards: npt.NDArray[np.float64]) -> None:
        winners = self.batch.winners[over]
        rewards[over] = np.where(winners == 0, 1.0, np.where(winners < 0, 0.0, -1.0))

    def _observe(self) -> dict[str, npt.NDArray[Any]]:
        """What seat 0 sees in every hand, and its legal actions."""
        b = self.batch
        rows = np.arange(self.num_envs)
        top = np.zeros((self.num_envs, CARDS), dtype=np.float32)
        top[rows, b.top] = 1
        wish = np.zeros((self.num_envs, 4), dtype=np.float32)
        wish[rows[b.wish >= 0], b.wish[b.wish >= 0]] = 1
        parts = [b.hands[:, 0], top, wish, b.pending[:, None], b.extra[:, None], (b.direction[:, None] < 0),
                 b.sizes[:, 1:], (b.stock_end - b.stock_at)[:, None], b.pile_size[:, None]]
        observation = np.concatenate([np.asarray(p, dtype=np.float32) for p in parts], axis=1)
        return {"observation": observation, "action_mask": b.legal_mask().astype(np.int8)}

