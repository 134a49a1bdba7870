"""``maumau.explain``: the old name of ``maumau.text.explain`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text import explain as _new

__getattr__ = forward(__name__, _new)
