"""Saved games refuse every impossible state (issue 11): ``mm.Game.from_json`` either loads a
game that plays on correctly or raises ``mm.FormatError``, never a hang or another error.

Valid saves of all four variants (random games at random points: pending penalties and skips,
wishes, a Runde, JM-9 locks, an Ace's extra play, a drawn card, over, blocked, seats that
left) are mutated field by field: other types, out-of-range numbers, floats, negatives, None,
duplicated, removed and moved cards, swapped seats, extra and missing keys, truncated text.
What loads must keep every invariant: card conservation, to_move an active seat, legal moves
listed while the hand runs, each random move applying and changing the state, a JSON round
trip.  Scenario tests cover each case seen loading before the checks existed, and
``mm.position`` refuses the same situations with the same words (``maumau.core.validate``).
"""

from __future__ import annotations

import copy
import faulthandler
import json
import math
import random
import signal
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import maumau as mm
from maumau.core.validate import InvalidState, check_state
from maumau.play.serialize import state_from_dict

VARIANTS = mm.variant_names()
PLAY_ON = 30          # random moves played after each load
STEP_SECONDS = 10     # a load or a move taking longer than this is a hang
EXAMPLES = 800       # per hypothesis test below (five tests: 4,000 examples)


# --- the pool of valid saves -------------------------------------------------------------------

def _kind(state: mm.GameState) -> list[str]:
    """The interesting things about a state, for picking saves that cover them all."""
    kinds = []
    if state.pending is not None:
        kinds.append(f"pending {state.pending.kind}" + (" resume" if state.pending.resume is not None else ""))
    if state.wish is not None:
        kinds.append(f"wish {type(state.wish).__name__}")
    if state.runde is not None:
        kinds.append("runde")
    if state.locked:
        kinds.append("locked")
    if state.phase != "turn":
        kinds.append(state.phase)
    if state.is_over:
        kinds.append("blocked" if state.blocked else "over")
    return kinds


def _random_move(state: mm.GameState, rng: random.Random) -> mm.Move:
    """A random legal move; now and then Mau is forgotten (C-8: penalties, JM-9 locks)."""
    move = rng.choice(state.legal_moves())
    if isinstance(move, mm.Play) and move.mau and rng.random() < 0.3:
        move = move.replace(mau=False)
    return move


def _constructed() -> list[mm.GameState]:
    """States random play rarely reaches: blocked (C-7), seats that left (MK-14), short decks."""
    blocked = mm.position("makao", hands=["2C 3C", "4D 5D"], top="9H", stock="")
    for _ in range(2):
        blocked = blocked.apply(mm.Draw())
    assert blocked.blocked
    three = mm.deal("makao", players=3, seed=5)
    left = three.leave(1)
    alone = left.leave(0 if left.to_move != 0 else 2)
    assert alone.is_over and alone.hands[alone.winner]
    return [
        blocked, left, alone,
        mm.position("lite_macau", hands=["7H 3C", "7S 4D", "QS 9C"], top="KS", stock="2D 3D 4H",
                    pending_draw=5, target=2, resume=1),  # LM-9: seat 0's K♠ hits prev(0)
        mm.position("mau_mau_runde", hands=["9H 9C 7D", "10D 8S", "QS KS"], top="9S", runde=("9", 0),
                    to_move=1),
        mm.position("joker_mau_mau", hands=["JOKER 7H", "8S"], top="8H", pending_skip=2, locked=[1],
                    to_move=1),
        mm.position("joker_mau_mau", hands=["KC", "KH 10S 7D"], top="9C", stock="", locked=[0]),
        mm.position("lite_macau", hands=["JC 5D", "QS 5H 9C"], top="JD", wish="Q", stock="5C 6C"),
    ]


def _build_pool() -> list[str]:
    """Saves (JSON text) of games started at interesting states, some with moves after them."""
    chosen: dict[tuple[str, str], list[mm.GameState]] = {}
    for name in VARIANTS:
        lo, hi = mm.variant(name).players
        for seed in range(10):
            rng = random.Random(seed)
            state = mm.deal(name, players=lo + seed % (hi - lo + 1), seed=seed)
            chosen.setdefault((name, "start"), []).append(state)
            for step in range(300):
                if state.is_over:
                    break
                state = state.apply(_random_move(state, rng))
                for kind in _kind(state) or (["plain"] if step % 37 == 5 else []):
                    found = chosen.setdefault((name, kind), [])
                    if len(found) < 3 and (not found or rng.random() < 0.2):
                        found.append(state)
    states = [s for found in chosen.values() for s in found] + _constructed()
    saves = []
    for i, state in enumerate(states):
        rng = random.Random(i)
        game = mm.Game(state)
        for _ in range(i % 4 if i % 3 else 0):  # some saves carry moves to replay
            if game.state.is_over:
                break
            game.apply(_random_move(game.state, rng))
        saves.append(game.to_json())
    return saves


