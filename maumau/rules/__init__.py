"""``maumau.rules``: the old name of ``maumau.core.rules`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import rules as _new

__getattr__ = forward(__name__, _new)
