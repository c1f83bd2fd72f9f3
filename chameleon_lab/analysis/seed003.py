"""Seed 003's Reversi experiment redone: MiniMax against alpha-beta, and copying the
position per node against make/unmake.

Seed 003 (JReversi) compares, on Reversi, MiniMax with alpha-beta by evaluations,
cut-offs and time (:data:`SEED_TABLE`, its own numbers, which it calls estimates), and
explains that it copied the position at every node instead of making and unmaking
moves, at the price of search depth. :func:`experiment` runs the comparison with the
library's two-player suite on fixed Reversi positions at a fixed depth, one
enhancement after another; :func:`copy_against_unmake` measures both ways of walking
the tree with the same compiled move generator.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from ..games.othello import kernel as K
from .twoplayer import LADDER, enhancement_ladder

#: Seed 003's table ("Vergleich der Minimax-Suche mit der Alpha-Beta Suche"): its
#: evaluations, cut-offs, share of cut-offs and seconds, as printed.
SEED_TABLE = pd.DataFrame(
    {
        "setting": ["MiniMax (seed 003)", "AlphaBeta (seed 003)"],
        "evaluated": [28_018_531, 2_005_246],
        "cutoffs": [0, 136_478],
        "cutoff_share_printed": [0.0, 0.915],
        "seconds": [134.87, 9.88],
    }
)


def experiment(
    positions: Sequence[Any],
    depth: int,
    settings: Mapping[str, Mapping[str, Any]] = LADDER,
) -> pd.DataFrame:
    """Per setting at ``depth`` on ``positions`` (summed): evaluations (leaves scored),
    expanded nodes, cut-offs, the evaluations saved against the first setting
    (negamax: MiniMax) and seconds; the seed's rows first, for comparison."""
    ladder = enhancement_ladder(positions, [depth], settings)
    g = ladder.groupby("setting", observed=True)
    ours = g[["evaluated", "expanded", "cutoffs", "seconds"]].sum().reset_index()
    ours["setting"] = ours["setting"].astype(str)
    base = ours["evaluated"].iloc[0]
    ours["evaluations_saved"] = 1 - ours["evaluated"] / base
    seed = SEED_TABLE.assign(
        evaluations_saved=1 - SEED_TABLE["evaluated"] / SEED_TABLE["evaluated"].iloc[0]
    )
    return pd.concat([seed, ours], ignore_index=True)


@njit(cache=True)
def _walk_unmake(state, depth, ply, moves, undo):
    """Leaves ``depth`` plies below ``state``: make a move, recurse, unmake it."""
    if depth == 0 or K.player_of(state) < 0:
        return 1
    n = K.generate(state, moves, ply)
    total = 0
    for i in range(n):
        K.make(state, moves[ply, i], undo, ply)
        total += _walk_unmake(state, depth - 1, ply + 1, moves, undo)
        K.unmake(state, undo, ply)
    return total


@njit(cache=True)
def _walk_copy(state, depth, ply, moves, undo):
    """The same count, copying the position for every child (seed 003's way)."""
    if depth == 0 or K.player_of(state) < 0:
        return 1
    n = K.generate(state, moves, ply)
    total = 0
    for i in range(n):
        child = state.copy()
        K.make(child, moves[ply, i], undo, ply)
        total += _walk_copy(child, depth - 1, ply + 1, moves, undo)
    return total


def copy_against_unmake(positions: Sequence[Any], depth: int, repeat: int = 3) -> pd.DataFrame:
    """Leaves per second of a full walk ``depth`` plies deep from each position, by
    make/unmake and by copying (best of ``repeat`` runs; both compiled, both recursive,
    the same move generator, so the difference is the copying)."""
    moves = np.zeros((depth + 1, K.MAX_MOVES), dtype=np.int64)
    undo = np.zeros((depth + 1, K.UNDO_SIZE), dtype=np.int64)
    rows = []
    for name, walk in (("make/unmake", _walk_unmake), ("copy per node", _walk_copy)):
        walk(np.array(positions[0].state), 1, 0, moves, undo)  # compile outside the clock
        best = np.inf
        leaves = 0
        for _ in range(repeat):
            start = time.perf_counter()
            leaves = sum(
                walk(np.array(p.state, dtype=np.int64), depth, 0, moves, undo) for p in positions
            )
            best = min(best, time.perf_counter() - start)
        rows.append({"walk": name, "depth": depth, "leaves": leaves, "seconds": best})
    out = pd.DataFrame(rows)
    out["leaves_per_second"] = out["leaves"] / out["seconds"]
    out["relative"] = out["leaves_per_second"] / out["leaves_per_second"].iloc[0]
    return out
