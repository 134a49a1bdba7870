"""Many hands between computer players: ``run`` plays them (``mm.simulate``), ``results`` holds
what came out (win rates, hand lengths, the rules acting)."""

from .results import SimulatedHand, Simulation, rounded, wilson
from .run import POOL_FROM, SimulationError, simulate

__all__ = ["simulate", "Simulation", "SimulationError", "SimulatedHand", "wilson", "rounded", "POOL_FROM"]
