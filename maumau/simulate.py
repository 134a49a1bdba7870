"""``maumau.simulate``: the old name of ``maumau.simulation.run`` (see ``maumau._old_names``)."""

from maumau._old_names import forward
from maumau.simulation import run as _new

__getattr__ = forward(__name__, _new)
