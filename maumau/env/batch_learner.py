"""A linear player that chooses in thousands of Makaó hands at once, trained by the cross-entropy
method on the batched engine (``maumau.env.batch``, issue 39).

Each action of the fixed action list is described once by a few numbers read off the move itself
(``ACTION_FEATURES``): is it a draw, a pass, the rank of the card it plays, does it name a wish (the
Jack, MK-7), does it say "Makaó" (C-8).  They make a fixed matrix ``F`` of ``[actions, features]``,
so an agent with weights ``w`` gives every action the score ``F @ w``, the same in every state; in
each hand it plays the legal action that scores highest.  That is one masked argmax over all hands
at once: a ranking of the moves, which is all a player that sees only its moves can learn (it does
not look at its hand).  With all weights 0 every action scores the same and the first legal action,
always Draw (MK-3), is played.

``train_cem_batch`` looks for good weights as ``train_cem`` does (``maumau.env.agent``), but each
candidate plays hundreds of hands in one ``Batch`` instead of a few through the Gym environment;
``BatchAgent.choose(view)`` makes the result a player like any other (``mm.simulate``, a league).
Both it and ``batch_win_rate`` play seat 0 against ``opponents`` as ``env.vector`` takes them (batch
policies, ``maumau.env.batch_policy``): random legal moves by default, or e.g. a trained agent.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from ..core.cards import Rank
from ..core.moves import Draw, Move, Pass, Play
from ..core.variants import VariantError, variant
from ..players.view import View
from .actions import Actions, actions_for
from .batch import Batch
from .batch_policy import BatchPolicy, BatchRandom, Opponents, policy_step, seat_policies, seat_turns

__all__ = ["ACTION_FEATURES", "BatchAgent", "action_features", "batch_win_rate", "train_cem_batch"]

_RANKS = tuple(r for r in Rank)
#: The names of the features of an action, in the order of the weights.
ACTION_FEATURES = ("draw", "pass", *(f"rank {r.value}" for r in _RANKS), "names a wish", "says Makaó")
#: How far apart the seeds of one training run's hand sets lie (the check hands, then each generation's).
SEED_SPAN = 10**9


@functools.cache
def _makao() -> tuple[Actions, npt.NDArray[np.float64]]:
    """Makaó's action list and its feature matrix, made once: every agent (one per candidate) shares them."""
    actions = actions_for(variant("makao"))
    cards = [m.card.index for m in actions.moves if isinstance(m, Play)]
    if cards != sorted(cards):  # BatchAgent.choose_batch breaks a tie by the first card as the list does
        raise VariantError("BatchAgent needs the plays of the action list in card order")
    features = action_features(actions)
    features.flags.writeable = False
    return actions, features


def action_features(actions: Actions) -> npt.NDArray[np.float64]:
    """The fixed matrix ``[len(actions), len(ACTION_FEATURES)]``: what each action is, read off its move."""
    features = np.zeros((len(actions), len(ACTION_FEATURES)))
    for i, move in enumerate(actions.moves):
        features[i] = _describe(move)
    return features


def _describe(move: Move) -> list[float]:
    row = [float(isinstance(move, Draw)), float(isinstance(move, Pass))]
    rank = move.card.rank if isinstance(move, Play) else None
    row += [float(rank is r) for r in _RANKS]
    row += [float(isinstance(move, Play) and move.wish is not None), float(isinstance(move, Play) and move.mau)]
    return row