POOL = _build_pool()
CARD_TEXTS = sorted({c.text for name in VARIANTS for c in mm.variant(name).deck}) + ["2C", "XX"]
RULE_NAMES = sorted({r.name for name in VARIANTS for r in mm.variant(name).rules})


def test_the_pool_covers_every_kind_of_state() -> None:
    kinds: Counter = Counter()
    for text in POOL:
        state = mm.Game.from_json(text).start
        kinds.update(f"{state.variant.name}: {k}" for k in _kind(state))
        kinds.update(_kind(state))
    for kind in ("pending draw", "pending skip", "pending draw resume", "wish Suit", "wish Rank",
                 "runde", "locked", "extra", "drawn", "over", "blocked"):
        assert kinds[kind], f"no save with {kind}"
    for name in VARIANTS:
        assert any(k.startswith(name) for k in kinds), name
    assert len(POOL) >= 60


# --- what a loaded game must keep ---------------------------------------------------------------

def all_cards(state: mm.GameState) -> Counter:
    return Counter(c for h in state.hands for c in h) + Counter(state.stock) + Counter(state.discard)


def check_invariants(state: mm.GameState, cards: Counter) -> list[mm.Move]:
    """The invariants of any state a game can be in; returns its legal moves."""
    assert all_cards(state) == cards, "cards appeared or vanished"
    assert not cards - Counter(state.variant.deck), "a card more often than the deck holds it"
    n = state.players
    lo, hi = state.variant.players
    assert lo <= n <= hi
    assert type(state.to_move) is int and 0 <= state.to_move < n and state.active[state.to_move]
    assert type(state.direction) is int and state.direction in (1, -1)
    assert all(list(h) == sorted(h) for h in state.hands)
    assert state.discard
    legal = state.legal_moves()
    if state.is_over:
        assert legal == []
        assert (state.winner is None) == state.blocked
    else:
        assert legal, f"no legal move in {state!r}"
        assert len(set(legal)) == len(legal)
        assert sum(state.active) >= 2
    p = state.pending
    if p is not None:
        assert type(p.amount) is int and p.amount >= 1 and state.active[p.target]
    assert state_from_dict(state.to_dict()) == state
    return legal


class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang(f"a load or a move took more than {STEP_SECONDS} s")


@pytest.fixture(autouse=True)
def watchdog() -> Iterator[None]:
    """A hang inside the compiled engine cannot be interrupted: then dump the stacks and exit."""
    faulthandler.dump_traceback_later(600, exit=True)
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        faulthandler.cancel_dump_traceback_later()


def load_or_refuse(text: str, seed: int) -> str:
    """Load ``text``: FormatError, or a game that keeps every invariant for PLAY_ON random moves."""
    signal.setitimer(signal.ITIMER_REAL, STEP_SECONDS)
    try:
        try:
            game = mm.Game.from_json(text)
        except mm.FormatError as err:
            message = str(err)
            assert message and len(message) < 600, message
            return "refused"
        state = game.state
        cards = all_cards(game.start)
        check_invariants(game.start, cards)
        assert mm.Game.from_json(game.to_json()).state == state
        repr(state)
        rng = random.Random(seed)
        for _ in range(PLAY_ON):
            legal = check_invariants(state, cards)
            if state.is_over:
                break
            signal.setitimer(signal.ITIMER_REAL, STEP_SECONDS)
            nxt = state.apply(rng.choice(legal))
            assert nxt != state, "a move changed nothing"
            state = nxt
        return "loaded"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_every_save_in_the_pool_loads_and_plays_on() -> None:
    for i, text in enumerate(POOL):
        assert load_or_refuse(text, i) == "loaded"


# --- mutations -------------------------------------------------------------------------------

