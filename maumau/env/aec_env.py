"""A hand of any variant as a PettingZoo ``AECEnv``: every seat is an agent, ``seat_0`` ... ``seat_{n-1}``.

Each agent observes ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector holds
only what its seat's View holds (``maumau.env.observe``; kept up to date move by move,
``maumau.env.seen``), the mask marks its legal actions in the
variant's fixed action list (``maumau.env.actions``; all 0 when it is not that seat's turn).
The seat to move is the agent selected, so the Ace's extra play (MK-8) or an 8 with two players
(MK-5) selects the same agent again.  The hand ends when a seat goes out: that seat gets +1, every
other seat -1/(players-1); a blocked hand (C-7) gives 0 to all.  After ``max_steps`` decisions
the hand is truncated.

A masked action raises ``mm.IllegalMove`` and changes nothing (``illegal="penalty"``: the acting
seat gets ``illegal_reward`` instead, the hand is unchanged and the same seat acts again); an
action outside the list raises ValueError and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv

from ..core.state import GameState
from ..core.variants import Variant
from .actions import Actions
from .hand import Hand, checked_variant
from .render import RENDER_MODES, table_html, table_text

__all__ = ["MauMauAEC"]


class MauMauAEC(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """One hand of ``game`` for ``players`` seats as a PettingZoo AEC environment."""

    metadata = {"name": "maumau_v0", "render_modes": ["ansi", "html"], "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, game: str | Variant = "makao", players: int = 2, seed: int | None = None, *,
                 render_mode: str | None = None, illegal: str = "raise", illegal_reward: float = -1.0,
                 max_steps: int = 10_000, **options: Any) -> None:
        super().__init__()
        v = checked_variant(game, players, options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be 'ansi', 'html' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.hand = Hand(v, players, seed, illegal, illegal_reward, max_steps)
        self.metadata = {**self.metadata, "name": f"maumau_{v.name}_v0"}
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._obs_space = self.hand.observation_space()
        self._act_space = self.hand.action_space()
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._act_space)
        self._first_seed = seed
        self._dealt = False
        self._marked = False

    # --- what PettingZoo asks ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    @property
    def actions(self) -> Actions:
        """The fixed action list: ``env.actions[i]`` is the Move of action ``i``."""
        return self.hand.actions

    @property
    def game_state(self) -> GameState:
        """The whole hand (every card): for a teacher or a test, never for an agent."""
        return self.hand.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; the same ``seed`` deals the same hand (else the stream of the env's seed goes on)."""
        if seed is None and not self._dealt:
            seed = self._first_seed
        self._dealt = True
        state = self.hand.new_hand(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[state.to_move]
        self._marked = False  # whether a reward or an "illegal" info is to be cleared at the next step

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.hand.observe(self._seat[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand
        move = hand.move_of(action)  # raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        if self._marked:  # a reward or an illegal action of the step before: cleared (most steps have none)
            self._clear_rewards()
            for info in self.infos.values():
                info.pop("illegal", None)
            self._marked = False
        if isinstance(move, str):  # illegal="penalty": the hand stays, the same seat acts again
            self.rewards[agent] = hand.illegal_reward
            self.infos[agent]["illegal"] = move
            self._marked = True
            hand.steps += 1
        else:
            state = hand.play(move)
            if not state.is_over and hand.steps < hand.max_steps:  # the hand goes on: nobody is paid
                self.agent_selection = self.possible_agents[state.to_move]
                return
        self._after_move()
        self._accumulate_rewards()

    def _after_move(self) -> None:
        state = self.hand.state
        if state.is_over:
            for agent in self.agents:
                self.rewards[agent] += self.hand.result(self._seat[agent])
                self.terminations[agent] = True
            self._marked = True
        elif self.hand.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.to_move]

    def render(self) -> str | None:
        """The whole table (every hand open) as text with ANSI colours, or as HTML."""
        if self.render_mode is None:
            logger.warn("render() needs a render_mode: MauMauAEC(..., render_mode='ansi' or 'html')")
            return None
        state = self.hand.state
        return table_text(state) if self.render_mode == "ansi" else table_html(state)

    def close(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"<MauMauAEC {self.hand.variant.name}, {self.hand.players} seats>"
