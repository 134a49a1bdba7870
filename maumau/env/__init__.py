"""Learning environments: every variant as a PettingZoo ``AECEnv`` and as a Gymnasium ``Env``.

>>> from maumau import env
>>> e = env.aec("makao", players=3, seed=0)      # a PettingZoo AECEnv, agents seat_0 .. seat_2
>>> g = env.gym("makao", opponents=["heuristic", "heuristic"], seed=0)   # seat 0 against two computers
>>> env.moves("makao")[:3]                        # the fixed action list: index <-> Move
(Draw(), Pass(), Play('2C'))

Both need the extra ``maumau[env]`` (``pip install 'maumau[env]'``: gymnasium and pettingzoo).
Observations hold only what the seat may see (its View); ``action_mask`` marks the legal actions.
``env.Batch`` steps thousands of Makaó hands at once over arrays, each the scalar engine's hand
(``maumau.env.batch``); ``env.vector(...)`` makes them a Gymnasium VectorEnv.  ``env.LinearAgent`` is a
small numpy-only learning player, ``env.train_cem`` trains it (``maumau.env.agent``); ``env.BatchAgent``
ranks the moves of every hand of a Batch at once, ``env.train_cem_batch`` trains it on the batched
engine (``maumau.env.batch_learner``); it and ``env.BatchRandom`` are ``env.BatchPolicy``s, which
``env.vector(..., opponents=...)``, ``env.train_cem_batch`` and ``env.batch_win_rate`` seat as seat 0's
opponents (``maumau.env.batch_policy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..core import compiled as _compiled

# The environments' compiled modules (setup.py) sit in _built/: first on this package's path when they are
# to run, by the engine's rules (maumau.core.compiled); they read the compiled GameState, so only with it.
# Set before any of them is imported (actions.py is, just below).
_BUILT = _compiled.Built(Path(__file__).resolve().parent, ("seen", "actions", "hand", "aec_env", "gym_env"),
                         "the environments' code", requires=_compiled.COMPILED)
_COMPILED: bool = _BUILT.put_first(__path__)

from ..core.moves import Move  # noqa: E402  (the path above first)
from ..core.variants import Variant, variant  # noqa: E402
from ..extras import need  # noqa: E402
from .actions import Actions, actions_for  # noqa: E402
from .agent import LinearAgent, train_cem, win_rate  # noqa: E402
from .batch import Batch  # noqa: E402
from .batch_learner import BatchAgent, batch_win_rate, train_cem_batch  # noqa: E402
from .batch_policy import BatchPolicy, BatchRandom, Opponents  # noqa: E402
from .curve import learning_curve  # noqa: E402
from .observe import Observer  # noqa: E402

if TYPE_CHECKING:  # pragma: no cover
    from .aec_env import MauMauAEC
    from .gym_env import SeatEnv
    from .vector_env import BatchVectorEnv

__all__ = ["aec", "gym", "moves", "actions", "MauMauAEC", "SeatEnv", "Actions", "Observer", "Batch", "vector",
           "BatchVectorEnv", "LinearAgent", "train_cem", "win_rate", "learning_curve", "BatchAgent", "train_cem_batch",
           "batch_win_rate", "BatchPolicy", "BatchRandom"]


def __getattr__(name: str) -> Any:
    # gymnasium and pettingzoo (the extra maumau[env]) load with the environments, so that the
    # action list, the observer and a trained agent (numpy only) work without them.
    if name == "MauMauAEC":
        return need("maumau.env.aec_env", "maumau.env.MauMauAEC").MauMauAEC
    if name == "SeatEnv":
        return need("maumau.env.gym_env", "maumau.env.SeatEnv").SeatEnv
    if name == "BatchVectorEnv":
        return need("maumau.env.vector_env", "maumau.env.BatchVectorEnv").BatchVectorEnv
    raise AttributeError(f"module 'maumau.env' has no attribute {name!r}")


def aec(game: str | Variant = "makao", players: int = 2, seed: int | None = None, **options: Any) -> MauMauAEC:
    """A PettingZoo AEC environment of one hand of ``game`` for ``players`` seats.

    Options: ``render_mode`` ("ansi" or "html"), ``illegal`` ("raise", the default, or "penalty"),
    ``illegal_reward``, ``max_steps``, and the variant's own options (``jokers=0``).
    """
    aec_env = need("maumau.env.aec_env", "maumau.env.aec()")  # PettingZoo, the extra maumau[env]
    return cast("MauMauAEC", aec_env.MauMauAEC(game, players, seed, **options))


def gym(game: str | Variant = "makao", opponents: Sequence[Any] = ("heuristic",), seed: int | None = None,
        **options: Any) -> SeatEnv:
    """A Gymnasium environment: seat 0 of ``game`` against ``opponents`` (strength names or players).

    Options: ``render_mode`` ("ansi" or "html"), ``illegal`` ("penalty", the default, or "raise"),
    ``illegal_reward``, ``max_steps``, and the variant's own options.  Also made by
    ``gymnasium.make("maumau/makao-v0", opponents=[...])``.
    """
    gymnasium = need("gymnasium", "maumau.env.gym()")  # the extra maumau[env]
    made = gymnasium.make(_ID, game=game, opponents=opponents, seed=seed, **options)
    return cast("SeatEnv", made.unwrapped)  # the env itself, without wrappers; its spec remakes it


def vector(num_envs: int = 1024, players: int = 2, seed: int = 0, opponents: Opponents = None) -> BatchVectorEnv:
    """A Gymnasium ``VectorEnv`` of ``num_envs`` Makaó hands over the batched engine: the agent plays
    seat 0 of each, ``opponents`` the other seats (``maumau.env.vector_env``): batch policies such as
    ``BatchAgent``, one for every other seat or a list of one per seat; None (or "random"): random
    legal moves (``BatchRandom``)."""
    vector_env = need("maumau.env.vector_env", "maumau.env.vector()")  # Gymnasium, the extra maumau[env]
    return cast("BatchVectorEnv", vector_env.BatchVectorEnv(num_envs, players, seed, opponents))


def actions(game: str | Variant = "makao", **options: Any) -> Actions:
    """The action list of ``game``: ``len``, ``[i]`` the Move, ``.index(move)``, ``.mask(state)``."""
    return actions_for(variant(game, **options))


def moves(game: str | Variant = "makao", **options: Any) -> tuple[Move, ...]:
    """The fixed action list of ``game`` as a tuple of moves: action ``i`` is ``moves(game)[i]``."""
    return actions(game, **options).moves


_ID = "maumau/maumau-v0"


def _register() -> None:
    """The Gymnasium ids ``maumau/maumau-v0`` (any game) and ``maumau/makao-v0`` etc."""
    import gymnasium

    entry = "maumau.env.gym_env:SeatEnv"
    if _ID not in gymnasium.registry:
        gymnasium.register(_ID, entry_point=entry, disable_env_checker=True, order_enforce=False)
    for name in ("joker_mau_mau", "lite_macau", "makao", "mau_mau_runde"):
        if f"maumau/{name}-v0" not in gymnasium.registry:
            gymnasium.register(f"maumau/{name}-v0", entry_point=entry, kwargs={"game": name},
                               disable_env_checker=True, order_enforce=False)



try:  # gymnasium.make("maumau/makao-v0", ...) works once maumau.env is imported, where the extra is installed
    _register()
except ImportError:  # pragma: no cover - without maumau[env]: the action list and the agent still work
    pass
