"""The four searches exactly as the original program ran them (the ``thesis`` flavour).

Each node function is written once over the game protocol of
:mod:`chameleon_lab.games.protocol` and takes the game's functions and the heuristic as
arguments, so numba specialises it per game and heuristic. The functions follow
``reference/original-semantics.md`` to the letter, quirks included, because the
recorded sessions replay move for move only that way:

* MaxN keeps the first child's vector and replaces it only on a strictly larger entry
  of the player to move.
* MaxN-IS searches a node's first child with bound 0 (not with anything from the
  node), and checks the shallow-pruning limit ``max_sum - bound`` only before later
  children. (Sound; it only prunes less than it could.)
* Paranoid's first child does not tighten the window: ``alpha``/``beta`` change only
  from the second child on, and a later child replaces ``best`` only when it moves the
  window. Where the first child is the best one, the node still returns its value; the
  root choice is the same as full alpha-beta's in value, but fewer cut-offs happen.
* Hypermax uses the alpha vector of Fridenfalk (2014), reinitialised per root move, with
  the average over the players alive at the root.

Values of a node are written to ``vals[ply]`` (vectors) or returned (Paranoid's
scalar); ``moves``, ``undo`` and ``vals`` are per-ply scratch tables allocated once per
search, so the recursion allocates nothing. ``stats[0]`` counts expanded nodes,
``stats[1]`` evaluated ones: their sum is the node count of the benchmarks, the same
quantity the original program's figures count.

Functions that take the game and heuristic as arguments are compiled per process
(numba's on-disk cache fails to reload them: "underlying object has vanished"); the
first search of a combination therefore costs a compile of about a second.

Floating-point operations are in the original's order (no fastmath), so the values
equal the original's bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..heuristics import normalize

#: The original program's "infinity" for alpha/beta windows.
INFINITY = 999999.0


@njit(cache=True)
def _copy_row(vals: np.ndarray, src: int, dst: int) -> None:
    for i in range(4):
        vals[dst, i] = vals[src, i]


@njit  # not cached: numba cannot cache functions taking functions
def _leaf(evaluate, state, vals, ply, norm, stats) -> None:
    stats[1] += 1
    out = vals[ply]
    evaluate(state, out)
    if norm:
        normalize(out)


@njit  # not cached: numba cannot cache functions taking functions
def maxn_node(
    generate, make, unmake, player_of, evaluate, state, depth, ply, norm, moves, undo, vals, stats
) -> None:
    """MaxN: each player maximises its own entry; value vector into ``vals[ply]``."""
    p = player_of(state)
    # a leaf: over, out of depth, or no legal move although the game goes on
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, vals, ply, norm, stats)
        return
    stats[0] += 1
    for i in range(n):
        make(state, moves[ply, i], undo, ply)
        maxn_node(
            generate,
            make,
            unmake,
            player_of,
            evaluate,
            state,
            depth - 1,
            ply + 1,
            norm,
            moves,
            undo,
            vals,
            stats,
        )
        unmake(state, undo, ply)
        if i == 0 or vals[ply + 1, p] > vals[ply, p]:
            _copy_row(vals, ply + 1, ply)


@njit  # not cached: numba cannot cache functions taking functions
def maxnis_node(
    generate,
    make,
    unmake,
    player_of,
    evaluate,
    state,
    depth,
    ply,
    norm,
    bound,
    max_sum,
    deep_bound,
    moves,
    undo,
    vals,
    stats,
) -> None:
    """MaxN with immediate and shallow pruning, the original's way.

    ``bound`` is the parent's best value for the parent's player; the node stops once
    its own player's best reaches ``max_sum - bound``. ``deep_bound`` >= 0 turns on
    *deep* pruning (bounds handed further down than one level), which is unsound; it
    exists to show the thesis's figure 4.5. The thesis flavour passes -1.
    """
    p = player_of(state)
    # a leaf: over, out of depth, or no legal move although the game goes on
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, vals, ply, norm, stats)
        return
    stats[0] += 1
    limit = max_sum - bound
    if deep_bound >= 0:
        limit = max_sum - max(bound, deep_bound)
    child_deep = -1.0 if deep_bound < 0 else bound
    for i in range(n):
        # the first child gets bound 0; later ones only while the limit is not reached
        if i > 0 and vals[ply, p] >= limit:
            break
        child_bound = 0.0 if i == 0 else vals[ply, p]
        make(state, moves[ply, i], undo, ply)
        maxnis_node(
            generate,
            make,
            unmake,
            player_of,
            evaluate,
            state,
            depth - 1,
            ply + 1,
            norm,
            child_bound,
            max_sum,
            child_deep,
            moves,
            undo,
            vals,
            stats,
        )
        unmake(state, undo, ply)
        if i == 0 or vals[ply + 1, p] > vals[ply, p]:
            _copy_row(vals, ply + 1, ply)


@njit  # not cached: numba cannot cache functions taking functions
def paranoid_node(
    generate,
    make,
    unmake,
    player_of,
    evaluate,
    state,
    depth,
    ply,
    norm,
    max_player,
    alpha,
    beta,
    moves,
    undo,
    vals,
    stats,
) -> float:
    """Paranoid: ``max_player`` against the coalition of all others, the original's way.

    Leaf value ``2 * s[max_player] - (s0 + s1 + s2 + s3)``. The first child's value is
    returned as ``best`` but does not move the window (the original's quirk).
    """
    p = player_of(state)
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, vals, ply, norm, stats)
        s = vals[ply]
        return 2.0 * s[max_player] - (s[0] + s[1] + s[2] + s[3])
    stats[0] += 1
    best = 0.0
    for i in range(n):
        if i > 0 and alpha >= beta:
            break
        make(state, moves[ply, i], undo, ply)
        value = paranoid_node(
            generate,
            make,
            unmake,
            player_of,
            evaluate,
            state,
            depth - 1,
            ply + 1,
            norm,
            max_player,
            alpha,
            beta,
            moves,
            undo,
            vals,
            stats,
        )
        unmake(state, undo, ply)
        if i == 0:
            best = value  # the original's quirk: the first child leaves the window alone
        elif p == max_player:
            if value > alpha:
                alpha = value
                best = value
        elif value < beta:
            beta = value
            best = value
    return best


@njit  # not cached: numba cannot cache functions taking functions
def hypermax_node(
    generate,
    make,
    unmake,
    player_of,
    evaluate,
    state,
    depth,
    ply,
    norm,
    players,
    n_players,
    alphas,
    moves,
    undo,
    vals,
    stats,
) -> None:
    """Hypermax (Fridenfalk 2014), the original's way; value vector into ``vals[ply]``.

    ``alphas[ply]`` holds the alpha vector handed down by the parent; the node works on
    it as its own copy and hands ``alphas[ply + 1]`` to each child. ``players[q]`` is 1
    for the players alive at the root; the leaf transform subtracts their average.
    """
    p = player_of(state)
    n = 0 if p < 0 or depth <= 0 else generate(state, moves, ply)
    if n == 0:
        _leaf(evaluate, state, vals, ply, norm, stats)
        s = vals[ply]
        avg = (s[0] + s[1] + s[2] + s[3]) / n_players
        for q in range(4):
            vals[ply, q] = s[q] - avg if players[q] else 0.0
        return
    stats[0] += 1
    for i in range(n):
        if i > 0 and alphas[ply, 0] + alphas[ply, 1] + alphas[ply, 2] + alphas[ply, 3] >= 0.0:
            break
        for q in range(4):
            alphas[ply + 1, q] = alphas[ply, q]
        make(state, moves[ply, i], undo, ply)
        hypermax_node(
            generate,
            make,
            unmake,
            player_of,
            evaluate,
            state,
            depth - 1,
            ply + 1,
            norm,
            players,
            n_players,
            alphas,
            moves,
            undo,
            vals,
            stats,
        )
        unmake(state, undo, ply)
        # the first child's vector is kept; a later one replaces it when it raises alpha
        if i == 0:
            _copy_row(vals, ply + 1, ply)
            if alphas[ply, p] < vals[ply, p]:
                alphas[ply, p] = vals[ply, p]
        elif alphas[ply, p] < vals[ply + 1, p]:
            alphas[ply, p] = vals[ply + 1, p]
            _copy_row(vals, ply + 1, ply)
