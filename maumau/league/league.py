"""League: a class's bots, their games and standings, in one SQLite file.

>>> lg = League("makao", players=3, db="league.sqlite", seed=1)     # doctest: +SKIP
>>> lg.enter("anna", "bots/anna.py"); lg.play(deals=20); lg.standings()   # doctest: +SKIP
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..core.variants import VariantError, variant
from ..play.game import Game
from .errors import LeagueError
from .process import Limits
from .referee import Entry, GameSpec, play_game, trial
from .sandbox import Sandbox
from .schedule import Fixture, derive, tables
from .source import read_source
from .standings import Row, standings
from .store import Bot, GameRow, Store
from .words import say

__all__ = ["League"]

_NAME = re.compile(r"^[\w][\w .'-]{0,39}$")


class League:
    """A league of ``game`` for ``players`` seats, stored in ``db`` (opened if it exists: its
    game, players and seed must then agree), its schedules drawn from ``seed``.

    Bots run in the grader's bubblewrap sandbox; without bubblewrap the league refuses to run
    them unless ``unsandboxed=True``.  ``limits`` (``league.Limits``) sets the time, memory
    and faults a bot is allowed per move and game."""

    def __init__(self, game: str = "makao", players: int = 3, db: str | os.PathLike[str] = "league.sqlite",
                 seed: int = 0, unsandboxed: bool = False, limits: Limits | None = None, **options: Any) -> None:
        try:
            v = variant(game, **options)
        except (VariantError, TypeError, ValueError) as err:
            raise LeagueError(f"cannot run a league of {game!r}: {err}") from None
        lo, hi = v.players
        if not isinstance(players, int) or not lo <= players <= hi:
            raise LeagueError(f"{v.name} is played by {lo} to {hi} players, not {players!r}")
        if not isinstance(seed, int):
            raise LeagueError(f"the league's seed is a whole number, not {seed!r}")
        self.store = Store(db)
        wanted = {"game": game, "players": players, "seed": seed, "options": dict(sorted(options.items()))}
        found = self.store.settings()
        if not found:
            self.store.set(**wanted, next_deal=0)
        elif any(found.get(k) != wanted[k] for k in wanted):
            self.store.close()
            raise LeagueError(f"{db} holds a league of {found.get('game')} for {found.get('players')} players "
                              f"with seed {found.get('seed')} and options {found.get('options')}; "
                              f"open it with League.open({str(db)!r})")
        self.game_name, self.players, self.seed, self.options = game, players, seed, dict(options)
        self.limits = limits or Limits()
        self.sandbox = Sandbox.find([str(Path(db).resolve().parent), str(Path(db).resolve())], unsandboxed)

    @classmethod
    def open(cls, db: str | os.PathLike[str], unsandboxed: bool = False, limits: Limits | None = None) -> League:
        """The league stored in ``db``."""
        if not Path(db).exists():
            raise LeagueError(f"there is no league database {db}")
        store = Store(db)
        settings = store.settings()
        store.close()
        if not settings:
            raise LeagueError(f"{db} holds no league")
        return cls(settings["game"], settings["players"], db, settings["seed"], unsandboxed, limits,
                   **settings.get("options", {}))

    def __repr__(self) -> str:
        return f"<League of {self.game_name} for {self.players}: {len(self.store.bots())} bots, {self.store.path}>"

    # --- entering ---------------------------------------------------------------------------------
    def enter(self, name: str, source: str | os.PathLike[str], learner: str | None = None) -> Bot:
        """Check the bot ``source`` in the sandbox (it loads, a player class is found, its moves
        in a short trial are legal and in time) and store it under ``name`` (a later entry
        under the same name replaces it; its old games stay).  With ``learner`` (a class
        server's roster learner) it replaces that learner's bot under any other name as well.
        LeagueError, nothing stored, when it is not a working bot."""
        if not isinstance(name, str) or not _NAME.match(name.strip()) or name != name.strip():
            raise LeagueError(f"a bot's name is 1 to 40 letters, digits, spaces, dots, dashes or "
                              f"underscores, not {name!r}")
        text = read_source(source)
        entry = Entry(name, 0, text, derive(self.seed, "trial", name))
        spec = self._spec(derive(self.seed, "trial"), (entry,) * self.players)
        player, problem = trial(entry, spec)
        if problem:
            raise LeagueError(say("not_working", name=repr(name), problem=problem))
        return self.store.add_bot(name, text, player, learner)

    def bots(self) -> list[Bot]:
        return self.store.bots()

    # --- playing ------------------------------------------------------------------------------------
    def play(self, deals: int = 1, executor: Any = None, pairing: str = "auto",
             workers: int | None = None) -> list[int]:
        """Play ``deals`` more deals, each once per seat rotation at every table of the
        schedule, and store the games; the new games' ids.  ``executor``: a
        ``concurrent.futures`` executor, or a dask ``Client`` (its ``get_executor()``); by default
        ``workers`` threads (twice this machine's cores: a referee mostly waits for its bots,
        which run in processes of their own) referee the games."""
        if not isinstance(deals, int) or deals < 1:
            raise LeagueError(f"deals is a whole number of at least 1, not {deals!r}")
        bots = {b.name: b for b in self.store.bots()}
        first = int(self.store.settings().get("next_deal", 0))
        get_executor = getattr(executor, "get_executor", None)
        if callable(get_executor):
            executor = get_executor()  # a dask Client given as it is
        own = executor is None
        pool = executor or ThreadPoolExecutor(max_workers=workers or 2 * (os.cpu_count() or 1))
        ids: list[int] = []
        try:
            batches = ([range(first, first + deals)] if pairing != "swiss"
                       else [range(d, d + 1) for d in range(first, first + deals)])
            for batch in batches:
                order = [r.name for r in self.standings()] if pairing == "swiss" else None
                games = [t for d in batch for t in tables(list(bots), self.players, d, self.seed, pairing, order)]
                specs = [self._spec(derive(self.seed, "deal", t.deal), self._entries(t, bots)) for t in games]
                ids += self._play_batch(pool, games, specs, bots, batch[-1] + 1)
        finally:
            if own:
                pool.shutdown()
        return ids

    def _play_batch(self, pool: Any, games: list[Fixture], specs: list[GameSpec], bots: dict[str, Bot],
                    next_deal: int) -> list[int]:
        """Referee a batch's games and store every one that finished, in one go; LeagueError after
        storing them when a game could not be refereed (a bot cannot cause that: whatever its process
        does is its fault or forfeit; this is the machine's or the referee's failure, said whole)."""
        futures = [pool.submit(play_game, spec) for spec in specs]
        done: list[tuple[Fixture, dict[str, Any]]] = []
        failed: list[tuple[Fixture, BaseException]] = []
        for table, future in zip(games, futures, strict=True):
            try:
                done.append((table, future.result()))
            except Exception as err:  # noqa: BLE001 - the other games are stored first, then it is said
                failed.append((table, err))
        ids = self._store([t for t, _ in done], bots, [r for _, r in done], next_deal)
        if failed:
            table, error = failed[0]
            raise LeagueError(f"{len(failed)} of {len(games)} games could not be refereed (the first: deal "
                              f"{table.deal}, rotation {table.rotation}: {type(error).__name__}: {error}); "
                              f"the other {len(done)} are stored")
        return ids

    def _entries(self, table: Fixture, bots: dict[str, Bot]) -> tuple[Entry, ...]:
        # the seed belongs to the seat of the deal, not to the bot: duplicate deals stay duplicate
        return tuple(Entry(name, bots[name].version, bots[name].source, derive(self.seed, "bot", table.deal, seat))
                     for seat, name in enumerate(table.seats))

    def _spec(self, deal_seed: int, entries: Sequence[Entry]) -> GameSpec:
        return GameSpec(self.game_name, tuple(sorted(self.options.items())), deal_seed, tuple(entries),
                        self.sandbox, self.limits)

    def _store(self, games: list[Fixture], bots: dict[str, Bot], records: list[dict[str, Any]],
               next_deal: int) -> list[int]:
        rows = [(t.deal, t.rotation, [(n, bots[n].version) for n in t.seats], r)
                for t, r in zip(games, records, strict=True)]
        ids = self.store.add_games(rows)
        self.store.set(next_deal=next_deal)
        return ids

    # --- looking ----------------------------------------------------------------------------------
    def standings(self) -> list[Row]:
        """Rows, best first: name, ordinal, mu, sigma, games, wins, points, faults, forfeits,
        the win rate's Wilson interval and the bots it cannot be told apart from yet."""
        return standings(self.store.bots(), self.store.games())

    def games(self, name: str | None = None) -> list[GameRow]:
        """The stored games (of the current version of ``name``, if given)."""
        if name is None:
            return self.store.games()
        versions = {b.name: b.version for b in self.store.bots()}
        if name not in versions:
            raise LeagueError(f"no bot is called {name!r}; the bots are {', '.join(sorted(versions)) or 'none yet'}")
        return self.store.games(name, versions[name])

    def game(self, game_id: int) -> Game:
        """Game ``game_id`` as a ``mm.Game`` (every move, every hand)."""
        return Game.from_dict(self.store.record(game_id))

    def replay(self, game_id: int, **options: Any) -> Any:
        """An ``mm.replay`` view of game ``game_id`` with the bots' names, every hand open."""
        from .replay import replay

        return replay(self, game_id, **options)

    def lessons(self, name: str, n: int = 5, **options: Any) -> list[Any]:
        """The ``n`` positions where ``name``'s choice lost the most against the search player's."""
        from .lessons import lessons

        return lessons(self, name, n, **options)

    def widget(self, **options: Any) -> Any:
        """A standings table for Jupyter."""
        from .widget import StandingsView

        return StandingsView(self, **options)
