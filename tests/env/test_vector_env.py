"""The Gymnasium VectorEnv over the batched engine (maumau.env.vector, issue 39): its spaces hold what
it returns, it is seeded, seat 0 is to move in every hand after each step, rewards follow who went out
(the Gym environment's), hands restart the same step, and Gymnasium's own vector wrappers run on it."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import maumau as mm
from maumau import env


def _random_actions(e: env.BatchVectorEnv, obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    mask = obs["action_mask"].astype(bool)
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def test_the_spaces_hold_what_it_returns_and_seat_0_always_moves() -> None:
    e = env.vector(num_envs=16, players=3, seed=0)
    obs, info = e.reset(seed=4)
    assert e.observation_space.contains(obs) and info == {}
    assert e.action_space.shape == (16,) and e.single_action_space.n == len(env.actions("makao"))
    rng = np.random.default_rng(0)
    rewards, ended = [], 0
    for _ in range(400):
        obs, reward, terminated, truncated, _ = e.step(_random_actions(e, obs, rng))
        assert e.observation_space.contains(obs)
        assert (e.batch.to_move == 0).all() and not truncated.any()
        assert (reward[~terminated] == 0).all() and set(reward[terminated].tolist()) <= {1.0, -1.0, 0.0}
        rewards += reward[terminated].tolist()
        ended += int(terminated.sum())
    assert ended > 0 and 1.0 in rewards and -1.0 in rewards
    hand = obs["observation"][:, :52]
    assert (hand.sum(axis=1) == e.batch.sizes[:, 0]).all()  # seat 0's own cards, and no one else's


def test_a_hand_ends_with_the_reward_of_who_went_out_and_restarts_at_once() -> None:
    e = env.vector(num_envs=8, players=2, seed=1)
    obs, _ = e.reset(seed=1)
    rng = np.random.default_rng(1)
    while True:
        finished_before = e.batch.finished.copy()
        obs, reward, terminated, _, _ = e.step(_random_actions(e, obs, rng))
        if terminated.any():
            break
    g = int(np.flatnonzero(terminated)[0])
    assert e.batch.finished[g] == finished_before[g] + 1
    assert reward[g] == {0: 1.0, -1: 0.0}.get(int(e.batch.winners[g]), -1.0)
    fresh = mm.deal("makao", players=2, seed=int(e.batch.seeds[g]))  # the same step's observation: a new hand
    assert (obs["observation"][g, :52] == np.bincount([c.index for c in fresh.hands[0]], minlength=52)).all()


def test_the_same_seed_gives_the_same_run() -> None:
    runs = []
    for _ in range(2):
        e = env.vector(num_envs=6, seed=0)
        obs, _ = e.reset(seed=9)
        rng = np.random.default_rng(9)
        trace = [obs]
        for _ in range(50):
            step = e.step(_random_actions(e, obs, rng))
            obs = step[0]
            trace.append(step[:4])
        runs.append(trace)
    assert data_equivalence(runs[0], runs[1], exact=True)


def test_gymnasiums_own_vector_wrapper_counts_episodes() -> None:
    e = RecordEpisodeStatistics(env.vector(num_envs=8, seed=2))
    obs, _ = e.reset(seed=2)
    rng = np.random.default_rng(2)
    episodes = 0
    for _ in range(300):
        obs, _, terminated, _, info = e.step(_random_actions(e.unwrapped, obs, rng))  # type: ignore[arg-type]
        if terminated.any():
            assert "episode" in info and (info["episode"]["l"][terminated] > 0).all()
            episodes += int(terminated.sum())
    assert episodes > 0


def test_an_illegal_action_is_refused_and_a_list_of_seeds_is_not_taken() -> None:
    e = env.vector(num_envs=4, seed=0)
    obs, _ = e.reset(seed=0)
    with pytest.raises(ValueError, match="not legal in hand"):
        e.step(np.full(4, env.actions("makao").index(mm.Pass())))
    with pytest.raises(ValueError, match="one seed"):
        e.reset(seed=[1, 2, 3, 4])
