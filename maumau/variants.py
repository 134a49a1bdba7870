"""``maumau.variants``: the old name of ``maumau.core.variants`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import variants as _new

__getattr__ = forward(__name__, _new)
