"""``maumau.terminal_console``: the old name of ``maumau.terminal.console`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.terminal import console as _new

__getattr__ = forward(__name__, _new)
