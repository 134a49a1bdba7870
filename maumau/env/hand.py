"""The part both learning environments share: one hand of a variant, its action list and observer,
the checks of an action, the seeded deal, and what the end of the hand is worth."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces

from ..core.dealing import deal
from ..core.moves import Move
from ..core.state import GameState, IllegalMove
from ..core.variants import Variant, VariantError, variant
from .actions import Actions, actions_for
from .observe import Observer
from .seen import Seen

__all__ = ["Hand", "ILLEGAL", "checked_variant"]

#: What a masked action does: "raise" (IllegalMove, nothing changes) or "penalty" (a reward of
#: ``illegal_reward``, the hand unchanged, the same seat asked again).
ILLEGAL = ("raise", "penalty")

#: How many masks each Hand remembers (a bound on memory; a hand of Makaó meets a few hundred).
_KEPT = 10_000


def checked_variant(game: str | Variant, players: int, options: dict[str, Any]) -> Variant:
    """The variant, or a VariantError sentence for an unknown one or a player count it does not allow."""
    if not isinstance(game, (str, Variant)):
        raise VariantError(f"a game is a variant name such as 'makao' or a Variant, not {game!r}")
    v = variant(game, **options)
    lo, hi = v.players
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        raise VariantError(f"{v.name} is played by {lo} to {hi} players, not {players!r}")
    return v


class Hand:
    """One hand at a time of ``variant`` for ``players`` seats, dealt from a seeded stream."""

    def __init__(self, v: Variant, players: int, seed: int | None, illegal: str, illegal_reward: float,
                 max_steps: int) -> None:
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a whole number of 1 or more, not {max_steps!r}")
        self.variant, self.players = v, players
        self.actions: Actions = actions_for(v)
        self.observer = Observer(v, players)
        self.seen = [Seen(self.observer, seat) for seat in range(players)]  # each seat's vector, move by move
        self._no_actions = np.zeros(len(self.actions), dtype=np.int8)
        #: The mask of each set of legal actions met (a hand meets few): copied, not built, each time.
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self._legal_state: GameState | None = None  # the state the legal actions below are of
        self._legal_key: tuple[int, ...] = ()
        self.illegal, self.illegal_reward, self.max_steps = illegal, float(illegal_reward), max_steps
        self.rng = random.Random(seed)
        self.state: GameState = deal(v, players, seed=0)
        self.steps = 0

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict({
            "observation": spaces.Box(0.0, self.observer.high, (self.observer.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(self.actions),), np.int8),
        })

    def action_space(self) -> spaces.Discrete:
        return spaces.Discrete(len(self.actions))

    def new_hand(self, seed: int | None) -> GameState:
        """Deal the next hand: from ``seed`` when given (the stream starts again), else from the stream."""
        if seed is not None:
            self.rng = random.Random(seed)
        self.state = deal(self.variant, self.players, seed=self.rng.getrandbits(63),
                          dealer=self.rng.randrange(self.players))
        self.steps = 0
        return self.state

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """What ``seat`` sees, and its legal actions (none unless it is to move): new arrays each time."""
        state = self.state
        seen: Seen = self.seen[seat]
        obs = seen.look(state)
        if seat == state.to_move and not state.is_over:
            legal = self.legal()
            known = self._masks.get(legal)
            if known is None:
                if len(self._masks) >= _KEPT:
                    self._masks.clear()
                known = self._masks[legal] = self.actions.mask_of(legal)
            mask = known.copy()
        else:
            mask = self._no_actions.copy()
        return {"observation": obs, "action_mask": mask}

    def legal(self) -> tuple[int, ...]:
        """The legal actions of the state now, worked out once per state (observe and step both ask)."""
        if self.state is not self._legal_state:
            self._legal_key = self.actions.legal_key(self.state)
            self._legal_state = self.state
        return self._legal_key

    def move_of(self, action: Any) -> Move | str:
        """The legal move of ``action``; an action outside the list raises ValueError; a masked one
        raises IllegalMove, or (``illegal="penalty"``) comes back as the sentence saying why."""
        index = action if type(action) is int and 0 <= action < len(self.actions) else self.actions.check(action)
        move = self.actions.moves[index]
        if self.state.is_over:
            raise ValueError("the hand is over: call reset() to deal the next one")
        if index in self.legal():
            return move
        why = self.state.why_illegal(move) or "the rules list it only where the announcement is due"
        legal = ", ".join(f"{self.actions.index(m)} ({m})" for m in self.state.legal_moves())
        sentence = (f"action {index} ({move}) is not legal for seat {self.state.to_move} now: "
                    f"{why.rstrip('.')}; the legal actions are {legal}")
        if self.illegal == "raise":
            raise IllegalMove(sentence, move)
        return sentence

    def play(self, move: Move) -> GameState:
        self.state = self.state.apply(move)
        self.steps += 1
        return self.state

    @property
    def truncated(self) -> bool:
        return self.steps >= self.max_steps and not self.state.is_over

    def result(self, seat: int) -> float:
        """What the ended hand is worth to ``seat``: +1 for going out, -1/(players-1) for each
        other seat (the rewards add up to 0), 0 for everyone in a blocked hand (C-7)."""
        winner = self.state.winner
        if winner is None:
            return 0.0
        return 1.0 if seat == winner else -1.0 / (self.players - 1)
