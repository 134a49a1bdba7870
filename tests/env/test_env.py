"""The learning environments (maumau.env, issue 29): PettingZoo's and Gymnasium's own checkers, the
fixed action list and its mask against ``legal_moves()``, observations free of hidden cards, bad
input, seeded resets, rendering."""

from __future__ import annotations

import random
import warnings
from collections import Counter

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import maumau as mm
from maumau import env
from maumau.core.state import make_state
from maumau.players import Random

VARIANTS = mm.variant_names()
#: api_test's advice for any env whose observation is a dict (PettingZoo's own card games with an
#: action mask are on its list of exceptions by name): the format docs/explanation/design.md fixes.
DICT_ADVICE = {"Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
               "Observation is not a NumPy array"}


def _seat_counts():
    for name in VARIANTS:
        lo, hi = mm.variant(name).players
        for n in range(lo, hi + 1):
            yield name, n


@pytest.mark.parametrize(("name", "players"), list(_seat_counts()))
def test_pettingzoo_api_test_passes(name, players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env.aec(name, players=players, seed=players), num_cycles=200)
    assert {str(w.message) for w in caught} <= DICT_ADVICE


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("opponents", [["random"], ["heuristic", "random"]])
def test_gymnasium_check_env_passes(name, opponents):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.gym(name, opponents=opponents, seed=3))
    assert [str(w.message) for w in caught] == []


# --- the action list and its mask --------------------------------------------------------------------

def _random_states(name, count, seed):
    """``count`` states of random hands of ``name`` (every table size in turn), as random play meets them."""
    rng = random.Random(seed)
    lo, hi = mm.variant(name).players
    found = []
    while len(found) < count:
        state = mm.deal(name, players=rng.randint(lo, hi), seed=rng.getrandbits(32),
                        dealer=None)
        player = Random(rng.getrandbits(32))
        for _ in range(rng.randint(1, 400)):
            if state.is_over:
                break
            found.append(state)
            state = state.apply(player.choose(state))
    return found[:count]


@pytest.mark.parametrize("name", VARIANTS)
def test_the_mask_is_exactly_the_legal_moves_in_thousands_of_states(name):
    actions = env.actions(name)
    kinds = Counter()
    for state in _random_states(name, 3000, seed=len(name)):
        mask = actions.mask(state)
        chosen = [actions[i] for i in np.flatnonzero(mask)]
        assert sorted(map(repr, chosen)) == sorted(map(repr, state.legal_moves())), state
        assert mask.sum() == len(state.legal_moves())  # each legal move exactly once
        kinds.update(type(m).__name__ + ("+mau" if getattr(m, "mau", False) else "") for m in chosen)
    assert {"Play", "Play+mau", "Draw"} <= set(kinds)  # the walk met announcements, draws and plays


def test_the_action_list_is_fixed_and_readable():
    for name in VARIANTS:
        moves = env.moves(name)
        assert len(set(moves)) == len(moves)
        assert moves[:2] == (mm.Draw(), mm.Pass())
        assert env.moves(name) == moves  # the same list every time, whatever the table
        e3 = env.aec(name, players=3, seed=0)
        assert e3.actions.moves == moves and e3.action_space("seat_0").n == len(moves)
    makao = env.actions("makao")
    assert makao[makao.index(mm.Play("JC", wish="H"))] is mm.Play("JC", wish="H")
    assert mm.Play("5H 5S") in env.moves("lite_macau") and mm.Play("9C", runde=True) in env.moves("mau_mau_runde")


def test_a_rule_that_adds_unknown_plays_is_refused_with_a_sentence():
    class Pairs(mm.Rule):
        name = "pairs"

        def extra_plays(self, state, card):
            return []

    with pytest.raises(mm.VariantError, match="adds plays"):
        env.aec(mm.variant("makao").with_rules(Pairs()), players=2)


# --- observations ------------------------------------------------------------------------------------

