"""Match: several hands with the variant's scoring and end (LM-14, MR-14, MK-11..MK-14,
JM-11, JM-12), the dealer moving clockwise after each hand (C-2)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..core.dealing import deal
from ..core.rules.base import Role
from ..core.state import GameState
from ..core.turn import next_active
from ..core.variants import Variant, VariantError, variant
from .game import Game

if TYPE_CHECKING:  # pragma: no cover
    from ..core.rules.scoring import JoinAndLeave
    from ..players import Player

__all__ = ["Match", "HandResult", "MatchError"]


class MatchError(ValueError):
    """Something the match does not allow (a join in a variant without joining, ...)."""


@dataclass(frozen=True)
class HandResult:
    """One hand of a match: who took part, who went out, the points, the game itself."""

    number: int
    seats: tuple[int, ...]          # match seats in hand-seat order
    dealer: int                     # match seat
    winner: int | None              # match seat, None for a blocked (void) hand
    points: tuple[int, ...]         # added to each match seat's total
    blocked: bool
    game: Game = field(repr=False, compare=False)


class Match:
    """Several hands of one variant, scored as the variant says.

    Seats are numbered for the whole match; a hand is dealt to the seats still in it
    (``m.seats_in_play``), and ``players[seat]`` is asked for its moves with the hand's own
    seat numbers (``maumau.players.ask``: a player not of maumau's own gets its seat's View).
    ``scores`` are the totals: victory points (lite_macau), hands won (mau_mau_runde) or
    penalty points (makao, joker_mau_mau).
    """

    def __init__(self, game: str | Variant, players: int = 2, seed: int | None = 0,
                 scores: Sequence[int] | None = None, **options: Any) -> None:
        self.variant = variant(game, **options)
        lo, hi = self.variant.players
        if not isinstance(players, int) or not lo <= players <= hi:
            raise VariantError(f"{self.variant.name} is played by {lo} to {hi} players, not {players!r}")
        if scores is not None and len(scores) != players:
            raise MatchError(f"scores lists {len(scores)} totals for {players} players")
        self.scores: list[int] = [int(s) for s in scores] if scores is not None else [0] * players
        self.alive: list[bool] = [True] * players
        self.dealer = players - 1                 # C-2: the last seat deals hand 1
        self.hands: list[HandResult] = []
        self.seed = seed
        self._rng = random.Random(seed)
        self._eliminate()
        if not self.alive[self.dealer] and any(self.alive):  # resumed with the last seat out (C-2)
            self.dealer = self.seats_in_play[-1]

    # --- who plays ----------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        """Seats in the match, including eliminated or departed ones."""
        return len(self.scores)

    @property
    def seats_in_play(self) -> list[int]:
        return [i for i, a in enumerate(self.alive) if a]

    @property
    def scoring(self) -> Any:
        return self.variant.scoring

    def join(self) -> int:
        """MK-13: a player joins before the next hand with the highest current total, in the last seat."""
        if not self.variant.join_and_leave:
            raise MatchError(f"players may not join a {self.variant.name} match; only makao allows it (MK-13)")
        if self.is_over:
            raise MatchError("the match is over")
        limit = cast("JoinAndLeave", self.variant.having(Role.JOIN_AND_LEAVE)[0]).max_players
        if len(self.seats_in_play) >= limit:
            raise MatchError(f"the table is full: at most {limit} players (MK-13)")
        self.scores.append(max(self.scores[i] for i in self.seats_in_play))
        self.alive.append(True)
        return len(self.scores) - 1

    def leave(self, seat: int) -> None:
        """MK-14: a player leaves between hands; one player left wins."""
        if not self.variant.join_and_leave:
            raise MatchError(f"players may not leave a {self.variant.name} match; only makao allows it (MK-14)")
        if not 0 <= seat < self.players or not self.alive[seat]:
            raise MatchError(f"seat {seat} is not playing in this match")
        self.alive[seat] = False
        if self.dealer == seat:  # C-2: the last seat in play deals hand 1, then the deal moves clockwise
            started = any(not h.blocked for h in self.hands)
            self.dealer = self._next_alive(seat) if started else self._prev_alive(seat)

    # --- hands ------------------------------------------------------------------------------------------
    def deal(self) -> GameState:
        """The next hand, dealt by the current dealer to the seats in play."""
        if self.is_over:
            raise MatchError("the match is over: no more hands")
        seats = self.seats_in_play
        return deal(self.variant, players=len(seats), seed=self._rng.getrandbits(63),
                    dealer=seats.index(self.dealer))

    def play_hand(self, players: Sequence[Player], start: GameState | None = None,
                  max_moves: int = 100_000) -> HandResult:
        """Play one hand with ``players[match_seat]`` and score it (a blocked hand is redealt)."""
        if len(players) < self.players:
            raise MatchError(f"play_hand needs a player for each of the {self.players} seats")
        for _ in range(100):
            state = self.deal() if start is None else start
            seats = self.seats_in_play
            if state.players != len(seats):
                raise MatchError(f"the start position has {state.players} seats, the match {len(seats)} in play")
            game = Game(state)
            game.play([players[s] for s in seats], max_moves=max_moves)
            if not game.state.is_over:
                raise MatchError(f"the hand did not end within {max_moves} moves")
            result = self.record(game)
            if not result.blocked or start is not None:
                return result
        raise MatchError("100 blocked hands in a row")

    def record(self, game: Game | GameState) -> HandResult:
        """Score a finished hand played outside ``play_hand`` (e.g. in the widgets)."""
        if isinstance(game, GameState):
            game = Game(game)
        final = game.state
        if not final.is_over:
            raise MatchError("the hand is not over yet")
        seats = tuple(self.seats_in_play)
        if final.players != len(seats):
            raise MatchError(f"the hand has {final.players} seats, the match {len(seats)} in play")
        points_by_hand_seat = self.scoring.hand_scores(final)
        points = [0] * self.players
        for hand_seat, seat in enumerate(seats):
            points[seat] = points_by_hand_seat[hand_seat]
            self.scores[seat] += points[seat]
            if not final.active[hand_seat]:  # MK-14: left during the hand
                self.alive[seat] = False
        winner = None if final.winner is None else seats[final.winner]
        result = HandResult(len(self.hands) + 1, seats, self.dealer, winner, tuple(points),
                            final.blocked, game)
        self.hands.append(result)
        self._eliminate()
        if not final.blocked and self.alive[self.dealer]:  # C-7: a blocked hand is redealt
            self.dealer = self._next_alive(self.dealer)
        elif not self.alive[self.dealer] and any(self.alive):
            self.dealer = self._next_alive(self.dealer)
        return result

    def _eliminate(self) -> None:
        out = self.scoring.eliminated(self.scores)
        alive = [a and not o for a, o in zip(self.alive, out, strict=True)]
        if any(alive) or not any(self.alive):
            self.alive = alive
        else:  # everyone crossed the limit at once: the lowest totals stay (RULES.md is silent)
            low = min(self.scores[i] for i in self.seats_in_play)
            self.alive = [a and self.scores[i] == low for i, a in enumerate(self.alive)]

    def _next_alive(self, seat: int) -> int:
        return next_active(self.alive, seat, 1)

    def _prev_alive(self, seat: int) -> int:
        return next_active(self.alive, seat, -1)

    # --- the end ---------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return bool(self.scoring.match_over(self.scores, self.alive))

    @property
    def winner(self) -> int | tuple[int, ...] | None:
        """The winning seat, a tuple of seats for a shared win, or None while playing."""
        if not self.is_over:
            return None
        best: tuple[int, ...] = tuple(self.scoring.winners(self.scores, self.alive))
        return best[0] if len(best) == 1 else best

    def standings(self) -> list[dict[str, Any]]:
        """One row per seat: total, still in play, and hands won."""
        wins = [sum(h.winner == s for h in self.hands) for s in range(self.players)]
        return [{"seat": s, "score": self.scores[s], "in_play": self.alive[s], "hands_won": wins[s]}
                for s in range(self.players)]

    def __repr__(self) -> str:
        state = f"winner {self.winner}" if self.is_over else f"{len(self.hands)} hands played"
        return f"<Match {self.variant.name}: scores {self.scores}, {state}>"

