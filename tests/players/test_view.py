"""A player sees only its seat: ``maumau.players.ask`` hands a player not of maumau's own its
seat's View (never the GameState), everywhere a player is asked for a move, and checks the move.

Out of scope, by design (see ``maumau/players/base.py``): Python is no sandbox, so a player set
on cheating can still dig the state out of the interpreter (``gc.get_objects()``, the caller's
frame) or give its class a maumau module name; a grader sees that in the code.
"""

from __future__ import annotations

import gc
import io
import random

import pytest

import maumau as mm
from maumau.core.moves import Move
from maumau.core.state import GameState
from maumau.players import Heuristic, IllegalChoice, Random, Search, View, ask, sees_state
from maumau.simulation.run import SimulationError
from maumau.terminal import Console, TerminalPlayer, run_hand

# --- players written outside maumau -----------------------------------------------------------------


class Fair:
    """Plays its first legal move; remembers what it was handed."""

    def __init__(self):
        self.seen = []

    def choose(self, view):
        self.seen.append(view)
        return view.legal_moves[0]


class PeeksAtHands:
    """Plays the card the next player holds, if it may (reads the other hands)."""

    def choose(self, state):
        theirs = state.hands[(state.to_move + 1) % len(state.hands)]
        return next((m for m in state.legal_moves() if isinstance(m, mm.Play) and m.card in theirs),
                    state.legal_moves()[0])


class PeeksAtStock:
    """Draws when the next card of the stock is good (reads the stock order)."""

    def choose(self, state):
        if state.stock and state.stock[0].rank is mm.cards.Rank.ACE and mm.Draw() in state.legal_moves():
            return mm.Draw()
        return state.legal_moves()[0]


class PeeksAtSeed:
    def choose(self, state):
        random.Random(state.seed)
        return state.legal_moves()[0]


class PlaysAhead:
    """Tries every move on the real state (would see the cards drawn)."""

    def choose(self, state):
        return max(state.legal_moves(), key=lambda m: -len(state.apply(m).hands[state.to_move]))


PEEKERS = [(PeeksAtHands, "hands"), (PeeksAtStock, "stock"), (PeeksAtSeed, "seed"), (PlaysAhead, "apply")]


class Wrapped:
    """A player of the learner's that hands its View on to a maumau player."""

    def __init__(self, inner):
        self.inner = inner

    def reseed(self, seed):
        self.inner.reseed(seed)

    def choose(self, view):
        assert type(view) is View
        return self.inner.choose(view)

    def __repr__(self):
        return repr(self.inner)


class MyRandom(Random):
    """A learner's subclass of a maumau player: asked with a View all the same."""


class ClaimsTrust:
    sees_state = True  # honoured only for classes defined in maumau

    def choose(self, state):
        return state.stock[0]


class ReturnsNothing:
    def choose(self, view):
        pass


class PlaysAnyCard:
    def choose(self, view):
        return mm.Play(view.hand[0])


class ForgetsMau:
    """Plays its second-to-last card without announcing Mau: legal, and penalised (C-8)."""

    def choose(self, view):
        return view.legal_moves[0].replace(mau=False) if isinstance(view.legal_moves[0], mm.Play) \
            else view.legal_moves[0]


def two_card_start():
    return mm.position("makao", hands=["7H 3C", "8H 4D"], top="9H", stock="2C 3D 4H 5S 6H AS", to_move=1)


# --- what a player is handed -----------------------------------------------------------------------

def test_a_player_of_the_learner_is_handed_a_view_of_its_own_seat():
    state = mm.deal("makao", players=3, seed=7)
    fair = Fair()
    move = ask(fair, state)
    view = fair.seen[0]
    assert type(view) is View and view.seat == state.to_move == view.to_move
    assert view.hand == state.hands[state.to_move] and view.top == state.top
    assert view.hand_sizes == (7, 7, 7) and view.stock_size == len(state.stock)
    assert list(view.legal_moves) == state.legal_moves() == view.legal_moves() and move == state.legal_moves()[0]
    assert (view.wish, view.pending, view.phase, view.variant) == (state.wish, state.pending, state.phase,
                                                                     state.variant)
    assert View(view) == view and View(view).legal_moves == view.legal_moves
    with pytest.raises(ValueError, match="cannot show seat 1"):
        View(view, 1)


