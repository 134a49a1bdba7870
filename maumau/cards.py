"""``maumau.cards``: the old name of ``maumau.core.cards`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import cards as _new

__getattr__ = forward(__name__, _new)
