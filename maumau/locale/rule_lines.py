"""``maumau.locale.rule_lines``: the old name of ``maumau.text.locale.rule_lines`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.text.locale import rule_lines as _new

__getattr__ = forward(__name__, _new)