def paths(data: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON value: dictionary keys and list indices, depth first."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*prefix, key)
            yield from paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield (*prefix, i)
            yield from paths(value, (*prefix, i))


def get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def put(data: Any, path: tuple, value: Any) -> None:
    get(data, path[:-1])[path[-1]] = value


SEATS = st.integers(-2, 6)
ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 8),
    st.sampled_from([1.0, 0.0, -1.0, 2.5, 1e300, math.nan, math.inf, 10**9, 2**64, -(2**63)]),
    st.sampled_from(["", "1", "7H", "JOKER", "H", "Q", "turn", "extra", "drawn", "draw", "skip",
                     "makao", "x" * 50]),
    st.just([]), st.just({}), st.lists(st.integers(-1, 4), max_size=3),
    st.lists(st.booleans(), max_size=6), st.sampled_from([[None], [1.0], ["7H"], {"kind": "draw"}]),
)
# Values that are nearly right for a field, so that the deeper checks are reached.
NEAR: dict[str, st.SearchStrategy] = {
    "to_move": SEATS, "dealer": SEATS, "winner": st.one_of(st.none(), SEATS), "target": SEATS,
    "resume": st.one_of(st.none(), SEATS), "direction": st.sampled_from([1, -1, 0, 2, -2, 1.0, True]),
    "phase": st.sampled_from(["turn", "extra", "drawn", "Turn", "", "over"]),
    "wish": st.sampled_from([None, "H", "S", "C", "D", "Q", "10", "T", "A", "2", "♥", "Z", "JOKER"]),
    "drawn": st.one_of(st.none(), st.sampled_from(CARD_TEXTS)),
    "kind": st.sampled_from(["draw", "skip", "Draw", ""]),
    "amount": st.sampled_from([1, 2, 3, 4, 5, 10, 32, 200, 0, -1, 2.5, 10**12, True]),
    "rule": st.sampled_from(RULE_NAMES + ["nope"]),
    "idle": st.integers(-1, 7), "seed": st.one_of(st.integers(-5, 2**70), st.just(1.5)),
    "over": st.sampled_from([True, False, 1, 0, None]), "blocked": st.sampled_from([True, False, 1, 0]),
    "version": st.sampled_from([1, 1.0, True, 2, "1", None]),
    "format": st.sampled_from(["maumau.game", "maumau.state", "", None]),
    "name": st.sampled_from(VARIANTS + ["uno", ""]),
    "locked": st.lists(SEATS, max_size=3), "active": st.lists(st.sampled_from([True, False, 1, 0]), max_size=6),
    "runde": st.one_of(st.none(), st.tuples(st.sampled_from(["9", "10", "Q", "K", "A", "7", "J", "2", "Z"]),
                                            SEATS).map(list)),
    "pending": st.one_of(st.none(), st.fixed_dictionaries({
        "kind": st.sampled_from(["draw", "skip"]), "amount": st.integers(-1, 12),
        "target": SEATS, "rule": st.sampled_from(RULE_NAMES), "resume": st.one_of(st.none(), SEATS)})),
    "options": st.dictionaries(st.sampled_from(["jokers", "limit", "strict", "threshold", "points_to_win",
                                                "hands_to_win", "colour"]),
                               st.one_of(st.integers(-2, 5), st.booleans(), st.just(2.5), st.just(10**9)),
                               max_size=2),
    "moves": st.lists(st.sampled_from([{"draw": True}, {"pass": True}, {"play": "7H"}, {"play": "JC", "wish": "H"},
                                       {"play": "QS QD"}, {"play": "9C", "runde": True}, {"jump": 1}]),
                      max_size=3),
}


def value_for(path: tuple) -> st.SearchStrategy:
    """A replacement for the value at ``path``: odd values of any type, or nearly right ones."""
    named = next((k for k in reversed(path) if isinstance(k, str)), "")
    near = NEAR.get(named)
    if isinstance(path[-1], int) and named in ("locked", "runde"):
        near = SEATS
    return ODD_VALUES if near is None else st.one_of(near, near, ODD_VALUES)


def mutate_field(data: dict, draw: Callable) -> None:
    path = draw(st.sampled_from(list(paths(data))))
    put(data, path, copy.deepcopy(draw(value_for(path))))  # never change a strategy's own value


def _piles(state: dict) -> list[tuple]:
    return [("hands", i) for i in range(len(state["hands"]))] + [("stock",), ("discard",)]