def _hidden_dealt_anew(state, seat, rng):
    """``state`` with every card ``seat`` cannot see (the other hands, the stock) dealt anew at random;
    a card just drawn by the player to move stays in that hand."""
    keep = {s: [] for s in range(state.players)}
    if state.drawn is not None and state.to_move != seat:
        keep[state.to_move].append(state.drawn)
    pool = list(state.stock)
    for s, hand in enumerate(state.hands):
        if s != seat:
            rest = list(hand)
            for card in keep[s]:
                rest.remove(card)
            pool += rest
    rng.shuffle(pool)
    hands = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            need = len(hand) - len(keep[s])
            hands.append(tuple(sorted(keep[s] + pool[:need], key=lambda c: c.index)))
            del pool[:need]
    return make_state(state.variant, tuple(hands), tuple(pool), state.discard, state.to_move, state.direction,
                      state.wish, state.pending, state.phase, state.drawn, state.memory,
                      state.active, state.dealer, rng.getrandbits(63), state.idle, state.winner,
                      state.is_over, state.blocked, state.events)


@pytest.mark.parametrize("name", VARIANTS)
def test_observations_do_not_change_when_the_hidden_cards_are_dealt_anew(name):
    rng = random.Random(7)
    changed = 0
    for state in _random_states(name, 600, seed=11):
        e = env.aec(name, players=state.players)
        e.reset(seed=0)
        seat = rng.randrange(state.players)
        agent = f"seat_{seat}"
        e.hand.state = state
        seen = e.observe(agent)
        other = _hidden_dealt_anew(state, seat, rng)
        changed += other.hands != state.hands
        e.hand.state = other
        again = e.observe(agent)
        assert np.array_equal(seen["observation"], again["observation"])
        assert np.array_equal(seen["action_mask"], again["action_mask"])
    assert changed > 500  # the hidden cards really moved


def test_the_observation_shows_the_own_hand_and_the_table():
    state = mm.position("makao", hands=["7H 3C JD", "7S 4D", "5C"], top="9H", stock="2C 3D 4H 5S 6H", to_move=1)
    e = env.aec("makao", players=3)
    e.reset(seed=0)
    e.hand.state = state
    observer = e.hand.observer
    obs = e.observe("seat_1")["observation"]
    hand = obs[observer.parts["hand"]]
    assert [observer.cards[i].text for i in np.flatnonzero(hand)] == ["4D", "7S"]
    assert list(obs[observer.parts["hand_sizes"]]) == [2, 1, 3]  # from seat 1: itself, seat 2, seat 0
    assert observer.cards[int(np.argmax(obs[observer.parts["top"]]))].text == "9H"
    assert obs[observer.parts["stock"]][0] == 5
    assert list(obs[observer.parts["to_move"]]) == [1, 0, 0]
    mask = e.observe("seat_1")["action_mask"]
    assert {e.actions[i] for i in np.flatnonzero(mask)} == set(state.legal_moves())
    assert not e.observe("seat_0")["action_mask"].any()  # not its turn: nothing legal


# --- bad input ---------------------------------------------------------------------------------------

def _snapshot(e):
    return (e.game_state, e.agent_selection, dict(e.rewards), dict(e._cumulative_rewards),
            dict(e.terminations), e.hand.steps)


@pytest.mark.parametrize("action", [-1, 130, 10**9, 1.5, "3", None, True])
def test_an_action_outside_the_list_is_refused_and_changes_nothing(action):
    e = env.aec("makao", players=3, seed=4)
    e.reset()
    before = _snapshot(e)
    with pytest.raises(ValueError, match="action"):
        e.step(action)
    assert _snapshot(e) == before


def test_a_masked_action_raises_the_rules_sentence_and_changes_nothing():
    e = env.aec("makao", players=2, seed=4)
    e.reset()
    masked = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    before = _snapshot(e)
    with pytest.raises(mm.IllegalMove, match=rf"action {masked} \(.*\) is not legal for seat .*legal actions are"):
        e.step(masked)
    assert _snapshot(e) == before


def test_the_penalty_instead_of_the_error_leaves_the_hand_as_it_was():
    e = env.aec("makao", players=2, seed=4, illegal="penalty", illegal_reward=-2)
    e.reset()
    agent, state = e.agent_selection, e.game_state
    masked = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(masked)
    assert e.game_state is state and e.agent_selection == agent
    _, reward, term, trunc, info = e.last()
    assert reward == -2 and not term and not trunc and "is not legal" in info["illegal"]


