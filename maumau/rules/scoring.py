"""``maumau.rules.scoring``: the old name of ``maumau.core.rules.scoring`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import scoring as _new

__getattr__ = forward(__name__, _new)