def mutate_cards(data: dict, draw: Callable) -> None:
    """Duplicate, remove, move, replace or invent a card; swap two hands."""
    state = data["start"]
    piles = _piles(state)
    source = draw(st.sampled_from(piles))
    held = get(state, source).split()
    how = draw(st.sampled_from(["duplicate", "remove", "move", "replace", "add", "swap hands", "empty"]))
    if how == "swap hands":
        i, j = draw(st.integers(0, len(state["hands"]) - 1)), draw(st.integers(0, len(state["hands"]) - 1))
        state["hands"][i], state["hands"][j] = state["hands"][j], state["hands"][i]
        return
    if how == "empty":
        put(state, source, "")
        return
    if how == "add":
        held.insert(draw(st.integers(0, len(held))), draw(st.sampled_from(CARD_TEXTS)))
        put(state, source, " ".join(held))
        return
    if not held:
        return
    at = draw(st.integers(0, len(held) - 1))
    card = held[at]
    if how in ("remove", "move", "replace"):
        del held[at]
    if how == "replace":
        held.insert(at, draw(st.sampled_from(CARD_TEXTS)))
    put(state, source, " ".join(held))
    if how in ("duplicate", "move"):
        target = draw(st.sampled_from(piles))
        others = get(state, target).split()
        others.insert(draw(st.integers(0, len(others))), card)
        put(state, target, " ".join(others))


def mutate_keys(data: dict, draw: Callable) -> None:
    """Remove a key, add one, or exchange the values of two fields (swapped seats)."""
    places = [p for p in paths(data) if isinstance(p[-1], str)]
    path = draw(st.sampled_from(places))
    how = draw(st.sampled_from(["remove", "add", "swap"]))
    if how == "remove":
        del get(data, path[:-1])[path[-1]]
    elif how == "add":
        key = draw(st.sampled_from(["extra", "pending_draw", "top", "Hands"]))
        get(data, path[:-1])[key] = copy.deepcopy(draw(ODD_VALUES))
    else:
        other = draw(st.sampled_from(places))
        if path[:len(other)] == other or other[:len(path)] == path:
            return  # one inside the other
        a, b = get(data, path), get(data, other)
        put(data, path, copy.deepcopy(b))
        put(data, other, copy.deepcopy(a))


def mutate_text(text: str, draw: Callable) -> str:
    """Truncate the JSON, or cut a piece out of it."""
    at = draw(st.integers(0, len(text)))
    if draw(st.booleans()):
        return text[:at]
    return text[:at] + text[at + draw(st.integers(1, 20)):]


def _example(data: st.DataObject, mutators: list[Callable]) -> tuple[str, int]:
    save = json.loads(POOL[data.draw(st.integers(0, len(POOL) - 1), label="save")])
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        try:
            data.draw(st.sampled_from(mutators), label="how")(save, data.draw)
        except (KeyError, IndexError, TypeError, AttributeError):
            pass  # an earlier mutation took away what this one changes
    return json.dumps(save), data.draw(st.integers(0, 2**32), label="seed")


OUTCOMES: Counter = Counter()
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow  # hundreds of mutated saves (hypothesis)
@SETTINGS
@given(data=st.data())
def test_a_field_replaced_loads_a_valid_game_or_is_refused(data: st.DataObject) -> None:
    text, seed = _example(data, [mutate_field])
    OUTCOMES["field", load_or_refuse(text, seed)] += 1


@pytest.mark.slow  # hundreds of mutated saves (hypothesis)
@SETTINGS
@given(data=st.data())
def test_cards_duplicated_removed_or_moved_load_a_valid_game_or_are_refused(data: st.DataObject) -> None:
    text, seed = _example(data, [mutate_cards])
    OUTCOMES["cards", load_or_refuse(text, seed)] += 1


@pytest.mark.slow  # hundreds of mutated saves (hypothesis)
@SETTINGS
@given(data=st.data())
def test_keys_removed_added_or_swapped_load_a_valid_game_or_are_refused(data: st.DataObject) -> None:
    text, seed = _example(data, [mutate_keys])
    OUTCOMES["keys", load_or_refuse(text, seed)] += 1


@pytest.mark.slow  # hundreds of mutated saves (hypothesis)
@SETTINGS
@given(data=st.data())
def test_mixed_mutations_load_a_valid_game_or_are_refused(data: st.DataObject) -> None:
    text, seed = _example(data, [mutate_field, mutate_cards, mutate_keys])
    OUTCOMES["mixed", load_or_refuse(text, seed)] += 1


