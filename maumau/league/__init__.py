"""The class league: learners' computer players meet in sandboxed tournaments.

>>> from maumau import league
>>> lg = league.League("makao", players=3, db="league.sqlite", seed=1)     # doctest: +SKIP
>>> lg.enter("anna", "bots/anna.py")                                      # doctest: +SKIP
>>> lg.play(deals=20); lg.standings()                                     # doctest: +SKIP

docs/howto/league.md; notebook 10.
"""

from __future__ import annotations

from .errors import LeagueError
from .league import League
from .process import Limits
from .standings import Row, wilson
from .store import Bot, GameRow

__all__ = ["League", "LeagueError", "Limits", "Row", "Bot", "GameRow", "wilson"]