def test_the_gym_env_answers_a_masked_action_with_the_penalty_or_the_error():
    g = env.gym("makao", opponents=["heuristic"], seed=2)
    obs, info = g.reset()
    masked = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    state = g.game_state
    obs2, reward, term, trunc, info = g.step(masked)
    assert reward == -1 and not term and g.game_state is state and "is not legal" in info["illegal"]
    assert np.array_equal(obs2["observation"], obs["observation"])
    strict = env.gym("makao", opponents=["heuristic"], seed=2, illegal="raise")
    strict.reset()
    with pytest.raises(mm.IllegalMove):
        strict.step(masked)
    assert strict.game_state == state
    with pytest.raises(ValueError, match="outside the action list"):
        g.step(len(g.actions))
    assert g.game_state is state


@pytest.mark.parametrize(("call", "words"), [
    (lambda: env.aec("makao", players=7), "makao is played by 2 to 5 players, not 7"),
    (lambda: env.aec("lite_macau", players=1), "lite_macau is played by 2 to 4 players, not 1"),
    (lambda: env.aec("uno", players=2), "unknown variant 'uno'"),
    (lambda: env.gym("mau_mau_runde", opponents=["random"] * 4), "mau_mau_runde is played by 2 to 4 players, not 5"),
    (lambda: env.gym("makao", opponents=[]), "opponents is a list"),
    (lambda: env.gym("makao", opponents="heuristic"), "opponents is a list"),
    (lambda: env.gym("makao", opponents=[42]), "an opponent is a strength name"),
    (lambda: env.gym("makao", opponents=["grandmaster"]), "unknown strength"),
    (lambda: env.aec("makao", players=2, illegal="ignore"), "illegal must be 'raise' or 'penalty'"),
    (lambda: env.aec("makao", players=2, render_mode="rgb_array"), "render_mode must be"),
    (lambda: env.aec(3, players=2), "a game is a variant name"),
])
def test_a_wrong_game_or_table_is_refused_with_a_sentence(call, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        call()


# --- seeds and results -------------------------------------------------------------------------------

def _aec_run(e, seed, steps=300):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for agent in e.agent_iter(steps):
        obs, reward, term, trunc, _ = e.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        seen.append((agent, obs["observation"].tobytes(), reward, action))
        e.step(action)
    return seen


def test_reset_with_a_seed_reproduces_the_hand():
    e = env.aec("joker_mau_mau", players=4, seed=9)
    first = _aec_run(e, seed=5)
    _aec_run(e, seed=6)
    assert _aec_run(e, seed=5) == first
    assert _aec_run(env.aec("joker_mau_mau", players=4), seed=5) == first
    g = env.gym("lite_macau", opponents=["random", "random"], seed=1)
    runs = []
    for _ in range(2):
        obs, _ = g.reset(seed=8)
        trail = [obs["observation"].tobytes()]
        done = False
        while not done:
            obs, reward, term, trunc, _ = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
            trail.append((obs["observation"].tobytes(), reward))
            done = term or trunc
        runs.append(trail)
    assert runs[0] == runs[1]


def test_a_finished_hand_pays_the_winner_and_the_rewards_add_up_to_zero():
    e = env.aec("makao", players=3, seed=1)
    e.reset()
    rng = np.random.default_rng(1)
    totals = Counter()
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    final = e.game_state
    assert final.is_over and final.winner is not None
    assert totals[f"seat_{final.winner}"] == 1 and sum(totals.values()) == pytest.approx(0)


def test_a_long_hand_is_truncated_after_max_steps():
    e = env.aec("lite_macau", players=4, seed=1, max_steps=5)
    e.reset()
    for _ in range(5):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())


# --- rendering ---------------------------------------------------------------------------------------

