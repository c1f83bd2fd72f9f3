"""``bench heuristics``: what an evaluation costs a search, heuristic beside heuristic.

A learned evaluation (a value network, :mod:`chameleon_lab.games.valuenet`) is worth
its cost only if what it knows outweighs the depth it loses; this prints, per
heuristic, a search's nodes per second at a fixed depth and the depth it completes
within a time budget (alpha-beta, or a multi-player search such as Paranoid for a game
of more players), on the same positions (drawn from a seed, away from the start), each
search run after a first one that compiled it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pandas as pd
from numba import njit

from ..analysis.tdleaf import seated_game
from ..games.registry import get_game
from ..search.api import search


def positions(
    game: str, count: int, seed: int = 0, plies: tuple[int, int] = (4, 16),
    players: int | None = None,
) -> list:  # fmt: skip
    """``count`` unfinished positions after a random number of random plies (of the
    game seating its first ``players`` colours, where given)."""
    built = get_game(game) if players is None else seated_game(game, players)
    rng = np.random.default_rng(seed)
    out: list = []
    while len(out) < count:
        p = built.start()
        for _ in range(int(rng.integers(plies[0], plies[1] + 1))):
            if p.is_over:
                break
            p = p.play(p.legal_moves[int(rng.integers(len(p.legal_moves)))])
        if not p.is_over:
            out.append(p)
    return out


@njit
def _evaluate_all(function, states, out, repeats):  # type: ignore[no-untyped-def]
    """Call ``function`` on every row of ``states`` ``repeats`` times (a sum kept, so the
    calls are not optimised away)."""
    total = 0.0
    for _ in range(repeats):
        for i in range(states.shape[0]):
            function(states[i], out)
            total += out[0]
    return total


def evaluation_ns(function: object, chosen: Sequence, repeats: int = 200) -> float:
    """Nanoseconds a call of the compiled heuristic ``function`` takes on the positions
    ``chosen`` (best of three runs of ``repeats`` passes, after one that compiled it)."""
    states = np.array([p.state for p in chosen])
    out = np.zeros(8)
    _evaluate_all(function, states, out, 1)
    best = np.inf
    for _ in range(3):
        t = time.perf_counter()
        _evaluate_all(function, states, out, repeats)
        best = min(best, time.perf_counter() - t)
    return best / (repeats * len(states)) * 1e9


def heuristic_rows(
    game: str, heuristics: Sequence[str], *, depth: int = 6, time_ms: float = 10.0,
    count: int = 20, algorithm: str = "alphabeta", players: int | None = None,
) -> pd.DataFrame:  # fmt: skip
    """One row per heuristic: ``eval_ns``, the nanoseconds one evaluation takes
    (:func:`evaluation_ns`), ``nodes_per_s`` of ``algorithm`` at ``depth`` over the
    positions (their nodes over their seconds), and the median and range of the depth
    completed in ``time_ms`` a search."""
    chosen = positions(game, count, players=players)
    rows = []
    for name in heuristics:
        item = get_game(game).heuristics.get(name)  # a known one, or ValueError naming them
        search(chosen[0], algorithm, depth=2, heuristic=name)  # compiles it
        nodes, seconds, depths = 0, 0.0, []
        for p in chosen:
            t = time.perf_counter()
            r = search(p, algorithm, depth=depth, heuristic=name)
            seconds += time.perf_counter() - t
            nodes += r.expanded + r.evaluated
            depths.append(search(p, algorithm, time_ms=time_ms, heuristic=name).depth)
        rows.append({
            "heuristic": name, "positions": len(chosen),
            "eval_ns": evaluation_ns(item.function, chosen), "depth": depth,
            "nodes_per_s": nodes / seconds, "time_ms": time_ms,
            "depth_median": float(np.median(depths)), "depth_min": float(min(depths)),
            "depth_max": float(max(depths)),
        })  # fmt: skip
    return pd.DataFrame(rows)


def print_heuristics(game: str, heuristics: Sequence[str], **options: object) -> None:
    """Print :func:`heuristic_rows`."""
    table = heuristic_rows(game, heuristics, **options)  # type: ignore[arg-type]
    print(table.to_string(index=False, float_format="{:,.1f}".format))
