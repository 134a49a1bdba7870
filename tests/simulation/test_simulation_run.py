"""How a simulated hand gets its players (maumau.simulation.run, issue 29): maumau's reseedable players
are copied once per chunk and reseeded per hand, any other player is copied afresh for every hand, and
neither changes a single hand against playing each hand on its own."""

from __future__ import annotations

import random

import maumau as mm
from maumau.simulation.run import _play_chunk


class Remembering:
    """A learner's player that remembers how many moves it made: a fresh copy per hand must start at 0."""

    def __init__(self) -> None:
        self.moves = 0
        self.rng = random.Random(0)

    def choose(self, view):
        assert self.moves < 10_000
        self.moves += 1
        # its play depends on its memory: a copy that carried it over from the last hand plays differently
        moves = view.legal_moves
        return moves[(self.moves * 7) % len(moves)]


def one_by_one(spec, templates, jobs):
    return [hand for job in jobs for hand in _play_chunk(spec, templates, [job], True, 100_000)]


def test_a_chunk_plays_every_hand_as_if_alone():
    jobs = [(g, random.Random(g).getrandbits(63)) for g in range(30)]
    for players in (["random", "heuristic"], [mm.players.Random(5), mm.players.Heuristic()],
                    [Remembering(), "heuristic"], [Remembering(), Remembering(), "random"]):
        templates = [mm.players.for_strength(p) if isinstance(p, str) else p for p in players]
        spec = ("makao", {})
        assert _play_chunk(spec, templates, jobs, True, 100_000) == one_by_one(spec, templates, jobs)


def test_the_templates_are_never_changed():
    template = Remembering()
    r = mm.simulate("makao", players=[template, "heuristic"], games=20, seed=2, executor="serial", progress=False)
    assert template.moves == 0 and r.games == 20


def test_the_same_player_object_at_two_seats_plays_as_two_copies():
    shared = mm.players.Random(1)
    both = mm.simulate("makao", players=[shared, shared], games=30, seed=4, executor="serial", progress=False)
    apart = mm.simulate("makao", players=[mm.players.Random(1), mm.players.Random(1)], games=30, seed=4,
                        executor="serial", progress=False)
    assert both.hands == apart.hands
