"""``maumau.match``: the old name of ``maumau.play.match`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.play import match as _new

__getattr__ = forward(__name__, _new)
