"""The observation kept up to date move by move (``maumau.env.seen``, issue 39) gives exactly the numbers
of the builder of before, in every variant, at every table size, whatever order the seats look in;
the arrays handed out stay as they were; what a seat may not see never shows."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_env import _hidden_dealt_anew  # tests/env/test_env.py: the hidden cards dealt anew

import maumau as mm
from maumau import env
from maumau.core.cards import Rank, Suit
from maumau.core.state import PHASES
from maumau.env.observe import Observer
from maumau.env.seen import Seen
from maumau.players import Random
from maumau.players.view import View

VARIANTS = mm.variant_names()


def reference(observer: Observer, view: View) -> np.ndarray:
    """The observation builder of before issue 39, kept as it was (plain, slow, obviously right)."""
    at = {name: part.start for name, part in observer.parts.items()}
    slot = {card: i for i, card in enumerate(observer.cards)}
    n, me = observer.players, view.seat
    obs = np.zeros(observer.size, dtype=np.float32)
    for card in view.hand:
        obs[at["hand"] + slot[card]] += 1
    for card in view.discard:
        obs[at["pile"] + slot[card]] += 1
    obs[at["top"] + slot[view.top]] = 1
    if view.drawn is not None:
        obs[at["drawn"] + slot[view.drawn]] = 1
    for k in range(n):
        obs[at["hand_sizes"] + k] = view.hand_sizes[(me + k) % n]
        obs[at["active"] + k] = view.active[(me + k) % n]
    for seat in view.locked:
        obs[at["locked"] + (seat - me) % n] = 1
    obs[at["to_move"] + (view.to_move - me) % n] = 1
    obs[at["dealer"] + (view.dealer - me) % n] = 1
    obs[at["stock"]] = view.stock_size
    obs[at["clockwise"]] = view.direction > 0
    if isinstance(view.wish, Suit):
        obs[at["wish_suit"] + tuple(Suit).index(view.wish)] = 1
    elif isinstance(view.wish, Rank):
        obs[at["wish_rank"] + tuple(Rank).index(view.wish)] = 1
    _pending(obs, at, view, observer)
    obs[at["phase"] + PHASES.index(view.phase)] = 1
    obs[at["idle"]] = view.idle
    _memory(obs, at, view, observer)
    return obs


def _pending(obs, at, view, observer):
    p, n = view.pending, observer.players
    if p is None:
        return
    obs[at["pending_kind"] + ("draw", "skip").index(p.kind)] = 1
    obs[at["pending_amount"]] = p.amount
    obs[at["pending_target"] + (p.target - view.seat) % n] = 1
    if p.resume is not None:
        obs[at["pending_resume"] + (p.resume - view.seat) % n] = 1
    if p.rule in observer.variant.rules:
        obs[at["pending_rule"] + list(observer.variant.rules).index(p.rule)] = 1


def _memory(obs, at, view, observer):
    remembering = [rule for rule, _ in observer.variant.memory_at_deal]
    for rule, value in view.memory:
        if rule not in remembering or value == rule.memory_at_deal:
            continue
        obs[at[f"{rule.name}_on"]] = 1
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Rank):
                obs[at[f"{rule.name}_rank"] + tuple(Rank).index(item)] = 1
            elif isinstance(item, Suit):
                obs[at[f"{rule.name}_suit"] + tuple(Suit).index(item)] = 1
            elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < observer.players:
                obs[at[f"{rule.name}_seat"] + (item - view.seat) % observer.players] = 1


def _hands(name, players, count, seed):
    """``count`` states of hands of ``name`` played at random, hand after hand, in the order of play."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = mm.deal(name, players=players, seed=rng.getrandbits(32), dealer=rng.randrange(players))
        player = Random(rng.getrandbits(32))
        while len(found) < count:
            found.append(state)
            if state.is_over:
                break
            state = state.apply(player.choose(state))
    return found


@pytest.mark.parametrize("name", VARIANTS)
def test_the_kept_vector_equals_the_builder_of_before_in_thousands_of_states(name):
    lo, hi = mm.variant(name).players
    rng = random.Random(len(name))
    met = set()
    for players in range(lo, hi + 1):
        observer = Observer(mm.variant(name), players)
        seen = [Seen(observer, seat) for seat in range(players)]
        for state in _hands(name, players, 700, seed=players):
            # mostly the seat to move (as the AEC env asks), now and then any seat, every seat at a hand's end
            seats = range(players) if state.is_over else [state.to_move if rng.random() < 0.8 else
                                                          rng.randrange(players)]
            for seat in seats:
                expected = reference(observer, View(state, seat))
                assert np.array_equal(seen[seat](state), expected), (players, seat, state)
                assert np.array_equal(observer(View(state, seat)), expected)
            met.update(p for p in ("wish_suit", "wish_rank", "pending_kind", "drawn", "locked")
                       if expected[observer.parts[p]].any())
    assert met & {"pending_kind", "wish_suit", "wish_rank"}  # the walk met a pending effect or a wish


@pytest.mark.parametrize("name", VARIANTS)
def test_a_seat_looking_at_unrelated_states_in_any_order_sees_what_the_builder_sees(name):
    """The env's state may be replaced (a test, a teacher): ``Seen`` compares, it does not assume a move."""
    lo, hi = mm.variant(name).players
    states = _hands(name, hi, 400, seed=3)
    random.Random(5).shuffle(states)
    observer = Observer(mm.variant(name), hi)
    seen = Seen(observer, 1)
    for state in states:
        assert np.array_equal(seen(state), reference(observer, View(state, 1)))


def test_the_arrays_handed_out_are_never_changed_afterwards():
    e = env.aec("makao", players=3, seed=2)
    e.reset()
    kept = []
    for _ in e.agent_iter(300):
        obs, _, term, trunc, _ = e.last()
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(kept) > 20
    for handed, copy in kept:
        assert all(np.array_equal(handed[k], copy[k]) for k in copy)
    g = env.gym("makao", opponents=["random"], seed=2)
    first, _ = g.reset()
    copy = first["observation"].copy()
    g.step(int(np.flatnonzero(first["action_mask"])[0]))
    assert np.array_equal(first["observation"], copy)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_kept_vector_shows_nothing_hidden_along_a_hand(name):
    """Along hands of play, each state beside a twin with every card the seat cannot see dealt anew
    (the other hands, the stock's order): the seat's kept vectors of the two are the same (C-1)."""
    rng = random.Random(21)
    lo, hi = mm.variant(name).players
    observer = Observer(mm.variant(name), hi)
    changed = 0
    for seat in range(hi):
        a, b = Seen(observer, seat), Seen(observer, seat)
        for state in _hands(name, hi, 150, seed=seat):
            twin = _hidden_dealt_anew(state, seat, rng)
            changed += twin.hands != state.hands
            assert np.array_equal(a(state), b(twin))
    assert changed > 100 * hi  # the hidden cards really moved
