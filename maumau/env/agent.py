"""A small learning player, numpy only: a linear score of each legal action, trained by the
cross-entropy method (CEM) on the Gymnasium environment.

Each action of the fixed action list gets a few numbers (its *features*): is it a draw, a pass, a
play; the rank of the card; how many cards it sheds; does it name a wish; and, from the seat's own
hand, how many cards of the suit and the rank it leaves on top would still fit, how well its wish
fits the hand, what a draw costs under a pending penalty.  The agent plays the legal action whose
``features @ weights`` is largest.  Training looks for good weights: draw a population of weight
vectors around a mean, let each play the same hands, keep the best few (the elite), move the mean
and the spread to them, repeat.  Everything the agent reads is its seat's observation.

``LinearAgent.choose(view)`` makes it a player like any other (``mm.simulate``, ``Match``, the class
league); ``agent.act(observation)`` is the same choice inside a Gymnasium loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.cards import Rank, Suit
from ..core.moves import Draw, Move, Pass, Play
from ..core.variants import Variant, variant
from ..players.view import View
from ..text.i18n import check_language, rank_letter
from .actions import Actions, actions_for
from .observe import Observer
from .words import FEATURE_WORDS

__all__ = ["LinearAgent", "FEATURES", "feature_label", "feature_labels", "train_cem", "win_rate"]

_SUITS, _RANKS = tuple(Suit), tuple(Rank)
#: The names of the features, in the order of the weights.
FEATURES = ("draw", "pass", "play", *(f"rank {r.value}" for r in _RANKS), "rank joker", "cards shed", "names a wish",
            "opens a Runde", "suit still held", "rank still held", "wish fits hand", "cards left", "draw under penalty",
            "draw when a play is legal")


def feature_label(name: str, lang: str | None = None) -> str:
    """The feature ``name`` (one of ``FEATURES``, a stable identifier) as people read it in ``lang``
    (None: the course's language; English is the name itself)."""
    lang = check_language(lang)
    if lang == "en":
        return name
    said = FEATURE_WORDS.get(name)
    if said is not None:
        return said[lang]
    if name.startswith("rank "):
        rank = Rank(name.split(" ", 1)[1])
        return FEATURE_WORDS["rank"][lang].format(rank=rank_letter(rank, lang))
    return name


def feature_labels(lang: str | None = None) -> tuple[str, ...]:
    """Every feature's ``feature_label``, in the order of ``FEATURES`` (and of the weights)."""
    return tuple(feature_label(name, lang) for name in FEATURES)


class _Tables:
    """What each action of one variant is, as arrays with one row per action."""

    def __init__(self, v: Variant, observer: Observer, actions: Actions) -> None:
        cards, a, d = observer.cards, len(actions), len(observer.cards)
        slot = {card: i for i, card in enumerate(cards)}
        self.card_suit = np.zeros((d, 4))
        self.card_rank = np.zeros((d, 14))
        for i, card in enumerate(cards):
            self.card_rank[i, 13 if card.rank is None else _RANKS.index(card.rank)] = 1
            if card.suit is not None:
                self.card_suit[i, _SUITS.index(card.suit)] = 1
        self.static = np.zeros((a, 23))  # draw, pass, play, 14 ranks, shed, wish, runde, (3 spare)
        self.played = np.zeros((a, d))    # the cards each action takes from the hand
        self.top_suit = np.zeros((a, 4))  # the suit and rank on top afterwards
        self.top_rank = np.zeros((a, 14))
        self.wish_suit = np.zeros((a, 4))
        self.wish_rank = np.zeros((a, 14))
        for i, move in enumerate(actions):
            self._describe(i, move, slot)

    def _describe(self, i: int, move: Move, slot: dict[Any, int]) -> None:
        if isinstance(move, Draw):
            self.static[i, 0] = 1
        elif isinstance(move, Pass):
            self.static[i, 1] = 1
        elif isinstance(move, Play):
            self.static[i, 2] = 1
            self.static[i, 3:17] = self.card_rank[slot[move.card]]
            self.static[i, 17] = len(move.cards)
            self.static[i, 18] = move.wish is not None
            self.static[i, 19] = move.runde
            for card in move.cards:
                self.played[i, slot[card]] += 1
            self.top_suit[i] = self.card_suit[slot[move.last]]
            self.top_rank[i] = self.card_rank[slot[move.last]]
            if isinstance(move.wish, Suit):
                self.wish_suit[i, _SUITS.index(move.wish)] = 1
            elif isinstance(move.wish, Rank):
                self.wish_rank[i, _RANKS.index(move.wish)] = 1


class LinearAgent:
    """Plays ``game`` by a linear score of each legal action (``weights``: one per name in ``FEATURES``)."""

    name = "linear"

    def __init__(self, game: str | Variant = "makao", weights: Sequence[float] | np.ndarray | None = None) -> None:
        self.variant = variant(game)
        self.actions = actions_for(self.variant)
        w = np.zeros(len(FEATURES)) if weights is None else np.asarray(weights, dtype=float)
        if w.shape != (len(FEATURES),):
            raise ValueError(f"weights are {len(FEATURES)} numbers (one per name in FEATURES), not shape {w.shape}")
        self.weights = w
        self._observers: dict[int, Observer] = {}
        self._tables: _Tables | None = None

    def observer(self, players: int) -> Observer:
        found = self._observers.get(players)
        if found is None:
            found = self._observers[players] = Observer(self.variant, players)
        return found

    def features(self, observation: np.ndarray, mask: np.ndarray, players: int) -> np.ndarray:
        """One row of features per action (``len(actions)`` by ``len(FEATURES)``)."""
        observer = self.observer(players)
        if self._tables is None:
            self._tables = _Tables(self.variant, observer, self.actions)
        t, parts = self._tables, observer.parts
        hand = observation[parts["hand"]]
        after = hand[None, :] - t.played                       # the hand after each action
        suits, ranks = after @ t.card_suit, after @ t.card_rank
        draw = t.static[:, 0]
        plays = float(mask @ t.static[:, 2])                   # how many plays are legal now
        dynamic = np.stack([
            (suits * t.top_suit).sum(1) / 4, (ranks * t.top_rank).sum(1) / 2,
            ((suits * t.wish_suit).sum(1) + (ranks * t.wish_rank).sum(1)) / 4,
            (hand.sum() - t.static[:, 17]) / 7,
            draw * observation[parts["pending_amount"]][0] / 4, draw * min(plays, 3.0)], axis=1)
        return np.concatenate([t.static[:, :20], dynamic], axis=1)

    def act(self, observation: dict[str, np.ndarray], players: int = 2) -> int:
        """The action index for a Gymnasium/PettingZoo observation (with its ``action_mask``)."""
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("no legal action in the mask: it is not this seat's turn")
        scores = self.features(observation["observation"], mask, players)[legal] @ self.weights
        return int(legal[int(np.argmax(scores))])

    def choose(self, view: View) -> Move:
        """The Player protocol: the move for the seat's View (so the agent plays in mm.simulate or a league)."""
        observation = self.observer(view.players)(view)
        mask = np.zeros(len(self.actions), dtype=np.int8)
        mask[[self.actions.index(m) for m in view.legal_moves]] = 1
        return self.actions.moves[self.act({"observation": observation, "action_mask": mask}, view.players)]

    def bot_source(self, class_name: str = "Bot") -> str:
        """Python source of a player class with these weights, to hand in as a bot (the class league):
        it needs maumau and numpy only."""
        if not class_name.isidentifier():
            raise ValueError(f"a class name is a Python name, not {class_name!r}")
        weights = ", ".join(repr(round(float(w), 6)) for w in self.weights)
        return (f'"""A linear player for {self.variant.name}, trained by the cross-entropy method (maumau.env)."""\n\n'
                f"from maumau.env.agent import LinearAgent\n\n\n"
                f"class {class_name}(LinearAgent):\n"
                f"    def __init__(self, seed=None):\n"
                f"        super().__init__({self.variant.name!r}, weights=[{weights}])\n")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.variant.name!r})"


