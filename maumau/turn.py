"""``maumau.turn``: the old name of ``maumau.core.turn`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import turn as _new

__getattr__ = forward(__name__, _new)
