"""``maumau.serialize``: the old name of ``maumau.play.serialize`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.play import serialize as _new

__getattr__ = forward(__name__, _new)
