"""``maumau.locale.hu``: the old name of ``maumau.text.locale.hu`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text.locale import hu as _new

__getattr__ = forward(__name__, _new)
