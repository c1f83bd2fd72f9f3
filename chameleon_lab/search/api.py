"""Searching a position: algorithm, heuristic, flavour and budget by plain parameters.

:func:`search` is the one entry point. ``flavour="improved"`` (the default) runs the
searches of :mod:`.improved` by iterative deepening (:mod:`.deepening`) under any mix
of depth, time and node budgets; ``flavour="thesis"`` runs the original program's
searches and root driver in depth mode or time mode (the thesis wing,
:mod:`chameleon_lab.thesis.driver`, registers it; see :mod:`.registry`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..games.protocol import GameOps
from ..games.protocol import Position as ProtocolPosition
from ..games.registry import Game, get_game
from .core import RootResult, leaf_function
from .deepening import TT_BITS, Budget, DeepSearch, DeepWorkspace, iterative_deepening
from .registry import ALGORITHMS as REGISTRY
from .registry import Flavour, algorithm_names, get_algorithm, get_flavour, register_flavour

ALGORITHMS = algorithm_names()

#: The thesis's settings: MaxN and MaxN-IS always normalise; the algorithm comparison
#: ran Paranoid with and Hypermax without normalisation.
DEFAULT_NORMALIZE = {a.name: a.normalize for a in REGISTRY.values()}


def check_algorithm(name: Any) -> str:
    """The algorithm name, or ``ValueError`` listing the valid ones."""
    return get_algorithm(name).name


def check_flavour(name: Any) -> str:
    """The flavour name, or ``ValueError`` listing the valid ones."""
    return get_flavour(name).name


def check_budget(
    flavour: str, depth: int | None = None, time_ms: float | None = None, nodes: int | None = None
) -> Budget:
    """The budget of a search of ``flavour``, or ``ValueError`` saying what is allowed.

    The improved flavour takes any combination of depth, time and nodes; the thesis
    flavour exactly one of depth and time, as the original program had.
    """
    get_flavour(flavour).check_budget(depth, time_ms, nodes)
    return Budget(depth, time_ms, nodes)


GameLike = Game | GameOps | str | None


def resolve_game(position: Any, game: GameLike = None) -> Game | GameOps:
    """The game a search runs in: ``game`` as given (a registry :class:`Game`, a game
    name or bare :class:`GameOps` such as an explicit tree's), else the position's own
    game, else Chameleon Chess."""
    if isinstance(game, str):
        return get_game(game)
    if game is not None:
        return game
    found = getattr(position, "game", None)
    return found if isinstance(found, Game) else get_game("chameleon")


def leaf_evaluator(game: Game | GameOps, heuristic: str | Callable | None) -> Callable:
    """The compiled leaf evaluation of ``heuristic`` (a name of the game's registry, a
    compiled function, or ``None`` for the game's default) in ``game``; bare
    :class:`GameOps` (an explicit tree) have no registry and take a function."""
    if isinstance(game, Game):
        fn = game.heuristics.get(heuristic).function
        return leaf_function(game.ops, fn, game.info.players, game.info.min_utility)
    if isinstance(heuristic, str) or heuristic is None:
        raise ValueError(
            f"{game.name} has no heuristics by name: pass a compiled function f(state, out)"
        )
    return leaf_function(game, heuristic, (0, 1, 2, 3), -1.0)


def _ops(game: Game | GameOps) -> GameOps:
    return game.ops if isinstance(game, Game) else game


def deep_search(
    algorithm: str,
    *,
    game: GameLike = None,
    heuristic: str | Callable | None = None,
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
    game = resolve_game(None, game)
    evaluate = leaf_evaluator(game, heuristic)
    return DeepSearch(algorithm, _ops(game), evaluate, bool(normalize), max_sum)


def state_of(position: Any) -> np.ndarray:
    if isinstance(position, np.ndarray):
        return np.asarray(position, dtype=np.int64)
    if isinstance(position, ProtocolPosition):
        return position.state
    raise TypeError(f"a search needs a position or a kernel state, got {type(position).__name__}")


def search(
    position: Any,
    algorithm: str = "paranoid",
    *,
    flavour: str = "improved",
    depth: int | None = None,
    time_ms: float | None = None,
    nodes: int | None = None,
    heuristic: str | Callable | None = None,
    normalize: bool | None = None,
    game: GameLike = None,
    max_sum: float | None = None,
    deep: bool = False,
    tt_bits: int = TT_BITS,
    workspace: DeepWorkspace | None = None,
) -> RootResult:
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
    return get_flavour(flavour).run(
        position,
        algorithm,
        budget=budget,
        heuristic=heuristic,
        normalize=normalize,
        game=game,
        max_sum=max_sum,
        deep=deep,
        tt_bits=tt_bits,
        workspace=workspace,
    )


def _improved(
    position: Any,
    algorithm: str,
    *,
    budget: Budget,
    heuristic: str | Callable | None,
    normalize: bool | None,
    game: GameLike,
    max_sum: float | None,
    deep: bool,
    tt_bits: int,
    workspace: DeepWorkspace | None,
) -> RootResult:
    """The improved flavour: iterative deepening within any mix of budgets."""
    if deep:
        raise ValueError("deep pruning is unsound and exists in the thesis flavour only")
    game = resolve_game(position, game)
    method = deep_search(
        algorithm, game=game, heuristic=heuristic, normalize=normalize, max_sum=max_sum
    )
    if workspace is None:
        workspace = DeepWorkspace(method.game, tt_bits)
    elif workspace.game is not method.game or workspace.tt_bits != tt_bits:
        raise ValueError(
            f"the workspace was made for the game {workspace.game.name!r} with "
            f"tt_bits={workspace.tt_bits}; make one with DeepWorkspace(game, tt_bits)"
        )
    return iterative_deepening(method, state_of(position), budget, workspace)


register_flavour(
    Flavour(
        "improved",
        "iterative deepening with budgets checked inside the tree (any of depth, time, nodes)",
        lambda depth, time_ms, nodes: None,
        _improved,
    )
)
