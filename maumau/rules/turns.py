"""``maumau.rules.turns``: the old name of ``maumau.core.rules.turns`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import turns as _new

__getattr__ = forward(__name__, _new)