class BatchAgent:
    """Plays Makaó by the fixed score ``action_features @ weights`` of each legal action, in one hand
    (``choose``) or in every hand of a ``Batch`` at once (``act`` from the mask, ``choose_batch``
    from the batch itself)."""

    name = "batch linear"

    def __init__(self, weights: Sequence[float] | npt.NDArray[np.float64] | None = None) -> None:
        self.actions, self.features = _makao()
        k = len(ACTION_FEATURES)
        w = np.zeros(k) if weights is None else np.asarray(weights, dtype=float)
        if w.shape != (k,):
            raise ValueError(f"weights are {k} numbers (one per name in ACTION_FEATURES), not shape {w.shape}")
        self.weights = w
        self._plays_of: tuple[bytes, npt.NDArray[np.float64], npt.NDArray[np.int64]] | None = None

    def scores(self) -> npt.NDArray[np.float64]:
        """Every action's score (the same in every state)."""
        scores: npt.NDArray[np.float64] = self.features @ self.weights
        return scores

    def act(self, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The chosen action of each hand, from the legal actions ``mask`` (bool ``[games, actions]``,
        as ``Batch.legal_mask`` gives it): the legal action with the highest score, the first on a tie."""
        if mask.ndim != 2 or mask.shape[1] != len(self.actions):
            raise ValueError(f"the mask is bool [games, {len(self.actions)}], one row per hand, not {mask.shape}")
        if not mask.any(axis=1).all():
            raise ValueError("a hand without a legal action: the mask is not Batch.legal_mask()'s")
        scored = np.where(mask, self.scores()[None, :], -np.inf)
        chosen: npt.NDArray[np.int64] = np.argmax(scored, axis=1).astype(np.int64)
        return chosen

    def choose_batch(self, batch: Batch, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """The BatchPolicy protocol (``maumau.env.batch_policy``), so that it can be the opponents of
        ``env.vector``: ``act(batch.legal_mask())``'s choice (it draws nothing from ``rng``), made from
        the playable cards alone.  A card's legal plays are the ones with the call as due (C-8), so each
        card has one best play, the same in every hand; the best playable card's play is chosen unless
        Draw (always legal, MK-3, and first in the list: it wins a tie) scores as high."""
        score, action = self._card_plays()
        due = (batch.sizes[np.arange(batch.games), batch.to_move] == 2).astype(np.int64)
        scored = np.where(batch.playable_cards(), score[due], -np.inf)
        card = np.argmax(scored, axis=1)  # the first best card: its plays come first in the list too
        best = scored[np.arange(batch.games), card]
        draw = self.actions.index(Draw())
        chosen: npt.NDArray[np.int64] = np.where(best > self.scores()[draw], action[due, card], draw)
        return chosen

    def _card_plays(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        """``[2, 52]`` each: the score and the action of each card's best play without (row 0) and with
        (row 1) the call, the first of the list on a tie; made again when the weights change."""
        key = self.weights.tobytes()
        if self._plays_of is None or self._plays_of[0] != key:
            scores = self.scores()
            score, action = np.full((2, 52), -np.inf), np.zeros((2, 52), dtype=np.int64)
            for i, move in enumerate(self.actions.moves):  # in list order: a card's plays, then the next card's
                if isinstance(move, Play) and scores[i] > score[int(move.mau), move.card.index]:
                    score[int(move.mau), move.card.index], action[int(move.mau), move.card.index] = scores[i], i
            self._plays_of = (key, score, action)
        return self._plays_of[1], self._plays_of[2]

    def choose(self, view: View) -> Move:
        """The Player protocol: the same choice in one hand, from the seat's View."""
        legal = np.array([self.actions.index(m) for m in view.legal_moves])
        return self.actions.moves[int(legal[int(np.argmax(self.scores()[legal]))])]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self.weights)} weights)"


#: The most rounds ``batch_win_rate(rounds=None)`` plays a hand: players that never vary can pass the same
#: cards round the pile and the stock for ever (the stock is refilled, so the hand is never blocked,
#: C-7), while random play ends far sooner (the longest of 32,768 random 2-player hands took about
#: 10,000 decisions, 5,000 rounds).
LONGEST = 10_000


def _wins(seat_0: BatchPolicy, hands: int, players: int, seed: int, rng_seed: int, rounds: int | None,
          opponents: tuple[BatchPolicy, ...]) -> float:
    """The share of the hands dealt from ``seed``, ``seed + 1``, ... that ``seat_0`` wins against
    ``opponents`` (seat ``1 + i`` plays the ``i``-th; all draw from the generator of ``rng_seed``):
    the first hand of each slot counts, and a hand still going after ``rounds`` rounds counts as not
    won.  A round: seat 0 moves where it is to move, then each hand where an opponent is to move takes
    that opponent's move (one, whichever policy plays it)."""
    turns = seat_turns(opponents)
    batch = Batch("makao", games=hands, players=players, seed=seed, record=False)
    rng = np.random.default_rng(rng_seed)
    won = np.zeros(hands, dtype=bool)
    played = 0
    while played < _limit(rounds):
        playing = batch.finished == 0
        if not playing.any():
            break
        ours = playing & (batch.to_move == 0)
        ended = batch.step(seat_0.choose_batch(batch, rng), where=ours) if ours.any() else ours
        waiting = playing & ~ended & (batch.to_move != 0)
        seat = batch.to_move.copy()  # one move a round: a hand one policy moved waits for the next round
        for policy, seats in turns:
            moving = waiting & seats[seat]
            if moving.any():
                ended = ended | policy_step(batch, policy, seats, moving, rng)
        won |= ended & playing & (batch.winners == 0)
        played += 1
    if rounds is None:
        _warn_unfinished(batch, hands)
    return float(won.mean())


def _limit(rounds: int | None) -> int:
    """The rounds a hand is played at most: ``rounds``, or ``LONGEST`` where None asks for its end."""
    return LONGEST if rounds is None else rounds


def _warn_unfinished(batch: Batch, hands: int) -> None:
    """Say so where ``LONGEST`` rounds did not end every hand (``rounds=None`` asked for every end)."""
    going = int((batch.finished == 0).sum())
    if going:
        warnings.warn(f"{going} of {hands} hands were still going after {LONGEST:,} rounds and count as not "
                      "won: players that never vary can pass the same cards round for ever; give rounds= "
                      "to cut hands sooner", RuntimeWarning, stacklevel=3)


