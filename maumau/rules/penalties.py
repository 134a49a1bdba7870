"""``maumau.rules.penalties``: the old name of ``maumau.core.rules.penalties`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import penalties as _new

__getattr__ = forward(__name__, _new)
