"""``maumau.rules.skips``: the old name of ``maumau.core.rules.skips`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import skips as _new

__getattr__ = forward(__name__, _new)
