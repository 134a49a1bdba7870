"""``maumau.terminal_input``: the old name of ``maumau.terminal.input`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.terminal import input as _new

__getattr__ = forward(__name__, _new)
