"""``maumau.moves``: the old name of ``maumau.core.moves`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import moves as _new

__getattr__ = forward(__name__, _new)