@pytest.mark.slow  # hundreds of mutated saves (hypothesis)
@SETTINGS
@given(data=st.data())
def test_truncated_or_cut_json_is_refused_or_loads_a_valid_game(data: st.DataObject) -> None:
    text = POOL[data.draw(st.integers(0, len(POOL) - 1))]
    OUTCOMES["text", load_or_refuse(mutate_text(text, data.draw), data.draw(st.integers(0, 99)))] += 1


def test_the_mutations_reach_both_outcomes() -> None:
    """Run after the hypothesis tests (file order): the mutations are neither all refused nor all
    harmless, so they reach the deeper checks."""
    if not OUTCOMES:
        pytest.skip("the hypothesis tests did not run")
    for family in {family for family, _ in OUTCOMES} - {"text"}:
        assert OUTCOMES[family, "refused"] and OUTCOMES[family, "loaded"], dict(OUTCOMES)
    print(dict(OUTCOMES))


# --- the cases seen loading before the checks, and their kin ------------------------------------

def save_of(state: mm.GameState) -> dict:
    return json.loads(mm.Game(state).to_json())


def refused(data: dict) -> str:
    """The FormatError message of loading ``data``; nothing is loaded."""
    with pytest.raises(mm.FormatError) as err:
        mm.Game.from_json(json.dumps(data))
    return str(err.value)


RUNDE = dict(game="mau_mau_runde", hands=["9H 9C 7D", "10D 8S", "QS KS"], top="9S", stock="7H 8H AC")
JOKER = dict(game="joker_mau_mau", hands=["KC", "KH 10S 7D", "8C 9D"], top="9C", stock="7H 8H AC",
             locked=[0])
LITE = dict(game="lite_macau", hands=["7H 3C", "7S 4D", "QS 9C"], top="2H", stock="2D 3D 5H")
MAKAO = dict(game="makao", hands=["7H 3C", "7S 4D", "5C 6C"], top="10C", stock="2C 3D 4H")