def test_render_shows_the_table_as_text_and_as_html():
    e = env.aec("makao", players=3, seed=2, render_mode="ansi")
    e.reset()
    text = e.render()
    state = e.game_state
    assert "Makaó" in text and "\x1b[" in text and f"seat {state.to_move} to move" in text
    for hand in state.hands:  # the teacher's view: every hand open
        assert " ".join(c.symbol for c in hand) in text.replace("\x1b[31m", "").replace("\x1b[0m", "")
    html = env.aec("makao", players=3, seed=2, render_mode="html")
    html.reset()
    assert html.render().count("mm-cardface") >= 21
    g = env.gym("makao", opponents=["random", "random"], seed=2, render_mode="ansi")
    g.reset()
    seat_lines = g.render().splitlines()[2:]
    assert "(you)" in seat_lines[0] and all("♥" not in line and "♠" not in line for line in seat_lines[1:])
    assert env.gym("makao", seed=2, render_mode="html").unwrapped.spec is not None


# --- the learning player (maumau.env.agent) ----------------------------------------------------------

def test_a_short_cem_run_beats_the_random_player_on_new_hands():
    agent, curve = env.train_cem("makao", opponents=["random"], generations=2, population=8, games=4, check=10,
                                 seed=1)
    assert [row["generation"] for row in curve] == [0, 1, 2] and curve[0]["check"] == 0  # untrained: always draws
    rng = random.Random(0)
    chance = env.win_rate(lambda o: rng.choice(np.flatnonzero(o["action_mask"]).tolist()), games=60, seed=5)
    assert env.win_rate(agent.act, games=60, seed=5) > chance + 0.2


def test_the_agent_is_a_player_that_sees_only_its_view_and_hands_in_as_a_bot():
    weights = np.linspace(-1, 1, len(env.agent.FEATURES))
    agent = env.LinearAgent("lite_macau", weights=weights)
    result = mm.simulate("lite_macau", players=[agent, "random", "heuristic"], games=12, seed=2, executor="serial")
    assert result.games == 12  # every move it chose was legal (simulate stops at an illegal one)
    state = mm.deal("lite_macau", players=3, seed=8)
    view = mm.players.View(state)
    assert agent.choose(view) == agent.choose(mm.players.View(view.sample(random.Random(3))))
    namespace = {}
    exec(agent.bot_source("Linear"), namespace)
    assert namespace["Linear"]().choose(view) == agent.choose(view)
    with pytest.raises(ValueError, match="26 numbers"):
        env.LinearAgent("makao", weights=[1.0, 2.0])
    with pytest.raises(ValueError, match="class name"):
        agent.bot_source("not a name")


def test_the_learning_curve_is_a_chart_in_both_kinds():
    curve = [{"generation": 0.0, "elite": 0.0, "check": 0.0}, {"generation": 1.0, "elite": 0.75, "check": 0.9}]
    chart = env.learning_curve(curve, baseline=0.5, title="t")
    assert chart.spec["layer"][0]["mark"]["type"] == "line" and len(chart.spec["data"]["values"]) == 4
    assert chart.png().data.startswith(b"\x89PNG")


def test_house_rules_and_variant_options_make_environments_too():
    house = mm.variant("makao").without("reverse_on_nine")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env.aec(house, players=3, seed=1), num_cycles=100)
    assert {str(w.message) for w in caught} <= DICT_ADVICE
    e = env.aec("joker_mau_mau", players=3, seed=2, jokers=0)
    assert e.hand.variant.options["jokers"] == 0 and mm.JOKER not in e.hand.observer.cards
    actions = e.actions
    for state in _random_states_of(e.hand.variant, 400):
        assert {actions[i] for i in np.flatnonzero(actions.mask(state))} == set(state.legal_moves())


def _random_states_of(variant, count):
    rng = random.Random(3)
    found = []
    while len(found) < count:
        state = mm.deal(variant, players=3, seed=rng.getrandbits(32))
        player = Random(rng.getrandbits(32))
        while not state.is_over and len(found) < count:
            found.append(state)
            state = state.apply(player.choose(state))
    return found


def test_gymnasium_make_finds_the_registered_ids_and_the_mask_is_offered_three_ways():
    import gymnasium

    made = gymnasium.make("maumau/mau_mau_runde-v0", opponents=["heuristic", "random"], seed=4)
    obs, info = made.reset(seed=4)
    core = made.unwrapped
    assert core.hand.variant.name == "mau_mau_runde" and core.hand.players == 3
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    assert np.array_equal(obs["action_mask"], core.action_masks())
    assert {core.actions[i] for i in np.flatnonzero(core.action_masks())} == set(core.game_state.legal_moves())
    made.close()
