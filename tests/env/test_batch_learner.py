"""The batched learner (maumau.env.batch_learner, issue 39 item 4): a linear ranking of the moves that
chooses in every hand of a Batch at once, always a legal action (C-3, MK-3, MK-7, C-8 as the mask has
them) and the same one the scalar choice makes from the seat's View; the cross-entropy method on the
batched engine, reproducible by seed and better than chance on hands it never saw; bad arguments."""

from __future__ import annotations

import numpy as np
import pytest

import maumau as mm
from maumau import env
from maumau.env import Batch, BatchAgent, batch_win_rate, train_cem_batch
from maumau.env.batch_learner import ACTION_FEATURES, action_features
from maumau.players.view import View

ACTIONS = env.actions("makao")


def _agent(seed: int) -> BatchAgent:
    return BatchAgent(np.random.default_rng(seed).standard_normal(len(ACTION_FEATURES)))


def test_the_features_are_read_off_the_moves() -> None:
    f = action_features(ACTIONS)
    assert f.shape == (len(ACTIONS), len(ACTION_FEATURES))
    names = list(ACTION_FEATURES)
    draw, jack = ACTIONS.index(mm.Draw()), ACTIONS.index(mm.Play(mm.Card.parse("JS"), wish=mm.Suit.HEARTS))
    assert f[draw, names.index("draw")] == 1 and f[draw].sum() == 1
    assert f[jack, names.index("rank J")] == 1 and f[jack, names.index("names a wish")] == 1  # MK-7
    plays = f[:, names.index("rank 2"):names.index("rank A") + 1].sum(1)
    assert (plays == [isinstance(m, mm.Play) for m in ACTIONS.moves]).all()  # every play has one rank
    assert f[:, names.index("says Makaó")].sum() == sum(m.mau for m in ACTIONS.moves if isinstance(m, mm.Play))


def test_the_batched_choice_is_legal_and_is_the_scalar_choice_of_each_hand() -> None:
    b = Batch("makao", games=64, players=2, seed=3)
    rng = np.random.default_rng(0)
    agent = _agent(1)
    for _ in range(30):
        mask = b.legal_mask()
        chosen = agent.act(mask)
        assert mask[np.arange(b.games), chosen].all()
        for g in range(b.games):  # per hand: the legal action with the best score, the first on a tie
            legal = np.flatnonzero(mask[g])
            assert chosen[g] == legal[np.argmax(agent.features[legal] @ agent.weights)]
        for g in (0, 17, 63):  # and what choose() makes of the seat's View of the same hand
            assert ACTIONS.index(agent.choose(View(b.game(g).state))) == chosen[g]
        b.step(chosen if rng.random() < 0.5 else b.sample(rng))


def test_its_choice_from_the_batch_is_its_choice_from_the_mask() -> None:
    """``choose_batch`` (the BatchPolicy, from the playable cards) makes ``act(legal_mask())``'s choice in
    every hand: random weights, weights with many ties (whole numbers, all 0) and weights changed in
    place; 3 players, so that the call (C-8), the 7's answer (MK-4) and the wishes (MK-7) come up."""
    b = Batch("makao", games=256, players=3, seed=5, record=False)
    rng = np.random.default_rng(5)
    agents = [_agent(2), _agent(3), BatchAgent(), BatchAgent(rng.integers(-2, 3, len(ACTION_FEATURES)))]
    for step in range(120):
        for agent in agents:
            assert (agent.choose_batch(b, rng) == agent.act(b.legal_mask())).all()
        agents[1].weights = rng.integers(-1, 2, len(ACTION_FEATURES)).astype(float)  # made again when changed
        b.step(agents[step % 2].choose_batch(b, rng) if step % 3 else b.sample(rng))
    assert isinstance(BatchAgent(), env.BatchPolicy)


def test_untrained_it_always_draws_and_never_wins() -> None:
    b = Batch("makao", games=32, players=2, seed=0)
    assert (BatchAgent().act(b.legal_mask()) == ACTIONS.index(mm.Draw())).all()  # MK-3: Draw is always legal
    assert batch_win_rate(BatchAgent(), hands=64, seed=0) == 0.0


def test_it_plays_as_a_scalar_player() -> None:
    weights = np.zeros(len(ACTION_FEATURES))
    weights[ACTION_FEATURES.index("draw")] = -1.0  # play whenever a card fits: Draw only when nothing does
    result = mm.simulate("makao", players=[BatchAgent(weights), "random"], games=40, seed=1, executor="serial")
    rows = {row["player"]: row for row in result.by_player()}
    assert rows["BatchAgent(17 weights)"]["wins"] >= 30 > rows["Random()"]["wins"]


def test_training_is_reproducible_by_seed() -> None:
    runs = [train_cem_batch(generations=2, population=4, hands=32, elite=2, check=32, seed=s) for s in (7, 7, 8)]
    (a, curve_a), (b, curve_b), (_, curve_c) = runs
    assert curve_a == curve_b and (a.weights == b.weights).all()
    assert [row["generation"] for row in curve_a] == [0.0, 1.0, 2.0]
    assert curve_a != curve_c


def test_training_beats_the_random_player_on_new_hands() -> None:
    agent, curve = train_cem_batch(generations=3, population=8, hands=64, elite=3, check=128, seed=0)
    assert curve[0]["check"] == 0.0 and curve[-1]["check"] > 0.8  # untrained it only draws (MK-3)
    fresh = 5_000_000_000  # hands the training never dealt
    trained = batch_win_rate(agent, hands=256, seed=fresh)
    chance = batch_win_rate(None, hands=256, seed=fresh)
    assert 0.35 < chance < 0.65  # two random players: about even
    assert trained > chance + 0.3


@pytest.mark.parametrize(("call", "said"), [
    (lambda: BatchAgent([1.0, 2.0]), "weights are 17 numbers"),
    (lambda: BatchAgent().act(np.ones((3, 5), dtype=bool)), "the mask is bool"),
    (lambda: BatchAgent().act(np.zeros((3, len(ACTIONS)), dtype=bool)), "without a legal action"),
    (lambda: train_cem_batch(generations=0), "generations must be a whole number of 1 or more"),
    (lambda: train_cem_batch(population=3, elite=4), "the elite"),
    (lambda: train_cem_batch(hands=2.5), "hands must be a whole number"),  # type: ignore[arg-type]
    (lambda: train_cem_batch(players=6), "2 to 5 players"),
    (lambda: train_cem_batch(seed=-1), "seed must be a whole number of 0 or more"),
    (lambda: batch_win_rate(hands=0), "hands must be"),
])
def test_bad_arguments_say_what_is_wrong(call: object, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        call()  # type: ignore[operator]
