"""What every search shares, free of any one game: the protocol names the node
functions call, their per-(game, heuristic) compilation, small compiled helpers, and
what a root search reports (:class:`RootResult`).

Node functions (in :mod:`chameleon_lab.thesis.nodes` and :mod:`.improved`) are written
once as templates
that call the game's functions by the names below (``generate``, ``make``, ``unmake``,
``player_of``, ``key``) and the leaf evaluation as ``evaluate``. :func:`bind` compiles a
template for one game and heuristic with those names bound to the game's compiled
functions (:func:`~chameleon_lab.games.specialise.specialise`), so nothing passes them
down the tree and numba calls them directly.

:func:`leaf_function` is what ``evaluate`` is bound to: the heuristic itself where the
game wants its heuristic at finished positions too (Chameleon Chess, as the original
program did), else a wrapper that scores a finished position from its exact returns,
shifted to be non-negative and scaled so a win outweighs every heuristic score.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ..games.heuristics import normalize
from ..games.protocol import GameOps
from ..games.specialise import specialise


def _unbound(*args: Any) -> Any:  # pragma: no cover - replaced by bind()
    raise RuntimeError("a node-function template was called without bind()")


# The names the templates call; bind() replaces them by the game's compiled functions.
generate = make = unmake = player_of = key = evaluate = returns = heuristic = _unbound
#: Bound by :func:`leaf_function`: scale of exact returns, their minimum, players' mask.
TERMINAL_SCALE = 1.0
MIN_UTILITY = 0.0
IN_GAME = (1, 1, 1, 1)


@njit(cache=True)
def _copy_row(vals: np.ndarray, src: int, dst: int) -> None:
    """Copy row ``src`` of a per-ply table to row ``dst``."""
    for i in range(4):
        vals[dst, i] = vals[src, i]


@njit(cache=True)
def _copy_in(vals: np.ndarray, dst: int, v: np.ndarray) -> None:
    """Copy the vector ``v`` to row ``dst`` of a per-ply table."""
    for i in range(4):
        vals[dst, i] = v[i]


@njit(cache=True)
def _score(out: np.ndarray, norm: bool, stats: np.ndarray) -> None:
    """Count a leaf evaluated; normalise its score vector ``out`` in place if ``norm``."""
    stats[1] += 1
    if norm:
        normalize(out)


def _terminal_leaf(state, out):  # pragma: no cover - compiled by leaf_function
    """A finished position scored from its returns; others by the heuristic."""
    if player_of(state) < 0:
        returns(state, out)
        for q in range(4):
            out[q] = (out[q] - MIN_UTILITY) * TERMINAL_SCALE if IN_GAME[q] else 0.0
    else:
        heuristic(state, out)


def leaf_function(
    ops: GameOps, heuristic_fn: Callable, players: tuple[int, ...], min_utility: float
) -> Callable:
    """The function a search calls at its leaves for ``ops`` and a heuristic (see the
    module doc); ``players`` are the players taking part, ``min_utility`` the lowest
    return."""
    if ops.heuristic_at_terminal:
        return heuristic_fn
    mask = tuple(1 if q in players else 0 for q in range(4))
    return specialise(
        _terminal_leaf,
        {
            "player_of": ops.player_of,
            "returns": ops.returns,
            "heuristic": heuristic_fn,
            "TERMINAL_SCALE": float(ops.terminal_scale),
            "MIN_UTILITY": float(min_utility),
            "IN_GAME": mask,
        },
        inline="always",
    )


# ------------------------------------------------------------------ root results
@dataclass
class RootResult:
    """What one root search did: the choice, the root scores and the effort."""

    index: int
    scores: np.ndarray  # one row (vector) or entry (scalar) per root successor
    depth: float  # completed depth; fractional in time mode
    expanded: int
    evaluated: int
    seconds: float
    moves: np.ndarray  # the root's moves, in generation order
    #: principal variation (moves from the root on; improved flavour only)
    pv: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    tt_hits: int = 0  # transposition-table cut-offs (improved Paranoid)
    #: whether the search reached the end of the game in every line (improved flavour)
    exact: bool = False

    @property
    def n_moves(self) -> int:
        """Number of root moves."""
        return len(self.moves)

    @property
    def nodes(self) -> int:
        """Expanded plus evaluated positions: the benchmarks' node count."""
        return self.expanded + self.evaluated


def check_root(game: GameOps, state: np.ndarray, moves: np.ndarray) -> int:
    """Generate the root's moves into ``moves[0]``; ``ValueError`` if there is none."""
    if game.player_of(state) < 0:
        raise ValueError("the position is already over: there is no move to choose")
    n = game.generate(state, moves, 0)
    if n == 0:
        raise ValueError("the player to move has no legal move: there is no move to choose")
    return n


def working_state(state: np.ndarray) -> np.ndarray:
    """The state a search may walk: itself (searches make and take back moves in place
    and leave it as they found it; an explicit tree keeps its marks of visited nodes),
    or a copy of a read-only state."""
    return state if state.flags.writeable else state.copy()


def node_head(state: np.ndarray, depth: int, top: int, normalize: bool) -> tuple:
    """The arguments every node function (thesis and improved) starts with, for a
    search whose root is at ply ``top`` with ``depth`` plies left."""
    return (state, depth, top, normalize)


def bind(template: Callable, ops: GameOps, evaluate_fn: Callable, **options: Any) -> Any:
    """``template`` compiled for a game's functions and a leaf evaluation (``options``
    go to numba, e.g. ``_nrt=False``)."""
    return specialise(
        template,
        {
            "generate": ops.generate,
            "make": ops.make,
            "unmake": ops.unmake,
            "player_of": ops.player_of,
            "key": ops.key,
            "evaluate": evaluate_fn,
        },
        **options,
    )
