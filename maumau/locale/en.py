"""``maumau.locale.en``: the old name of ``maumau.text.locale.en`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text.locale import en as _new

__getattr__ = forward(__name__, _new)
