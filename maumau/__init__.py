"""maumau: a Jupyter teaching toolkit for the Mau-Mau family of card games.

>>> import maumau as mm
>>> s = mm.deal("makao", players=3, seed=7)
>>> len(s.hands), len(s.hands[0])
(3, 7)
"""

from typing import Any

from . import charts, players
from ._version import __version__ as __version__
from .core import compiled as _compiled
from .core.cards import JOKER, Card, CardError, Rank, Suit, cards
from .core.dealing import deal, position
from .core.moves import Draw, Move, Pass, Play
from .core.rules.base import Role, Rule
from .core.state import GameState, IllegalMove
from .core.variants import Variant, VariantError, variant, variant_names
from .play.game import FormatError, Game
from .play.match import HandResult, Match, MatchError
from .simulation import simulate


def __getattr__(name: str) -> Any:
    # networkx and the graph drawing load on first use: every grading kernel imports maumau
    if name in ("graph", "state_graph"):
        import importlib

        graph = importlib.import_module(__name__ + ".graph")  # sets the package's attribute graph
        globals()["state_graph"] = graph.state_graph
        return globals()[name]
    raise AttributeError(f"module 'maumau' has no attribute {name!r}")


def play(game: str | Variant = "makao", opponents: int = 3, **options: Any) -> Any:
    """A card table in Jupyter: you against computer players (see ``maumau.widgets.play``)."""
    from .widgets import play as _play  # ipywidgets is imported only when a table is shown

    return _play(game, opponents, **options)


def join(url: str, code: str, name: str | None = None, token: str | None = None, lang: str = "en",
         colours: str = "two", contrast: str = "normal", personal: str | None = None) -> Any:
    """Sit down at a class table in Jupyter: the card table of ``mm.play``, bound to a seat of the
    table ``code`` on the class table server at ``url`` (see ``maumau.classroom``; ``personal``:
    your personal code, on a server with a roster); ``colours="four"`` and ``contrast="high"`` as
    for ``mm.play``."""
    from .classroom.widget import join as _join  # websockets and ipywidgets are imported only here

    return _join(url, code, name=name, token=token, lang=lang, colours=colours, contrast=contrast,
                 personal=personal)


def replay(source: Any, **options: Any) -> Any:
    """Step through a game, a table or a match in Jupyter (see ``maumau.widgets.replay``)."""
    from .widgets import replay as _replay

    return _replay(source, **options)


def rulebook(game: Any = "makao", lang: str | None = None, formal: bool = False) -> Any:
    """The rules of ``game`` as plain sentences in ``lang`` (en, de, hu); ``formal=True`` adds the
    formal one-liners for teachers (see ``maumau.text.rules_table``)."""
    from .text.rules_table import rulebook as _rulebook

    return _rulebook(game, lang, formal)


def set_language(lang: str) -> None:
    """The language of the course from here on: "en", "de" or "hu" (the card table, the replay, the
    explorer, the rules and the engine's sentences; a ``lang=`` of their own still wins)."""
    from .text.i18n import set_language as _set

    _set(lang)


def source(what: Any) -> Any:
    """The source of a built-in rule by name or id (``mm.source("skip_on_eight")``, MK-5), or
    of any class or function, from the installed package (see ``maumau.text.source``)."""
    from .text.source import source as _source

    return _source(what)


#: Whether the Cython-compiled engine runs (else its Python sources do; see ``maumau.core.compiled``).
compiled: bool = _compiled.COMPILED

__all__ = [
    "players", "Card", "CardError", "JOKER", "Rank", "Suit", "cards",
    "Move", "Play", "Draw", "Pass",
    "GameState", "IllegalMove", "deal", "position", "Game", "FormatError", "Match", "MatchError", "HandResult",
    "Rule", "Role", "Variant", "VariantError", "variant", "variant_names", "play", "replay", "join", "state_graph",
    "simulate", "charts", "source", "rulebook", "set_language",
]
