"""``maumau.locale.de``: the old name of ``maumau.text.locale.de`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text.locale import de as _new

__getattr__ = forward(__name__, _new)
