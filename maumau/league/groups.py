"""A control group for each bot's process, where the machine offers them (``maumau.sandbox.jail.Group``).

The grader's kernels and the league's bots get the same kernel-enforced limits: memory for the
bot and everything it starts together, a cap on its processes (``pids.max``: a fork bomb stops
at the cap, before the referee's next look), one core of CPU.  Without control groups the bot
keeps the limits it has without them (its address-space limit, the referee's watch of its
process tree, and bubblewrap's PID namespace that takes everything down with it).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import threading
from pathlib import Path

from ..sandbox.jail import Controls, Group, find_controls

__all__ = ["bot_group", "release_group", "BOT_PROCESSES"]

#: Processes and threads a bot may have at once (its Python runner has one or two).
BOT_PROCESSES = 16

_lock = threading.Lock()
_found: list[Controls | None] = []


def _controls() -> Controls | None:
    """This process's league groups, made once.  Their folder in the temporary folder marks them as
    alive for a grader's sweep of groups that killed graders left behind (``maumau.sandbox.jail``)."""
    with _lock:
        if not _found:
            folder = tempfile.mkdtemp(prefix="maumau-grade-")
            controls, _ = find_controls(Path(folder).name)
            _found.append(controls)
            atexit.register(shutil.rmtree, folder, True)
            if controls is not None:
                atexit.register(controls.close)
        return _found[0]


def bot_group(memory_mb: int) -> Group | None:
    """A new group for one bot's process (None where there are no control groups, or the machine
    refuses one: the bot then runs with the limits it has without them)."""
    controls = _controls()
    if controls is None:
        return None
    try:
        with _lock:
            return controls.new_group((memory_mb + 64) << 20, BOT_PROCESSES, 1.0)
    except OSError:
        return None


def release_group(group: Group | None) -> None:
    """Kill what is left of a bot's group and remove it (a game's end)."""
    if group is None:
        return
    group.remove()
    with _lock:
        controls = _found[0] if _found else None
        if controls is not None and group in controls.groups:
            controls.groups.remove(group)
