"""``maumau.i18n``: the old name of ``maumau.text.i18n`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text import i18n as _new

__getattr__ = forward(__name__, _new)
