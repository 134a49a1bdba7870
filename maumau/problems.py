"""``maumau.problems``: the old name of ``maumau.core.problems`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.core import problems as _new

__getattr__ = forward(__name__, _new)
