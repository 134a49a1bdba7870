"""``maumau.terminal_table``: the old name of ``maumau.terminal.table`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.terminal import table as _new

__getattr__ = forward(__name__, _new)
