"""``maumau.locale.plain``: the old name of ``maumau.text.locale.plain`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text.locale import plain as _new

__getattr__ = forward(__name__, _new)
