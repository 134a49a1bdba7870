"""Lessons: where a bot's choice lost the most against what the search player would have done.

For the bot's recent decisions (its own moves, not those the referee made for a fault), the
search player (``maumau.players.Search``) looks at the same View, the bot's seat only, and
chooses; where it chose otherwise, both moves are played out on the same sampled deals of
the hidden cards, and the difference of their mean values is what the bot's choice cost.
A value is the search player's play-out value for the seat (1 a won hand, less the more
cards are left); a lesson shows both, opens in the graph explorer and in the replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import fmean
from typing import TYPE_CHECKING, Any

from ..core.moves import Move, Play
from ..core.state import GameState
from ..players.search import Search
from ..players.view import View
from ..text.i18n import language
from .schedule import derive
from .words import say

if TYPE_CHECKING:  # pragma: no cover
    from .league import League

__all__ = ["Lesson", "lessons"]


@dataclass(frozen=True)
class Lesson:
    """One position where ``name``'s choice lost ``loss`` against the search player's."""

    name: str
    game_id: int
    move: int              # the move's number in the game (1 is the first)
    seat: int
    state: GameState       # the position before the move (every hand: the teacher's view)
    chosen: Move
    better: Move
    value_chosen: float
    value_better: float

    @property
    def loss(self) -> float:
        return self.value_better - self.value_chosen

    @property
    def view(self) -> View:
        """What the bot saw."""
        return View(self.state, self.seat)

    def __str__(self) -> str:
        """The lesson in a line, in the course's language (card codes and moves as code writes them)."""
        lang = language()
        v = self.view

        def shown(value: float, sign: str = "+") -> str:
            text = f"{value:{sign}.2f}"
            return text if lang == "en" else text.replace(".", ",")
        return say("lesson", lang, game=self.game_id, move=self.move, name=self.name,
                   hand=" ".join(c.text for c in v.hand), top=v.top.text, chosen=repr(self.chosen),
                   value_chosen=shown(self.value_chosen), better=repr(self.better),
                   value_better=shown(self.value_better), loss=shown(self.loss, ""))

    def explore(self, max_depth: int = 1, **options: Any) -> Any:
        """The position in the graph explorer (``mm.graph.view``), both moves among its edges."""
        from ..graph import state_graph, view

        graph = state_graph(self.state, max_depth=max_depth, max_nodes=2000)
        return view(graph, node=self.state, **options)

    def replay(self, lg: League, **options: Any) -> Any:
        """The game in the replay viewer, at this position."""
        return lg.replay(self.game_id, at=self.move - 1, **options)


def _own_moves(lg: League, name: str, recent: int) -> list[tuple[int, int, int, GameState, Move]]:
    """(game id, move number, seat, state, move) of ``name``'s own recent decisions with a choice."""
    found = []
    for row in reversed(lg.games(name)):
        game = lg.game(row.id)
        for seat, who in enumerate(row.names):
            if who != name:
                continue
            numbers = [int(f.split()[1].rstrip(":")) for f in row.faults[seat]]
            if row.forfeits[seat] and not numbers:
                continue  # it never started: every move of its seat was the referee's
            # after a forfeit (at its last fault) the referee played the seat's moves
            stop = max(numbers) if row.forfeits[seat] else len(game) + 1
            for number, (state, move) in enumerate(game.history, start=1):
                if (state.to_move == seat and number < stop and number not in numbers
                        and len(state.legal_moves()) > 1):
                    found.append((row.id, number, seat, state, move))
        if len(found) >= recent:
            break
    return found[:recent]


def lessons(lg: League, name: str, n: int = 5, recent: int = 60, samples: int = 48) -> list[Lesson]:
    """The ``n`` positions of ``name``'s ``recent`` last decisions where its choice lost the most."""
    found = []
    for game_id, number, seat, state, move in _own_moves(lg, name, recent):
        view = View(state, seat)
        search = Search(samples=samples, seed=derive(lg.seed, "lesson", game_id, number))
        better = search.choose(view)
        if better == move or (type(move) is Play and move.replace(mau=True) == better):
            continue
        chosen_values, better_values = search.playouts(view, [move, better])
        found.append(Lesson(name, game_id, number, seat, state, move, better, fmean(chosen_values),
                            fmean(better_values)))
    found.sort(key=lambda lesson: (-lesson.loss, lesson.game_id, lesson.move))
    return [lesson for lesson in found if lesson.loss > 0][:n]
