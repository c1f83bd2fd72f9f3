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
  children; it only prunes less than it could. It is sound only while every score
  vector is non-negative and sums to at most ``max_sum`` (1): with normalisation, as
  the thesis ran it, up to rounding (the four quotients may sum to 1 + 1 ulp); with raw
  scores (``normalize=False``) it prunes wrongly. ``deep=True`` (figure 4.5) is unsound
  by design.
* Paranoid's first child does not tighten the window: ``alpha``/``beta`` change only
  from the second child on, and a later child replaces ``best`` only when it moves the
  window. Where the first child is the best one, the node still returns its value; the
  root choice is the same as full alpha-beta's in value, but fewer cut-offs happen.
* Hypermax uses the alpha vector of Fridenfalk (2014), reinitialised per root move, with
  the average over the players alive at the root.

Each search walks the tree with an explicit stack instead of recursion (a recursive
numba call passes every array argument anew, which cost a third of the speed): per ply,
``frames`` holds the number of children, the child being searched and the player to
move, ``fframes`` the node's floats (bounds, window, best value). Values of a node are
written to ``vals[ply]`` (vectors) or returned (Paranoid's scalar); ``moves``, ``undo``,
``vals`` and the frames are per-ply scratch tables allocated once per search, so the
search allocates nothing; every node function takes them as one tuple, ``tables``
(``moves, undo, vals, alphas, leaf, stats, frames, fframes``: the driver's
``Workspace.tables``), and unpacks the ones it uses once, on entry. The search's root
is at ply ``top`` with ``depth`` plies left.
``stats[0]`` counts expanded nodes, ``stats[1]`` evaluated ones: their sum is the node
count of the benchmarks, the same quantity the original program's figures count.

At a leaf the heuristic writes into ``leaf``, a row of four floats allocated with the
tables, and is called from the node function itself: a helper taking the arrays, or a
fresh view ``vals[ply]`` per leaf, makes numba keep atomic reference-count updates
around the call at every leaf, which cost much of the time (``docs/benchmarks.md``,
"Measurements behind the design"; see "Speed" in
:mod:`chameleon_lab.games.chameleon.kernel`; ``node.inspect_asm(sig)`` must show calls
of ``NRT_incref`` only on entry).

Functions that take the game and heuristic as arguments are compiled per process
(numba's on-disk cache fails to reload them: "underlying object has vanished"); the
first search of a combination therefore costs a compile of about a second.

Floating-point operations are in the original's order (no fastmath), so the values
equal the original's bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.specialise import template
from ..search.core import _copy_in, _copy_row, _score, evaluate, generate, make, player_of, unmake

#: The original program's "infinity" for alpha/beta windows.
INFINITY = 999999.0


# frames columns
F_N = 0  # number of children
F_I = 1  # index of the child being searched
F_P = 2  # player to move
FRAME_COLUMNS = 3


@njit(cache=True)
def _push(frames: np.ndarray, stats: np.ndarray, ply: int, n: int, p: int) -> None:
    """Open a node of ``n`` children at ``ply`` with player ``p`` to move (expanded)."""
    stats[0] += 1
    frames[ply, F_N] = n
    frames[ply, F_I] = 0
    frames[ply, F_P] = p


@template("generate", "make", "unmake", "player_of", "evaluate")
def maxn_node(state, depth, top, norm, tables) -> None:
    """MaxN: each player maximises its own entry; value vector into ``vals[top]``."""
    moves, undo, vals, _, leaf, stats, frames, _ = tables
    ply = top
    entering = True
    while True:
        if entering:
            # a leaf: out of depth, over, or no legal move although the game goes on
            p = -1 if depth - (ply - top) <= 0 else player_of(state)
            n = 0 if p < 0 else generate(state, moves, ply)
            if n == 0:
                evaluate(state, leaf)
                _score(leaf, norm, stats)
                _copy_in(vals, ply, leaf)
                entering = False
            else:
                _push(frames, stats, ply, n, p)
                make(state, moves[ply, 0], undo, ply)
                ply += 1
                continue
        # the node at ply is complete: hand its value to the parent
        if ply == top:
            return
        ply -= 1
        unmake(state, undo, ply)
        i = frames[ply, F_I]
        p = frames[ply, F_P]
        if i == 0 or vals[ply + 1, p] > vals[ply, p]:
            _copy_row(vals, ply + 1, ply)
        i += 1
        if i < frames[ply, F_N]:
            frames[ply, F_I] = i
            make(state, moves[ply, i], undo, ply)
            ply += 1
            entering = True


@template("generate", "make", "unmake", "player_of", "evaluate")
def maxnis_node(state, depth, top, norm, bound, max_sum, deep_bound, tables) -> None:
    """MaxN with immediate and shallow pruning, the original's way.

    ``bound`` is the parent's best value for the parent's player; the node stops once
    its own player's best reaches ``max_sum - bound``. ``deep_bound`` >= 0 turns on
    *deep* pruning (bounds handed further down than one level), which is unsound; it
    exists to show the thesis's figure 4.5. The thesis flavour passes -1.
    ``fframes[ply]`` holds the node's limit and the deep bound its children get.
    """
    moves, undo, vals, _, leaf, stats, frames, fframes = tables
    ply = top
    entering = True
    while True:
        if entering:
            p = -1 if depth - (ply - top) <= 0 else player_of(state)
            n = 0 if p < 0 else generate(state, moves, ply)
            if n == 0:
                evaluate(state, leaf)
                _score(leaf, norm, stats)
                _copy_in(vals, ply, leaf)
                entering = False
            else:
                _push(frames, stats, ply, n, p)
                limit = max_sum - bound
                if deep_bound >= 0:
                    limit = max_sum - max(bound, deep_bound)
                fframes[ply, 0] = limit
                fframes[ply, 1] = -1.0 if deep_bound < 0 else bound
                # the first child gets bound 0, not anything from this node
                bound = 0.0
                deep_bound = fframes[ply, 1]
                make(state, moves[ply, 0], undo, ply)
                ply += 1
                continue
        if ply == top:
            return
        ply -= 1
        unmake(state, undo, ply)
        i = frames[ply, F_I]
        p = frames[ply, F_P]
        if i == 0 or vals[ply + 1, p] > vals[ply, p]:
            _copy_row(vals, ply + 1, ply)
        i += 1
        # later children only while the limit is not reached
        if i < frames[ply, F_N] and not vals[ply, p] >= fframes[ply, 0]:
            frames[ply, F_I] = i
            bound = vals[ply, p]
            deep_bound = fframes[ply, 1]
            make(state, moves[ply, i], undo, ply)
            ply += 1
            entering = True


@template("generate", "make", "unmake", "player_of", "evaluate")
def paranoid_node(state, depth, top, norm, max_player, alpha, beta, tables) -> float:
    """Paranoid: ``max_player`` against the coalition of all others, the original's way.

    Leaf value ``2 * s[max_player] - (s0 + s1 + s2 + s3)``. The first child's value is
    returned as ``best`` but does not move the window (the original's quirk).
    ``fframes[ply]`` holds the node's alpha, beta and best.
    """
    moves, undo, _, _, leaf, stats, frames, fframes = tables
    ply = top
    entering = True
    value = 0.0
    while True:
        if entering:
            p = -1 if depth - (ply - top) <= 0 else player_of(state)
            n = 0 if p < 0 else generate(state, moves, ply)
            if n == 0:
                evaluate(state, leaf)
                _score(leaf, norm, stats)
                value = 2.0 * leaf[max_player] - (leaf[0] + leaf[1] + leaf[2] + leaf[3])
                entering = False
            else:
                _push(frames, stats, ply, n, p)
                fframes[ply, 0] = alpha
                fframes[ply, 1] = beta
                make(state, moves[ply, 0], undo, ply)
                ply += 1
                continue
        if ply == top:
            return value
        ply -= 1
        unmake(state, undo, ply)
        i = frames[ply, F_I]
        alpha = fframes[ply, 0]
        beta = fframes[ply, 1]
        if i == 0:
            fframes[ply, 2] = value  # the quirk: the first child leaves the window alone
        elif frames[ply, F_P] == max_player:
            if value > alpha:
                alpha = fframes[ply, 0] = fframes[ply, 2] = value
        elif value < beta:
            beta = fframes[ply, 1] = fframes[ply, 2] = value
        i += 1
        if i < frames[ply, F_N] and not alpha >= beta:
            frames[ply, F_I] = i
            make(state, moves[ply, i], undo, ply)
            ply += 1
            entering = True
        else:
            value = fframes[ply, 2]


@template("generate", "make", "unmake", "player_of", "evaluate")
def hypermax_node(state, depth, top, norm, players, n_players, tables) -> None:
    """Hypermax (Fridenfalk 2014), the original's way; value vector into ``vals[top]``.

    ``alphas[ply]`` holds the alpha vector handed down by the parent; the node works on
    it as its own copy and hands ``alphas[ply + 1]`` to each child. ``players[q]`` is 1
    for the players alive at the root; the leaf transform subtracts their average.
    """
    moves, undo, vals, alphas, leaf, stats, frames, _ = tables
    ply = top
    entering = True
    while True:
        if entering:
            p = -1 if depth - (ply - top) <= 0 else player_of(state)
            n = 0 if p < 0 else generate(state, moves, ply)
            if n == 0:
                evaluate(state, leaf)
                _score(leaf, norm, stats)
                avg = (leaf[0] + leaf[1] + leaf[2] + leaf[3]) / n_players
                for q in range(4):
                    vals[ply, q] = leaf[q] - avg if players[q] else 0.0
                entering = False
            else:
                _push(frames, stats, ply, n, p)
                _copy_row(alphas, ply, ply + 1)
                make(state, moves[ply, 0], undo, ply)
                ply += 1
                continue
        if ply == top:
            return
        ply -= 1
        unmake(state, undo, ply)
        i = frames[ply, F_I]
        p = frames[ply, F_P]
        # the first child's vector is kept; a later one replaces it when it raises alpha
        if i == 0:
            _copy_row(vals, ply + 1, ply)
            if alphas[ply, p] < vals[ply, p]:
                alphas[ply, p] = vals[ply, p]
        elif alphas[ply, p] < vals[ply + 1, p]:
            alphas[ply, p] = vals[ply + 1, p]
            _copy_row(vals, ply + 1, ply)
        i += 1
        if i < frames[ply, F_N] and not (
            alphas[ply, 0] + alphas[ply, 1] + alphas[ply, 2] + alphas[ply, 3] >= 0.0
        ):
            frames[ply, F_I] = i
            _copy_row(alphas, ply, ply + 1)
            make(state, moves[ply, i], undo, ply)
            ply += 1
            entering = True
