"""Computer players (see ``base.Player``)."""

from .base import Player, Random

__all__ = ["Player", "Random"]
