"""``maumau.rules.upcard``: the old name of ``maumau.core.rules.upcard`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import upcard as _new

__getattr__ = forward(__name__, _new)