def test_maumau_players_are_trusted_and_nobody_else():
    assert all(sees_state(p) for p in (Random(), Heuristic(), Search(), TerminalPlayer(Console(out=io.StringIO()))))
    assert not any(sees_state(p) for p in (Fair(), MyRandom(), ClaimsTrust(), Wrapped(Random())))
    state = mm.deal("makao", players=2, seed=1)
    with pytest.raises(AttributeError, match="stock"):
        ask(ClaimsTrust(), state)


@pytest.mark.parametrize("peeker, name", PEEKERS)
def test_a_view_says_what_to_read_instead_of_hidden_things(peeker, name):
    state = mm.deal("makao", players=2, seed=3)
    with pytest.raises(AttributeError, match=rf"no attribute '{name}': a player sees only its seat"):
        ask(peeker(), state)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'$"):
        View(state).nonsense  # noqa: B018


def attribute_values(view):
    """Everything reachable from a view's attributes (not through classes, modules, functions)."""
    seen, todo, found = set(), [view], []
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type | type(gc) | type(len) | type(attribute_values)):
            continue
        seen.add(id(obj))
        found.append(obj)
        todo.extend(gc.get_referents(obj))
        for name in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, name):
                todo.append(getattr(obj, name))
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
    return found


@pytest.mark.parametrize("variant", mm.variant_names())
def test_a_view_holds_no_reference_to_the_state(variant):
    state = mm.deal(variant, players=3, seed=2)
    game = mm.Game(state)
    game.play([Random(1), Random(2), Random(3)], max_moves=25)
    fair = Fair()
    ask(fair, next(s for s in reversed(game.states) if not s.is_over))
    view = fair.seen[0]
    assert not any(isinstance(x, GameState) for x in gc.get_referents(view))
    assert not any(isinstance(x, GameState) for x in attribute_values(view))
    names = set(View.__slots__) | {n for n in dir(view) if not n.startswith("_")}
    assert not names & {"state", "hands", "stock", "seed", "apply", "explain", "why_illegal", "replace"}
    for name in names:
        value = getattr(view, name)
        assert not isinstance(value, GameState), name


# --- everywhere a player is asked ------------------------------------------------------------------

@pytest.mark.parametrize("peeker, name", PEEKERS)
def test_a_peeking_player_fails_in_simulate(peeker, name):
    with pytest.raises(SimulationError, match=rf"AttributeError: 'View' object has no attribute '{name}'"):
        mm.simulate("makao", players=[peeker(), "random"], games=4, seed=1, executor="serial", progress=False)


def test_a_peeking_player_fails_in_a_worker_process_too():
    with pytest.raises(SimulationError, match="no attribute 'hands'"):
        mm.simulate("makao", players=[PeeksAtHands(), "random"], games=4, seed=1, executor="process",
                    progress=False)


@pytest.mark.parametrize("peeker, name", PEEKERS)
def test_a_peeking_player_fails_in_a_game_and_a_match(peeker, name):
    with pytest.raises(AttributeError, match=f"'{name}'"):
        mm.Game(mm.deal("makao", players=2, seed=4)).play([Random(1), peeker()])
    match = mm.Match("makao", players=3, seed=2)
    with pytest.raises(AttributeError, match=f"'{name}'"):
        match.play_hand([Heuristic(), peeker(), Random(1)])
    assert match.hands == [] and match.scores == [0, 0, 0]


@pytest.mark.parametrize("peeker, name", PEEKERS)
def test_a_peeking_player_fails_at_the_card_table(peeker, name):
    pytest.importorskip("ipywidgets")
    from maumau.widgets import TableView

    table = TableView("makao", opponents=1, start=two_card_start(), players=[peeker()], step=True, seed=1)
    with pytest.raises(AttributeError, match=f"'{name}'"):
        table.next_move()
    assert len(table.game) == 0  # nothing was played
    fair = Fair()
    table = TableView("makao", opponents=1, start=two_card_start(), players=[fair], step=True, seed=1)
    table.next_move()
    assert type(fair.seen[0]) is View and len(table.game) == 1


def test_a_peeking_player_fails_in_the_terminal_game():
    con = Console(input_fn=lambda prompt: "1", out=io.StringIO())
    with pytest.raises(AttributeError, match="'hands'"):
        run_hand(two_card_start(), [Random(1), PeeksAtHands()], con, ["Anna", "Bob"])
    final = run_hand(two_card_start(), [Random(1), Fair()], con, ["Anna", "Bob"])
    assert final.is_over