def batch_win_rate(agent: BatchAgent | None = None, hands: int = 1024, players: int = 2, seed: int = 0,
                   rounds: int | None = None, opponents: Opponents = None) -> float:
    """The share of ``hands`` hands (dealt from ``seed`` on) that ``agent`` wins as seat 0 against
    ``opponents``, each played to its end or for at most ``rounds`` rounds (then it counts as not
    won; ``rounds`` None: to its end, but at most ``LONGEST`` rounds, with a RuntimeWarning naming the
    hands still going); ``agent`` None: a random player at seat 0 (the yardstick).  ``opponents`` as ``env.vector``
    takes them: None or "random" (``BatchRandom``), one batch policy for every other seat, or a list
    of one per seat; a bad one is a ValueError naming the seat (``seat_policies``)."""
    _check_counts(hands=hands, players=players, seed=seed, rounds=1 if rounds is None else rounds)
    policies = seat_policies(opponents, players)
    if agent is not None:
        return _wins(agent, hands, players, seed, seed, rounds, policies)
    if not _one_random(policies):
        return _wins(BatchRandom(), hands, players, seed, seed, rounds, policies)
    batch = Batch("makao", games=hands, players=players, seed=seed, record=False)
    rng = np.random.default_rng(seed)
    played = 0
    while (batch.finished == 0).any() and played < _limit(rounds) * players:
        batch.step(batch.sample(rng), where=batch.finished == 0)
        played += 1  # a random seat 0 is one step of the round like the others
    if rounds is None:
        _warn_unfinished(batch, hands)
    return float((batch.winners[batch.finished > 0] == 0).sum() / hands)


def _one_random(policies: tuple[BatchPolicy, ...]) -> bool:
    """One ``BatchRandom`` at every opponent seat (the default): a random seat 0 shares its draws, so
    that every seat plays from one ``sample`` a step (the yardstick's numbers of before opponents)."""
    return isinstance(policies[0], BatchRandom) and all(p is policies[0] for p in policies)


def _check_counts(**counts: int) -> None:
    for name, n in counts.items():
        least = 0 if name == "seed" else 1
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < least:
            raise ValueError(f"{name} must be a whole number of {least} or more, not {n!r}")
    # how many players makao allows is said by Batch itself (VariantError, a ValueError), at once


def train_cem_batch(generations: int = 6, population: int = 12, hands: int = 512, elite: int = 4,
                    check: int = 1024, players: int = 2, rounds: int = 200, seed: int = 0,
                    progress: Callable[[dict[str, float]], None] | None = None, opponents: Opponents = None,
                    ) -> tuple[BatchAgent, list[dict[str, float]]]:
    """Train a BatchAgent by the cross-entropy method against ``opponents`` (as ``batch_win_rate`` and
    ``env.vector`` take them: random by default); return it and its learning curve (rows as
    ``train_cem``'s, for ``env.learning_curve``).

    Each generation draws ``population`` weight vectors around the mean; each plays the same ``hands``
    hands (one Batch each, the same seeds and the same opponents' generator) as seat 0, for at most
    ``rounds`` rounds (a hand still going then counts as not won, so that no candidate's slowest hand
    holds up the run); the mean and the spread move to the best ``elite``.  A row: ``generation``,
    ``elite`` (the elite's win rate on that generation's hands) and ``check`` (the mean weights' win
    rate on ``check`` other hands, the same every generation; generation 0 is the untrained agent, all
    weights 0).  Same arguments (and opponents that choose the same from the same batch and
    generator), same curve.
    """
    _check_counts(generations=generations, population=population, hands=hands, elite=elite, check=check,
                  players=players, rounds=rounds, seed=seed)
    if elite > population:
        raise ValueError(f"the elite ({elite}) is chosen from the population ({population}): at most as many")
    if check + (generations + 1) * hands > SEED_SPAN:
        raise ValueError(f"at most {SEED_SPAN} hands in one run (check + (generations + 1) * hands)")
    policies = seat_policies(opponents, players)  # refused before any hand is played
    rng = np.random.default_rng(seed)
    base = seed * SEED_SPAN  # the check hands, then generation j's hands: a run's hand sets never overlap

    def score(weights: npt.NDArray[np.float64], generation: int) -> float:
        return _wins(BatchAgent(weights), hands, players, base + check + generation * hands, seed + generation,
                     rounds, policies)

    def checked(weights: npt.NDArray[np.float64]) -> float:
        return _wins(BatchAgent(weights), check, players, base, seed, rounds, policies)

    mean, spread = np.zeros(len(ACTION_FEATURES)), np.ones(len(ACTION_FEATURES))
    curve = [{"generation": 0.0, "elite": score(mean, 0), "check": checked(mean)}]
    for generation in range(1, generations + 1):
        candidates = mean + spread * rng.standard_normal((population, len(ACTION_FEATURES)))
        scores = np.array([score(w, generation) for w in candidates])  # the same hands for all
        best = np.argsort(-scores, kind="stable")[:elite]
        mean = candidates[best].mean(0)
        spread = candidates[best].std(0) + 0.05  # a floor, so that the search goes on looking
        curve.append({"generation": float(generation), "elite": float(scores[best].mean()), "check": checked(mean)})
        if progress is not None:
            progress(curve[-1])
    return BatchAgent(mean), curve
