"""The Gymnasium VectorEnv over the batched engine (maumau.env.vector, issue 39): its spaces hold what
it returns, it is seeded, seat 0 is to move in every hand after each step, rewards follow who went out
(the Gym environment's), hands restart the same step, and Gymnasium's own vector wrappers run on it."""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.wrappers.vector import RecordEpisodeStatistics
from test_batch_learner import BAD_OPPONENTS

import maumau as mm
from maumau import env
from maumau.env.batch_learner import ACTION_FEATURES


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


# --- the opponents (issue 39): random by default, or batch policies such as a trained BatchAgent ---

FIRST_CARD = np.zeros(len(ACTION_FEATURES))
FIRST_CARD[ACTION_FEATURES.index("draw")] = -1.0  # every card above drawing: the first legal play (MK-3)
DRAW = env.actions("makao").index(mm.Draw())


def _trace(e: env.BatchVectorEnv, steps: int, seed: int) -> tuple[int, float, str, np.ndarray]:
    """Seat 0 plays random legal actions for ``steps`` steps: the decisions made, the sum of the
    rewards, a digest of the observations and rewards, and who won each hand that ended."""
    obs, _ = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    digest, total, winners = hashlib.sha256(), 0.0, []
    for _ in range(steps):
        obs, reward, terminated, _, _ = e.step(_random_actions(e, obs, rng))
        for part in (obs["observation"].astype("<i4"), reward.astype("<i4"), terminated):
            digest.update(part.tobytes())
        total += float(reward.sum())
        winners += e.batch.winners[terminated].tolist()
    return e.batch.decisions, total, digest.hexdigest()[:16], np.array(winners)


@pytest.mark.parametrize(("players", "pinned"), [(2, (3850, 0.0, "2831131654b94481")),
                                                 (3, (5761, -5.0, "1c68a69864ab5a6c"))])
def test_the_default_opponents_play_as_before(players: int, pinned: tuple[int, float, str]) -> None:
    """None, "random" and a BatchRandom are the random opponents of before: the same numbers for the
    same seed as the environment made before it took opponents (pinned from that code)."""
    for opponents in (None, "random", env.BatchRandom()):
        e = env.vector(num_envs=32, players=players, seed=5, opponents=opponents)
        assert _trace(e, 60, seed=5)[:3] == pinned
        assert all(isinstance(p, env.BatchRandom) for p in e.opponents) and len(e.opponents) == players - 1


def test_a_batch_agent_opponent_makes_every_opponent_move() -> None:
    """The hands go exactly as a plain loop over a Batch in which the agent chooses every move of
    seats 1 and 2: the env steps its choice, and nothing else, where an opponent is to move."""
    agent = env.BatchAgent(FIRST_CARD)
    e = env.vector(num_envs=24, players=3, seed=7, opponents=agent)
    obs, _ = e.reset(seed=7)
    plain = env.Batch("makao", games=24, players=3, seed=7, record=False)
    rng = np.random.default_rng(7)
    for _ in range(80):
        actions = _random_actions(e, obs, rng)
        obs, reward, terminated, _, _ = e.step(actions)
        ended = plain.step(actions)
        while (plain.to_move != 0).any():
            ended |= plain.step(agent.act(plain.legal_mask()), where=plain.to_move != 0)
        assert (terminated == ended).all() and (e.batch.hands == plain.hands).all()
        assert (e.batch.winners[terminated] == plain.winners[ended]).all()
    assert e.batch.decisions == plain.decisions and int(e.batch.finished.sum()) > 24


def test_a_stronger_opponent_lowers_seat_0s_wins() -> None:
    """A random seat 0 wins about half its hands against a random opponent and few against an agent
    that plays a card whenever it can (hundreds of hands each, fixed seeds)."""
    against_random = _trace(env.vector(num_envs=64, seed=3), 300, seed=3)[3]
    against_agent = _trace(env.vector(num_envs=64, seed=3, opponents=env.BatchAgent(FIRST_CARD)), 300, seed=3)[3]
    assert len(against_random) >= 30 and len(against_agent) >= 300
    assert (against_random == 0).mean() > 0.35 and (against_agent == 0).mean() < 0.1