# (base position, changed arguments of mm.position, the same change to the saved state, words)
PARITY: dict[str, tuple[dict, dict, Callable[[dict], None], str]] = {
    "every seat inactive": (
        RUNDE, {"active": [False, False, False]}, lambda s: s.update(active=[False] * 3),
        "every seat is inactive"),
    "to_move 1.0": (RUNDE, {"to_move": 1.0}, lambda s: s.update(to_move=1.0),
                    "to_move must be a seat number 0-2, not 1.0"),
    "to_move True": (RUNDE, {"to_move": True}, lambda s: s.update(to_move=True),
                     "to_move must be a seat number 0-2, not True"),
    "to_move -1": (RUNDE, {"to_move": -1}, lambda s: s.update(to_move=-1), "to_move -1 is not a seat"),
    "to_move inactive": (RUNDE, {"to_move": 1, "active": [True, False, True]},
                         lambda s: s.update(to_move=1, active=[True, False, True]),
                         "to_move is seat 1, which no longer takes part"),
    "six seats in mau_mau_runde": (
        RUNDE, {"hands": RUNDE["hands"] + ["7C", "8C", "10C"]},
        lambda s: s.update(hands=s["hands"] + ["7C", "8C", "10C"], active=[True] * 6),
        "mau_mau_runde is played by 2 to 4 players, not 6"),
    "one seat": (RUNDE, {"hands": ["9H 9C 7D"]}, lambda s: s.update(hands=s["hands"][:1], active=[True]),
                 "played by 2 to 4 players, not 1"),
    "Runde opener at seat 7": (RUNDE, {"runde": ("9", 7)}, lambda s: s.update(runde=["9", 7]),
                               "the Runde's opener 7 is not a seat"),
    "Runde opener 0.0": (RUNDE, {"runde": ("9", 0.0)}, lambda s: s.update(runde=["9", 0.0]),
                         "the Runde's opener must be a seat number 0-2, not 0.0"),
    "Runde opener without the rank": (RUNDE, {"runde": ("K", 0)}, lambda s: s.update(runde=["K", 0]),
                                      "seat 0, holds no K"),
    # seat 0 holds a 7, but no 7 opens a Runde: its end would never come (MR-12 acts on Runde ranks)
    "Runde of 7s": (RUNDE, {"runde": ("7", 0)}, lambda s: s.update(runde=["7", 0]),
                    "a Runde of 7s, but only 9, 10, Q, K or A open a Runde (MR-8)"),
    "Runde in makao": (MAKAO, {"runde": ("9", 0)}, lambda s: s.update(runde=["9", 0]),
                       "makao has no runde rule"),
    "rank wish in mau_mau_runde": (RUNDE, {"wish": "Q"}, lambda s: s.update(wish="Q"),
                                   "a rank wish (Q), but no card names a rank in mau_mau_runde"),
    "suit wish in lite_macau loads": (LITE, {"wish": "H"}, lambda s: s.update(wish="H"), ""),
    "rank wish in lite_macau loads": (LITE, {"wish": "Q"}, lambda s: s.update(wish="Q"), ""),
    "pending amount 2.5": (
        RUNDE | {"top": "7S"}, {"pending_draw": 2.5},
        lambda s: s.update(discard="7S", pending={"kind": "draw", "amount": 2.5, "target": 0,
                                                  "rule": "seven_draws_two", "resume": None}),
        "the pending draw amount must be a whole number 1-32, not 2.5"),
    "pending amount True": (
        RUNDE | {"top": "7S"}, {"pending_draw": True},
        lambda s: s.update(discard="7S", pending={"kind": "draw", "amount": True, "target": 0,
                                                  "rule": "seven_draws_two", "resume": None}),
        "amount must be a whole number 1-32, not True"),
    "pending skip of a billion": (
        LITE | {"top": "4H"}, {"pending_skip": 10**9},
        lambda s: s.update(discard="4H", pending={"kind": "skip", "amount": 10**9, "target": 0,
                                                  "rule": "four_skips", "resume": None}),
        "the pending skip amount must be a whole number 1-52"),
    "pending target inactive": (
        LITE, {"pending_draw": 2, "target": 1, "active": [True, False, True]},
        lambda s: s.update(active=[True, False, True], to_move=1, pending={
            "kind": "draw", "amount": 2, "target": 1, "rule": "two_three_draw", "resume": None}),
        "to_move is seat 1, which no longer takes part"),  # the target is the player to move
    "pending resume out of range": (
        LITE, {"pending_draw": 2, "resume": 3},
        lambda s: s.update(pending={"kind": "draw", "amount": 2, "target": 0, "rule": "two_three_draw",
                                    "resume": 3}),
        "resume) 3 is not a seat"),
    "pending in an 'extra' phase": (
        MAKAO | {"top": "7C"}, {"pending_draw": 2, "phase": "extra"},
        lambda s: s.update(discard="7C", phase="extra", pending={
            "kind": "draw", "amount": 2, "target": 0, "rule": "seven_draws_two", "resume": None}),
        "waits in a normal turn"),
    "locked seat in mau_mau_runde": (RUNDE, {"locked": [1]}, lambda s: s.update(locked=[1]),
                                     "mau_mau_runde has no mau_lock rule"),
    "locked seat with three cards": (JOKER, {"locked": [1]}, lambda s: s.update(locked=[1]),
                                     "seat 1 is locked but holds 3 cards"),
    "locked seat 9": (JOKER, {"locked": [9]}, lambda s: s.update(locked=[9]), "a locked seat 9 is not a seat"),
    "locked seat as text": (JOKER, {"locked": ["0"]}, lambda s: s.update(locked=["0"]), "seat number"),
    "locked player just drew": (JOKER, {"phase": "drawn", "drawn": "KC"},
                                lambda s: s.update(phase="drawn", drawn="KC"),
                                "seat 0 just drew, so their lock has lifted"),
    "phase 'drawn' in makao": (MAKAO, {"phase": "drawn", "drawn": "7H"},
                               lambda s: s.update(phase="drawn", drawn="7H"), "in makao drawing ends the turn"),
    "drawn card not in hand": (RUNDE, {"phase": "drawn", "drawn": "10D"},
                               lambda s: s.update(phase="drawn", drawn="10D"),
                               "the drawn card 10D is not in the hand of the player to move"),
    "drawn card without the phase": (RUNDE, {"drawn": "7D"}, lambda s: s.update(drawn="7D"),
                                     "belongs to the 'drawn' phase"),
    "phase 'drawn' without a card": (RUNDE, {"phase": "drawn"}, lambda s: s.update(phase="drawn"),
                                     "no drawn card is named"),
    "phase 'extra' on a plain card": (MAKAO, {"phase": "extra"}, lambda s: s.update(phase="extra"),
                                      "gives no extra play in makao"),
    "unknown phase": (RUNDE, {"phase": "dance"}, lambda s: s.update(phase="dance"), "unknown phase 'dance'"),
    "direction 2": (RUNDE, {"direction": 2}, lambda s: s.update(direction=2), "direction 2 is not +1 or -1"),
    "direction 1.0": (RUNDE, {"direction": 1.0}, lambda s: s.update(direction=1.0), "direction 1.0 is not"),
    "dealer 3": (RUNDE, {"dealer": 3}, lambda s: s.update(dealer=3), "dealer 3 is not a seat"),
    "seed 0.5": (RUNDE, {"seed": 0.5}, lambda s: s.update(seed=0.5), "the seed must be a whole number"),
    "an empty hand while the hand runs": (RUNDE, {"hands": ["", "10D 8S", "QS KS"]},
                                          lambda s: s["hands"].__setitem__(0, ""), "seat 0 holds no cards"),
    "a card twice": (RUNDE, {"stock": "7H 8H AC 9H"}, lambda s: s.update(stock=s["stock"] + " 9H"),
                     "9H appears more often than the mau_mau_runde deck holds it (2 times, the deck has 1)"),
    "a card of another deck": (RUNDE, {"stock": "2C"}, lambda s: s.update(stock="2C"),
                               "2C appears more often than the mau_mau_runde deck holds it (once, the deck has none)"),
}


