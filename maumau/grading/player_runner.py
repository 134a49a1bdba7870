"""Inside a learner's player's process (exercise 13): load the player, then answer Views with moves.

``python -m maumau.grading.player_runner``, started by ``maumau.grading.hands`` through the league's
``BotProcess``: the first line on stdin is the league's hello, whose ``source`` is the player
pickled by ``cloudpickle`` (base64) and whose ``seed`` is the number of *lanes*, hands played side
by side; the runner answers ``{"ready": class name}`` or ``{"error": ...}``.  Each request then
carries one View per lane whose hand waits for the player (``wire.view_message``); the answer
holds one move per View, in order, up to the player's first fault.  Each lane has its own copy of the player,
which plays that lane's hands one after another (the league gives each game a fresh player).

Before the learner's player is unpickled (which runs its code): the league runner's hard limits
and the grader's audit hook, the standard output and error pointed at ``/dev/null``.  Nothing of
a game but the Views reaches this process.
"""

from __future__ import annotations

import base64
import os
import pickle
import sys
import traceback
from typing import Any, BinaryIO

__all__ = ['main', 'error_text']


def error_text(err: BaseException) -> str:
    """``Type: message`` of an exception of the player, and the function it came from
    (``MyPlayer.choose``), for the referee's sentence."""
    frames = traceback.extract_tb(err.__traceback__) if err.__traceback__ else []
    code = err.__traceback__
    while code is not None and code.tb_next is not None:
        code = code.tb_next
    where = getattr(code.tb_frame.f_code, "co_qualname", code.tb_frame.f_code.co_name) if code else ""
    line = f" (line {frames[-1].lineno})" if frames else ""
    return f"{type(err).__name__}: {err}"[:300] + (f" in {where}{line}" if where else "")


def _players(blob: str, lanes: int) -> list[Any]:
    """A copy of the pickled player per lane (each unpickled anew: no state shared)."""
    data = base64.b64decode(blob)
    found = [pickle.loads(data) for _ in range(max(1, lanes))]
    if not callable(getattr(found[0], "choose", None)):
        raise ValueError(f"{type(found[0]).__name__} has no method choose(view)")
    return found


def answer_rounds(players: list[Any], wire_in: BinaryIO, wire_out: BinaryIO) -> None:
    """Answer each request: ``{"id", "moves"}``, a move (``Move.to_dict()``) for each lane's View in
    order, and at the player's first fault ``"fault": {"error", "kind"}`` in place of the rest
    (the referee stops there): an answer stays a few kilobytes, nested at most four deep."""
    from ..core.moves import Move
    from ..league.wire import Receiver, decode, encode

    receiver = Receiver()
    for line in iter(wire_in.readline, b""):
        request = decode(line)
        moves: list[dict[str, Any]] = []
        answer: dict[str, Any] = {"id": request["id"], "moves": moves}
        for lane, message in request["asks"]:
            try:
                move = players[lane].choose(receiver.view(message))
            except Exception as err:  # the player's exception (MemoryError too): the referee says it
                answer["fault"] = {"error": error_text(err), "kind": type(err).__name__}
                break
            if not isinstance(move, Move):
                answer["fault"] = {"error": f"choose returned {repr(move)[:200]}, not a move", "kind": ""}
                break
            moves.append(move.to_dict())
        wire_out.write(encode(answer))


def main() -> None:
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    wire_in = sys.stdin.buffer
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the process's lifetime
    from ..league.wire import decode, encode
    from ..sandbox.guard import make_guard, set_limits

    hello = decode(wire_in.readline())
    import cloudpickle  # noqa: F401 - what unpickling the player needs, loaded before the limits

    import maumau.players  # noqa: F401 - what a player imports
    set_limits(int(hello["memory_mb"]), int(hello["cpu_seconds"]))
    sys.addaudithook(make_guard(os.getcwd(), list(hello.get("protected", []))))
    try:
        players = _players(str(hello["source"]), int(hello["seed"]))
    except BaseException as err:
        wire_out.write(encode({"error": error_text(err)}))
        return
    wire_out.write(encode({"ready": type(players[0]).__name__}))
    answer_rounds(players, wire_in, wire_out)


if __name__ == "__main__":
    main()
