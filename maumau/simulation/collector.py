"""Python's cycle collector paused while many objects that stay alive are made.

Building a state graph or playing a chunk of hands makes objects that all stay alive (states,
attribute dicts, finished hands) and no cyclic garbage, so every collection would walk all of them
again for nothing: with the collector running, two thirds of a build of 50,000 states went to it
(32k states/s against 96k), and 5-8% of a Heuristic hand's time.  Garbage with cycles, if any, is
collected once it runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused(pause: bool = True) -> Iterator[None]:
    """Pause the cycle collector inside the block (when ``pause``), as it was after it."""
    was = gc.isenabled()
    if pause:
        gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
