"""``maumau.locale.you``: the old name of ``maumau.text.locale.you`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text.locale import you as _new

__getattr__ = forward(__name__, _new)
