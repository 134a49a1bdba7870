"""``maumau.rules.common``: the old name of ``maumau.core.rules.common`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core.rules import common as _new

__getattr__ = forward(__name__, _new)
