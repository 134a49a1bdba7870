"""``maumau.game``: the old name of ``maumau.play.game`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.play import game as _new

__getattr__ = forward(__name__, _new)
