"""``maumau.events``: the old name of ``maumau.core.events`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import events as _new

__getattr__ = forward(__name__, _new)
