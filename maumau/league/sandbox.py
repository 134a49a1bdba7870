"""Where a bot's process runs: the bubblewrap jail the grader uses too (``maumau.sandbox``), for the league's bots.

``Sandbox.find()`` asks ``maumau.sandbox.jail`` for the jail (no network, read-only root of
only the system, Python and the maumau package, its own PID namespace, an unprivileged user,
a size-capped tmpfs as the only writable folder); ``sandbox.command(argv)`` wraps a command
in it.  The league's database, the bots' sources and the folder the league runs in are never
inside: a bot's source reaches its process over the pipe.  Without bubblewrap the league
refuses learners' code unless told ``unsandboxed=True`` (then the runner's limits and audit
hook are the only guard, and the league says so).  Every bot's environment carries this
process's mark (``RUN_ENV=RUN_MARK``, inherited by whatever a bot starts), so this process's
bots can be told from another league's on the same machine.
"""

from __future__ import annotations

import functools
import os
import secrets
import sys
import tempfile
from dataclasses import dataclass, field

from ..sandbox.jail import BWRAP_ENV, Jail, find_jail
from .errors import LeagueError

__all__ = ["Sandbox", "RUNNER", "RUN_ENV", "RUN_MARK"]

#: The command that runs a bot (``runner``), for ``python``.
RUNNER = ["-m", "maumau.league.runner"]
DISK_MB = 16
#: The environment variable that marks a bot's process as this process's (a league's or a test's).
RUN_ENV = "MAUMAU_LEAGUE_RUN"
#: This process's mark (random: it says nothing about the machine or the league).
RUN_MARK = secrets.token_hex(8)


@functools.lru_cache(maxsize=4)
def _jail(protected: tuple[str, ...], bwrap: str | None) -> tuple[Jail | None, str]:
    # (``bwrap``: the $MAUMAU_BWRAP asked for, a key of the cache: a changed setting is honoured)
    return find_jail(list(protected))


def _jail_paths() -> tuple[str, ...]:
    """The PYTHONPATH a jail made on this machine gives (the maumau package's parent)."""
    return (os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))),)


@dataclass(frozen=True)
class Sandbox:
    """How to start a bot's process: in ``jail`` (bubblewrap), or unsandboxed when it is None."""

    jail: Jail | None
    why_not: str = ""                       # why there is no jail (when there is none)
    protected: tuple[str, ...] = field(default=())

    @classmethod
    def find(cls, protected: list[str], unsandboxed: bool = False) -> Sandbox:
        """The sandbox for bots of a league whose files are ``protected``; LeagueError when
        bubblewrap is missing and ``unsandboxed`` is not given."""
        paths = tuple(sorted({os.path.realpath(p) for p in protected}))
        if unsandboxed:
            return cls(None, "unsandboxed=True was given", paths)
        jail, why = _jail(paths, os.environ.get(BWRAP_ENV))
        if jail is None:
            raise LeagueError(f"the league runs learners' code only in a bubblewrap sandbox, and there is none: "
                              f"{why}. Install bubblewrap, or pass unsandboxed=True (--unsandboxed) for "
                              f"bots you trust: their code then runs with only resource limits and an audit hook")
        return cls(jail, "", paths)

    def here(self) -> Sandbox:
        """This sandbox as this machine builds it: a worker of a dask cluster finds its own
        bubblewrap and paths (LeagueError if it has none), and never runs a bot unsandboxed
        when the league's sandbox is isolated."""
        if self.jail is None or self.jail.python_path == _jail_paths():
            return self
        return Sandbox.find(list(self.protected))

    @property
    def isolated(self) -> bool:
        return self.jail is not None

    def command(self) -> list[str]:
        """The command line that starts a bot's runner."""
        argv = [sys.executable, *RUNNER]
        if self.jail is None:
            return argv
        return self.jail.command(argv, disk_mb=DISK_MB)

    def environment(self) -> dict[str, str]:
        """The runner's environment: only what Python needs to find maumau (no secrets of ours), and
        the course's language (``MAUMAU_LANG``: what a bot's error says, e.g. a View's hidden hands)."""
        from ..text.i18n import language

        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1",
               RUN_ENV: RUN_MARK, "MAUMAU_LANG": language()}
        if self.jail is not None:
            env.update(PYTHONPATH=os.pathsep.join(self.jail.python_path), HOME="/scratch/home", TMPDIR="/scratch/tmp")
        else:
            package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            env.update(PYTHONPATH=package_parent, HOME=tempfile.gettempdir())
        return env

    def workdir(self) -> str:
        """The folder the runner starts in (inside the jail its working folder is /scratch)."""
        return "/" if self.jail is not None else tempfile.mkdtemp(prefix="maumau-bot-")
