"""``maumau.rules.announce``: the old name of ``maumau.core.rules.announce`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import announce as _new

__getattr__ = forward(__name__, _new)
