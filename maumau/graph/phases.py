"""Turn phases: the state machine of a variant, found by playing it, and games as paths.

A phase is what kind of decision a state asks for: a normal turn, answering a penalty
or a skip, the extra play after an Ace, the choice after drawing, a Runde, a wish to
follow, a locked last card (JM-9), and the end of the hand.  ``phase_graph`` plays many
random hands and records which moves lead from which phase to which, so the machine
comes from the rules themselves, not from a drawing made by hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.cards import Card
from ..core.dealing import deal
from ..core.events import Cancelled, Event, NoMau, Reversed, RundeEnded, RundeOpened, Skipped
from ..core.moves import Draw, Move, Play
from ..core.state import GameState
from ..core.variants import Variant, variant
from ..play.game import Game
from ..text.explain import narrate
from ..text.graph_words import graph_sentence, graph_words
from ..text.i18n import language, number, percent
from .explore import node_attributes
from .turn_phase import BLOCKED, NORMAL, OVER, phase_of

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

# phase_of and the phase names live in turn_phase, which explore imports too, so that imports run
# one way (phases -> explore -> turn_phase); phase_of and NORMAL stay importable from here.
__all__ = ["phase_of", "phase_graph", "phase_graph_of", "random_games", "transition_label",
           "PhaseComparison", "compare_phases", "game_path", "phase_statistics", "PhaseTable", "NORMAL"]

_CARD_NAMES: dict[Variant, dict[Card, str]] = {}


def _card_name(v: Variant, card: Card) -> str:
    """A rank (``9``) where every card of that rank acts alike, else the card (``K♥``)."""
    names = _CARD_NAMES.get(v)
    if names is None:
        kinds: dict[Any, set[Any]] = {}
        for c in v.distinct_cards:
            kinds.setdefault(c.rank, set()).add((v._effects.get(c, ()), v.wish_kind(c)))
        names = _CARD_NAMES[v] = {
            c: "Joker" if c.rank is None else c.rank.value if len(kinds[c.rank]) == 1 else c.symbol
            for c in v.distinct_cards}
    return names[card]


_EFFECT_WORDS: dict[type[Event], str] = {
    Reversed: "reverse", Cancelled: "cancel", RundeOpened: "opens Runde", RundeEnded: "Runde ends"}


_NOT_PLAYS = ("take penalty", "sit out", "draw", "pass")


def transition_label(before: GameState, move: Move, after: GameState) -> str:
    """A move as the phase machine sees it: ``9 reverse``, ``8 skip``, ``draw``, ``take penalty``."""
    if isinstance(move, Play):
        name = _card_name(before.variant, move.last)
        text = f"{name}×{len(move.cards)}" if len(move.cards) > 1 else name
        words = [_EFFECT_WORDS[type(e)] for e in after.events if type(e) in _EFFECT_WORDS]
        if any(type(e) is Skipped for e in after.events):
            words.append("skip")
        if any(type(e) is NoMau for e in after.events):
            words.append("no Mau")
        return " ".join([text, *dict.fromkeys(words)])
    pending = before.pending
    if pending is not None:
        return "take penalty" if pending.kind == "draw" else "sit out"
    return "draw" if isinstance(move, Draw) else "pass"


def random_games(game: str | Variant, games: int = 100, players: int = 2, seed: int = 0,
                 max_moves: int = 600, forget_mau: float = 0.05) -> Iterator[Game]:
    """Random hands (uniform legal moves; Mau forgotten with probability ``forget_mau``)."""
    rng = random.Random(seed)
    for i in range(games):
        g = Game(deal(game, players=players, seed=seed * 100_003 + i))
        for _ in range(max_moves):
            state = g.state
            if state.is_over:
                break
            move = rng.choice(state.legal_moves())
            if type(move) is Play and move.mau and rng.random() < forget_mau:
                move = move.replace(mau=False)
            g.apply(move)
        yield g


def phase_graph(game: str | Variant, games: int = 100, players: int = 2, seed: int = 0,
                max_moves: int = 600, forget_mau: float = 0.05) -> nx.DiGraph:
    """The turn-phase machine of a variant, found by playing ``games`` random hands.

    Nodes are phases (``count``: states seen, ``share`` of all decisions, ``branching``:
    mean number of legal moves, ``max_branching``); an edge (``count``, ``moves``: a
    Counter of move labels, ``label``: the commonest ones) says which moves lead from one
    phase to the next.
    """
    v = variant(game)
    G = phase_graph_of(random_games(v, games, players, seed, max_moves, forget_mau))
    G.graph.update(variant=v.name, players=players, seed=seed, forget_mau=forget_mau)
    return G


def phase_graph_of(games: Iterable[Game]) -> nx.DiGraph:
    """The phase machine seen in the given games (``phase_graph`` plays them for you)."""
    import networkx as nx

    nodes: dict[str, Counter[str]] = {}
    edges: dict[tuple[str, str], Counter[str]] = {}
    count = lengths = finished = 0
    name = None
    for g in games:
        count += 1
        lengths += len(g)
        name = name or g.start.variant.name
        states = g.states
        for before, move, after in zip(states, g.moves, states[1:], strict=False):
            a, b = phase_of(before), phase_of(after)
            stats = nodes.setdefault(a, Counter())
            stats["count"] += 1
            width = len(before.legal_moves())
            stats["moves"] += width
            stats["max"] = max(stats["max"], width)
            edges.setdefault((a, b), Counter())[transition_label(before, move, after)] += 1
        end = g.state
        if end.is_over:
            finished += 1
            nodes.setdefault(phase_of(end), Counter())["count"] += 1
    G = nx.DiGraph()
    decisions = sum(s["moves"] and s["count"] for s in nodes.values())
    for phase, s in nodes.items():
        G.add_node(phase, count=s["count"], share=round(s["count"] / decisions, 4) if s["moves"] and decisions else 0.0,
                   branching=round(s["moves"] / s["count"], 3) if s["moves"] else 0.0, max_branching=s["max"],
                   terminal=phase in (OVER, BLOCKED))
    for (a, b), moves in edges.items():
        G.add_edge(a, b, count=sum(moves.values()), moves=moves, label=_top_moves(moves))
    G.graph.update(variant=name, games=count, finished=finished, decisions=decisions,
                   mean_length=round(lengths / count, 1) if count else 0.0)
    return G


def _top_moves(moves: Counter[str], n: int = 4) -> str:
    common = [m for m, _ in moves.most_common()]
    text = ", ".join(common[:n])
    return text + (f" +{len(common) - n}" if len(common) > n else "")


# --- comparing two variants ------------------------------------------------------------------------

def say(text: str) -> str:
    """A phase, step or move of the phase machines in the course's language (in English as the
    graph names it: ``penalty: seven_draws_two``)."""
    return text if language() == "en" else graph_words(text.replace("_", " "))


@dataclass
class PhaseComparison:
    """Where two phase machines differ: phases only one has, steps between shared phases only
    one takes, and effects of moves (``reverse``, ``skip``, ``cancel``, ...) only one shows."""

    a: str
    b: str
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)
    steps_only_a: list[tuple[str, str, str]] = field(default_factory=list)
    steps_only_b: list[tuple[str, str, str]] = field(default_factory=list)
    effects_only_a: list[tuple[str, str]] = field(default_factory=list)
    effects_only_b: list[tuple[str, str]] = field(default_factory=list)

    def __str__(self) -> str:
        phase, step, effect = graph_sentence("kinds").split("|")
        width = max(8, len(phase) + 2, len(step) + 2, len(effect) + 2)
        lines = [graph_sentence("machines", a=self.a, b=self.b)]
        for side, phases, steps, effects in ((self.a, self.only_a, self.steps_only_a, self.effects_only_a),
                                             (self.b, self.only_b, self.steps_only_b, self.effects_only_b)):
            lines.append(graph_sentence("only_in", side=side))
            lines += [f"  {phase:<{width}}{say(p)}" for p in phases]
            lines += [f"  {step:<{width}}{say(u)} → {say(v)}  ({say(lab)})" for u, v, lab in steps]
            lines += [f"  {effect:<{width}}{say(e)}  ({graph_sentence('example', example=say(example))})"
                      for e, example in effects]
            if not (phases or steps or effects):
                lines.append("  " + graph_sentence("nothing"))
        return "\n".join(lines)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))


def _effects(G: nx.DiGraph) -> dict[str, str]:
    """Effect words of the moves (``9 reverse`` → ``reverse``), each with an example move."""
    found: dict[str, str] = {}
    for *_, data in G.edges(data=True):
        for label, _ in data["moves"].most_common():
            if label in _NOT_PLAYS:
                continue
            words = label.replace(" no Mau", "").split(" ", 1)
            if len(words) == 2:
                found.setdefault(words[1], label)
    return found


def compare_phases(a: nx.DiGraph, b: nx.DiGraph) -> PhaseComparison:
    """What one phase machine has and the other lacks (phases, steps, effects of moves)."""
    result = PhaseComparison(str(a.graph.get("variant", "a")), str(b.graph.get("variant", "b")))
    result.only_a = sorted(set(a) - set(b))
    result.only_b = sorted(set(b) - set(a))
    for G, H, steps in ((a, b, result.steps_only_a), (b, a, result.steps_only_b)):
        for u, v, data in sorted(G.edges(data=True), key=lambda e: (e[0], e[1])):
            if u in H and v in H and not H.has_edge(u, v):  # steps of a missing phase go without saying
                steps.append((u, v, data["label"]))
    ea, eb = _effects(a), _effects(b)
    result.effects_only_a = sorted((e, x) for e, x in ea.items() if e not in eb)
    result.effects_only_b = sorted((e, x) for e, x in eb.items() if e not in ea)
    return result


# --- a played game as a path, and statistics ---------------------------------------------------------

def game_path(game: Game) -> nx.DiGraph:
    """A played hand as a path: node i is the state after i moves (``state``, ``phase``,
    ``to_move``, ``branching`` = legal moves there, ``depth`` = i), edge i → i+1 the move."""
    import networkx as nx

    if not isinstance(game, Game):
        raise TypeError(f"game_path takes a mm.Game, not {game!r}")
    G = nx.path_graph(len(game) + 1, create_using=nx.DiGraph)
    for i, state in enumerate(game.states):
        G.nodes[i].update(node_attributes(state, i), state=state, expanded=True,
                          branching=len(state.legal_moves()))
    for i, (state, move) in enumerate(game.history):
        after = game.at(i + 1)
        G.edges[i, i + 1].update(move=move, label=transition_label(state, move, after),
                                 explain=narrate(state, move, after))
    G.graph.update(variant=game.start.variant.name, players=game.start.players, root=0, path=True)
    return G


@dataclass
class PhaseTable:
    """Statistics of a phase graph: how often each phase occurs and how wide its choices are."""

    variant: str
    games: int
    rows: list[dict[str, Any]]

    def __str__(self) -> str:
        phase, decisions, share_, branching, most = graph_sentence("table_columns").split("|")
        d, s, b = max(10, len(decisions) + 1), max(8, len(share_) + 1), max(11, len(branching) + 1)
        lines = [graph_sentence("table_head", variant=self.variant, games=self.games),
                 f"{phase:<34}{decisions:>{d}}{share_:>{s}}{branching:>{b}}{most:>6}"]
        for r in self.rows:
            share = percent(r["share"], 1) if r["share"] >= 0.0005 or not r["share"] else "< " + percent(0.001, 1)
            lines.append(f"{say(r['phase']):<34}{number(r['count']):>{d}}{share:>{s}}"
                         f"{number(r['branching'], 2):>{b}}{r['max_branching']:>6}")
        return "\n".join(lines)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))


def phase_statistics(source: str | Variant | nx.DiGraph | Iterable[Game], **options: Any) -> PhaseTable:
    """Phase frequencies and branching factors: of a phase graph, of some games, or of a
    variant (then ``options`` go to ``phase_graph``)."""
    import networkx as nx

    if isinstance(source, nx.DiGraph):
        G = source
    elif isinstance(source, (str, Variant)):
        G = phase_graph(source, **options)
    else:
        G = phase_graph_of(source)
    rows = [dict(phase=p, **{k: d[k] for k in ("count", "share", "branching", "max_branching")})
            for p, d in G.nodes(data=True) if not d["terminal"]]
    rows.sort(key=lambda r: -r["count"])
    return PhaseTable(str(G.graph.get("variant")), int(G.graph.get("games", 0)), rows)