def win_rate(policy: Callable[[dict[str, np.ndarray]], int], game: str = "makao",
             opponents: Sequence[Any] = ("random",), games: int = 100, seed: int = 0) -> float:
    """The share of ``games`` hands that seat 0 wins with ``policy(observation) -> action`` (Gymnasium env)."""
    from . import gym

    env = gym(game, opponents=opponents, seed=seed, illegal="raise")
    wins = 0
    for i in range(games):
        obs, _ = env.reset(seed=seed * 100_003 + i)
        done, reward = False, 0.0
        while not done:
            obs, reward, term, trunc, _ = env.step(policy(obs))
            done = term or trunc
        wins += reward > 0
    return wins / games


def train_cem(game: str = "makao", opponents: Sequence[Any] = ("random",), generations: int = 6,
              population: int = 12, games: int = 8, elite: int = 4, check: int = 40, seed: int = 0,
              progress: Callable[[dict[str, float]], None] | None = None) -> tuple[LinearAgent, list[dict[str, float]]]:
    """Train a LinearAgent by the cross-entropy method; return it and its learning curve.

    Each generation draws ``population`` weight vectors around the mean, lets each play the same
    ``games`` hands as seat 0 against ``opponents``, and moves the mean to the best ``elite``.  A curve
    row: ``generation``, ``elite`` (the elite's win rate on those hands) and ``check`` (the win rate
    of the mean weights on ``check`` other hands, the same every generation; generation 0 is the
    untrained agent, all weights 0).
    """
    rng = np.random.default_rng(seed)
    agent = LinearAgent(game)
    players = len(opponents) + 1

    def play(weights: np.ndarray, hands: int, at: int) -> float:
        agent.weights = weights
        return win_rate(lambda o: agent.act(o, players), game, opponents, hands, at)

    mean, spread = np.zeros(len(FEATURES)), np.ones(len(FEATURES))
    curve = [{"generation": 0.0, "elite": play(mean, games, seed + 1), "check": play(mean, check, seed)}]
    for generation in range(1, generations + 1):
        candidates = mean + spread * rng.standard_normal((population, len(FEATURES)))
        scores = np.array([play(w, games, seed + 1 + generation) for w in candidates])  # the same hands for all
        best = np.argsort(-scores, kind="stable")[:elite]
        mean = candidates[best].mean(0)
        spread = candidates[best].std(0) + 0.05  # a floor, so that the search goes on looking
        curve.append({"generation": float(generation), "elite": float(scores[best].mean()),
                      "check": play(mean, check, seed)})
        if progress is not None:
            progress(curve[-1])
    agent.weights = mean
    return agent, curve
