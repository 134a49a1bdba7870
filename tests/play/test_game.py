"""Game: history, undo, replay, saving and loading (docs/explanation/design.md, "Game" and the quality bar "bad input").

Saved games are checked against corrupt input of every kind: each must raise
``mm.FormatError`` (a ValueError) whose message names the problem, and load nothing.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable

import pytest

import maumau as mm
from maumau.core import state as core_state
from maumau.play.serialize import state_from_dict

VARIANTS = mm.variant_names()


def random_game(start: mm.GameState, seed: int = 0, moves: int | None = None) -> mm.Game:
    """A game played by one seeded Random player for every seat (to the end, or ``moves`` moves)."""
    game = mm.Game(start)
    player = mm.players.Random(seed)
    while not game.state.is_over and (moves is None or len(game) < moves):
        game.apply(player.choose(game.state))
    return game


def long_game(min_moves: int = 60) -> mm.Game:
    """A finished makao game with at least ``min_moves`` moves."""
    for seed in range(50):
        game = random_game(mm.deal("makao", players=3, seed=seed), seed=seed)
        if len(game) >= min_moves:
            return game
    raise AssertionError("no long game found")  # pragma: no cover


# --- history -------------------------------------------------------------------------------------

def test_a_new_game_is_at_its_start() -> None:
    start = mm.deal("makao", players=2, seed=3)
    game = mm.Game(start)
    assert len(game) == 0
    assert game.state is start and game.start is start
    assert game.moves == [] and game.states == [start] and game.history == []
    assert game.at(0) is start and game.at(-1) is start
    assert game.explanations() == []


def test_a_game_starts_only_from_a_state() -> None:
    with pytest.raises(TypeError, match="GameState"):
        mm.Game("makao")  # type: ignore[arg-type]


def test_apply_records_moves_states_and_history() -> None:
    start = mm.deal("lite_macau", players=3, seed=11)
    game = mm.Game(start)
    player = mm.players.Random(4)
    made, seen = [], [start]
    for _ in range(12):
        move = player.choose(game.state)
        new = game.apply(move)
        made.append(move)
        seen.append(new)
        assert game.state is new
    assert len(game) == 12
    assert game.moves == made
    assert all(a is b for a, b in zip(game.states, seen, strict=True))
    assert [m for _, m in game.history] == made
    assert all(s is seen[i] for i, (s, _) in enumerate(game.history))  # the state each move was made in
    assert list(game) == game.states
    for i in range(13):
        assert game.at(i) is seen[i]
    assert game.at(-1) is game.state and game.at(-2) is seen[-2]
    with pytest.raises(IndexError):
        game.at(13)


def test_each_state_is_the_previous_state_with_its_move_applied() -> None:
    game = random_game(mm.deal("joker_mau_mau", players=3, seed=2), seed=2, moves=40)
    for before, move, after in zip(game.states, game.moves, game.states[1:], strict=False):
        assert before.apply(move) == after


def test_moves_and_states_are_copies() -> None:
    game = random_game(mm.deal("makao", players=2, seed=1), moves=5)
    game.moves.clear()
    game.states.clear()
    game.history.clear()
    assert len(game) == 5 and len(game.moves) == 5 and len(game.states) == 6 and len(game.history) == 5


# --- undo --------------------------------------------------------------------------------------------

def test_undo_returns_the_move_and_the_identical_earlier_state() -> None:
    game = long_game()
    states, moves = game.states, game.moves
    n = len(game)
    for i in range(n - 1, -1, -1):
        assert game.undo() is moves[i]
        assert len(game) == i
        assert game.state is states[i]
        assert game.moves == moves[:i]
    assert game.state is game.start is states[0]


def test_undo_does_not_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """O(1): taking moves back never recomputes a state (no move is applied, no legal moves listed)."""
    game = long_game(min_moves=100)
    states = game.states
    n = len(game)

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("undo must not recompute states")

    monkeypatch.setattr(core_state, "apply_move", forbidden)
    monkeypatch.setattr(core_state, "legal_moves_of", forbidden)
    monkeypatch.setattr(mm.Game, "replay", forbidden)
    for _ in range(n // 2):
        game.undo()
    assert game.state is states[n - n // 2]
    assert len(game) == n - n // 2


def test_undo_at_the_start_is_an_error_and_changes_nothing() -> None:
    start = mm.deal("makao", players=2, seed=1)
    game = mm.Game(start)
    with pytest.raises(IndexError, match="nothing to undo"):
        game.undo()
    assert len(game) == 0 and game.state is start


def test_undo_then_the_same_move_gives_an_equal_state() -> None:
    game = random_game(mm.deal("mau_mau_runde", players=3, seed=8), seed=1, moves=15)
    last = game.state
    move = game.undo()
    assert game.apply(move) == last
    assert len(game) == 15


def test_undo_of_the_final_move_reopens_the_hand() -> None:
    game = random_game(mm.deal("makao", players=2, seed=6), seed=6)
    assert game.state.is_over
    game.undo()
    assert not game.state.is_over
    assert game.state.legal_moves()


# --- illegal moves -------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant_name", VARIANTS)
def test_an_illegal_move_leaves_the_game_unchanged(variant_name: str) -> None:
    game = random_game(mm.deal(variant_name, players=3, seed=5), seed=5, moves=10)
    assert not game.state.is_over
    before_state, before_moves, before_states = game.state, game.moves, game.states
    legal = game.state.legal_moves()
    in_hand = set(game.state.hands[game.state.to_move])
    not_held = next(c for c in game.state.variant.deck if c not in in_hand)
    for bad in (mm.Play(not_held), "7H", None):
        assert bad not in legal
        with pytest.raises(mm.IllegalMove):
            game.apply(bad)  # type: ignore[arg-type]
        assert len(game) == 10
        assert game.state is before_state
        assert game.moves == before_moves and game.states == before_states


def test_no_move_is_legal_after_the_hand_ended() -> None:
    game = random_game(mm.deal("makao", players=2, seed=2), seed=2)
    end, n = game.state, len(game)
    assert end.is_over
    for bad in (mm.Draw(), mm.Pass()):
        with pytest.raises(mm.IllegalMove):
            game.apply(bad)
    assert len(game) == n and game.state is end


def test_illegal_move_message_names_the_reason() -> None:
    s = mm.position("makao", hands=["7H 3C", "7S 4D"], top="9S", stock="2C 3D 4H")
    game = mm.Game(s)
    with pytest.raises(mm.IllegalMove) as err:
        game.apply(mm.Play("3C"))
    assert "matches neither" in str(err.value) and err.value.move == mm.Play("3C")
    assert len(game) == 0 and game.state is s


# --- play and replay ------------------------------------------------------------------------------------

def test_play_lets_players_finish_the_hand() -> None:
    game = mm.Game(mm.deal("makao", players=3, seed=4))
    end = game.play([mm.players.Random(i) for i in range(3)])
    assert end is game.state and end.is_over and len(game) > 0
    assert end.winner is not None and end.hands[end.winner] == ()


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_replay_reproduces_the_same_states(variant_name: str) -> None:
    game = random_game(mm.deal(variant_name, players=3, seed=9), seed=9)
    again = mm.Game.replay(game.start, game.moves)
    assert again.states == game.states
    assert again.moves == game.moves
    assert again.state.is_over and again.state.winner == game.state.winner
    assert [hash(s) for s in again.states] == [hash(s) for s in game.states]


def test_replay_of_an_illegal_move_says_which_move() -> None:
    game = random_game(mm.deal("makao", players=2, seed=3), seed=3, moves=6)
    moves = game.moves
    moves.insert(3, mm.Pass())
    with pytest.raises(mm.IllegalMove, match=r"move 4 \(pass\) is illegal"):
        mm.Game.replay(game.start, moves)


# --- saving and loading ------------------------------------------------------------------------------------

def assert_same_game(loaded: mm.Game, game: mm.Game) -> None:
    assert isinstance(loaded, mm.Game)
    assert len(loaded) == len(game)
    assert loaded.moves == game.moves
    assert loaded.states == game.states
    assert loaded.state == game.state and hash(loaded.state) == hash(game.state)
    assert loaded.start.variant == game.start.variant
    assert loaded.to_json() == game.to_json()


@pytest.mark.parametrize("variant_name", VARIANTS)
@pytest.mark.parametrize("stage", ["start", "mid", "end"])
def test_json_round_trip(variant_name: str, stage: str) -> None:
    start = mm.deal(variant_name, players=3, seed=21)
    game = random_game(start, seed=21, moves={"start": 0, "mid": 15, "end": None}[stage])
    if stage == "end":
        assert game.state.is_over
    elif stage == "mid":
        assert len(game) == 15 and not game.state.is_over
    text = game.to_json()
    assert json.loads(text)["moves"] == [m.to_dict() for m in game.moves]
    assert_same_game(mm.Game.from_json(text), game)
    assert_same_game(mm.Game.from_json(text.encode()), game)  # bytes load too


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_a_loaded_game_plays_on_like_the_original(variant_name: str) -> None:
    game = random_game(mm.deal(variant_name, players=2, seed=13), seed=13, moves=10)
    loaded = mm.Game.from_json(game.to_json(indent=2))
    first, second = mm.players.Random(77), mm.players.Random(77)
    while not game.state.is_over:
        game.apply(first.choose(game.state))
        loaded.apply(second.choose(loaded.state))
    assert loaded.states == game.states


def test_json_round_trip_with_options() -> None:
    v = mm.variant("joker_mau_mau", jokers=0, threshold=60)
    game = random_game(mm.deal(v, players=4, seed=2), seed=2)
    loaded = mm.Game.from_json(game.to_json())
    assert_same_game(loaded, game)
    assert loaded.start.variant.options == {"jokers": 0, "threshold": 60}
    assert not any(c.is_joker for c in loaded.start.variant.deck)


@pytest.mark.parametrize("stage", ["mid", "end"])
def test_json_round_trip_with_house_rules(stage: str) -> None:
    v = mm.variant("makao").without("reverse_on_nine")
    game = random_game(mm.deal(v, players=3, seed=4), seed=4, moves=20 if stage == "mid" else None)
    loaded = mm.Game.from_json(game.to_json())
    assert_same_game(loaded, game)
    lv = loaded.start.variant
    assert lv == v and "reverse_on_nine" not in lv and lv.changes == (("without", "reverse_on_nine"),)
    assert lv != mm.variant("makao")
    # Without the rule, no 9 ever turns the play round.
    assert all(s.direction == 1 for s in loaded.states)


def test_house_rules_game_with_a_nine_played_keeps_the_direction() -> None:
    v = mm.variant("makao").without("reverse_on_nine")
    s = mm.position(v, hands=["9H 3C 4C", "7S 4D 5D", "5C 6C 2D"], top="9S", stock="2C 3D 4H 5S 6H")
    game = mm.Game(s)
    game.apply(mm.Play("9H"))
    loaded = mm.Game.from_json(game.to_json())
    assert loaded.state.direction == 1 and loaded.state.to_move == 1
    assert_same_game(loaded, game)


def test_json_round_trip_of_a_position_with_a_pending_draw_and_a_wish() -> None:
    s = mm.position("lite_macau", hands=["7H 3C QS", "7S 4D 5D", "5C 6C 9D"], top="2C",
                    stock="2D 3D 4H 5S 6H 8H", to_move=1, pending_draw=4, wish="Q")
    assert s.pending_draw == 4 and s.wish == mm.Rank.parse("Q") and s.to_move == 1
    game = mm.Game(s)
    loaded = mm.Game.from_json(game.to_json())
    assert loaded.start == s and hash(loaded.start) == hash(s)
    assert loaded.start.pending_draw == 4 and loaded.start.wish == s.wish and loaded.start.to_move == 1
    game.apply(mm.Draw())  # seat 1 takes the 4 cards; the wish lasts through draws (LM-4)
    assert game.state.pending_draw == 0 and len(game.state.hands[1]) == 7 and game.state.wish == s.wish
    game = random_game(s, seed=3)
    assert_same_game(mm.Game.from_json(game.to_json()), game)


def test_json_of_a_makao_position_with_pending_seven_and_suit_wish() -> None:
    s = mm.position("makao", hands=["7H 3C", "7S 4D", "5C 6C"], top="7C", stock="2C 3D 4H 5S 6H",
                    to_move=1, pending_draw=2, wish="H")
    loaded = mm.Game.from_json(mm.Game(s).to_json())
    assert loaded.start == s
    assert loaded.state.pending_draw == 2 and loaded.state.wish == mm.Suit.parse("H")
    assert loaded.state.legal_moves() == s.legal_moves()


def some_states() -> list[mm.GameState]:
    out = []
    for name in VARIANTS:
        game = random_game(mm.deal(name, players=3, seed=31), seed=31)
        out += [game.start, game.at(len(game) // 2), game.state]
    out.append(mm.position("lite_macau", hands=["7H 3C", "7S 4D"], top="KH", stock="2D 3D 4H 5S 6H 8H",
                           pending_draw=5, wish="S", to_move=1))
    out.append(mm.position("mau_mau_runde", hands=["9H 9C 7D", "10D 8S", "QS KS"], top="9S",
                           runde=("9", 0), to_move=1))
    out.append(mm.position("joker_mau_mau", hands=["JOKER 7H", "8S"], top="8H", pending_skip=2,
                           locked=[1], to_move=1))
    return out


@pytest.mark.parametrize("state", some_states(), ids=lambda s: s.variant.name)
def test_state_dict_and_pickle_round_trip_keep_equality_and_hash(state: mm.GameState) -> None:
    data = state.to_dict()
    assert json.loads(json.dumps(data)) == data  # JSON-ready
    for copy in (state_from_dict(data), state_from_dict(json.loads(json.dumps(data))),
                 pickle.loads(pickle.dumps(state))):
        assert isinstance(copy, mm.GameState)
        assert copy == state and hash(copy) == hash(state)
        assert copy.to_dict() == data
        assert copy.legal_moves() == state.legal_moves()
    assert {state: 1}[pickle.loads(pickle.dumps(state))] == 1


def test_a_pickled_game_keeps_its_history() -> None:
    game = random_game(mm.deal("makao", players=3, seed=2), seed=2, moves=30)
    copy = pickle.loads(pickle.dumps(game))
    assert copy.states == game.states and copy.moves == game.moves


# --- corrupt input ----------------------------------------------------------------------------------------

def saved() -> dict:
    game = random_game(mm.deal("makao", players=3, seed=1), seed=1, moves=12)
    return json.loads(game.to_json())


def changed(change: Callable[[dict], None]) -> str:
    data = saved()
    change(data)
    return json.dumps(data)


def _set(path: tuple, value: object) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value
    return change


def _pop(*path: str) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        for key in path[:-1]:
            data = data[key]
        del data[path[-1]]
    return change


def _three_7h(data: dict) -> None:
    data["start"]["hands"][0] += " 7H 7H 7H"


def _unknown_card(data: dict) -> None:
    data["start"]["hands"][1] = "XX " + data["start"]["hands"][1]


def _illegal_move_first(data: dict) -> None:
    data["moves"].insert(0, {"pass": True})


def _card_not_in_hand(data: dict) -> None:
    hands = data["start"]["hands"]
    held = set(hands[data["start"]["to_move"]].split())
    card = next(c for c in mm.variant("makao").deck if c.text not in held)
    data["moves"].insert(0, {"play": card.text})


def _move_after_the_end(data: dict) -> None:
    game = mm.Game.from_json(json.dumps(data))
    end = random_game(game.state, seed=2)
    data["moves"] = [m.to_dict() for m in game.moves + end.moves] + [{"draw": True}]


CORRUPT = {
    "not JSON": ("{not json", "invalid JSON"),
    "empty text": ("", "invalid JSON"),
    "JSON list": ("[1, 2, 3]", "not a saved maumau game"),
    "JSON string": ('"makao"', "not a saved maumau game"),
    "other format": (lambda: changed(_set(("format",), "chess.pgn")), "not a saved maumau game"),
    "a bare state": (lambda: json.dumps(saved()["start"]), "not a saved maumau game"),
    "newer version": (lambda: changed(_set(("version",), 2)), "version 2 is not supported"),
    "version as text": (lambda: changed(_set(("version",), "1")), "version '1' is not supported"),
    "no version": (lambda: changed(_pop("version")), "version None is not supported"),
    "state version": (lambda: changed(_set(("start", "version"), 99)), "version 99 is not supported"),
    "no start": (lambda: changed(_pop("start")), "starting state is missing"),
    "start not an object": (lambda: changed(_set(("start",), [1])), "JSON object"),
    "no moves": (lambda: changed(_pop("moves")), "moves is not a list"),
    "moves not a list": (lambda: changed(_set(("moves",), "draw")), "moves is not a list"),
    "missing hands": (lambda: changed(_pop("start", "hands")), "missing field 'hands'"),
    "missing stock": (lambda: changed(_pop("start", "stock")), "missing field 'stock'"),
    "missing to_move": (lambda: changed(_pop("start", "to_move")), "missing field 'to_move'"),
    "missing variant": (lambda: changed(_pop("start", "variant")), "missing field 'variant'"),
    "unknown card": (lambda: changed(_unknown_card), "unknown card 'XX'"),
    "three 7H in makao": (lambda: changed(_three_7h), "7H appears more often than the makao deck"),
    "joker in makao": (lambda: changed(_set(("start", "discard"), "JOKER")), "JOKER appears more often"),
    "illegal pass": (lambda: changed(_illegal_move_first), "move 1 (pass) is illegal"),
    "card not in hand": (lambda: changed(_card_not_in_hand), "move 1 (play"),
    "move after the end": (lambda: changed(_move_after_the_end), "does not replay"),
    "move not an object": (lambda: changed(lambda d: d["moves"].append("draw")), "a move is a JSON object"),
    "unknown move": (lambda: changed(lambda d: d["moves"].append({"jump": True})), "not a move"),
    "move with a number": (lambda: changed(lambda d: d["moves"].append({"play": 5})), "corrupt saved game"),
    "move with unknown card": (lambda: changed(lambda d: d["moves"].append({"play": "ZZ"})), "unknown card 'ZZ'"),
    "unknown variant": (lambda: changed(_set(("start", "variant", "name"), "skat")), "unknown variant 'skat'"),
    "variant not an object": (lambda: changed(_set(("start", "variant"), "makao")), "a variant is an object"),
    "unknown option": (lambda: changed(_set(("start", "variant", "options"), {"colour": 1})), "no such option"),
    "unknown rule in changes": (lambda: changed(_set(("start", "variant", "changes"), [{"without": "no_such_rule"}])),
                                "no rule 'no_such_rule'"),
    "unknown house-rule class": (lambda: changed(_set(("start", "variant", "changes"),
                                                      [{"with": "no_such_module:Rule"}])), "cannot be found"),
    "seat out of range": (lambda: changed(_set(("start", "to_move"), 7)), "to_move 7 is not a seat"),
    "bad direction": (lambda: changed(_set(("start", "direction"), 2)), "direction 2"),
    "bad phase": (lambda: changed(_set(("start", "phase"), "dance")), "unknown phase 'dance'"),
    "empty discard": (lambda: changed(_set(("start", "discard"), "")), "discard pile is empty"),
    "unknown wish": (lambda: changed(_set(("start", "wish"), "Z")), "unknown wish 'Z'"),
    "unknown pending rule": (lambda: changed(_set(("start", "pending"),
                                                  {"kind": "draw", "amount": 2, "target": 0, "rule": "nope"})),
                             "no rule 'nope'"),
    "winner out of range": (lambda: changed(_set(("start", "winner"), 9)), "winner 9 is not a seat"),
}


@pytest.mark.parametrize("case", list(CORRUPT))
def test_corrupt_saved_game_raises_format_error(case: str) -> None:
    source, words = CORRUPT[case]
    text = source() if callable(source) else source
    result = "nothing"
    with pytest.raises(mm.FormatError) as err:
        result = mm.Game.from_json(text)
    assert result == "nothing"
    assert isinstance(err.value, ValueError)
    assert words in str(err.value), str(err.value)


def test_not_text_at_all_is_a_format_error() -> None:
    with pytest.raises(mm.FormatError, match="invalid JSON"):
        mm.Game.from_json(None)  # type: ignore[arg-type]
    with pytest.raises(mm.FormatError, match="invalid JSON"):
        mm.Game.from_json(b"\xff\xfe\x00")


def test_the_uncorrupted_save_loads() -> None:
    """The corruption cases above start from a save that itself is fine."""
    data = saved()
    game = mm.Game.from_json(json.dumps(data))
    assert len(game) == 12 and game.start.variant.name == "makao"


def test_state_from_dict_rejects_a_duplicated_card() -> None:
    data = mm.deal("makao", players=2, seed=1).to_dict()
    data["stock"] += " 7H 7H 7H"
    with pytest.raises(mm.FormatError, match="7H appears more often"):
        state_from_dict(data)


# --- explanations ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant_name", VARIANTS)
def test_explanations_give_one_sentence_per_move(variant_name: str) -> None:
    game = random_game(mm.deal(variant_name, players=3, seed=17), seed=17)
    sentences = game.explanations()
    assert len(sentences) == len(game) > 0
    for state, sentence in zip(game.states, sentences, strict=False):
        assert isinstance(sentence, str)
        assert sentence.startswith(f"Seat {state.to_move} ")  # who moved
        assert sentence.endswith(".") and "\n" not in sentence and ". " not in sentence


def test_explanations_follow_undo() -> None:
    game = random_game(mm.deal("makao", players=2, seed=5), seed=5, moves=8)
    full = game.explanations()
    game.undo()
    game.undo()
    assert game.explanations() == full[:6]
