"""``maumau.state``: the old name of ``maumau.core.state`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import state as _new

__getattr__ = forward(__name__, _new)
