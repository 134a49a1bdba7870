"""The result of ``mm.simulate``: win rates with confidence intervals, hand lengths, how
often each rule acted, as text, as rows (a list of dicts), as a DataFrame and as a chart."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from typing import Any, NamedTuple

from .summary import one_line, summary_text

__all__ = ["Simulation", "SimulatedHand", "wilson", "rounded"]


def rounded(x: float) -> float:
    """``x`` to three significant digits and at most three decimals, the precision shown to a
    learner: 2.4266… → 2.43, 0.04333… → 0.043, 37.2166… → 37.2, 1234.5 → 1234.0.

    >>> rounded(2.4266666666666667), rounded(0.0433), rounded(37.21666), rounded(0)
    (2.43, 0.043, 37.2, 0)
    """
    if not x or not math.isfinite(x):
        return x
    return round(x, min(3, max(0, 2 - math.floor(math.log10(abs(x))))))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class SimulatedHand(NamedTuple):
    """One simulated hand: who sat where, who went out, how long it took, what fired."""

    game: int
    seed: int
    seats: tuple[int, ...]      # the index in ``players`` of the player at each seat
    winner: int | None          # the seat that went out; None if blocked or cut off
    moves: int                  # decisions made in the hand
    cards_left: tuple[int, ...]  # cards in each seat's hand at the end
    fired: dict[str, int]       # rule name -> how often it acted


class Simulation:
    """What ``mm.simulate`` found (see the methods); ``print(result)`` shows a summary.

    ``players`` are the players' labels (their ``repr``), in the order given; ``names`` the same
    told apart (``Heuristic() #1``, ``Heuristic() #2``) where several players share a label;
    ``hands`` the played hands (``SimulatedHand``), in order.  Averages come rounded to the precision
    worth reading (``length_stats``, ``rules_fired``); win rates are exact fractions.
    """

    def __init__(self, variant: str, players: list[str], games: int, seed: int, rotate: bool,
                 hands: list[SimulatedHand]) -> None:
        self.variant = variant
        self.players = players
        self.games = games
        self.seed = seed
        self.rotate = rotate
        self.hands = hands

    # --- numbers -------------------------------------------------------------------------------
    @staticmethod
    def _rate(wins: int, games: int) -> dict[str, Any]:
        low, high = wilson(wins, games)
        return {"games": games, "wins": wins, "win_rate": wins / games if games else 0.0,
                "ci_low": low, "ci_high": high}

    @property
    def names(self) -> list[str]:
        """The players' labels, told apart by ``#1``, ``#2``, ... where several players share one."""
        counts, seen, names = Counter(self.players), Counter[str](), []
        for label in self.players:
            seen[label] += 1
            names.append(f"{label} #{seen[label]}" if counts[label] > 1 else label)
        return names

    def by_player(self) -> list[dict[str, Any]]:
        """Per player, in the order given (``player``: its name, see ``names``): hands played,
        wins, win rate and its 95 % Wilson interval (exact fractions: format them, ``f"{r:.1%}"``)."""
        games = [0] * len(self.players)
        wins = [0] * len(self.players)
        for hand in self.hands:
            for seat, index in enumerate(hand.seats):
                games[index] += 1
                wins[index] += hand.winner == seat
        return [{"player": name, **self._rate(wins[i], games[i])} for i, name in enumerate(self.names)]

    def by_seat(self) -> list[dict[str, Any]]:
        """Per seat (0 moves first): wins, win rate and its 95 % Wilson interval."""
        n = len(self.players)
        wins = Counter(hand.winner for hand in self.hands)
        return [{"seat": seat, **self._rate(wins[seat], len(self.hands))} for seat in range(n)]

    @property
    def no_winner(self) -> int:
        """Hands without a winner (blocked, C-7, or cut off by ``max_moves``)."""
        return sum(hand.winner is None for hand in self.hands)

    @property
    def lengths(self) -> list[int]:
        """Decisions per hand (every move of every player counts once)."""
        return [hand.moves for hand in self.hands]

    def length_stats(self) -> dict[str, float]:
        """Mean, median, 5th and 95th percentile, shortest and longest hand (in decisions);
        the mean and the percentiles to one decimal."""
        values = sorted(self.lengths)
        cut = statistics.quantiles(values, n=20, method="inclusive") if len(values) > 1 else values * 19
        return {"mean": round(statistics.fmean(values), 1), "median": statistics.median(values),
                "p5": round(cut[0], 1), "p95": round(cut[-1], 1), "min": values[0], "max": values[-1]}

    def rules_fired(self) -> dict[str, float]:
        """How often each rule acted, per hand on average (``rounded``), most frequent first
        (also ``reshuffle`` (C-6) and ``blocked`` (C-7))."""
        total: Counter[str] = Counter()
        for hand in self.hands:
            total.update(hand.fired)
        return {name: rounded(count / len(self.hands)) for name, count in total.most_common()}

    # --- tables ------------------------------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        """One dict per hand: number, seed, who sat where, the winner, length, cards left,
        and one ``rule:NAME`` column per rule that acted."""
        rules, names = list(self.rules_fired()), self.names
        out = []
        for hand in self.hands:
            row: dict[str, Any] = {"hand": hand.game, "seed": hand.seed}
            for seat, index in enumerate(hand.seats):
                row[f"seat{seat}"] = names[index]
            row["winner_seat"] = hand.winner
            row["winner"] = None if hand.winner is None else names[hand.seats[hand.winner]]
            row["moves"] = hand.moves
            for seat, left in enumerate(hand.cards_left):
                row[f"cards_left{seat}"] = left
            for name in rules:
                row[f"rule:{name}"] = hand.fired.get(name, 0)
            out.append(row)
        return out

    def summary_rows(self) -> list[dict[str, Any]]:
        """The win rates as rows: first per player, then per seat."""
        return ([{"by": "player", "who": r.pop("player"), **r} for r in self.by_player()]
                + [{"by": "seat", "who": f"seat {r.pop('seat')}", **r} for r in self.by_seat()])

    def to_dataframe(self, summary: bool = False) -> Any:
        """``rows()`` (or ``summary_rows()``) as a pandas DataFrame; needs pandas."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_dataframe() needs pandas (pip install pandas); rows() gives the "
                              "same table as a list of dicts") from None
        return pd.DataFrame(self.summary_rows() if summary else self.rows())

    # --- text -----------------------------------------------------------------------------------------
    def summary(self) -> str:
        """The numbers as text (what ``print(result)`` and ``maumau simulate`` show), in the course's
        language (``mm.set_language``): its words, its way of writing numbers."""
        return summary_text(self)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return one_line(self)

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(self.summary())}</pre>"

    # --- pictures -----------------------------------------------------------------------------------
    def plot(self, figsize: tuple[float, float] = (10.8, 4.6)) -> Any:
        """Win rates with their 95 % intervals, the hand lengths and the rules acting, side by side:
        a ``maumau.charts.Chart``, shown as a PNG (matplotlib) or as Vega-Lite where matplotlib is
        missing; ``.figure()`` is the matplotlib Figure (``figsize`` in inches), ``.spec`` the Vega-Lite."""
        from .pictures import plot

        return plot(self, figsize)
