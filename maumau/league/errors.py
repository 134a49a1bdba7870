"""The league's one error: bad input or a bot that does not work, said in a sentence."""

from __future__ import annotations

__all__ = ["LeagueError"]


class LeagueError(ValueError):
    """A league cannot do what was asked: a source that is not a working bot (nothing is
    stored), a database of another league, learners' code where no sandbox can hold it, ..."""
