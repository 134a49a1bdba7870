"""The referee's end of a bot's sandboxed process: start it, ask it for moves, stop it.

Each answer is awaited against two clocks: the CPU time the bot's processes used since the
request (``move_seconds``, read from ``/proc``, so a busy machine does not make a bot late)
and, for a bot that sleeps or waits, the wall clock (``wall_factor`` times as long).  A late
answer is a fault; it is read and dropped when it comes (answers carry the request's id).
A game has two budgets as well: the bot's CPU seconds (``game_seconds``) and the wall seconds
the referee waited for its answers (``game_wall_seconds``: a bot that answers every move just
before its clock cannot hold a game for minutes).  An answer is read within bounds
(``wire.read_answer``); one outside them is a fault, never an exception of the referee's.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Any

from .groups import bot_group, release_group
from .sandbox import Sandbox
from .wire import MAX_LINE, BadAnswer, encode, read_answer

__all__ = ["Limits", "BotProcess", "BotDied", "cpu_seconds", "tree"]

_TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Limits:
    """What one bot may use in one game."""

    move_seconds: float = 1.0     # CPU seconds per move
    game_seconds: float = 20.0    # CPU seconds per game (then it forfeits; a hard limit just above)
    game_wall_seconds: float = 40.0  # wall seconds the referee waits for its answers in a game (then it
    #                                  forfeits): twice game_seconds, so a busy machine never makes a bot
    #                                  that thinks within its CPU budget forfeit (an honest bot takes ~1 s)
    start_seconds: float = 20.0   # wall seconds to start and load the bot
    wall_factor: float = 4.0      # wall time per move, as a multiple of move_seconds (sleepers)
    memory_mb: int = 1024         # address space of the bot's process
    max_faults: int = 3           # faults in one game, then the bot forfeits it


class BotDied(Exception):
    """The bot's process ended, or broke the wire: it cannot play on."""


def tree(pid: int) -> tuple[float, int]:
    """CPU seconds used by process ``pid`` and every process below it (a sandbox's init and its
    child, and anything a bot started), and how many processes that tree holds."""
    total, todo, seen = 0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total / _TICK, len(seen)


def cpu_seconds(pid: int) -> float:
    """CPU seconds used by process ``pid`` and every process below it."""
    return tree(pid)[0]


class BotProcess:
    """One bot in its own sandbox for one game."""

    def __init__(self, source: str, seed: int, sandbox: Sandbox, limits: Limits) -> None:
        self.limits = limits
        self.sandbox = sandbox
        self._buffer = b""
        self._next = 0
        self.workdir = sandbox.workdir()
        # a control group where the machine has them: memory, processes (a fork bomb stops at the cap)
        self.group = bot_group(limits.memory_mb)
        command = sandbox.command() if self.group is None else self.group.wrap(sandbox.command())
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=sandbox.environment(), cwd=self.workdir,
                                     start_new_session=True)
        hello = {"source": source, "seed": seed, "memory_mb": limits.memory_mb,
                 "cpu_seconds": int(limits.game_seconds) + 2, "protected": list(sandbox.protected)}
        self._send(hello)
        self.cpu_used = 0.0
        self.wall_used = 0.0  # wall seconds spent waiting for this bot's answers (its moves), this game

    def ready(self) -> str:
        """The player class's name once the bot is loaded; BotDied (with the reason) if it is not."""
        answer = self._read_line(self.limits.start_seconds, None)
        if answer is None:
            raise BotDied(f"it did not start within {self.limits.start_seconds:g} seconds")
        if isinstance(answer.get("ready"), str):
            self.cpu_used = 0.0
            self._base, self._processes = tree(self.proc.pid)
            self._clock = self._base
            name: str = answer["ready"][:80]  # (a class's name: shown in the standings)
            return name
        raise BotDied(str(answer.get("error", "it did not say it was ready"))[:300])

    def ask(self, message: dict[str, Any]) -> Any:
        """The bot's answer to ``message`` (a request made with ``wire.view_message``), or None
        when it is late (past its move's clocks, or past what is left of the game's wall budget:
        ``wall_left``); BotDied when the process is gone or sent more than a line's worth."""
        self._next = message["id"]
        asked = time.monotonic()
        self._send(message)
        start = self._clock  # the CPU clock when the last answer came: a bot still busy pays now
        # the move's wall time, but never beyond what is left of the game's
        deadline = asked + min(self.limits.move_seconds * self.limits.wall_factor, self.wall_left)
        try:
            while True:  # (one deadline for the move: a flood of stale answers does not extend it)
                answer = self._read_line(deadline - time.monotonic(), start)
                self._clock = self._watch()
                self.cpu_used = self._clock - self._base
                if answer is None or answer.get("id") == message["id"]:
                    return answer
                # an answer to an earlier request that came too late: dropped
                if time.monotonic() > deadline:
                    return None
        finally:
            self.wall_used += time.monotonic() - asked

    @property
    def wall_left(self) -> float:
        """The wall seconds left of the game's budget for this bot's answers."""
        return max(0.0, self.limits.game_wall_seconds - self.wall_used)

    def _watch(self) -> float:
        """The bot's CPU clock; BotDied if it started a process (the audit hook forbids it, but
        Python has ways around a hook: the sandbox's PID namespace takes them all down with it)."""
        seconds, processes = tree(self.proc.pid)
        if processes > self._processes:
            raise BotDied(f"it started {processes - self._processes} process(es) of its own")
        return seconds

    def _send(self, message: dict[str, Any]) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(encode(message))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotDied("its process has ended") from None

    def _read_line(self, wall: float, cpu_start: float | None) -> dict[str, Any] | None:
        """The next line, read within the answer's bounds (an error answer in its place when it
        is not within them); None past the wall time or the move's CPU time."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + wall
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                raise BotDied(f"it sent more than {MAX_LINE} bytes without a line end")
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], min(left, 0.02))
            if not ready and cpu_start is not None and self._watch() - cpu_start > self.limits.move_seconds:
                return None
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise BotDied("its process has ended")
                self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            return read_answer(line)
        except BadAnswer as err:
            return {"id": self._next, "error": str(err)}

    def close(self) -> None:
        """Stop the bot's process and everything it started (the sandbox dies with bwrap)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self.proc.wait()
        release_group(self.group)
        if not self.sandbox.isolated:
            shutil.rmtree(self.workdir, ignore_errors=True)
