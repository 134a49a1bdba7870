"""A hand of any variant as a Gymnasium ``Env``: the agent plays seat 0, computer players the rest.

The observation is the same as a PettingZoo agent's: ``{"observation": float32 vector, "action_mask":
int8 vector}`` from seat 0's View only; ``info["action_mask"]`` and ``env.action_masks()`` give the
mask too.  A step plays the agent's move, then the computer players' moves until seat 0 must
decide again or the hand is over.  Reward: +1 when seat 0 goes out, -1 when another seat does,
0 in a blocked hand (C-7); ``max_steps`` decisions truncate the hand.

Gymnasium lets an agent send any action of the action space, so by default a masked action is
answered with a penalty (``illegal="penalty"``): reward ``illegal_reward`` (-1), the hand unchanged,
``info["illegal"]`` saying why.  ``illegal="raise"`` raises ``mm.IllegalMove`` instead, and changes
nothing.  An action outside the list always raises ValueError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ..core.state import GameState
from ..core.variants import Variant, VariantError
from ..players import ask, for_strength
from .actions import Actions
from .hand import Hand, checked_variant
from .render import RENDER_MODES, table_html, table_text

__all__ = ["SeatEnv", "computer_players"]


def computer_players(opponents: Sequence[Any]) -> list[Any]:
    """Player objects for ``opponents``: strength or class names ("random", "heuristic", "hard",
    ...) become new players; anything with ``choose(view)`` is used as it is."""
    if isinstance(opponents, str) or not isinstance(opponents, Sequence) or not opponents:
        raise VariantError(f"opponents is a list of one or more computer players, e.g. ['heuristic'], "
                           f"not {opponents!r}")
    found = []
    for player in opponents:
        if isinstance(player, str):
            found.append(for_strength(player))
        elif callable(getattr(player, "choose", None)):
            found.append(player)
        else:
            raise VariantError(f"an opponent is a strength name ('random', 'heuristic', 'search') or a player "
                               f"with choose(view), not {player!r}")
    return found


class SeatEnv(gymnasium.Env):
    """Seat 0 of ``game`` against ``opponents`` (one per other seat)."""

    metadata = {"render_modes": ["ansi", "html"], "render_fps": 4}

    def __init__(self, game: str | Variant = "makao", opponents: Sequence[Any] = ("heuristic",),
                 seed: int | None = None, *, render_mode: str | None = None, illegal: str = "penalty",
                 illegal_reward: float = -1.0, max_steps: int = 10_000, **options: Any) -> None:
        self.opponents = computer_players(opponents)
        v = checked_variant(game, len(self.opponents) + 1, options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be 'ansi', 'html' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.hand = Hand(v, len(self.opponents) + 1, seed, illegal, illegal_reward, max_steps)
        self.observation_space = self.hand.observation_space()
        self.action_space = self.hand.action_space()
        self._first_seed = seed
        self._dealt = False

    @property
    def actions(self) -> Actions:
        """The fixed action list: ``env.actions[i]`` is the Move of action ``i``."""
        return self.hand.actions

    @property
    def game_state(self) -> GameState:
        """The whole hand (every card): for a teacher or a test, never for the agent."""
        return self.hand.state

    def action_masks(self) -> np.ndarray:
        """The legal actions of seat 0 now (sb3-contrib's MaskablePPO asks for this)."""
        return self.hand.actions.mask(self.hand.state)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a hand and play the computers' moves until seat 0 decides; the same ``seed``, the same hand
        and the same computer moves."""
        super().reset(seed=seed)
        if seed is None and not self._dealt:
            seed = self._first_seed
        self._dealt = True
        self.hand.new_hand(seed)
        for player in self.opponents:  # the computers' random numbers come from the same stream
            reseed = getattr(player, "reseed", None)
            if callable(reseed):
                reseed(self.hand.rng.getrandbits(63))
        self._computers_play()
        while self.hand.state.is_over:  # a hand over before seat 0 decides is no episode: deal again
            self.hand.new_hand(None)
            self._computers_play()
        obs = self.hand.observe(0)
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        move = self.hand.move_of(action)  # raises before anything changes
        info: dict[str, Any] = {}
        if isinstance(move, str):
            reward = self.hand.illegal_reward
            info["illegal"] = move
            self.hand.steps += 1
        else:
            self.hand.play(move)
            self._computers_play()
            reward = self._result()
        obs = self.hand.observe(0)
        info["action_mask"] = obs["action_mask"]
        return obs, reward, self.hand.state.is_over, self.hand.truncated, info

    def _computers_play(self) -> None:
        hand = self.hand
        while not hand.state.is_over and hand.state.to_move != 0 and not hand.truncated:
            hand.play(ask(self.opponents[hand.state.to_move - 1], hand.state))

    def _result(self) -> float:
        state = self.hand.state
        if not state.is_over or state.winner is None:
            return 0.0
        return 1.0 if state.winner == 0 else -1.0

    def render(self) -> str | None:
        """The table as seat 0 sees it (the other hands face down): text with ANSI colours, or HTML."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: env.gym(..., render_mode='ansi' or 'html')")
            return None
        state = self.hand.state
        return table_text(state, seat=0) if self.render_mode == "ansi" else table_html(state, seat=0)

    def __repr__(self) -> str:
        return f"<SeatEnv {self.hand.variant.name}: seat 0 against {self.opponents!r}>"
