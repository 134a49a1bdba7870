"""The batched engine (maumau.env.Batch, issue 39 item 4): every decision of sampled hands against the
scalar engine playing the same moves from the same seed (legal moves, hands, top card, stock, seat
to move, the end), with counts that show the rules which could go wrong were played (MK-4's chains,
MK-5, MK-6, MK-7, MK-8, C-6's reshuffle, C-9's restart); bad input; the record and ``game(i)``."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau import env
from maumau.core.cards import Rank
from maumau.core.events import Reshuffled
from maumau.core.state import GameState
from maumau.env import Batch

ACTIONS = env.actions("makao")


def _counts(hand: tuple[mm.Card, ...]) -> np.ndarray:
    return np.bincount([c.index for c in hand], minlength=52)


def _same(b: Batch, g: int, state: GameState, mask: np.ndarray) -> None:
    """Hand ``g`` of the batch is ``state``: its legal actions, hands, top card, stock, pile, seat to move,
    wish and pending draw."""
    assert (ACTIONS.mask(state).astype(bool) == mask[g]).all(), (g, state.legal_moves())
    for seat, hand in enumerate(state.hands):
        assert (_counts(hand) == b.hands[g, seat]).all()
    assert state.top.index == b.top[g] and state.to_move == b.to_move[g]
    assert [c.index for c in state.stock] == b.stock[g, b.stock_at[g]:b.stock_end[g]].tolist()
    assert (_counts(state.discard[:-1]) == b.pile[g]).all()
    assert state.pending_draw == b.pending[g] and state.seed == b.reshuffle_seeds[g]
    assert (-1 if state.wish is None else list(mm.Suit).index(state.wish)) == b.wish[g]
    assert (state.phase == "extra") == b.extra[g] and state.direction == b.direction[g]


def lockstep(b: Batch, steps: int, rng: np.random.Generator, use_mask: bool = False,
             partial: bool = False) -> Counter[str]:
    """Step ``b`` with random legal actions beside the scalar engine playing each hand's moves;
    compare every decision.  ``partial``: only some hands move at each step (``where``).  Returns
    how often each rule that could be wrong was played."""
    states = [mm.deal("makao", players=b.players, seed=int(b.seeds[g])) for g in range(b.games)]
    seen: Counter[str] = Counter()
    for _ in range(steps):
        mask = b.legal_mask()
        for g, state in enumerate(states):
            _same(b, g, state, mask)
        if use_mask:  # uniform over the mask, the way an agent given the mask would choose
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        else:
            actions = b.sample(rng)
        assert mask[np.arange(b.games), actions].all()
        moving = rng.random(b.games) < 0.6 if partial else np.ones(b.games, dtype=bool)
        before = b.decisions
        over = b.step(np.where(moving, actions, -1), where=moving) if partial else b.step(actions)
        assert b.decisions == before + moving.sum() and not over[~moving].any()
        for g in np.flatnonzero(moving).tolist():
            move = ACTIONS.moves[actions[g]]
            before, states[g] = states[g], states[g].apply(move)
            _tally(seen, before, move, states[g])
            assert over[g] == states[g].is_over
            if over[g]:
                assert b.winners[g] == (-1 if states[g].winner is None else states[g].winner)
                states[g] = mm.deal("makao", players=b.players, seed=int(b.seeds[g]))
    return seen


def _tally(seen: Counter[str], before: GameState, move: mm.Move, after: GameState) -> None:
    if before.pending_draw:
        seen["answered 7" if isinstance(move, mm.Play) else "took the 7s"] += 1
        seen["a chain of 4 or more"] += before.pending_draw >= 4
    if isinstance(move, mm.Play):
        rank = move.card.rank
        seen[{Rank.EIGHT: "skip", Rank.NINE: "reverse", Rank.JACK: "wish", Rank.ACE: "extra play"}.get(rank, "")] += 1
        seen["Makaó"] += move.mau
        seen["played on a wish"] += before.wish is not None
    seen["reshuffle"] += any(type(e) is Reshuffled for e in after.events)
    seen["hand ended"] += after.is_over


def test_every_decision_is_the_scalar_engines_two_players() -> None:
    b = Batch("makao", games=24, players=2, seed=0)
    seen = lockstep(b, 1200, np.random.default_rng(1))
    rules = ("answered 7", "took the 7s", "a chain of 4 or more", "skip", "reverse", "wish", "extra play",
             "Makaó", "played on a wish", "reshuffle", "hand ended")
    assert all(seen[rule] > 0 for rule in rules), seen  # each rule was played: a wrong one would show
    assert b.decisions == 24 * 1200 and b.finished.sum() == seen["hand ended"]


def test_every_decision_is_the_scalar_engines_three_and_five_players() -> None:
    for players, seed in ((3, 100), (5, 200)):
        b = Batch("makao", games=8, players=players, seed=seed)
        seen = lockstep(b, 400, np.random.default_rng(players), use_mask=True)
        assert seen["reverse"] > 0 and seen["skip"] > 0 and seen["reshuffle"] > 0, seen
        assert (b.direction == -1).any() or seen["reverse"] > 0


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 5), steps=st.integers(1, 120))
def test_any_seed_and_table_size_plays_as_the_scalar_engine(seed: int, players: int, steps: int) -> None:
    b = Batch("makao", games=3, players=players, seed=seed)
    lockstep(b, steps, np.random.default_rng(seed))
    for g in range(b.games):  # game(i) replays the hand so far, move for move
        game = b.game(g)
        assert game.start == mm.deal("makao", players=players, seed=int(b.seeds[g]))
        assert len(game) == len(b.moves_of(g)) and game.state.to_move == b.to_move[g]


def test_only_the_hands_where_says_move() -> None:
    b = Batch("makao", games=12, players=3, seed=50)
    seen = lockstep(b, 500, np.random.default_rng(50), partial=True)
    assert seen["hand ended"] > 0 and seen["reshuffle"] > 0, seen
    for g in range(b.games):  # the steps a hand sat out are not its moves
        assert b.game(g).state.to_move == b.to_move[g]
    with pytest.raises(ValueError, match="where marks the hands that move"):
        b.step(b.sample(np.random.default_rng(0)), where=np.ones(11, dtype=bool))


def test_finished_hands_are_dealt_anew_with_the_next_seeds() -> None:
    b = Batch("makao", games=6, players=2, seed=10)
    assert b.seeds.tolist() == list(range(10, 16))
    rng = np.random.default_rng(0)
    ended = np.zeros(6, dtype=np.int64)
    while ended.sum() < 4:
        ended += b.step(b.sample(rng))
    assert (b.finished == ended).all() and b.decisions > 0
    kept = ended == 0
    assert (b.seeds[kept] == np.arange(10, 16)[kept]).all()  # a hand still played keeps its seed
    new = b.seeds[~kept]  # a hand dealt anew took the next seed not yet used, the last one the last
    assert (new >= 16).all() and len(set(new.tolist())) == len(new) and new.max() == 15 + ended.sum()
    g = int(np.flatnonzero(ended)[0])
    replayed = b.game(g)  # the new hand only, from its own seed
    assert replayed.start == mm.deal("makao", players=2, seed=int(b.seeds[g]))
    assert len(replayed) == len(b.moves_of(g)) < b.decisions // 6


def _snapshot(b: Batch) -> dict[str, object]:
    arrays = {name: value.copy() for name, value in vars(b).items() if isinstance(value, np.ndarray)}
    return {**arrays, "decisions": b.decisions, "log": len(b._log)}


def _unchanged(before: dict[str, object], b: Batch) -> None:
    after = _snapshot(b)
    for name, value in before.items():
        assert np.array_equal(value, after[name]), name  # type: ignore[arg-type]


def test_bad_actions_are_refused_with_a_sentence_and_change_nothing() -> None:
    b = Batch("makao", games=4, players=2, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(5):
        b.step(b.sample(rng))
    good = b.sample(rng)
    before = _snapshot(b)
    held = b.hands[np.arange(4), b.to_move]
    foreign = next(i for i in range(2, len(ACTIONS)) if held[0, ACTIONS.moves[i].card.index] == 0)
    cases = {
        "one action per hand": good[:3],
        "an array of shape": good.reshape(2, 2),
        "whole numbers": good.astype(float),
        "outside the action list of makao: choose a number from 0 to 129 \\(in 1 hand\\)":
            np.where(np.arange(4) == 1, len(ACTIONS), good),
        "outside the action list of makao: choose a number from 0 to 129 \\(in 2 hands\\)":
            np.where(np.arange(4) >= 2, -1, good),
        "is not legal in hand 2": np.where(np.arange(4) == 2, ACTIONS.index(mm.Pass()), good),
        "is not legal in hand 0": np.where(np.arange(4) == 0, foreign, good),
    }
    for words, actions in cases.items():
        with pytest.raises(ValueError, match=words):
            b.step(actions)
        _unchanged(before, b)
    b.step(good.tolist())  # a list of numbers is taken as well
    assert b.decisions == 4 * 6


def test_the_wrong_announcement_is_not_legal() -> None:
    b = Batch("makao", games=64, players=2, seed=0)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(300):
        actions = b.sample(rng)
        card = np.array([ACTIONS.moves[a].card.index if isinstance(ACTIONS.moves[a], mm.Play) else -1
                         for a in actions])
        flip = [(g, a) for g, a in enumerate(actions) if card[g] >= 0]
        if flip:  # the same play with the announcement the other way round (C-8)
            g, a = flip[0]
            move = ACTIONS.moves[a]
            other = actions.copy()
            other[g] = ACTIONS.index(move.replace(mau=not move.mau))
            with pytest.raises(ValueError, match=f"not legal in hand {g}"):
                b.step(other)
            checked += move.mau
        b.step(actions)
    assert checked > 0


def test_the_batch_refuses_what_it_does_not_play() -> None:
    with pytest.raises(mm.VariantError, match="2 to 5 players"):
        Batch("makao", games=2, players=6)
    with pytest.raises(mm.VariantError, match="makao"):
        Batch("lite_macau", games=2)
    with pytest.raises(ValueError, match="games must be"):
        Batch("makao", games=0)
    for seed in (-1, 2**62, 2**70, 1.5):  # the hands' seeds are kept as 64-bit numbers
        with pytest.raises(ValueError, match="seed must be a whole number from 0 to"):
            Batch("makao", games=2, seed=seed)
    big = Batch("makao", games=2, seed=2**62 - 1)
    assert big.game(1).start == mm.deal("makao", players=2, seed=2**62)
    b = Batch("makao", games=2, record=False)
    b.step(b.sample(np.random.default_rng(0)))
    with pytest.raises(ValueError, match="record=False"):
        b.game(0)
    with pytest.raises(ValueError, match="from 0 to 1"):
        Batch("makao", games=2).game(2)


def test_sample_reaches_every_legal_action() -> None:
    b = Batch("makao", games=1, players=2, seed=0)
    mask = b.legal_mask()[0]
    drawn = Counter(int(b.sample(np.random.default_rng(i))[0]) for i in range(600))
    assert set(drawn) == set(np.flatnonzero(mask).tolist())
    assert min(drawn.values()) > 600 / mask.sum() / 2  # roughly uniform


def test_the_benchmark_prints_both_engines_and_the_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "batch.py"
    spec = importlib.util.spec_from_file_location("bench_batch", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--games", "64", "--seconds", "0.05", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "scalar engine" in out and out.count("decisions/s") == 3 and "x the scalar engine" in out


def test_a_sampled_array_is_taken_unchecked_only_for_the_step_it_was_made_for() -> None:
    b = Batch("makao", games=32, players=2, seed=1)
    rng = np.random.default_rng(1)
    actions = b.sample(rng)
    assert not actions.flags.writeable  # read-only: step may take it as legal
    b.step(actions)
    refused = 0
    for _ in range(50):  # the same array again: checked in full, and refused where it is not legal now
        legal = b.legal_mask()[np.arange(32), actions]
        if legal.all():
            b.step(actions)
        else:
            with pytest.raises(ValueError, match="is not legal in hand"):
                b.step(actions)
            refused += 1
            b.step(b.sample(rng))
    assert refused > 0


def test_the_record_forgets_only_finished_hands() -> None:
    b = Batch("makao", games=2, players=2, seed=7)
    rng = np.random.default_rng(7)
    for _ in range(9000):
        b.step(b.sample(rng))
    assert b.finished.min() > 2 and len(b._log) < 9000  # the steps of finished hands were let go
    mask = b.legal_mask()
    for g in range(2):
        _same(b, g, b.game(g).state, mask)  # the hand still being played replays to where it is


def test_a_sampled_array_made_writable_and_changed_is_checked_in_full() -> None:
    """Read-only is a flag the caller can flip: an array of sample() changed in place (an illegal
    action written in, the flag set back) is checked like any other, refused, and nothing moves."""
    b = Batch("makao", games=16, players=2, seed=3)
    actions = b.sample(np.random.default_rng(3))
    illegal = int(np.flatnonzero(~b.legal_mask()[0])[0])
    actions.flags.writeable = True
    actions[0] = illegal
    actions.flags.writeable = False
    before = (b.decisions, b.to_move.copy(), b.sizes.copy())
    with pytest.raises(ValueError, match="is not legal in hand 0"):
        b.step(actions)
    assert b.decisions == before[0] and (b.to_move == before[1]).all() and (b.sizes == before[2]).all()
