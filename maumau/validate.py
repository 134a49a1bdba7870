"""``maumau.validate``: the old name of ``maumau.core.validate`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import validate as _new

__getattr__ = forward(__name__, _new)
