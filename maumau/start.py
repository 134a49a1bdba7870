"""``maumau.start``: the old name of ``maumau.core.dealing`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import dealing as _new

__getattr__ = forward(__name__, _new)
