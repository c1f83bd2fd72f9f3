"""Searching a position: algorithm, heuristic, flavour and budget by plain parameters.

:func:`search` is the one entry point. ``flavour="improved"`` (the default) runs the
searches of :mod:`.improved` by iterative deepening (:mod:`.deepening`) under any mix
of depth, time and node budgets; ``flavour="thesis"`` runs the original program's
searches and root driver (:mod:`.thesis`, :mod:`.root`) in depth mode or time mode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..games.chameleon import CHAMELEON_OPS, Position
from ..games.protocol import GameOps
from ..heuristics import get_heuristic
from . import root as R
from .deepening import TT_BITS, Budget, DeepSearch, DeepWorkspace, iterative_deepening

ALGORITHMS = ("maxn", "maxnis", "paranoid", "hypermax")
FLAVOURS = ("improved", "thesis")

#: The thesis's settings: MaxN and MaxN-IS always normalise; the algorithm comparison
#: ran Paranoid with and Hypermax without normalisation.
DEFAULT_NORMALIZE = {"maxn": True, "maxnis": True, "paranoid": True, "hypermax": False}


def _check_choice(kind: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"unknown {kind} {value!r}; valid {kind}s: {', '.join(choices)}")
    return value


def check_algorithm(name: Any) -> str:
    """The algorithm name, or ``ValueError`` listing the valid ones."""
    return _check_choice("algorithm", name, ALGORITHMS)


def check_flavour(name: Any) -> str:
    """The flavour name, or ``ValueError`` listing the valid ones."""
    return _check_choice("flavour", name, FLAVOURS)


def check_budget(
    flavour: str, depth: int | None = None, time_ms: float | None = None, nodes: int | None = None
) -> Budget:
    """The budget of a search of ``flavour``, or ``ValueError`` saying what is allowed.

    The improved flavour takes any combination of depth, time and nodes; the thesis
    flavour exactly one of depth and time, as the original program had.
    """
    if flavour == "thesis" and (nodes is not None or (depth is None) == (time_ms is None)):
        raise ValueError(
            "the thesis flavour takes exactly one budget, depth=D (plies) or time_ms=T: "
            "the original program had no node budget (the improved flavour has one)"
        )
    return Budget(depth, time_ms, nodes)


def _evaluator(game: GameOps, heuristic: str | Callable) -> Callable:
    # names are Chameleon heuristics; other games pass their compiled function
    return get_heuristic(heuristic) if game is CHAMELEON_OPS else heuristic


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
    evaluate = _evaluator(game, heuristic)
    if algorithm == "maxn":
        return R.MaxN(game, evaluate, state, normalize)
    if algorithm == "maxnis":
        return R.MaxNIS(game, evaluate, state, normalize, max_sum=max_sum, deep=deep)
    if algorithm == "paranoid":
        return R.Paranoid(game, evaluate, state, normalize)
    return R.Hypermax(game, evaluate, state, normalize, game.players_alive(state))


def deep_search(
    algorithm: str,
    *,
    game: GameOps = CHAMELEON_OPS,
    heuristic: str | Callable = "pawns100roles",
    normalize: bool | None = None,
    max_sum: float | None = None,
) -> DeepSearch:
    """The improved-flavour search object (see :mod:`.deepening`).

    MaxN-IS prunes soundly only when every score vector is non-negative and sums to at
    most ``max_sum``; without normalisation the heuristic's own bound must be given.
    """
    algorithm = check_algorithm(algorithm)
    if normalize is None:
        normalize = DEFAULT_NORMALIZE[algorithm]
    if max_sum is None:
        if algorithm == "maxnis" and not normalize:
            raise ValueError(
                "MaxN-IS without normalisation needs max_sum: an upper bound of the sum of "
                "the heuristic's (non-negative) scores; or use normalize=True"
            )
        max_sum = 1.0
    if not (isinstance(max_sum, (int, float, np.number)) and np.isfinite(max_sum) and max_sum > 0):
        raise ValueError(f"max_sum must be a finite number > 0, got {max_sum!r}")
    return DeepSearch(algorithm, game, _evaluator(game, heuristic), bool(normalize), max_sum)


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
    budget = check_budget("thesis", depth, time_ms)
    state = _state_of(position)
    algo = root_algorithm(
        algorithm, state, game=game, heuristic=heuristic, normalize=normalize, **options
    )
    if depth is not None:
        return R.run_depth(algo, state, int(depth))
    return R.run_time(algo, state, float(budget.time_ms))


def search(
    position: Position | np.ndarray,
    algorithm: str = "paranoid",
    *,
    flavour: str = "improved",
    depth: int | None = None,
    time_ms: float | None = None,
    nodes: int | None = None,
    heuristic: str | Callable = "pawns100roles",
    normalize: bool | None = None,
    game: GameOps = CHAMELEON_OPS,
    max_sum: float | None = None,
    deep: bool = False,
    tt_bits: int = TT_BITS,
    workspace: DeepWorkspace | None = None,
) -> R.RootResult:
    """Choose a move in ``position`` and report what the search did.

    Budgets: ``depth`` (plies), ``time_ms`` and ``nodes`` (expanded plus evaluated
    positions, the same count on every machine). The improved flavour accepts any
    combination and stops at the first one spent; the thesis flavour exactly one of
    depth and time, as the original program had. ``normalize=None`` takes the thesis's
    setting per algorithm (:data:`DEFAULT_NORMALIZE`). ``max_sum`` is MaxN-IS's bound on
    a score vector's sum; ``deep`` (thesis flavour, MaxN-IS) turns on the unsound deep
    pruning of the thesis's figure 4.5; ``tt_bits`` sizes the improved Paranoid's
    transposition table; ``workspace`` reuses an improved search's tables.
    """
    budget = check_budget(check_flavour(flavour), depth, time_ms, nodes)
    if flavour == "thesis":
        options: dict[str, Any] = {"deep": deep}
        if max_sum is not None:
            options["max_sum"] = max_sum
        return thesis_search(
            position,
            algorithm,
            depth=depth,
            time_ms=time_ms,
            heuristic=heuristic,
            normalize=normalize,
            game=game,
            **options,
        )
    if deep:
        raise ValueError("deep pruning is unsound and exists in the thesis flavour only")
    method = deep_search(
        algorithm, game=game, heuristic=heuristic, normalize=normalize, max_sum=max_sum
    )
    if workspace is None:
        workspace = DeepWorkspace(game, tt_bits)
    elif workspace.game is not game or workspace.tt_bits != tt_bits:
        raise ValueError(
            f"the workspace was made for the game {workspace.game.name!r} with "
            f"tt_bits={workspace.tt_bits}; make one with DeepWorkspace(game, tt_bits)"
        )
    return iterative_deepening(method, _state_of(position), budget, workspace)
