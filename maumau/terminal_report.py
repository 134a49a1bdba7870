"""``maumau.terminal_report``: the old name of ``maumau.terminal.report`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.terminal import report as _new

__getattr__ = forward(__name__, _new)
