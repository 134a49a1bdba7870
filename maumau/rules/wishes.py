"""``maumau.rules.wishes``: the old name of ``maumau.core.rules.wishes`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import wishes as _new

__getattr__ = forward(__name__, _new)
