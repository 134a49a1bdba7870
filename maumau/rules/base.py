"""``maumau.rules.base``: the old name of ``maumau.core.rules.base`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import base as _new

__getattr__ = forward(__name__, _new)
