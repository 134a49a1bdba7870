"""``maumau.illegal``: the old name of ``maumau.core.illegal`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import illegal as _new

__getattr__ = forward(__name__, _new)