@pytest.mark.parametrize("case", list(PARITY))
def test_position_and_the_loader_refuse_the_same_states_with_the_same_words(case: str) -> None:
    base, changed, change, words = PARITY[case]
    base = dict(base)
    game = base.pop("game")
    data = save_of(mm.position(game, **base))
    mm.Game.from_json(json.dumps(data))  # the unchanged save loads
    change(data["start"])
    if not words:  # a state that is fine
        loaded = mm.Game.from_json(json.dumps(data)).start
        assert loaded == mm.position(game, **(base | changed))
        return
    message = refused(data)
    assert words in message, message
    with pytest.raises(ValueError) as err:
        mm.position(game, **(base | changed))
    assert isinstance(err.value, (mm.VariantError, mm.CardError))
    assert isinstance(err.value, mm.CardError) == ("appears more often" in words)
    assert words in str(err.value), str(err.value)
    assert message == f"corrupt saved state: {err.value}"  # one check, one sentence


def test_position_does_not_hang_with_every_seat_inactive() -> None:
    with pytest.raises(mm.VariantError, match="every seat is inactive"):
        mm.position("makao", hands=["7H", "8H"], top="9H", active=[False, False])


# --- what only a saved file can hold ------------------------------------------------------------

def test_over_without_a_winner_is_refused_unless_the_hand_is_blocked() -> None:
    data = save_of(mm.position(**MAKAO))
    data["start"]["over"] = True
    assert "over without a winner, but it is not blocked" in refused(data)
    data["start"]["blocked"] = True
    blocked = mm.Game.from_json(json.dumps(data)).state
    assert blocked.is_over and blocked.blocked and blocked.legal_moves() == []
    data["start"]["winner"] = 0
    assert "a blocked hand is void, so it has no winner" in refused(data)
    data["start"]["blocked"] = False
    assert "the winner, seat 0, still holds cards" in refused(data)
    data["start"]["over"] = False
    assert "seat 0 is the winner, but the hand is not over" in refused(data)
    data["start"].update(winner=None, blocked=True)
    assert "blocked but not over" in refused(data)


def test_a_real_ending_and_a_last_player_left_load() -> None:
    game = mm.Game(mm.position("makao", hands=["7H", "8H 9C"], top="7C", stock="2C 3D 4H"))
    game.apply(mm.Play("7H"))
    assert mm.Game.from_json(game.to_json()).state == game.state
    alone = mm.deal("makao", players=3, seed=5).leave(1)
    alone = alone.leave(alone.to_move)
    assert alone.is_over and alone.hands[alone.winner]  # MK-14: the last player left wins, cards and all
    assert mm.Game.from_json(mm.Game(alone).to_json()).start == alone


