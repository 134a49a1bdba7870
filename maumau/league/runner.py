"""Inside a bot's sandbox: load the bot, then answer each View with a move.

``python -m maumau.league.runner``: the first line on stdin says what to load (the source,
the seed, the limits); the runner answers ``{"ready": ...}`` or ``{"error": ...}``, then one
answer per request line.  Before the bot's code runs: hard limits (memory, CPU time of the
whole game, file size), the grader's audit hook (no processes, sockets, ctypes, writes
outside the working folder) and the standard output and error pointed at ``/dev/null`` (a
bot that prints megabytes fills nothing); the answers go out through a private copy of the
original standard output.  The bubblewrap sandbox around the process is the boundary; this
is a second layer, and the only one with ``unsandboxed=True``.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Any, BinaryIO

__all__ = ["main", "find_player"]

MODULE = "league_bot"


def find_player(module: Any) -> type | Any:
    """The player of a bot's module: its ``PLAYER`` (a class or an object), else the one class
    defined in it with a ``choose`` method; ValueError naming what is wrong."""
    named = getattr(module, "PLAYER", None)
    if named is not None:
        return named
    found = [value for value in vars(module).values()
             if isinstance(value, type) and value.__module__ == MODULE and callable(getattr(value, "choose", None))]
    if not found:
        raise ValueError("it defines no player class (a class with a method choose(view) -> Move)")
    if len(found) > 1:
        names = ", ".join(cls.__name__ for cls in found)
        raise ValueError(f"it defines several player classes ({names}): say which with PLAYER = {found[-1].__name__}")
    return found[0]


def make_player(player: Any, seed: int) -> Any:
    """An instance of ``player`` (a class is called with ``seed=`` if it takes one), reseeded."""
    if isinstance(player, type):
        try:
            player = player(seed=seed)
        except TypeError:
            player = player()
    if not callable(getattr(player, "choose", None)):
        raise ValueError(f"{type(player).__name__} has no method choose(view)")
    reseed = getattr(player, "reseed", None)
    if callable(reseed):
        reseed(seed)
    return player


def load(source: str, seed: int) -> Any:
    import types

    module = types.ModuleType(MODULE)
    module.__file__ = f"{MODULE}.py"
    sys.modules[MODULE] = module
    exec(compile(source, f"{MODULE}.py", "exec"), module.__dict__)
    return make_player(find_player(module), seed)


def _error(err: BaseException) -> str:
    last = traceback.extract_tb(err.__traceback__)[-1:] if err.__traceback__ else []
    where = f" (line {last[0].lineno})" if last and last[0].filename == f"{MODULE}.py" else ""
    return f"{type(err).__name__}: {err}"[:300] + where


def serve(player: Any, wire_in: BinaryIO, wire_out: BinaryIO) -> None:
    from .wire import Receiver, decode, encode, move_message

    receiver = Receiver()
    for line in iter(wire_in.readline, b""):
        request = decode(line)
        try:
            answer = move_message(request["id"], player.choose(receiver.view(request)))
        except Exception as err:  # the bot's exception (MemoryError too): a fault, reported
            answer = {"id": request["id"], "error": _error(err)}
        wire_out.write(encode(answer))


def main() -> None:
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    wire_in = sys.stdin.buffer
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the process's lifetime
    from ..sandbox.guard import make_guard, set_limits
    from .wire import decode, encode

    hello = decode(wire_in.readline())
    import maumau.players  # noqa: F401 - what a bot imports, loaded before the limits
    set_limits(int(hello["memory_mb"]), int(hello["cpu_seconds"]))
    sys.addaudithook(make_guard(os.getcwd(), list(hello.get("protected", []))))
    try:
        player = load(hello["source"], int(hello["seed"]))
    except BaseException as err:
        wire_out.write(encode({"error": _error(err)}))
        return
    wire_out.write(encode({"ready": type(player).__name__}))
    serve(player, wire_in, wire_out)


if __name__ == "__main__":
    main()