# --- illegal moves are the player's bug ------------------------------------------------------------

def test_an_illegal_move_names_the_player_the_seat_and_the_move():
    state = two_card_start()
    with pytest.raises(IllegalChoice, match=r"^PlaysAnyCard at seat 1 chose an illegal move Play\('4D'\): "
                                            r".*; the legal moves are Play\('8H', mau=True\), Draw\(\)$"):
        ask(PlaysAnyCard(), state)
    with pytest.raises(IllegalChoice, match=r"ReturnsNothing at seat 1 returned None, not a move"):
        ask(ReturnsNothing(), state)
    with pytest.raises(mm.IllegalMove, match="PlaysAnyCard at seat 1 chose an illegal move"):
        mm.Game(state).play([Random(1), PlaysAnyCard()])
    with pytest.raises(SimulationError, match=r"hand \d+ \(seed \d+\): ReturnsNothing at seat \d returned None"):
        mm.simulate("makao", players=[ReturnsNothing(), "random"], games=2, executor="serial", progress=False)
    pytest.importorskip("ipywidgets")
    from maumau.widgets import TableView

    table = TableView("makao", opponents=1, start=state, players=[PlaysAnyCard()], step=True, seed=1)
    with pytest.raises(IllegalChoice, match="PlaysAnyCard at seat 1"):
        table.next_move()


def test_a_move_that_only_forgets_mau_is_accepted_and_penalised():
    state = two_card_start()
    move = ask(ForgetsMau(), state)
    assert move == mm.Play("8H") and not move.mau
    after = state.apply(move)
    assert len(after.hands[1]) > 1  # C-8: drew the penalty


# --- maumau's players play as strong as before --------------------------------------------------------

#: mm.simulate results measured before players were handed Views (same seeds): wins by player,
#: total moves.
BEFORE = {"joker_mau_mau": ([17, 183], 11578), "lite_macau": ([3, 197], 9539), "makao": ([7, 193], 12995),
          "mau_mau_runde": ([54, 146], 4633)}


@pytest.mark.parametrize("variant", sorted(BEFORE))
def test_maumau_players_win_as_often_as_before(variant):
    r = mm.simulate(variant, players=["random", "heuristic"], games=200, seed=0, executor="serial", progress=False)
    assert ([row["wins"] for row in r.by_player()], sum(h.moves for h in r.hands)) == BEFORE[variant]


def test_search_wins_as_often_as_before_and_a_match_scores_the_same():
    r = mm.simulate("makao", players=[Search(samples=8, seed=1), "heuristic", "random"], games=30, seed=5,
                    executor="serial", progress=False)
    assert ([row["wins"] for row in r.by_player()], sum(h.moves for h in r.hands)) == ([16, 14, 0], 1678)
    m = mm.Match("makao", players=3, seed=4)
    for _ in range(3):
        m.play_hand([Heuristic(), Random(2), Search(samples=4, seed=3)])
    assert m.scores == [46, 152, 0]


@pytest.mark.parametrize("variant", mm.variant_names())
def test_maumau_players_handed_a_view_play_exactly_as_handed_the_state(variant):
    """Random, Heuristic and Search read only what their seat sees: wrapped in a learner's
    player (so that they get the View), they play the very same hands."""
    players = [Random(), Heuristic(), Search(samples=4, depth=6)]
    direct = mm.simulate(variant, players=players, games=6, seed=9, executor="serial", progress=False)
    wrapped = mm.simulate(variant, players=[Wrapped(p) for p in players], games=6, seed=9, executor="serial",
                          progress=False)
    assert wrapped.hands == direct.hands
    subclass = mm.simulate(variant, players=[MyRandom(), "heuristic"], games=10, seed=2, executor="serial",
                           progress=False)
    assert subclass.hands == mm.simulate(variant, players=["random", "heuristic"], games=10, seed=2,
                                         executor="serial", progress=False).hands


def test_a_view_of_a_seat_not_to_move_offers_no_moves():
    state = mm.deal("makao", players=3, seed=7)
    other = View(state, 1)
    assert other.legal_moves == () and other.legal_moves() == [] and other.drawn is None
    assert isinstance(state.legal_moves()[0], Move)
