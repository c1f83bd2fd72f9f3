"""Searching a position: algorithm, heuristic, flavour and budget by plain parameters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..games.chameleon import CHAMELEON_OPS, Position
from ..games.protocol import GameOps
from ..heuristics import get_heuristic
from . import root as R

ALGORITHMS = ("maxn", "maxnis", "paranoid", "hypermax")

#: The thesis's settings: MaxN and MaxN-IS always normalise; the algorithm comparison
#: ran Paranoid with and Hypermax without normalisation.
DEFAULT_NORMALIZE = {"maxn": True, "maxnis": True, "paranoid": True, "hypermax": False}


def check_algorithm(name: Any) -> str:
    """The canonical algorithm name, or ``ValueError`` listing the valid ones."""
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; valid algorithms: {', '.join(ALGORITHMS)}")
    return name


def root_algorithm(
    algorithm: str,
    state: np.ndarray,
    *,
    game: GameOps = CHAMELEON_OPS,
    heuristic: str | Callable = "pawns100roles",
    normalize: bool | None = None,
    max_sum: float = 1.0,
    deep: bool = False,
) -> R.RootAlgorithm:
    """The thesis-flavour root algorithm object for a state (see :mod:`.root`)."""
    algorithm = check_algorithm(algorithm)
    if normalize is None:
        normalize = DEFAULT_NORMALIZE[algorithm]
    evaluate = get_heuristic(heuristic) if game is CHAMELEON_OPS else heuristic
    if algorithm == "maxn":
        return R.MaxN(game, evaluate, state, normalize)
    if algorithm == "maxnis":
        return R.MaxNIS(game, evaluate, state, normalize, max_sum=max_sum, deep=deep)
    if algorithm == "paranoid":
        return R.Paranoid(game, evaluate, state, normalize)
    return R.Hypermax(game, evaluate, state, normalize, game.players_alive(state))


def _state_of(position: Position | np.ndarray) -> np.ndarray:
    if isinstance(position, Position):
        return position.state
    return np.asarray(position, dtype=np.int64)


def thesis_search(
    position: Position | np.ndarray,
    algorithm: str,
    *,
    depth: int | None = None,
    time_ms: float | None = None,
    heuristic: str | Callable = "pawns100roles",
    normalize: bool | None = None,
    game: GameOps = CHAMELEON_OPS,
    **options: Any,
) -> R.RootResult:
    """Search like the original program, in depth mode or time mode (one of the two).

    ``options`` go to :func:`root_algorithm` (``max_sum``, ``deep`` for teaching trees).
    """
    if (depth is None) == (time_ms is None):
        raise ValueError("give exactly one budget: depth=D (plies) or time_ms=T")
    state = _state_of(position)
    algo = root_algorithm(
        algorithm, state, game=game, heuristic=heuristic, normalize=normalize, **options
    )
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
            raise ValueError(f"depth must be a whole number >= 1, got {depth!r}")
        return R.run_depth(algo, state, int(depth))
    if not isinstance(time_ms, (int, float, np.number)) or not time_ms > 0:
        raise ValueError(f"time_ms must be a number > 0, got {time_ms!r}")
    return R.run_time(algo, state, float(time_ms))
