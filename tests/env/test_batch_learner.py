"""The batched learner (maumau.env.batch_learner, issue 39 item 4): a linear ranking of the moves that
chooses in every hand of a Batch at once, always a legal action (C-3, MK-3, MK-7, C-8 as the mask has
them) and the same one the scalar choice makes from the seat's View; the cross-entropy method on the
batched engine, reproducible by seed and better than chance on hands it never saw; bad arguments."""

from __future__ import annotations

import re

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


# --- the opponents (issue 39): random by default, or batch policies as env.vector takes them -----------

FIRST_CARD = np.zeros(len(ACTION_FEATURES))
FIRST_CARD[ACTION_FEATURES.index("draw")] = -1.0  # every card above drawing: the first legal play (MK-3)
DRAW = ACTIONS.index(mm.Draw())
#: What env.vector, batch_win_rate and train_cem_batch refuse as opponents (one check, seat_policies),
#: with the words that name the seat (tests/env/test_vector_env.py uses them too).
BAD_OPPONENTS = [
    (2, [env.BatchRandom(), env.BatchRandom()], "2 players leave 1 opponent seat"),
    (3, [env.BatchRandom()], "give one policy for them all or a list of 2, not 1"),
    (2, 42, "the opponent of every seat after 0 is a batch policy"),
    (3, [env.BatchRandom(), "heuristic"], "the opponent of seat 2 is a batch policy"),
    (2, "heuristic", "by name only 'random'"),
    (2, mm.players.Random(), "a player of one hand"),
    (2, env.BatchRandom, "a class: give a policy made of it, BatchRandom"),
]


@pytest.mark.parametrize("opponents", [None, "random", env.BatchRandom()])
def test_the_default_opponents_give_the_numbers_of_before(opponents: object) -> None:
    """None, "random" and one BatchRandom are the random opponents of before: win rates and a training
    run give what the functions gave before they took opponents (pinned from that code)."""
    plays = BatchAgent(FIRST_CARD)
    for players, rounds, pinned in ((2, None, (0.96875, 0.5729166666666666)), (3, 40, (0.2708333333333333, 0.0625)),
                                    (4, None, (0.8333333333333334, 0.21875))):
        rates = tuple(batch_win_rate(a, hands=96, players=players, seed=11, rounds=rounds, opponents=opponents)
                      for a in (plays, None))
        assert rates == pinned
    agent, curve = train_cem_batch(generations=2, population=4, hands=48, elite=2, check=64, players=3, rounds=50,
                                   seed=3, opponents=opponents)
    assert [(row["elite"], row["check"]) for row in curve] == [(0.0, 0.0), (0.010416666666666666, 0.0),
                                                               (0.3020833333333333, 0.234375)]
    assert agent.weights[:2].round(6).tolist() == [-2.095347, -2.181738]


def test_a_stronger_opponent_lowers_the_win_rate() -> None:
    """A trained agent wins most hands against random play and about half against itself or a player
    that plays a card whenever it can; a random seat 0 wins about half against random play and few
    against them (fresh hands, never dealt in training)."""
    trained, _ = train_cem_batch(generations=3, population=8, hands=64, elite=3, check=128, seed=0)
    fresh = 5_000_000_000
    against_random = batch_win_rate(trained, hands=256, seed=fresh)
    assert against_random > 0.8 and 0.35 < batch_win_rate(None, hands=256, seed=fresh) < 0.65
    for opponent in (trained, BatchAgent(FIRST_CARD)):
        assert batch_win_rate(trained, hands=256, seed=fresh, opponents=opponent) < against_random - 0.25
        assert batch_win_rate(None, hands=256, seed=fresh, opponents=opponent) < 0.2


def test_each_opponent_seat_plays_its_own_policy() -> None:
    """Three players, one policy per seat: a player that plays a card whenever it can at either seat
    lowers seat 0's wins against two random ones, and at both seats lowers them more; two equal
    players that never vary play as one at both seats (each waiting hand takes one opponent's move a
    round, whichever policy plays it).  At most 200 rounds a hand: players that never vary can pass
    the same cards round the pile and the stock for ever."""
    me = BatchAgent(FIRST_CARD)

    def rate(opponents: object, agent: BatchAgent | None = me) -> float:
        return batch_win_rate(agent, hands=256, players=3, seed=4, rounds=200, opponents=opponents)

    two_random = rate([env.BatchRandom(), env.BatchRandom()])
    one_plays = [rate([env.BatchRandom(), BatchAgent(FIRST_CARD)]), rate([BatchAgent(FIRST_CARD), env.BatchRandom()])]
    both_play = rate([BatchAgent(FIRST_CARD), BatchAgent(FIRST_CARD)])
    assert two_random > 0.8 and all(two_random - 0.2 > r > both_play + 0.1 for r in one_plays)
    assert both_play == rate(BatchAgent(FIRST_CARD))
    assert rate([BatchAgent(FIRST_CARD), BatchAgent(FIRST_CARD)], None) == rate(BatchAgent(FIRST_CARD), None)


