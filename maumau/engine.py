"""``maumau.engine``: the old name of ``maumau.core.engine`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import engine as _new

__getattr__ = forward(__name__, _new)