@pytest.mark.parametrize(("field", "value", "words"), [
    ("over", 1, "over must be True or False, not 1"),
    ("blocked", None, "blocked must be True or False, not None"),
    ("active", [1, 1, 1], "active must list True or False for each seat"),
    ("active", [True, True], "active lists 2 seats, but there are 3 hands"),
    ("idle", -1, "idle counts turns without play"),
    ("idle", 1.0, "idle counts turns without play"),
    ("winner", 2.0, "winner must be a seat number 0-2, not 2.0"),
    ("hands", "7H 3C", "hands must be a list of hands"),
    ("hands", [["7H"], "7S 4D", "5C 6C"], "hands[0] must be a text of cards like '7H QS', not ['7H']"),
    ("stock", None, "stock must be a text of cards"),
    ("wish", 10, "wish must be a suit or a rank as text"),
    ("drawn", ["7H"], "drawn must be a card as text"),
    ("runde", ["9"], "runde must be [rank, opener] or null"),
    ("locked", [0, 0], "locked must be a list of different seat numbers"),
    ("pending", "draw", "pending must be an object or null"),
    ("pending", {"kind": "draw", "amount": 2, "target": 0}, "missing field 'rule' in the pending effect"),
    ("pending", {"kind": "draw", "amount": 2, "target": 0, "rule": "seven_draws_two", "resume": None, "x": 1},
     "unknown field 'x' in the pending effect"),
    ("pending", {"kind": "skip", "amount": 1, "target": 0, "rule": "seven_draws_two", "resume": None},
     "the rule seven_draws_two starts no pending skip"),
    ("pending", {"kind": "draw", "amount": 2, "target": 0, "rule": "two_three_draw"}, "no rule 'two_three_draw'"),
    ("pending", {"kind": "draw", "amount": 2, "target": 1, "rule": "seven_draws_two"},
     "the pending draw aims at seat 1, but seat 0 is to move"),
    ("version", True, "version True is not supported"),
    ("version", 1.0, "version 1.0 is not supported"),
    ("pending_draw", 2, "unknown field 'pending_draw' in the saved state"),
])
def test_a_saved_state_field_of_the_wrong_kind_is_refused(field: str, value: object, words: str) -> None:
    data = save_of(mm.position(**(MAKAO | {"top": "7C"})))
    if field == "pending" and isinstance(value, dict) and value.get("rule") == "seven_draws_two" \
            and value.get("target") == 1:
        data["start"]["to_move"] = 0
    data["start"][field] = value
    message = refused(data)
    assert words in message, message


def test_the_variant_in_a_save_is_checked() -> None:
    data = save_of(mm.position(**JOKER))
    options = data["start"]["variant"]["options"]
    for value, words in [(2.5, "jokers is a whole number 0-10000, not 2.5"), (True, "not True"),
                         (10**9, "not 1000000000"), (-1, "not -1")]:
        options["jokers"] = value
        assert words in refused(data)
    options["jokers"] = 2
    data["start"]["variant"]["colour"] = "red"
    assert "unknown field 'colour'" in refused(data)
    del data["start"]["variant"]["colour"]
    data["start"]["variant"]["changes"] = [{"with": "antigravity:Rule"}]  # never imported by a load
    assert "cannot be found: import it before loading" in refused(data)
    data["start"]["variant"]["changes"] = ["without"]
    assert "a change of the variant is" in refused(data)


def test_game_level_fields_and_deep_nesting() -> None:
    data = save_of(mm.position(**MAKAO))
    data["comment"] = "hi"
    assert "unknown field 'comment'" in refused(data)
    with pytest.raises(mm.FormatError, match="invalid JSON"):
        mm.Game.from_json("[" * 100_000)
    long = "x" * 10_000
    data = save_of(mm.position(**MAKAO))
    data["start"]["to_move"] = long
    message = refused(data)
    assert len(message) < 200 and "..." in message  # a corrupt value is shown short


def test_states_made_with_replace_are_checked_by_the_same_function() -> None:
    state = mm.position(**JOKER)
    check_state(state)
    for changes, words in [({"to_move": 1.0}, "to_move must be a seat number"),
                           ({"locked": frozenset({2})}, "seat 2 is locked but holds 2 cards"),
                           ({"active": (False, False, False)}, "every seat is inactive"),
                           ({"over": True}, "over without a winner")]:
        with pytest.raises(InvalidState, match=words):
            check_state(state.replace(**changes))
        with pytest.raises(mm.FormatError, match=words):
            state_from_dict(state.replace(**changes).to_dict())