def test_each_opponent_seat_plays_its_own_policy() -> None:
    """Three players, one policy per seat: the seat that only draws never goes out, the seat that plays
    a card whenever it can wins most hands; swapped, so are the results."""
    draws, plays = env.BatchAgent(), env.BatchAgent(FIRST_CARD)  # all weights 0: always Draw (MK-3)
    for opponents, drawing, playing in (([draws, plays], 1, 2), ((plays, draws), 2, 1)):
        e = env.vector(num_envs=48, players=3, seed=11, opponents=opponents)
        assert e.opponents == tuple(opponents)
        winners = _trace(e, 200, seed=11)[3]
        assert len(winners) > 100 and not (winners == drawing).any()
        assert (winners == playing).mean() > 0.6


def test_a_function_of_the_batch_is_a_policy() -> None:
    """A function (batch, rng) -> actions is a policy too; asked once a round for its hands."""
    asked = []

    def draw_always(batch: env.Batch, rng: np.random.Generator) -> np.ndarray:
        asked.append(batch.to_move.copy())
        return np.full(batch.games, DRAW)

    e = env.vector(num_envs=8, seed=0, opponents=draw_always)
    winners = _trace(e, 100, seed=0)[3]
    assert len(winners) > 0 and not (winners == 1).any()  # it never goes out (most hands end blocked, C-7)
    assert len(asked) >= 100 and all((to_move == 1).any() for to_move in asked)
    assert isinstance(env.BatchAgent(), env.BatchPolicy) and isinstance(env.BatchRandom(), env.BatchPolicy)


@pytest.mark.parametrize(("players", "opponents", "says"), BAD_OPPONENTS)
def test_opponents_that_are_not_policies_are_refused(players: int, opponents: object, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        env.vector(num_envs=4, players=players, opponents=opponents)


def test_a_policy_that_chooses_badly_is_named_and_the_step_stops() -> None:
    """An illegal action, an array of the wrong shape or a policy that steps the batch itself: a
    ValueError naming the seat and the policy; the batch takes none of it (only seat 0 has moved),
    and the environment steps again only after reset()."""
    choice = {"now": "good"}

    def sometimes_wrong(batch: env.Batch, rng: np.random.Generator) -> np.ndarray:
        if choice["now"] == "illegal":
            return np.full(batch.games, env.actions("makao").index(mm.Pass()))
        if choice["now"] == "short":
            return np.full(3, DRAW)
        if choice["now"] == "steps":
            batch.step(batch.sample(rng))
        return batch.sample(rng)

    e = env.vector(num_envs=16, players=3, seed=2, opponents=[sometimes_wrong, env.BatchRandom()])
    obs, _ = e.reset(seed=2)
    rng = np.random.default_rng(2)
    for wrong, says in (("illegal", "is not legal in hand"), ("short", "one action per hand"),
                        ("steps", "stepped the batch itself")):
        choice["now"] = "good"
        obs, *_ = e.step(_random_actions(e, obs, rng))
        before = e.batch.decisions
        choice["now"] = wrong
        with pytest.raises(ValueError, match=f"the policy of seat 1 \\(sometimes_wrong\\).*{says}"):
            e.step(_random_actions(e, obs, rng))
        if wrong != "steps":
            assert e.batch.decisions == before + 16  # seat 0's moves, none of the refused array
        with pytest.raises(RuntimeError, match="reset"):
            e.step(_random_actions(e, obs, rng))
        obs, _ = e.reset()


def test_seat_0s_illegal_action_leaves_the_environment_as_it_was() -> None:
    e = env.vector(num_envs=4, players=3, seed=0, opponents=env.BatchAgent(FIRST_CARD))
    obs, _ = e.reset(seed=0)
    with pytest.raises(ValueError, match="not legal in hand"):
        e.step(np.full(4, env.actions("makao").index(mm.Pass())))
    assert e.batch.decisions == 0
    e.step(_random_actions(e, obs, np.random.default_rng(0)))
    assert (e.batch.to_move == 0).all() and e.batch.decisions >= 8
