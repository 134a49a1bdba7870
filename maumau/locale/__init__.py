"""``maumau.locale``: the old name of ``maumau.text.locale`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text import locale as _new

__getattr__ = forward(__name__, _new)
