"""``maumau.compare``: the old name of ``maumau.text.rules_table`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text import rules_table as _new

__getattr__ = forward(__name__, _new)