def test_a_function_of_the_batch_is_an_opponent_and_is_asked_for_its_seats() -> None:
    asked: list[np.ndarray] = []

    def draw_always(batch: Batch, rng: np.random.Generator) -> np.ndarray:
        asked.append(batch.to_move.copy())
        return np.full(batch.games, DRAW)

    # it never goes out: seat 0 wins the hands that do not end blocked (C-7)
    assert batch_win_rate(BatchAgent(FIRST_CARD), hands=64, seed=2, opponents=draw_always) > 0.75
    assert asked and all((to_move == 1).any() for to_move in asked)


def test_training_against_an_opponent_runs_and_is_reproducible_by_seed() -> None:
    """The same seed and the same opponents, the same curve and weights; another opponent, another
    run.  Against a player that plays whenever it can, the untrained agent (it only draws) never
    wins, and training finds weights that win some hands."""
    def run(opponents: object, seed: int = 7) -> tuple[BatchAgent, list[dict[str, float]]]:
        return train_cem_batch(generations=3, population=6, hands=48, elite=2, check=64, seed=seed,
                               opponents=opponents)

    (a, curve_a), (b, curve_b) = run(BatchAgent(FIRST_CARD)), run(BatchAgent(FIRST_CARD))
    assert curve_a == curve_b and (a.weights == b.weights).all()
    assert curve_a != run(None)[1] and curve_a != run(BatchAgent(FIRST_CARD), seed=8)[1]
    assert curve_a[0]["check"] == 0.0 and curve_a[-1]["check"] > 0.1
    assert batch_win_rate(a, hands=256, seed=5_000_000_000, opponents=BatchAgent(FIRST_CARD)) > 0.1


@pytest.mark.parametrize(("players", "opponents", "says"), BAD_OPPONENTS)
@pytest.mark.parametrize("function", ["batch_win_rate", "train_cem_batch"])
def test_opponents_that_are_not_policies_are_refused(function: str, players: int, opponents: object,
                                                     says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        if function == "batch_win_rate":
            batch_win_rate(BatchAgent(FIRST_CARD), hands=8, players=players, opponents=opponents)
        else:
            train_cem_batch(generations=1, population=2, hands=8, elite=1, check=8, players=players,
                            opponents=opponents)


@pytest.mark.parametrize(("wrong", "says"), [("illegal", "is not legal in hand"), ("short", "one action per hand"),
                                             ("steps", "stepped the batch itself")])
def test_an_opponent_that_chooses_badly_is_named(wrong: str, says: str) -> None:
    """An illegal action, an array of the wrong shape or a policy that steps the batch itself: a
    ValueError naming the seat and the policy, in a win rate as in training."""
    def sometimes_wrong(batch: Batch, rng: np.random.Generator) -> np.ndarray:
        if wrong == "illegal":
            return np.full(batch.games, ACTIONS.index(mm.Pass()))
        if wrong == "short":
            return np.full(3, DRAW)
        batch.step(batch.sample(rng))
        return batch.sample(rng)

    named = f"the policy of seat 2 \\(sometimes_wrong\\).*{says}"
    with pytest.raises(ValueError, match=named):
        batch_win_rate(BatchAgent(FIRST_CARD), hands=16, players=3, seed=1, opponents=[env.BatchRandom(),
                                                                                        sometimes_wrong])
    with pytest.raises(ValueError, match=named):
        train_cem_batch(generations=1, population=2, hands=16, elite=1, check=16, players=3,
                        opponents=[None, sometimes_wrong])


def test_a_hand_that_never_ends_stops_after_the_longest_hand_and_says_so() -> None:
    """A seat 0 that plays a card whenever it can, against two players that draw whenever they may:
    some hands pass the same cards round the pile and the stock for ever (C-7 never blocks them, the
    stock is refilled).  ``rounds=None`` used never to return here; now such a hand stops after
    ``LONGEST`` rounds, counts as not won, and a warning says how many."""
    draw = ACTIONS.index(mm.Draw())

    def drawer(batch: Batch, rng: np.random.Generator) -> np.ndarray:
        mask = batch.legal_mask()
        return np.where(mask[:, draw], draw, mask.argmax(axis=1))

    me = BatchAgent(FIRST_CARD)
    cut = batch_win_rate(me, hands=96, players=3, seed=4, rounds=200, opponents=drawer)
    with pytest.warns(RuntimeWarning, match=r"of 96 hands were still going after 10,000 rounds"):
        assert batch_win_rate(me, hands=96, players=3, seed=4, opponents=drawer) == cut
